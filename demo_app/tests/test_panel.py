"""The quick game for a newcomer, in Chromium: dudo's rules (a timeout is not fatal) with the
first timeout forgiven, and the table's rules and odds in a panel over the table (not a new tab),
with the turn clock still in sight (phone and desktop, Ukrainian and English).

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

from typing import Any

import pytest

from .test_lobby_browser import DESKTOP, PHONE

IN_VIEW = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
}"""
UNCOVERED = """(selector) => {
  const element = document.querySelector(selector);
  const box = element.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && element.contains(top);
}"""
"""Whether ``selector`` is on screen and nothing lies over its middle."""


@pytest.mark.parametrize(
    ("viewport", "lang", "rules_word", "odds_word"),
    [(PHONE, "uk", "Правила", "Шанси"), (DESKTOP, "en", "Rules", "Odds")],
    ids=["phone-uk", "desktop-en"],
)
def test_the_quick_game_opens_rules_and_odds_in_a_panel_beside_the_clock(
    live_server: str,
    browser: Any,
    viewport: dict[str, int],
    lang: str,
    rules_word: str,
    odds_word: str,
) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/?lang={lang}")
    page.fill("#nickname", "Iris")
    page.click("#quick-button")
    page.wait_for_url("**/t/*")
    code = page.url.split("/t/")[1].split("?")[0]
    config = page.request.get(f"http://{live_server}/api/tables/{code}").json()["config"]
    assert config["preset"] == "dudo" and config["forgive_first_timeout"] is True
    table_url = page.url
    page.wait_for_function("() => !document.getElementById('actions').hidden", timeout=30000)
    page.get_by_role("link", name=rules_word, exact=True).click()
    page.wait_for_selector("#panel:not([hidden]) .rules")
    page.screenshot(path=f"/tmp/panel-{lang}.png")
    assert page.evaluate(UNCOVERED, "#bid-button")  # the player can still move...
    assert page.evaluate(UNCOVERED, ".turn-bar .turn")  # ... and sees whose turn, and the clock
    if viewport is DESKTOP:  # ... and, beside the panel, the bids (a phone shows them below)
        assert page.evaluate(UNCOVERED, ".card:has(#bids) h2")
    assert page.url == table_url and len(context.pages) == 1  # no new tab, no navigation
    assert page.locator("#panel-title").inner_text() == rules_word
    assert page.evaluate(IN_VIEW, "#panel-close")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.click("#panel-close")
    assert page.is_hidden("#panel")
    page.get_by_role("link", name=odds_word, exact=True).click()
    page.wait_for_selector("#panel:not([hidden]) .odds-grid")
    before = page.inner_text("#panel-body")
    page.fill("#panel-body input[name=dice]", "7")
    page.locator("#panel-body form button").click()  # the odds form asks again in the panel
    page.wait_for_function(
        "(text) => document.getElementById('panel-body').innerText !== text", arg=before
    )
    assert page.url == table_url and len(context.pages) == 1
    assert page.locator("#panel-body input[name=dice]").input_value() == "7"
    page.keyboard.press("Escape")
    assert page.is_hidden("#panel")
    assert errors == []
    context.close()
