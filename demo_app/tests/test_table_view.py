"""The table page as a player follows it, in Debian's Chromium (Playwright), on a phone (390x844)
and a desktop (1280x800): the bid being answered and the ruling are on screen (by position, not
by class), the connection's loss shows and stops the actions, the log counts down from the
newest, the share link says it was copied, and the drama (animations, sounds) keeps to the
player's wishes (reduced motion, the mute switch).

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import create_in_lobby

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

SHOWING = """const showing = (text) => [...document.querySelectorAll("body *")].filter((e) =>
  e.textContent.includes(text) && ![...e.children].some((c) => c.textContent.includes(text)));"""
"""JavaScript: ``showing(text)``, the elements that show ``text`` as their own (not a container's)."""


def with_showing(function: str) -> str:
    """The JavaScript ``function`` of ``text``, with :data:`SHOWING` in its scope."""
    return f"(text) => {{ {SHOWING} return ({function})(text); }}"


IN_VIEW = with_showing("""(text) => {
  // Whether some element showing `text` lies inside the viewport, unscrolled, and is not covered
  // by another element.
  const inside = (r) => r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight && r.right <= innerWidth;
  return showing(text).some((e) => {
    const r = e.getBoundingClientRect();
    if (!inside(r)) return false;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top !== null && (e.contains(top) || top.contains(e));
  });
}""")

SHOWN_TIMES = with_showing("""(text) => showing(text).filter((e) =>
  // How many visible elements show `text`, the table log's history and the screen reader's live
  // region (visually hidden) aside.
  e.checkVisibility() && !e.closest("#log, .visually-hidden")).length""")

SOUNDS = """
window.sounds = [];
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() {
    const osc = super.createOscillator();
    const start = osc.start.bind(osc);
    osc.start = (...args) => {
      window.sounds.push(`${osc.type} ${osc.frequency.value}`);
      return start(...args);
    };
    return osc;
  }
  createBufferSource() {
    const source = super.createBufferSource();
    const start = source.start.bind(source);
    source.start = (...args) => { window.sounds.push("noise"); return start(...args); };
    return source;
  }
};
window.sockets = [];
const RealSocket = window.WebSocket;
window.WebSocket = class extends RealSocket {
  constructor(...args) { super(...args); window.sockets.push(this); }
};
"""
"""Records each sound the page starts (``window.sounds``: "type Hz", or "noise") and keeps its
sockets (``window.sockets``)."""


LOOKED_AT = """() => {
  const line = document.querySelector('#now .ruling-line');
  if (line) line.dataset.looked = '1';
}"""
"""Marks the ruling on screen as looked at."""
NEXT_RULING_OR_TURN = """() => {
  const line = document.querySelector('#now .ruling-line');
  return document.getElementById('reveal').hidden || !document.getElementById('after').hidden
    || !line || !line.dataset.looked;
}"""
"""Waits until the ruling looked at is gone: hidden, replaced by the next round's (bots may play
a whole round between two polls), or the player is out."""


def in_view(page: Any, text: str) -> bool:
    return bool(page.evaluate(IN_VIEW, text))


def open_page(browser: Any, viewport: dict[str, int], **context: Any) -> Any:
    page = browser.new_context(viewport=viewport, **context).new_page()
    page.add_init_script(SOUNDS)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_bid_you_answer_and_the_ruling_are_on_screen(
    app: Any, live_server: str, browser: Any, viewport: dict[str, int]
) -> None:
    app.config["REVEAL_PAUSE"] = 2.5  # the reveal stays up long enough to look
    page = open_page(browser, viewport)
    answered = ruled = 0
    deadline = time.monotonic() + 120
    while not (answered >= 2 and ruled >= 1):
        assert time.monotonic() < deadline, f"answered {answered} bids, saw {ruled} rulings"
        if page.url.endswith("about:blank") or page.is_visible("#after"):
            # a first table, or Iris was shot before she had seen enough: a new table
            create_in_lobby(page, live_server, preset="casino", seats="6", bot_kind="random")
            page.click("#start")
        page.wait_for_function(
            "() => !document.getElementById('actions').hidden"
            " || !document.getElementById('reveal').hidden"
            " || !document.getElementById('after').hidden",
            timeout=30000,
        )
        if page.is_visible("#after"):
            continue
        assert page.evaluate("window.scrollY") == 0  # nobody scrolled to get there
        if page.is_visible("#reveal"):
            ruling = page.inner_text("#now .ruling-line")  # the text: found on screen below
            assert in_view(page, ruling), ruling
            shown = page.evaluate(SHOWN_TIMES, ruling)
            assert shown == 1, f"the ruling is shown {shown} times: {ruling}"
            # the revolver's load and pull (casino): "Boris loads 1 of 6 and pulls: click"
            pull = page.evaluate(
                "() => [...document.querySelectorAll('body *')].map((e) => e.textContent)"
                ".find((s) => / loads \\d+ of 6 and pulls: (bang|click|goes out)/.test(s)"
                " && s.length < 80)"
            )
            assert pull, "no pull shown with the ruling"
            assert in_view(page, pull.strip()), pull
            ruled += 1
            page.evaluate(LOOKED_AT)
            page.wait_for_function(NEXT_RULING_OR_TURN, timeout=20000)
            continue
        bids = page.query_selector_all("#bids li")
        if bids:
            bidder, bid = bids[-1].inner_text().split(": ")
            assert in_view(page, f"{bidder} bid {bid}"), (bidder, bid)
            for button in [page.locator("#bid-button"), *page.locator("#calls button").all()]:
                box = button.bounding_box()
                assert box is not None and box["y"] + box["height"] <= viewport["height"], box
            answered += 1
            page.click("#calls button.challenge" if answered % 2 == 0 else "#bid-button")
        else:
            page.click("#bid-button")
        page.wait_for_timeout(150)
    assert not page.errors, page.errors


def test_a_lost_connection_shows_a_banner_and_disables_the_actions(
    app: Any, live_server: str, browser: Any
) -> None:
    app.config["BOT_DELAY"] = 0.5
    page = open_page(browser, PHONE)
    create_in_lobby(page, live_server, seats="2", dice_per_player="2", bot_kind="random")
    assert page.is_hidden("#offline")
    page.click("#start")
    page.wait_for_selector("#actions:visible")
    assert page.is_enabled("#bid-button")
    page.context.set_offline(True)
    page.evaluate("window.sockets.at(-1).close()")
    page.wait_for_selector("#offline:visible")
    assert in_view(page, page.inner_text("#offline"))
    assert "Connection lost" in page.inner_text("#offline")
    for control in page.locator("#actions button, #actions select").all():
        assert control.is_disabled(), control.evaluate("(e) => e.outerHTML")
    page.wait_for_timeout(1200)  # a reconnection or two fail meanwhile
    assert page.is_visible("#offline") and page.is_disabled("#bid-button")
    page.context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden", timeout=15000)
    page.wait_for_function("() => !document.getElementById('bid-button').disabled")
    assert page.is_enabled("#bid-quantity") and page.is_enabled("#bid-face")
    page.click("#bid-button")  # and the move goes through
    page.wait_for_selector("#log li:has-text('Iris bids')", timeout=5000)
    assert not page.errors, page.errors


def test_the_log_counts_down_from_the_newest_line(live_server: str, browser: Any) -> None:
    page = open_page(browser, DESKTOP)
    create_in_lobby(page, live_server, seats="2", dice_per_player="2", bot_kind="random")
    page.click("#start")
    page.wait_for_selector("#actions:visible")
    page.click("#bid-button")
    page.wait_for_selector("#log li:has-text('Iris bids')")
    numbers = page.evaluate("[...document.querySelectorAll('#log li')].map((li) => li.value)")
    assert numbers == list(range(len(numbers), 0, -1)) and len(numbers) >= 3, numbers
    assert page.inner_text("#log li:last-child").startswith("New game")  # number 1: the oldest


def test_copy_link_says_copied_or_how_to_copy(live_server: str, browser: Any) -> None:
    page = open_page(browser, DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    create_in_lobby(page, live_server, seats="2", dice_per_player="2", bot_kind="random")
    link = page.input_value("#share")
    assert page.is_hidden("#copied")
    page.click("#copy")
    page.wait_for_selector("#copied:visible")
    assert page.inner_text("#copied") == "Copied"
    assert page.evaluate("navigator.clipboard.readText()") == link
    page.wait_for_selector("#copied", state="hidden", timeout=5000)  # for a moment only
    # A clipboard the browser refuses: the link is selected, and the player told to copy it.
    page.evaluate(
        "() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }"
    )
    page.click("#copy")
    page.wait_for_selector("#copied:visible")
    assert page.inner_text("#copied") == "The link is selected: copy it"
    assert page.evaluate("window.getSelection().toString() || document.activeElement.id") in (
        link,
        "share",
    )
    assert (
        page.evaluate(
            "(() => { const s = document.getElementById('share');"
            " return s.value.slice(s.selectionStart, s.selectionEnd); })()"
        )
        == link
    )
    assert not page.errors, page.errors


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_dice_roll_unless_less_motion_is_asked(
    live_server: str, browser: Any, motion: str
) -> None:
    page = open_page(browser, DESKTOP, reduced_motion=motion)
    create_in_lobby(page, live_server, seats="2", dice_per_player="2", bot_kind="random")
    page.click("#start")
    page.wait_for_selector("#my-dice .die.rolling")  # the deal: the dice roll in
    animation = page.evaluate(
        "getComputedStyle(document.querySelector('#my-dice .die.rolling')).animationName"
    )
    assert animation == ("roll" if motion == "no-preference" else "none")
    assert not page.errors, page.errors


def test_a_reveal_sounds_the_call_and_the_revolver_unless_muted(
    app: Any, live_server: str, browser: Any
) -> None:
    app.config["REVEAL_PAUSE"] = 1.0
    page = open_page(browser, DESKTOP)
    create_in_lobby(page, live_server, preset="casino", seats="2", bot_kind="random")
    page.click("#start")
    deadline = time.monotonic() + 30
    while not page.is_visible("#reveal"):  # Iris challenges the first bid she may
        assert time.monotonic() < deadline, "no reveal"
        if page.is_visible("#actions"):
            challenge = page.query_selector("#calls button.challenge")
            (challenge or page.locator("#bid-button")).click()
        page.wait_for_timeout(50)
    # The click, or the bang: 0.7 s after the call's sound, or later on a loaded machine.
    page.wait_for_function(
        "() => window.sounds.some((s) => s === 'square 1800' || s === 'sine 120')",
        timeout=10000,
    )
    sounds = page.evaluate("window.sounds")
    assert "sine 880" in sounds  # the turn
    assert sounds.count("noise") >= 4  # the roll (and a bang, perhaps)
    assert "triangle 523" in sounds  # the call
    # Muted: the next reveal is silent, and so is the next roll.
    page.check("#mute")
    page.evaluate("window.sounds = []")
    # A bang puts the bot out and ends the game, whose last reveal stays up (one time in six):
    # then a rematch deals the next game.
    page.wait_for_function(
        "() => document.getElementById('reveal').hidden"
        " || !document.getElementById('rematch').hidden",
        timeout=20000,
    )
    if page.is_visible("#rematch"):
        page.click("#rematch")
        page.wait_for_selector("#reveal", state="hidden", timeout=20000)
    if not page.is_visible("#winner"):
        page.wait_for_function(
            "() => !document.getElementById('actions').hidden"
            " || !document.getElementById('reveal').hidden",
            timeout=30000,
        )
    page.wait_for_timeout(500)
    assert page.evaluate("window.sounds") == []
    assert not page.errors, page.errors


PULLS = """async () => {
  const { pulls } = await import("/static/now.js");
  const view = { seats: [
    { name: "Iris", alive: true, dice: 5, public: { bullets: 2 } },
    { name: "Knox", alive: false, dice: 0, public: { bullets: 3 } },
  ] };
  const reveal = (call, losers, held) => ({
    call, losers, rolls: call === "timeout" ? null : { Iris: [1, 2, 3, 4, 5], Knox: held },
  });
  const hit = (r, diceLoss) => pulls(r, view, 6, diceLoss).map((p) => p.hit);
  return {
    alive: hit(reveal("challenge", ["Iris"], [1, 2]), false),
    shot: hit(reveal("challenge", ["Knox"], [1, 2]), false),
    shotHoldingOne: hit(reveal("challenge", ["Knox"], [4]), false),
    shotAlsoLosingADie: hit(reveal("challenge", ["Knox"], [1, 2]), true),
    lastDieOrShot: hit(reveal("challenge", ["Knox"], [4]), true),
    timeout: hit(reveal("timeout", ["Knox"], null), true),
  };
}"""


REVEAL_BOX = """async () => {
  const { renderReveal } = await import("/static/reveal.js");
  const box = document.getElementById("reveal");
  const shown = () => (box.hidden ? null : box.innerText);
  const challenge = { call: "challenge", explanation: "Iris challenged: 3 counted", losers: ["Iris"],
    matching_faces: [1, 5], count: 3, rolls: { Iris: [1, 5], Knox: [5, 2] } };
  const timeout = { call: "timeout", explanation: "Knox's clock ran out", losers: ["Knox"],
    matching_faces: null, count: null, rolls: null };
  const says = {};
  renderReveal(timeout, (n) => n);
  says.timeout = shown();
  renderReveal(challenge, (n) => n);
  says.challenge = shown();
  document.getElementById("keep-reveal").checked = true;
  renderReveal(challenge, (n) => n);
  renderReveal(null, (n) => n);  // the next round: the reveal kept up
  says.kept = shown();
  return says;
}"""


def test_the_box_under_the_bids_adds_the_counted_faces_and_keeps_the_ruling_only_when_held(
    live_server: str, browser: Any
) -> None:
    """Live, the ruling is beside the actions (``#now``) and the box under the bids shows only the
    faces that counted (none: no box); kept up after the round moved on, it shows the ruling and
    every roll."""
    page = open_page(browser, DESKTOP)
    create_in_lobby(page, live_server)  # a table page, its game not started: no state moves it
    says = page.evaluate(REVEAL_BOX)
    assert says["timeout"] is None, says
    assert "Counted faces" in says["challenge"] and "challenged" not in says["challenge"], says
    kept = says["kept"]
    assert "Iris challenged: 3 counted" in kept and "Knox: " in kept, says
    assert not page.errors, page.errors


def test_a_pull_is_a_bang_when_the_loser_is_out_unless_the_last_die_may_have_done_it(
    live_server: str, browser: Any
) -> None:
    """The revolver's shot takes the loser's dice with them: a loser who is out was shot (the
    page once took "no dice left" for "dice loss took the last one" and never showed a bang)."""
    page = open_page(browser, DESKTOP)
    page.goto(live_server + "/")
    assert page.evaluate(PULLS) == {
        "alive": [False],
        "shot": [True],
        "shotHoldingOne": [True],
        "shotAlsoLosingADie": [True],
        "lastDieOrShot": [None],
        "timeout": [True],
    }


def test_an_away_player_s_seat_says_a_bot_plays_for_them(
    app: Any, live_server: str, browser: Any
) -> None:
    app.config["AWAY_GRACE"] = 0.2
    app.config["BOT_DELAY"] = 0.3
    page = open_page(browser, DESKTOP)
    create_in_lobby(page, live_server, seats="3", dice_per_player="2", bot_kind="random")
    friend = open_page(browser, DESKTOP)
    friend.goto(page.input_value("#share"))
    friend.fill("#sit-nickname", "Knox")
    friend.click("#sit")
    page.wait_for_selector("#seats .seat[data-seat='1']:has-text('Knox')")
    friend.context.close()  # Knox leaves: his seat is away, then a bot plays his turns
    knox = page.locator("#seats .seat[data-seat='1']")
    page.wait_for_function(
        "() => document.querySelector(\"#seats .seat[data-seat='1']\").innerText.includes('away')"
    )
    assert "bot playing" not in knox.inner_text()  # away, but nobody plays for him yet
    page.click("#start")
    page.wait_for_selector("#actions:visible")
    page.click("#bid-button")  # Knox is next: after the grace a bot stands in
    page.wait_for_selector("#seats .seat[data-seat='1']:has-text('away — bot playing')")
    assert not page.errors, page.errors
