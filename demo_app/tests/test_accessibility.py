"""The pages for every player, in Debian's Chromium (Playwright), in English and Ukrainian: axe-core
finds no serious or critical violation from the lobby to the game over; a whole game is played
with the keyboard alone, the focus at the bid controls on each turn and never dropped to
``<body>``; the live region announces the game as it goes; dice and seats are named in words;
the replay's step buttons have names.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from liarsdice import i18n
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.text.i18n import DOMAIN

from .axe import AxeAudit
from .conftest import create_in_lobby
from .replays import at_last_step
from .test_ukrainian_game import ENGLISH
from .test_websocket import rig_dice

LOCALES = {"en": "en-US", "uk": "uk-UA"}
"""The languages checked, by the browser locale that asks for each."""
UK = i18n.translations(DOMAIN, "uk")


def words(locale: str, message: str) -> str:
    """``message`` (a msgid of the demo's catalog) as a page in ``locale`` says it."""
    return message if locale == "en" else str(UK.gettext(message))


def open_page(browser: Any, locale: str, init_script: str | None = None) -> Any:
    """A page of a new browser context in ``locale``; its uncaught errors in ``page.errors``."""
    page = browser.new_context(locale=LOCALES[locale]).new_page()
    if init_script:
        page.add_init_script(init_script)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def log_mark(page: Any) -> int:
    """The number of the table log's newest line (0 before any): it grows with each move."""
    return int(page.evaluate("() => Number(document.querySelector('#log li')?.value ?? 0)"))


def my_move_offered(page: Any) -> bool:
    """Whether the page offers this seat a move on its turn (not an out-of-turn call)."""
    return bool(
        page.evaluate(
            "() => !document.getElementById('actions').hidden"
            " && !document.getElementById('actions').classList.contains('out-of-turn')"
        )
    )


def check_csp_is_strict(response: Any) -> None:
    """The page's CSP still allows only this origin's scripts: axe came from the test."""
    csp = response.headers["content-security-policy"]
    assert "script-src 'self';" in csp, csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp


# --- axe-core ------------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en", "uk"])
def test_axe_finds_no_serious_violation_from_the_lobby_to_the_game_over(
    app: Any, live_server: str, browser: Any, locale: str
) -> None:
    audit = AxeAudit()
    page = open_page(browser, locale)
    page.goto(f"http://{live_server}/")
    assert page.get_attribute("html", "lang") == locale
    audit.check(page, f"{locale} lobby")
    code = create_in_lobby(page, live_server, seats="2", dice_per_player="2", bot_kind="random")
    check_csp_is_strict(page.reload())
    page.wait_for_selector("#start:visible")
    audit.check(page, f"{locale} table before the start")
    # The share link has a name, the clock is a timer, and the log is reached by Tab.
    assert re.search(r'textbox "\S', page.locator("#share").aria_snapshot())
    assert page.locator(".clock[role=timer]").count() == 1
    assert page.get_attribute("#log", "tabindex") == "0"
    page.check("#keep-reveal")  # each ruling stays up, still, until Iris's next move
    page.click("#start")
    seen: set[str] = set()
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, f"the game did not end; axe saw {sorted(seen)}"
        if page.is_visible("#winner"):
            if seen == {"reveal", "turn"}:
                break
            page.click("#rematch")  # the bot called every bid of Iris's: another game
            page.wait_for_selector("#winner", state="hidden")
        elif my_move_offered(page):
            bids = page.locator("#bids li").count()
            if page.is_visible("#reveal.held") and "reveal" not in seen:  # the last ruling
                audit.check(page, f"{locale} reveal")
                seen.add("reveal")
            if bids and "turn" not in seen:  # your turn, with a bid to answer
                audit.check(page, f"{locale} your turn")
                seen.add("turn")
            mark = log_mark(page)
            page.click("#calls button" if bids else "#bid-button")
            page.wait_for_function(
                f"() => Number(document.querySelector('#log li')?.value) > {mark}"
            )
        page.wait_for_timeout(50)
    page.wait_for_selector("#reveal:visible")  # the last ruling, with every die
    audit.check(page, f"{locale} game over")
    replay = page.get_attribute("#banner a[href^='/games/']", "href")
    player = page.get_attribute("header nav a[href^='/players/']", "href")
    for path in (replay, player, f"/t/{code}/rules", f"/t/{code}/odds", "/leaderboard"):
        page.goto(f"http://{live_server}{path}")
        audit.check(page, f"{locale} {path}")
    assert len(audit.checked) == 10
    audit.assert_clean()
    assert not page.errors, page.errors


# --- the keyboard alone -------------------------------------------------------------------------

WATCH_FOCUS = """
window.focusLost = [];
setInterval(() => {
  // Once window.watchFocus is set: each time the focus stays on <body> for over 300 ms, what
  // the page's turn line said then.
  const lost = document.activeElement === null || document.activeElement === document.body;
  if (!window.watchFocus || !lost) {
    window.lostSince = null;
    window.reported = false;
    return;
  }
  window.lostSince ??= performance.now();
  if (performance.now() - window.lostSince > 300 && !window.reported) {
    window.focusLost.push(document.getElementById("turn")?.textContent ?? "");
    window.reported = true;
  }
}, 50);
"""
"""Records each time the focus is left on ``<body>`` (``window.focusLost``)."""
FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "body";
  return e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`;
}"""
"""The focused element as a selector: ``#id``, ``tag.class``, or ``body``."""


def focused(page: Any) -> str:
    return str(page.evaluate(FOCUSED))


def tab_to(page: Any, test: str, key: str = "Tab", limit: int = 40) -> None:
    """Press ``key`` until the focused element ``e`` passes ``test`` (a JS expression in ``e``)."""
    probe = f"() => {{ const e = document.activeElement; return Boolean({test}); }}"
    path = []
    for _ in range(limit):
        if page.evaluate(probe):
            return
        page.keyboard.press(key)
        path.append(focused(page))
    raise AssertionError(f"{key} x {limit} never reached {test}: {path}")


def expect_focus(page: Any, selector: str, why: str) -> None:
    """The focus is on ``selector`` now or within a second."""
    try:
        page.wait_for_function(
            "(s) => document.activeElement?.matches(s)", arg=selector, timeout=1000
        )
    except Exception as error:
        raise AssertionError(f"{why}: the focus is on {focused(page)}, not {selector}") from error


def test_a_whole_game_with_the_keyboard_alone(app: Any, live_server: str, browser: Any) -> None:
    app.config["REVEAL_PAUSE"] = 0.5
    page = open_page(browser, "en", WATCH_FOCUS)
    # The lobby, filled in by its link (as "New table" does), then the nickname and the button.
    settings = "preset=&variants=dice-loss,calza&seats=2&dice_per_player=2&bot_kind=random"
    page.goto(f"http://{live_server}/?{settings}")
    tab_to(page, "e.id === 'nickname'")
    page.keyboard.type("Kbd")
    tab_to(page, "e.id === 'create-button'")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#start:visible")
    # The skip link comes first, and leads to the turn bar; the Start button is back before it.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('a.skip-link')"), focused(page)
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.matches('a.skip-link')"), focused(page)
    assert page.get_attribute("a.skip-link", "href") == "#turn-bar"
    tab_to(page, "e.id === 'keep-reveal'")  # each ruling stays up until Kbd's next move
    page.keyboard.press("Space")
    assert page.is_checked("#keep-reveal")
    tab_to(page, "e.matches('a.skip-link')", key="Shift+Tab")
    page.keyboard.press("Enter")
    expect_focus(page, "#turn-bar, #turn-bar *", "after the skip link")
    tab_to(page, "e.id === 'start'", key="Shift+Tab")
    page.keyboard.press("Enter")
    page.evaluate("window.watchFocus = true")

    turns = 0
    called = False  # whether Kbd's last move was a call (its ruling is kept up till the next)
    deadline = time.monotonic() + 90
    while not page.is_visible("#winner"):
        assert time.monotonic() < deadline, "the game did not end"
        if not my_move_offered(page):
            page.wait_for_timeout(50)
            continue
        turns += 1
        may_bid = page.is_enabled("#bid-button")
        expect_focus(page, "#bid-quantity" if may_bid else "#calls button", f"turn {turns}")
        if called:
            assert page.is_visible("#reveal.held #reveal-done"), "the ruling was not kept up"
        mark = log_mark(page)
        called = bool(page.locator("#bids li").count() and page.locator("#calls button").count())
        if called:
            tab_to(page, "e.matches('#calls button')")
            page.keyboard.press("Space")
        else:
            if turns % 2 == 0:  # a higher quantity than the least, by the arrow key
                before = page.input_value("#bid-quantity")
                page.keyboard.press("ArrowDown")
                assert page.input_value("#bid-quantity") != before
            tab_to(page, "e.id === 'bid-button'")
            page.keyboard.press("Enter")
        page.wait_for_function(f"() => Number(document.querySelector('#log li')?.value) > {mark}")
        page.wait_for_timeout(400)  # longer than the watch's 300 ms
        assert focused(page) != "body", f"the focus fell to <body> after turn {turns}'s move"
    assert turns >= 2, turns  # two dice to lose: two rounds at least, a turn of Kbd's in each
    page.wait_for_timeout(400)
    assert focused(page) != "body", "the focus fell to <body> at the game over"
    assert page.evaluate("window.focusLost") == [], "the focus was left on <body>"
    assert not page.errors, page.errors


# --- the live region, and dice and seats in words -----------------------------------------------


FACE_NAMES = {"⚀": ("one", "ones"), "⚁": ("two", "twos"), "⚂": ("three", "threes")}
FACE_NAMES |= {"⚃": ("four", "fours"), "⚄": ("five", "fives"), "⚅": ("six", "sixes")}
"""Each die's glyph and its face's name (msgid and plural)."""
DICE = "(dice) => dice.map((d) => [d.textContent, d.getAttribute('role'), d.getAttribute('aria-label')])"


def check_dice_named(page: Any, locale: str) -> list[str]:
    """Every die on the page is an image named in words, by its face ("four", "four, counts") or
    as hidden; their names."""
    names = []
    for glyph, role, name in page.eval_on_selector_all(".die", DICE):
        if glyph == "■":
            face = words(locale, "hidden")
        else:
            one, many = FACE_NAMES[glyph]
            face = one if locale == "en" else str(UK.ngettext(one, many, 1))
        assert role == "img" and name and name.split(", ")[0] == face, (glyph, role, name)
        names.append(name)
    return names


def template(locale: str, message: str, **fixed: str) -> re.Pattern[str]:
    """A pattern of ``message`` (a msgid with ``{fields}``) as a page in ``locale`` says it: the
    fields in ``fixed`` as given, the others anything (named groups)."""
    pattern = ""
    for i, part in enumerate(re.split(r"\{(\w+)\}", words(locale, message))):
        if i % 2 == 0:  # the text between the fields
            pattern += re.escape(part)
        else:
            pattern += re.escape(fixed[part]) if part in fixed else f"(?P<{part}>.+?)"
    return re.compile(pattern)


@pytest.mark.parametrize("locale", ["en", "uk"])
def test_the_live_region_announces_the_turn_the_bids_the_ruling_and_the_winner(
    app: Any, live_server: str, browser: Any, monkeypatch: Any, locale: str
) -> None:
    # Three seats, two dice each, the first round dealt: Iris opens, Boris and Cleo (bots) bid,
    # and Iris challenges every bid she is to answer, until the game is won.
    app.config["REVEAL_PAUSE"] = 1.0  # long enough to read the ruling the page shows
    rig_dice(monkeypatch, [{"Iris": [2, 3], "Boris (bot)": [4, 5], "Cleo (bot)": [5, 6]}])
    page = open_page(browser, locale)
    create_in_lobby(page, live_server, seats="3", dice_per_player="2", bot_kind="odds")
    region = page.locator("#announce")
    assert region.count() == 1, "no live region #announce"
    assert (region.get_attribute("role"), region.get_attribute("aria-live")) == ("status", "polite")
    page.click("#start")
    answered: list[str] = []  # each bid Iris was to answer, as "Name: bid"
    rulings: list[tuple[str, str]] = []  # each ruling of her calls and its count
    deadline = time.monotonic() + 60
    while not page.is_visible("#winner"):
        assert time.monotonic() < deadline, "the game did not end"
        if my_move_offered(page):
            bids = page.locator("#bids li")
            if bids.count() == 0:
                page.click("#bid-button")
            else:
                if not answered:  # the seats say in words whose turn it is and which is yours
                    assert page.evaluate("document.getElementById('seats').tagName") == "UL"
                    mine = page.inner_text("#seats > li.seat.me")
                    assert words(locale, "you") in mine and words(locale, "on turn") in mine, mine
                    check_dice_named(page, locale)
                    others = page.locator("#seats > li.seat:not(.me) .die").evaluate_all(
                        "(dice) => dice.map((d) => d.getAttribute('aria-label'))"
                    )
                    assert others and set(others) == {words(locale, "hidden")}, others
                answered.append(bids.last.inner_text())
                page.click("#calls button.challenge")
                page.wait_for_selector("#now.ruled")
                shown = page.inner_text("#now .ruling-line")
                rulings.append((shown, page.get_attribute("#reveal", "data-count")))
            page.wait_for_timeout(200)
        page.wait_for_timeout(50)
    # The last ruling: every die named, those that counted said to count; the out said out.
    counts = f", {words(locale, 'counts')}"
    names = check_dice_named(page, locale)
    matched = page.locator("#seats .die.match").count()
    assert matched == int(page.get_attribute("#reveal", "data-count") or -1), matched
    assert sum(name.endswith(counts) for name in names) == matched, names
    outs = page.locator("#seats > li.seat.out").all_inner_texts()
    assert len(outs) == 2 and all(words(locale, "out") in text for text in outs), outs
    said: list[str] = page.evaluate("window.liarsdiceAnnounced")
    assert said and all(isinstance(s, str) and s.strip() for s in said), said
    page.wait_for_timeout(300)  # the region gathers what comes at once
    assert page.inner_text("#announce").strip().endswith(said[-1]), page.inner_text("#announce")
    assert answered and rulings, (answered, rulings)

    def first(what: str, found: Any, start: int = 0) -> int:
        for i, text in enumerate(said[start:], start):
            if found(text):
                return i
        raise AssertionError(f"no announcement of {what} after #{start}: {said}")

    your_turn = words(locale, "Your turn")
    bid_by = template(locale, "{name} bid {bid}")
    # A bot's bid that Iris is not to answer yet, said on its own: the first round's Boris's.
    bot_bid = first(
        "a bot's bid", lambda s: your_turn not in s and bid_by.search(s) and "Boris" in s
    )
    # Iris's turn, with the bid she is to answer: "Your turn. Cleo (bot) bid 2 fives."
    name, bid = answered[0].split(": ", 1)
    to_answer = template(locale, "{name} bid {bid}", name=name, bid=bid)
    turn = first("your turn to answer", lambda s: your_turn in s and to_answer.search(s), bot_bid)
    # Her call, said as the ruling the page shows, with its count.
    ruling, count = rulings[0]
    assert re.search(rf"\b{count}\b", ruling), (ruling, count)
    ruled = first("the ruling", lambda s: ruling.rstrip(".") in s and "Iris" in s, turn)
    out = first("a player out", template(locale, "{name} is out.").search, ruled)
    won = first("the winner", template(locale, "{player} wins the game!").search, out)
    assert said[won].rstrip("!") in page.inner_text("#winner"), (
        said[won],
        page.inner_text("#winner"),
    )
    if locale == "uk":
        english = [s for s in said if ENGLISH.search(s) or "your turn" in s.lower()]
        assert not english, english
    assert not page.errors, page.errors


# --- the replay ---------------------------------------------------------------------------------

STEPS = ["First step", "Previous step", "Next step", "Last step"]
"""The replay's step buttons' names (msgids), in their order."""


def test_the_replay_names_its_step_buttons_dice_and_seats(
    app: Any, live_server: str, browser: Any, monkeypatch: Any
) -> None:
    # Two bots, one die each, both ones (wild) in every round: whatever the bid, the call counts
    # both dice (a right exact call takes no die: the game may go on for some rounds).
    rig_dice(monkeypatch, [{"Ada (bot)": [1], "Boris (bot)": [1]}] * 40)
    config = {"variants": ["dice-loss", "calza"], "seats": 2, "dice_per_player": 1}
    table = app.extensions["liarsdice_hub"].create(parse_config(config), start=True)
    deadline = time.monotonic() + 20
    while table.game_id is None:
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.02)
    for locale in LOCALES:
        page = open_page(browser, locale)
        page.goto(f"http://{live_server}/games/{table.game_id}")
        controls = page.locator(".replay-controls")
        tree = controls.aria_snapshot()
        names = re.findall(r'- button "([^"]*)"', tree)[:4]
        assert names == [words(locale, step) for step in STEPS], tree
        assert not re.search("[◀▶|]", tree), tree
        for step in STEPS:  # one button each, as the accessibility tree names it
            assert controls.get_by_role("button", name=words(locale, step), exact=True).count() == 1
        # The last step: the ruling's dice named, the two that count marked so in words...
        page.click("#last")
        at_last_step(page)
        dice = page.locator("#seats li.seat .die").all()
        assert len(dice) == 2
        one = UK.ngettext("one", "ones", 1) if locale == "uk" else "one"
        for die in dice:
            assert die.get_attribute("role") == "img"
            assert die.inner_text() == "⚀"
            assert die.get_attribute("aria-label") == f"{one}, {words(locale, 'counts')}"
        # ...and the winner and the player out said in words, not by colour alone.
        statuses = sorted(page.locator("#seats li.seat .status").all_inner_texts())
        assert statuses == sorted([words(locale, "Winner"), words(locale, "out")]), statuses
        assert not page.errors, page.errors
