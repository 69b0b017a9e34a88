"""A whole game in Ukrainian in the browser: a Ukrainian browser (``Accept-Language: uk-UA``)
opens the lobby, creates a table, plays it to the winner and reads its rules, and never sees the
English of the UI, the log or the rulings.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

import random
import re
from typing import Any

from liarsdice import i18n
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.expiry import NEVER_STARTED_SECONDS
from liarsdice_demo.text.i18n import DOMAIN

from .test_browser import play_until_over

UK = i18n.translations(DOMAIN, "uk")
LOBBY_WORDS = ["New table", "Your nickname", "Create table", "Join a table", "Public tables"]
"""English strings of the lobby (``lobby.html``), each to be shown in its Ukrainian form."""
TABLE_WORDS = ["Your dice", "Bids this round", "Table log", "Copy link"]
"""English strings of the table page (``table.html``)."""
ENGLISH = re.compile(
    r"(?<![\w-])(bids?|rounds?|wins the game|counted|challenged|loses|opens)(?![\w-])", re.I
)
"""Words of the English log and rulings (``text/narrate.py``) that no Ukrainian player should see."""
CLOCK = re.compile(r"· \d+\s(\S+)$", re.M)
"""The turn clock after whose turn it is ("Ваш хід · 12 с"): its unit."""
TICKED = r"() => /· \d+\s\S+$/.test(document.getElementById('turn').textContent)"
"""Whether the turn line shows the clock's seconds (each animation frame writes them)."""
CYRILLIC = re.compile(r"[а-яіїєґ]", re.I)


def visible_text(page: Any) -> str:
    return str(page.inner_text("body"))


def assert_ukrainian(page: Any, english: list[str]) -> str:
    """``page`` is in Ukrainian: ``<html lang="uk">``, each of ``english`` shown translated and
    not in English, and no English log word; its visible text."""
    assert page.get_attribute("html", "lang") == "uk", page.url
    text = visible_text(page)
    for message in english:
        translated = UK.gettext(message)
        assert translated != message, f"{message!r} has no Ukrainian translation"
        assert translated in text, f"{translated!r} is missing on {page.url}"
        assert message not in text, f"{message!r} is shown in English on {page.url}"
    found = ENGLISH.findall(text)
    assert not found, f"English {found} on {page.url}:\n{text}"
    return text


def test_a_game_in_ukrainian_from_lobby_to_winner(app: Any, live_server: str, browser: Any) -> None:
    app.config["REVEAL_PAUSE"] = 0.3  # long enough for the page to show most reveals
    rng = random.Random(14)
    context = browser.new_context(locale="uk-UA")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # The lobby, with a preset whose options fill the form.
    page.goto(f"http://{live_server}/")
    page.fill("#nickname", "Iris")
    page.select_option("#preset", "casino")
    page.select_option("#bot_kind", "random")
    page.fill("#seats", "3")
    page.fill("#dice_per_player", "2")  # the casino's page gives 5 dice each: refused, in Ukrainian
    page.wait_for_selector(".validation.error")
    refusal = page.inner_text("#validation")
    assert "набір правил casino: по 5 кубиків у кожного, а не 2" in refusal, refusal
    page.fill("#dice_per_player", "5")
    page.wait_for_selector(".validation.ok")
    assert_ukrainian(page, LOBBY_WORDS)
    page.click("#rules-details summary")  # the variants and options are folded
    assert CYRILLIC.search(page.inner_text("#options")), page.inner_text("#options")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#start:visible")
    waiting = assert_ukrainian(page, TABLE_WORDS)
    assert UK.gettext("Start the game") in waiting

    # The game: every time the page offers a move, it is read; the log and rulings are kept.
    seen: list[str] = []
    rulings: set[str] = set()
    log: set[str] = set()
    clocks: list[str] = []

    def read_then_choose() -> bool:
        seen.append(visible_text(page))
        clocks.extend(CLOCK.findall(page.inner_text("#turn")))  # none before its first tick
        log.update(page.locator("#log li").all_inner_texts())
        if page.is_visible("#now .ruling-line"):
            rulings.add(page.inner_text("#now .ruling-line"))
        return rng.random() < 0.4

    page.click("#start")
    page.wait_for_function(TICKED, timeout=10_000)  # whoever's turn the first is, it is timed
    clocks.extend(CLOCK.findall(page.inner_text("#turn")))
    play_until_over(page, read_then_choose, seconds=45)
    final = visible_text(page)
    seen.append(final)
    log.update(page.locator("#log li").all_inner_texts())
    rulings.add(page.inner_text("#now .ruling-line"))  # the last call's stays shown

    winner = page.inner_text("#winner")
    assert winner.endswith("виграє гру!"), winner
    assert any("Раунд" in line for line in log), log
    assert any("виграє гру!" in line for line in log), log
    for line in log:
        assert CYRILLIC.search(line) and not ENGLISH.search(line), line
    assert clocks and set(clocks) == {"с"}, clocks
    assert rulings
    for ruling in rulings:
        assert "раунд" in ruling or "нараховано" in ruling, ruling
        assert not ENGLISH.search(ruling), ruling
    for text in seen:
        assert not ENGLISH.findall(text), text
    assert_ukrainian(page, [*TABLE_WORDS, "Leave table", "Rematch"])

    # The table's rules, opened from the table's link: in the panel over the table.
    page.click("a[href$='/rules']")
    page.wait_for_selector("#panel:not([hidden]) .rules")
    assert page.inner_text("#panel-title") == UK.gettext("Rules")
    assert_ukrainian(page, [])
    rules = page.inner_text("#panel-body")
    assert len(CYRILLIC.findall(rules)) > 200, rules  # the generated rules themselves
    # The page itself, opened in a tab (a click with a modifier key, or the address).
    tab = context.new_page()
    tab.goto(
        f"http://{live_server}" + (page.locator("a[href$='/rules']").get_attribute("href") or "")
    )
    assert_ukrainian(tab, [])
    assert tab.title().startswith(UK.gettext("Rules")), tab.title()

    context.close()
    assert not errors, errors


def test_a_table_that_closes_says_so_in_ukrainian(app: Any, live_server: str, browser: Any) -> None:
    # A never-started table expires while a Ukrainian spectator watches: its close frame's
    # reason is English, and the page says it in its own language instead.
    hub = app.extensions["liarsdice_hub"]
    with app.test_request_context("/"):
        table = hub.create(parse_config({"preset": "casino", "seats": 2, "bot_kind": "random"}))
    context = browser.new_context(locale="uk-UA")
    page = context.new_page()
    page.goto(f"http://{live_server}/t/{table.code}")
    page.wait_for_function("document.querySelector('#connection').textContent.includes('глядач')")
    table.created -= NEVER_STARTED_SECONDS + 1
    hub.sweep.run()
    closed = UK.gettext("this table has closed: start a new one from the lobby")
    page.wait_for_function(
        "text => document.querySelector('#connection').textContent.includes(text)", arg=closed
    )
    shown = page.inner_text("#connection")
    assert "this table has closed" not in shown and UK.gettext("Back to the lobby") in shown, shown
    context.close()
