"""The lobby in Chromium: Create and Quick game on screen without scrolling (phone and desktop),
the quick game straight to a dealt table of bots, and a preset resetting the variants.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from liarsdice_demo.tables.composition import parse_config

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def on_screen(page: Any, selector: str, viewport: dict[str, int]) -> None:
    """Fail unless ``selector``'s box lies wholly inside the viewport at the top of the page."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not rendered"
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (selector, box)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_create_and_quick_game_are_on_screen(
    live_server: str, browser: Any, viewport: dict[str, int]
) -> None:
    page = browser.new_page(viewport=viewport)
    page.goto(f"http://{live_server}/")
    page.wait_for_selector(".validation.ok")
    assert page.evaluate("window.scrollY") == 0
    on_screen(page, "#create-button", viewport)
    on_screen(page, "#quick-button", viewport)
    page.close()


def test_quick_game_starts_a_game_of_bots(live_server: str, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/")
    page.fill("#nickname", "Iris")
    page.click("#quick-button")
    page.wait_for_url("**/t/*")
    code = page.url.split("/t/")[1].split("?")[0]
    table = page.request.get(f"http://{live_server}/api/tables/{code}").json()
    assert table["status"] != "waiting"
    assert table["config"]["bot_level"] in ("hard", "medium")
    assert errors == []
    page.close()


def test_quick_game_needs_a_nickname_first(live_server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"http://{live_server}/")
    page.fill("#nickname", "")
    page.click("#quick-button")
    page.wait_for_timeout(300)
    assert "/t/" not in page.url
    page.close()


def test_choosing_a_preset_resets_the_variants(live_server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"http://{live_server}/")
    page.select_option("#preset", "")  # no preset: the rules open, to tick variants
    page.check("input[name=variant][value=ones-locking]")
    page.check("input[name=variant][value=dice-loss]")
    page.select_option("#preset", "casino")
    page.wait_for_selector(".validation.ok")
    assert not page.is_checked("input[name=variant][value=ones-locking]")
    ticked = page.eval_on_selector_all(
        "input[name=variant]:checked", "boxes => boxes.map((b) => [b.value, b.disabled])"
    )
    assert ticked and all(disabled for _, disabled in ticked), ticked  # the preset's own only
    page.close()


def test_the_leaderboard_fits_a_phone(app: Any, live_server: str, browser: Any) -> None:
    config = parse_config(
        {"variants": ["dice-loss"], "seats": 6, "rated": True, "dice_per_player": 1}
    )
    table = app.extensions["liarsdice_hub"].create(config, start=True)
    deadline = time.monotonic() + 30
    while table.game_id is None:
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.02)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"http://{live_server}/leaderboard")
    for cell in page.locator("#board tr > *").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], cell.inner_text()
    assert not page.locator("#how-ratings-work table").is_visible()  # the detail: folded
    page.click("#how-ratings-work summary")
    assert page.locator("#how-ratings-work table").is_visible()
    page.close()
