"""A game night at the table page (issue 49), in Debian's Chromium (Playwright): the rematch vote
after the game, seen by everyone, with its button on a phone's screen; a tab whose seat was
opened elsewhere goes quiet; a double click sends one move, and a refused move is told to its
player in the second person; a 20-letter name keeps a phone's page from scrolling sideways.

The browser tests are skipped (with the reason) when ``/usr/bin/chromium`` is absent:
``apt-get install chromium``. They wait on conditions, never on fixed sleeps.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

from .conftest import create_in_lobby
from .test_phone import fits
from .test_table_view import DESKTOP, PHONE, in_view, open_page
from .test_websocket import make_table, my_turn, sit

ON_TOP = """(selector) => {
  // Whether the element is inside the viewport, unscrolled, and the topmost at its centre.
  const e = document.querySelector(selector);
  const r = e.getBoundingClientRect();
  if (!(r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight)) return false;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top !== null && (e === top || e.contains(top));
}"""

STRAY_FOCUS = """() => {
  // The element focused when it is an empty or hidden box (null when focus is fine).
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  return e.textContent.trim() && e.checkVisibility() ? null : e.outerHTML.slice(0, 120);
}"""


def move(page: Any, call: bool = True) -> None:
    """If ``page`` offers a move, make a call when it may (``call``) or no bid is left, else bid
    (a move gone by the click, the game moving on, is let go: the caller looks again)."""
    from playwright.sync_api import Error

    if not page.is_visible("#actions"):
        return
    challenge = page.query_selector("#calls button.call")
    bid = page.locator("#bid-button")
    with contextlib.suppress(Error):
        (challenge if challenge and (call or not bid.is_enabled()) else bid).click(timeout=1000)


VOTES = {
    "en": ("Iris wants a rematch · 1 of 2", "You want a rematch · 1 of 2"),
    "uk": ("Iris хоче реваншу · 1 з 2", "Ви хочете реваншу · 1 з 2"),
    "ru": ("Iris хочет реванша · 1 из 2", "Вы хотите реванша · 1 из 2"),
}


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_game_over_on_a_phone_shows_the_rematch_vote_and_its_button(
    live_server: str, browser: Any, lang: str
) -> None:
    """Both players see the Rematch button on screen at game over (not under the last ruling), no
    empty box holds the focus, and once Iris asks for a rematch both see who asked, of how many."""
    iris = open_page(browser, PHONE, locale=lang)
    create_in_lobby(iris, live_server, seats="3", dice_per_player="1", bot_kind="random")
    knox = open_page(browser, PHONE, locale=lang)
    knox.goto(iris.input_value("#share"))
    knox.fill("#sit-nickname", "Knox")
    knox.click("#sit")
    iris.wait_for_selector("#seats .seat[data-seat='1']:has-text('Knox')")
    iris.click("#start")
    deadline = time.monotonic() + 90
    while not (iris.is_visible("#rematch") and knox.is_visible("#rematch")):
        assert time.monotonic() < deadline, "the game did not end"
        move(iris)
        move(knox)
        iris.wait_for_timeout(50)  # a poll's pace, not a wait for something
    for page in (iris, knox):
        assert page.evaluate(ON_TOP, "#rematch"), "the Rematch button is off screen or covered"
        assert page.evaluate(STRAY_FOCUS) is None, page.evaluate(STRAY_FOCUS)
        assert page.is_hidden("#votes")  # nobody asked yet
    iris.click("#rematch")
    they_see, she_sees = VOTES[lang]
    knox.wait_for_selector(f"#votes:has-text('{they_see}')")
    iris.wait_for_selector(f"#votes:has-text('{she_sees}')")
    assert in_view(knox, they_see) and in_view(iris, she_sees)
    assert knox.evaluate(ON_TOP, "#rematch") and knox.is_enabled("#rematch")
    knox.click("#rematch")  # the last vote: the next game is dealt, the vote is gone
    for page in (iris, knox):
        page.wait_for_selector("#votes", state="hidden")
        page.wait_for_selector("#rematch", state="hidden")
    assert not iris.errors and not knox.errors, (iris.errors, knox.errors)


def test_a_tab_whose_seat_is_opened_elsewhere_shows_no_turn_clock_or_moves(
    app: Any, live_server: str, browser: Any, make_player: Any
) -> None:
    """A seat keeps its 3 newest tabs: the oldest, closed (4409), says the seat is played
    elsewhere and shows no turn, no clock and no move."""
    page = open_page(browser, PHONE)
    code = create_in_lobby(page, live_server, seats="2", dice_per_player="2", bot_kind="random")
    page.click("#start")
    page.wait_for_selector("#actions:visible")  # Iris's turn: her clock runs (60 s)
    assert "Your turn" in page.inner_text("#turn")
    token = page.evaluate("JSON.parse(document.getElementById('boot').textContent).seat_token")
    for _ in range(3):  # three more tabs of Iris's seat
        make_player(code, token).expect("welcome")
    page.wait_for_selector("#connection.stopped")
    assert page.is_hidden("#turn"), page.inner_text("#turn")  # once "Your turn · 53 s"
    assert page.is_hidden("#clock") and page.is_hidden("#actions")
    assert page.is_visible("#elsewhere") and in_view(page, page.inner_text("#elsewhere"))
    assert "another tab" in page.inner_text("#elsewhere")
    live = page.locator("button:visible:enabled, select:visible:enabled").all()
    # Only the page's own buttons are left: sharing the link, and unfolding the settings.
    ids = [b.get_attribute("id") for b in live]
    assert ids == ["copy", "settings-toggle"], "a live control is left"
    assert not page.title().startswith("●")  # the tab's title no longer says "Your turn"
    assert not page.errors, page.errors


SPY = """
window.sentTypes = [];
window.refusals = [];
const RealSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.sentTypes.push(JSON.parse(data).type);
  return RealSend.call(this, data);
};
const Listened = window.WebSocket;
window.WebSocket = class extends Listened {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "error") window.refusals.push(message.error);
    });
  }
};
"""
"""Records the type of every message the page sends (``window.sentTypes``) and every refusal it
receives (``window.refusals``)."""


def test_a_double_click_on_bid_sends_one_bid(app: Any, live_server: str, browser: Any) -> None:
    app.config["BOT_DELAY"] = 0.5  # the bot answers after the second click has long arrived
    page = open_page(browser, DESKTOP)
    page.add_init_script(SPY)
    create_in_lobby(page, live_server, seats="2", dice_per_player="2", bot_kind="random")
    page.click("#start")
    page.wait_for_selector("#bid-button:visible:enabled")
    page.dblclick("#bid-button")
    # The bot's answer comes after anything the page sent before it has been answered.
    page.wait_for_selector("#log li:has-text('Iris bids')")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].some((li) =>"
        " li.textContent.includes('Iris bids'))"
        " && !document.querySelector('#log li:first-child').textContent.includes('Iris bids')",
        timeout=15000,
    )
    assert page.evaluate("window.sentTypes.filter((t) => t === 'bid').length") == 1
    assert page.evaluate("window.refusals") == []
    assert not page.errors, page.errors


@pytest.mark.parametrize(
    ("lang", "refusal"),
    [("en", "it is not your turn"), ("uk", "зараз не ваш хід"), ("ru", "сейчас не ваш ход")],
)
def test_a_move_out_of_turn_is_refused_in_the_second_person(
    app: Any, make_player: Any, lang: str, refusal: str
) -> None:
    """Knox bids on Iris's turn, Iris bids twice in a row: each is told "not your turn" in their
    own language, not "not Knox's turn" as of someone else."""
    made, _ = make_table(app, preset=None, variants=["dice-loss"], seats=2, bot_kind="none")
    code = made["code"]
    knox = make_player(f"{code}?lang={lang}", sit(app, code, "Knox")["seat_token"])
    knox.expect("welcome")
    iris = make_player(f"{code}?lang={lang}", made["seat_token"])
    iris.expect("welcome")
    iris.send("start")
    quantity, face = my_turn(iris)["legal"]["bids"][0]  # Iris, seat 0, opens
    knox.send("bid", quantity=quantity, face=face)
    assert knox.expect("error")["error"] == refusal
    iris.send("bid", quantity=quantity, face=face)
    iris.send("bid", quantity=quantity + 1, face=face)  # a double click that got through
    assert iris.expect("error")["error"] == refusal


LONG = "Wwwwwwwwwwwwwwwwwwww"
"""A nickname as long as the lobby takes (20 letters), of the widest letter, with no space."""


SEATS_FIT = """() => [...document.querySelectorAll('#seats .seat')]
  .filter((seat) => seat.scrollWidth > seat.clientWidth + 1).map((seat) => seat.innerText)"""
"""The seats whose content is wider than the seat (spilling under the next one, or off screen)."""


def fits_with_seats(page: Any) -> None:
    """Fail if ``page`` is wider than the phone or a seat's content is wider than the seat."""
    fits(page)
    assert page.evaluate(SEATS_FIT) == [], page.evaluate(SEATS_FIT)


def test_a_twenty_letter_name_never_makes_a_phone_page_scroll_sideways(
    app: Any, live_server: str, browser: Any
) -> None:
    """A guest of 20 letters sits in the seat on the right: their name wraps in the seats, the
    bids, the rulings, the banner, the lobby, the leaderboard and their player's page, for them
    and for the host; no page is wider than the phone."""
    app.config["REVEAL_PAUSE"] = 0.5  # a ruling mid-game stays up for a poll to see it
    host = open_page(browser, PHONE)
    host.goto(f"http://{live_server}/")
    host.fill("#nickname", "Iris")
    host.select_option("#preset", "")
    for variant in ("dice-loss", "calza"):
        host.check(f"input[name=variant][value={variant}]")
    host.fill("#seats", "2")
    host.fill("#dice_per_player", "2")
    host.check("#rated")
    host.check("#public")
    host.wait_for_selector(".validation.ok")
    host.click("#create-button")
    host.wait_for_url("**/t/*")
    guest = open_page(browser, PHONE)
    guest.goto(host.input_value("#share"))
    guest.fill("#sit-nickname", LONG)
    guest.click("#sit")
    host.wait_for_selector(f"#seats .seat[data-seat='1']:has-text('{LONG[:10]}')")
    for page in (host, guest):
        fits_with_seats(page)
    host.click("#start")
    seen = set()
    deadline = time.monotonic() + 60
    while not (host.is_visible("#winner") and guest.is_visible("#winner")):
        assert time.monotonic() < deadline, "the game did not end"
        for page in (host, guest):
            if page.is_visible("#bids li") or page.is_visible("#now"):
                fits_with_seats(page)
                seen.add("ruling" if page.is_visible("#now .ruling-line") else "bid")
            move(page, call=False)
        host.wait_for_timeout(50)  # a poll's pace, not a wait for something
    assert "bid" in seen, seen
    for page in (host, guest):
        assert page.is_visible("#now .ruling-line")  # the last ruling stays after the game
        fits_with_seats(page)  # the winner, the ratings, the last ruling
    guest.click("#rematch")
    host.wait_for_selector("#votes:visible")
    fits_with_seats(host)  # "Wwww… wants a rematch"
    guest.goto(f"http://{live_server}/")
    guest.wait_for_selector(f"text={LONG}")
    fits(guest)
    guest.goto(f"http://{live_server}/leaderboard")
    guest.wait_for_selector(f"table.board >> text={LONG}")
    fits(guest)
    guest.click(f"table.board >> text={LONG}")
    guest.wait_for_url("**/players/*")
    fits(guest)
    assert not host.errors and not guest.errors, (host.errors, guest.errors)
