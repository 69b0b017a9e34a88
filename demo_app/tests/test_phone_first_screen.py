"""The table page's first screen on a phone (issue 49, item 10), in Debian's Chromium (Playwright)
at 390x844: the seats come before the share link and the switches (folded under "Settings"); the
share button opens the phone's share sheet where the browser has one; at a reveal the round's
bids are recalled under the ruling pinned at the bottom; the log says when it no longer holds the
game's earliest lines, and where they are.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
They wait on conditions, never on fixed sleeps.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from liarsdice.i18n import Text
from liarsdice_demo.tables import match
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.text.narrate import Log

from .conftest import create_in_lobby
from .test_phone import fits
from .test_table_view import PHONE, open_page

SEATS_TOP = 0.3
"""The most of a phone's screen height above the seats, playing (before: 33% en, 41% uk, ru)."""

SEATS_AT = "() => document.getElementById('seats').getBoundingClientRect().top / innerHeight"

REVEALING = "() => document.body.classList.contains('revealing')"
BIDS = "document.querySelectorAll('#bids li').length"

SHARE_SHEET = """
window.shared = [];
Navigator.prototype.share = function (data) { window.shared.push(data); return Promise.resolve(); };
"""
"""A share sheet that records what it was given (``window.shared``)."""

NO_SHARE_SHEET = "delete Navigator.prototype.share;"
"""A browser without a share sheet."""


def a_phone_table(browser: Any, host: str, lang: str, **context: Any) -> Any:
    """A phone's page in ``lang`` on a new 4-seat table (Iris and easy bots), not started."""
    page = open_page(browser, PHONE, **context)
    page.goto(f"http://{host}/?lang={lang}")
    create_in_lobby(page, host, seats="4", bot_kind="random")
    page.wait_for_selector("#seats .seat")
    return page


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_the_seats_come_first_on_a_phone(live_server: str, browser: Any, lang: str) -> None:
    page = a_phone_table(browser, live_server, lang)
    page.click("#start")
    page.wait_for_selector("#waiting", state="hidden")
    page.evaluate("window.scrollTo(0, 0)")
    top = page.evaluate(SEATS_AT)
    assert top <= SEATS_TOP, f"the seats start at {top:.0%} of the screen"
    page.screenshot(path=f"/tmp/phone-first-screen-{lang}.png")
    # The link and the switches are folded away; the share button is in sight.
    assert page.is_visible("#copy") and page.is_visible("#settings-toggle")
    for hidden in ("#share", "#mute", "#keep-reveal"):
        assert not page.is_visible(hidden), hidden
    # "Settings" unfolds the link and the switches, which work as before.
    page.click("#settings-toggle")
    assert page.get_attribute("#settings-toggle", "aria-expanded") == "true"
    assert page.is_visible("#share") and page.input_value("#share").startswith("http")
    page.check("#mute")
    page.check("#keep-reveal")
    fits(page)
    page.screenshot(path=f"/tmp/phone-settings-{lang}.png")
    page.click("#settings-toggle")
    assert not page.is_visible("#mute")
    assert page.is_checked("#mute")  # folded away, still on
    assert not page.errors, page.errors


def test_the_share_button_opens_a_phones_share_sheet(live_server: str, browser: Any) -> None:
    page = open_page(browser, PHONE)
    page.add_init_script(SHARE_SHEET)
    page.goto(f"http://{live_server}/?lang=uk")
    code = create_in_lobby(page, live_server, seats="2", bot_kind="random")
    assert page.inner_text("#copy") == "Поділитися"
    page.click("#copy")
    page.wait_for_function("() => window.shared.length === 1")
    shared = page.evaluate("window.shared[0]")
    assert shared["url"] == page.input_value("#share"), shared
    assert shared["title"].startswith("Стіл ") and code in shared["title"], shared
    assert "?key=" in shared["url"]  # a private table: the link that lets people sit
    assert page.is_hidden("#copied")  # the sheet said what happened
    # Without a share sheet, the button copies the link, as on a desktop.
    other = open_page(browser, PHONE, permissions=["clipboard-read", "clipboard-write"])
    other.add_init_script(NO_SHARE_SHEET)
    other.goto(f"http://{live_server}/?lang=uk")
    create_in_lobby(other, live_server, seats="2", bot_kind="random")
    assert other.inner_text("#copy") == "Копіювати посилання"
    other.click("#copy")
    other.wait_for_selector("#copied:visible")
    assert other.evaluate("navigator.clipboard.readText()") == other.input_value("#share")
    assert not page.errors and not other.errors, (page.errors, other.errors)


def test_a_reveal_on_a_phone_recalls_the_rounds_bids(
    app: Any, live_server: str, browser: Any
) -> None:
    app.config["REVEAL_PAUSE"] = 30.0  # the reveal stays up until the test has looked
    page = a_phone_table(browser, live_server, "ru")
    page.click("#start")
    deadline = time.monotonic() + 60
    while not page.evaluate(REVEALING):  # Iris bids, and challenges once she may
        assert time.monotonic() < deadline, "no reveal"
        page.wait_for_selector("#actions:visible, body.revealing", timeout=20000)
        if page.evaluate(REVEALING):
            break
        made = page.locator("#bids li").count()
        challenge = page.query_selector("#calls button.challenge")
        (challenge if challenge else page.locator("#bid-button")).click()
        page.wait_for_function(f"() => ({REVEALING})() || {BIDS} !== {made}")
    bids = page.locator("#bids li").all_inner_texts()
    assert bids, "a reveal with no bid"
    recap = page.locator("#recap")
    box = recap.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    name, bid = bids[-1].split(": ", 1)
    text = recap.inner_text()
    assert text.startswith("Ставки: ") and text.endswith(f"{name} {bid}"), (text, bids)
    assert len(text.split(" → ")) == min(len(bids), 4) + (len(bids) > 4), (text, bids)
    fits(page)
    page.screenshot(path="/tmp/phone-reveal-ru.png")
    assert not page.errors, page.errors


def test_a_log_counts_the_lines_it_dropped_until_cleared() -> None:
    log = Log(3)
    for n in range(5):
        log.append(Text(str(n)))
    assert log.render("uk") == ["2", "3", "4"] and log.dropped == 2
    log.clear()
    log.append(Text("new game"))
    assert log.render("en") == ["new game"] and log.dropped == 0


def test_the_log_says_when_it_dropped_the_earliest_lines(
    app: Any, live_server: str, browser: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(match, "LOG_LINES", 6)  # the tables made next keep 6 lines, not 80
    app.config["BOT_DELAY"] = 0.5
    config = parse_config(
        {"variants": ["dice-loss"], "seats": 3, "dice_per_player": 2, "bot_kind": "random"}
    )
    table = app.extensions["liarsdice_hub"].create(config, start=True, public=True)
    page = open_page(browser, PHONE)  # a spectator
    page.goto(f"http://{live_server}/t/{table.code}?lang=uk")
    page.wait_for_selector("#log-more:visible", timeout=20000)
    more = page.inner_text("#log-more")  # the game goes on (it takes 5 rulings): no replay yet
    assert "тут не показано. Усі ходи буде в записі гри, коли вона скінчиться." in more, more
    assert page.locator("#log-more a").count() == 0
    page.wait_for_selector("#log-more a", timeout=60000)  # the game is over and saved
    link = page.locator("#log-more a")
    assert link.inner_text() == "Попередні ходи є в записі гри"
    assert link.get_attribute("href") == f"/games/{table.game_id}"
    numbers = page.evaluate("[...document.querySelectorAll('#log li')].map((li) => li.value)")
    dropped = int(page.inner_text("#log-more").split()[0])
    assert len(numbers) == 6 and numbers[0] == dropped + 6 and numbers[-1] == dropped + 1
    fits(page)
    page.screenshot(path="/tmp/phone-log-uk.png", full_page=True)
    assert not page.errors, page.errors
