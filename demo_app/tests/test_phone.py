"""The pages on a phone: Playwright drives Debian's Chromium at 390x844 (an iPhone 12-14).

No page may be wider than the screen (the page would scroll sideways and clip), and on the
player's turn the bid button must be on screen without scrolling. Skipped (with the reason) when
``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

import time
from typing import Any

from liarsdice_demo.tables.composition import parse_config

from .conftest import create_in_lobby

PHONE = {"width": 390, "height": 844}
OVERFLOW = """() => {
  const width = window.innerWidth;
  const wide = [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${e.className}`);
  return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8) };
}"""


def fits(page: Any) -> None:
    """Fail if ``page`` is wider than its viewport, naming the elements that stick out."""
    found = page.evaluate(OVERFLOW)
    assert found["scroll"] <= found["width"], f"{page.url} overflows sideways: {found}"


def a_rated_game(app: Any) -> int:
    """Play a rated game of bots to the end, so the leaderboard has rows; its id."""
    config = parse_config(
        {"variants": ["dice-loss", "calza"], "seats": 6, "rated": True, "dice_per_player": 1}
    )
    table = app.extensions["liarsdice_hub"].create(config, start=True)
    deadline = time.monotonic() + 30
    while table.game_id is None:
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.02)
    return table.game_id


def test_no_page_is_wider_than_a_phone(app: Any, live_server: str, browser: Any) -> None:
    game_id = a_rated_game(app)
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/")
    page.select_option("#preset", "casino")  # a preset whose options fill the form
    page.wait_for_selector(".validation.ok")
    fits(page)
    variant = page.locator("input[name=variant]").last.bounding_box()
    assert variant is not None and variant["x"] + variant["width"] <= PHONE["width"]
    page.goto(f"http://{live_server}/leaderboard")
    assert page.locator("table.board tr").count() > 2
    fits(page)
    page.goto(f"http://{live_server}/rules?preset=casino")
    fits(page)
    page.goto(f"http://{live_server}/games/{game_id}")
    page.wait_for_selector("#seats .seat")
    fits(page)
    page.goto(f"http://{live_server}/players/1")
    fits(page)
    code = create_in_lobby(page, live_server, preset="perudo", seats="6", bot_kind="random")
    page.wait_for_selector("#start:visible")
    fits(page)
    page.goto(f"http://{live_server}/t/{code}/rules")
    fits(page)
    page.goto(f"http://{live_server}/t/{code}/odds")
    fits(page)
    assert not errors, errors


def test_the_bid_button_is_on_screen_on_your_turn(live_server: str, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    code = create_in_lobby(page, live_server, preset="perudo", seats="6", bot_kind="random")
    assert code
    page.wait_for_selector("#start:visible")
    page.click("#start")
    for _turn in range(3):  # a few of the player's turns, mid-game
        page.wait_for_selector("#actions:visible", timeout=15000)
        fits(page)
        assert page.evaluate("window.scrollY") == 0  # nobody scrolled to get there
        box = page.locator("#bid-button").bounding_box()
        assert box is not None, "no bid button"
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
        assert box["x"] + box["width"] <= PHONE["width"], box
        for call in page.query_selector_all("#calls button"):
            found = call.bounding_box()
            assert found is not None and found["y"] + found["height"] <= PHONE["height"], found
        page.click("#bid-button")
        page.wait_for_timeout(100)


def test_a_bot_s_level_is_not_split_over_two_lines(live_server: str, browser: Any) -> None:
    """On a Russian phone "· средний бот" under a long name moves to the next line whole, never
    "средний" on one line and "бот" on the next; beside a short name a space parts them."""
    from .test_table_view import open_page

    page = open_page(browser, PHONE, locale="ru")
    create_in_lobby(page, live_server, seats="4", dice_per_player="2", bot_kind="odds")
    page.click("#start")
    page.wait_for_selector("#seats .seat[data-seat='3'] .name small")
    lines = page.eval_on_selector_all(
        "#seats .name small[title]:not(.host-badge)",
        """(labels) => labels.map((l) => {
          const name = document.createRange();  // the bot's name, the text before its label
          name.selectNodeContents(l.parentElement.firstChild);
          const [before, label] = [name.getBoundingClientRect(), l.getBoundingClientRect()];
          const gap = label.top < before.bottom ? label.left - before.right : null;
          return [l.textContent, l.getClientRects().length, gap];
        })""",
    )
    assert len(lines) == 3 and all("средний бот" in text for text, _, _ in lines), lines
    assert all(count == 1 for _, count, _ in lines), lines
    assert all(gap is None or gap >= 2 for _, _, gap in lines), lines  # "Boris · ", not "Boris·"
    fits(page)
