"""The browser test: Playwright drives Debian's Chromium through the lobby and a whole game.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from .conftest import create_in_lobby
from .test_websocket import rig_dice


def test_lobby_to_winner_in_the_browser(live_server: str, browser: Any) -> None:
    rng = random.Random(11)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/")
    page.fill("#nickname", "Iris")
    page.select_option("#preset", "dudo")
    # An impossible combination is explained before anything is made...
    page.select_option("#preset", "")
    page.check("input[name=variant][value=aces-switch]")
    page.check("input[name=variant][value=ones-locking]")
    page.wait_for_selector(".validation.error")
    assert "conflicts" in page.inner_text("#validation")
    assert page.is_disabled("#create-button")
    page.uncheck("input[name=variant][value=ones-locking]")
    page.uncheck("input[name=variant][value=aces-switch]")
    # A preset for some tables only narrows the table's inputs (dudo: 5 dice each, seed 003)...
    page.fill("#dice_per_player", "2")
    page.select_option("#preset", "dudo")
    assert page.input_value("#dice_per_player") == "5"
    assert page.get_attribute("#dice_per_player", "min") == "5"
    assert page.get_attribute("#dice_per_player", "max") == "5"
    assert "Table: 2 to 6 players, 5 dice each." in page.inner_text("#preset-summary")
    # ...refuses another size before anything is made...
    page.fill("#dice_per_player", "2")
    page.wait_for_selector(".validation.error")
    assert "the dudo preset is for 5 dice each, not 2" in page.inner_text("#validation")
    assert page.is_disabled("#create-button")
    # ...and its variants without the preset take any table: a valid one can be created.
    page.select_option("#preset", "")
    assert page.get_attribute("#dice_per_player", "min") == "1"
    page.check("input[name=variant][value=dice-loss]")
    page.check("input[name=variant][value=calza]")
    page.fill("#seats", "3")
    page.fill("#dice_per_player", "2")
    page.select_option("#bot_kind", "random")
    page.wait_for_selector(".validation.ok")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#start:visible")
    assert "Empty seats get bots when the host starts: easy bot." in page.inner_text(
        "#waiting-text"
    )  # words, not a kind
    page.click("#start")
    play_until_over(page, lambda: rng.random() < 0.4, seconds=90)
    assert "wins the game" in page.inner_text("#winner")
    assert page.locator(".seat").count() == 3
    assert not errors, errors


def play_until_over(
    page: Any, call_first: Callable[[], bool] = lambda: True, seconds: float = 60
) -> list[str]:
    """Bid or call whenever the page offers a move (a call when one is offered and
    ``call_first()`` says so), until a winner is shown; the tab's title at each of the player's
    turns."""
    from playwright.sync_api import Error

    titles = []
    deadline = time.monotonic() + seconds
    while not page.is_visible("#winner"):
        assert time.monotonic() < deadline, "the game did not end in the browser"
        if page.is_visible("#actions"):
            titles.append(page.title())
            calls = page.query_selector_all("#calls button")
            try:  # the actions seen may be gone by the click (a move already sent; the game over)
                if calls and call_first():
                    calls[0].click(timeout=2000)
                elif page.is_enabled("#bid-button"):
                    page.click("#bid-button", timeout=2000)
                elif calls:
                    calls[0].click(timeout=2000)
            except Error:
                pass  # the loop looks again
        page.wait_for_timeout(50)
    return titles


def test_the_reveal_shows_every_die_the_call_counted(
    live_server: str, browser: Any, monkeypatch: Any
) -> None:
    # Two players with one die each, both ones (wild): whatever the bid, the call counts 2, and
    # puts the loser out, whose die must still be shown. Then the way out: leave, or a new table.
    rig_dice(monkeypatch, [{"Iris": [1], "Boris (bot)": [1]}])
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    create_in_lobby(page, live_server, seats="2", dice_per_player="1", bot_kind="random")
    assert page.is_hidden("#after")
    page.click("#start")
    play_until_over(page)
    assert page.get_attribute("#reveal", "data-count") == "2"
    assert "2 counted" in page.inner_text("#now .ruling-line")
    assert page.locator("#seats .die.match").count() == 2
    out = page.locator("#seats .seat.out")
    assert out.count() == 1 and out.locator(".die.match").count() == 1
    assert "1 die → out" in out.inner_text()
    # The game is over: a way back to the lobby, and a new table with these settings.
    assert page.is_visible("#leave") and page.get_attribute("#leave", "href") == "/"
    page.click("#new-table")
    page.wait_for_selector(".validation.ok")
    assert page.input_value("#preset") == ""  # dudo's variants: the preset is for 5 dice each
    assert page.is_checked("input[name=variant][value=dice-loss]")
    assert page.is_checked("input[name=variant][value=calza]")
    assert page.input_value("#seats") == "2" and page.input_value("#dice_per_player") == "1"
    assert page.input_value("#bot_kind") == "random"
    assert not page.is_checked("#rated") and not page.is_checked("#public")
    page.fill("#nickname", "Iris")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#start:visible")
    assert "Standard + Calza (exact call), Dice loss" in page.inner_text(".table-head h1")
    assert not errors, errors


COUNT_BEEPS_AND_TITLES = """
window.beeps = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() {
    const tone = super.createOscillator();
    const start = tone.start.bind(tone);
    tone.start = (...args) => {  // the turn's beep: 880 Hz (sound.js); not the reveal's sounds
      if (tone.type === "sine" && tone.frequency.value === 880) window.beeps += 1;
      return start(...args);
    };
    return tone;
  }
};
window.titles = [];
const title = Object.getOwnPropertyDescriptor(Document.prototype, "title");
Object.defineProperty(Document.prototype, "title", {
  configurable: true,
  get() { return title.get.call(this); },
  set(value) {
    if (window.titles.at(-1) !== value) window.titles.push(value);
    title.set.call(this, value);
  },
});
"""
"""Counts the beeps of the page (``window.beeps``) and records each new title it sets."""


def test_your_turn_marks_the_title_and_beeps_unless_muted(live_server: str, browser: Any) -> None:
    page = browser.new_page()
    page.add_init_script(COUNT_BEEPS_AND_TITLES)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    create_in_lobby(page, live_server, seats="2", dice_per_player="2", bot_kind="random")
    plain = page.title()
    marked = f"● Your turn — {plain}"
    assert not page.is_checked("#mute")
    page.click("#start")
    page.wait_for_selector("#actions:visible")
    assert page.title() == marked
    assert page.evaluate("window.beeps") == 1
    play_until_over(page, call_first=lambda: False)
    assert page.title() == plain  # the game is over
    # The mark came with each of Iris's turns and went when the turn passed; a beep each time.
    titles = page.evaluate("window.titles")
    assert titles[0] == plain and titles[-1] == plain and titles.count(marked) >= 2
    assert titles == [plain, marked] * titles.count(marked) + [plain]
    assert page.evaluate("window.beeps") == titles.count(marked)

    # Muted, the switch is remembered: a turn then marks the title without a sound.
    page.check("#mute")
    page.reload()
    page.wait_for_selector("#rematch:visible")
    assert page.is_checked("#mute")
    page.click("#rematch")
    page.wait_for_function("() => document.title.startsWith('●')", timeout=10000)
    assert page.evaluate("window.beeps") == 0
    assert not errors, errors


def test_a_player_who_is_out_may_leave_while_the_others_play_on(
    app: Any, live_server: str, browser: Any
) -> None:
    app.config["BOT_DELAY"] = 1.5  # the bots play on slowly enough to look
    page = browser.new_page()
    create_in_lobby(page, live_server, seats="3", dice_per_player="1", turn_seconds="5")
    page.click("#start")
    page.wait_for_selector("#actions:visible")  # Iris opens, then lets her clock run out...
    page.wait_for_selector("#my-dice:has-text('You are out')", timeout=15000)
    assert not page.is_visible("#banner")  # ...and the game goes on without her
    assert page.is_visible("#leave") and page.is_visible("#new-table")
    page.click("#leave")
    page.wait_for_selector("#create-form")


def test_players_read_labels_and_bot_levels_not_keys(live_server: str, browser: Any) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/")
    page.select_option("#preset", "casino")
    page.wait_for_selector(".validation.ok")
    page.click("#rules-details summary")  # the variants and options are folded
    bullets = page.locator(
        "label.option", has=page.locator("[data-key='revolver.initial_bullets']")
    )
    label = "Bullets loaded on a player's first lost round"  # its help, as on the rules page
    assert bullets.locator(".option-label").inner_text() == label
    assert bullets.get_attribute("title") == "revolver.initial_bullets"  # the key: a hint only
    assert "revolver.initial_bullets" not in page.inner_text("#options")
    assert "Hard bot" in page.inner_text("#bot_kind")  # words, the kind only a hint
    create_in_lobby(page, live_server, seats="2", dice_per_player="1", bot_kind="mixed")
    page.click("#start")
    page.wait_for_selector("#seats .seat[data-seat='1']")
    name = page.inner_text("#seats .seat[data-seat='1'] .name")
    assert name.startswith("Boris · hard bot"), name
    assert "(bot)" not in name and "mixed" not in name
    assert not errors, errors


def test_a_bot_kind_without_a_level_reads_in_words_in_ukrainian(
    live_server: str, browser: Any
) -> None:
    """A bayes bot read "bayes" in the lobby and on its seat: it is "Класичний складний бот"."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/?lang=uk")
    options = page.locator("#bot_kind option[value=bayes]")
    assert options.inner_text() == "Класичний складний бот"
    create_in_lobby(page, live_server, seats="2", bot_kind="bayes")
    waiting = page.inner_text("#waiting-text")
    assert "порожні місця займуть боти: класичний складний бот." in waiting, waiting
    page.click("#start")
    page.wait_for_selector("#seats .seat[data-seat='1']")
    name = page.inner_text("#seats .seat[data-seat='1'] .name")
    assert name.startswith("Boris · класичний складний бот"), name
    assert not errors, errors


def test_under_calza_anyone_a_seat_not_on_turn_gets_the_exact_button(
    app: Any, live_server: str, browser: Any, tmp_path: Any
) -> None:
    app.config["BOT_DELAY"] = 4.0  # the bot on turn waits long enough for Iris to call first
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": 390, "height": 844})
    create_in_lobby(
        page,
        live_server,
        switched_on=("calza.anyone",),
        seats="3",
        dice_per_player="2",
        bot_kind="odds",
    )
    page.click("#start")
    page.wait_for_selector("#actions:visible")  # Iris opens (seat 1): a bid, no call yet
    assert page.is_visible("#bid-button") and not page.query_selector_all("#calls button")
    page.click("#bid-button")
    # Iris made the bid on the table, so she may not call it. Once the next bot has raised it,
    # the turn is the third seat's, and Iris, not on turn, is offered Exact and nothing else.
    page.wait_for_selector("#calls button:has-text('Exact')", timeout=15000)
    assert not page.is_visible("#bid-button")
    assert [b.inner_text() for b in page.query_selector_all("#calls button")] == ["Exact"]
    assert "Not your turn, but you may call this bid" in page.inner_text("#out-of-turn-hint")
    page.screenshot(path=str(tmp_path / "out_of_turn_exact_390.png"))
    page.click("#calls button:has-text('Exact')")
    page.wait_for_selector("#log:has-text('Exact')", timeout=5000)
    assert not errors, errors
