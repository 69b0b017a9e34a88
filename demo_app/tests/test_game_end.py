"""The end of a game on the table page (issue 49, the smaller items and missing features), in
Debian's Chromium (Playwright): the host's mark is a labelled word, not the winner's star; the
summary at game over (places, each with the rating and its change, the rounds, the best call);
the watchers, counted and named.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import create_in_lobby
from .test_phone import fits
from .test_table_view import DESKTOP, PHONE, open_page

HOST = {
    "en": ("host", "The table's host: starts the game, and may remove players before it"),
    "uk": ("господар", "Господар столу: починає гру і може прибрати гравців до її початку"),
    "ru": ("хозяин", "Хозяин стола: начинает игру и может убрать игроков до её начала"),
}


@pytest.mark.parametrize(("lang", "viewport"), [("uk", PHONE), ("en", DESKTOP)])
def test_the_host_is_marked_by_a_labelled_word_not_a_star(
    live_server: str, browser: Any, lang: str, viewport: dict[str, int]
) -> None:
    """The host's seat shows the word "host" (господар) with a title saying what a host does; no
    seat shows a star before anyone has won (the star is the winner's)."""
    page = open_page(browser, viewport, locale=lang)
    create_in_lobby(page, live_server, seats="3", dice_per_player="2", bot_kind="random")
    page.wait_for_selector("#seats .seat[data-seat='0']")
    seat = page.locator("#seats .seat[data-seat='0'] .name")
    word, title = HOST[lang]
    badge = seat.locator(".host-badge")
    assert badge.inner_text().strip() == word
    assert badge.get_attribute("title") == title
    assert "★" not in page.inner_text("#seats")
    fits(page)
    page.screenshot(path=f"/tmp/end49-host-{lang}.png")
    assert not page.errors, page.errors
