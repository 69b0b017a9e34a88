"""The browser test: Playwright drives Debian's Chromium through the lobby and a whole game.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

import random
import time
from typing import Any


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
    # ...and a valid one can be created.
    page.select_option("#preset", "dudo")
    page.fill("#seats", "3")
    page.fill("#dice_per_player", "2")
    page.select_option("#bot_kind", "random")
    page.wait_for_selector(".validation.ok")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#start:visible")
    page.click("#start")
    deadline = time.monotonic() + 90
    while not page.is_visible("#winner"):
        assert time.monotonic() < deadline, "the game did not end in the browser"
        if page.is_visible("#actions"):
            calls = page.query_selector_all("#calls button")
            if calls and rng.random() < 0.4:
                calls[0].click()
            elif page.is_enabled("#bid-button"):
                page.click("#bid-button")
            elif calls:
                calls[0].click()
        page.wait_for_timeout(50)
    assert "wins the game" in page.inner_text("#winner")
    assert page.locator(".seat").count() == 3
    assert not errors, errors
