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


CUT_OFF = """() => {
  const ctx = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const select of document.querySelectorAll("#create-form select")) {
    const style = getComputedStyle(select);
    ctx.font = style.font;
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 24;  // the arrow
    for (const option of select.options) {
      const need = ctx.measureText(option.text).width;
      if (need > room) cut.push(`${select.id || select.dataset.key}: ${option.text}`);
    }
  }
  for (const node of document.querySelectorAll("#create-form *")) {
    const box = node.getBoundingClientRect();
    if (box.width && box.right > window.innerWidth + 1) {
      cut.push(`off screen: ${node.outerHTML.slice(0, 80)}`);
    }
  }
  return cut;
}"""


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_no_choice_in_the_lobby_is_cut_off_on_a_phone(
    live_server: str, browser: Any, lang: str
) -> None:
    """A closed select shows its chosen option's words on one line, cut at its edge: on a phone
    "fill with bots: Classic hard bot (bayes)", "— none: standard rules plus the variants below
    —" and aces-switch's choices were cut. Every preset, bot kind and option choice of every
    variant reads whole at 390 px, in every language."""
    page = browser.new_page(viewport=PHONE)
    page.goto(f"http://{live_server}/?lang={lang}")
    page.select_option("#preset", "")
    page.evaluate("document.getElementById('rules-details').open = true")
    for box in page.locator("input[name=variant]").all():
        box.check()  # every variant's options on show (conflicts only refuse the table)
    page.wait_for_selector("#options .option")
    assert page.evaluate(CUT_OFF) == []
    # the choices are radio buttons whose words wrap, and they still set the option
    choice = page.locator("input[data-key='aces-switch.back'][value=double]")
    choice.check()
    assert page.locator("input[data-key='aces-switch.back']").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
