"""The quick game's forgiven first timeout warns its player (issue 49, missing features): the
seat's ``forgiven`` is in every state, and the table page shows that player, and only them, "Your
clock ran out: a bot played for you this time; next time you lose the round" in their banner
(said aloud once), until they put it away; a new game clears it. Unit, then Chromium (a Russian
phone, an English desktop)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .test_forgiving import started
from .test_phone import fits
from .test_table_view import DESKTOP, PHONE, open_page


def test_the_forgiven_seat_says_so_in_the_state_until_the_next_game() -> None:
    table, loop, _, first = started(forgiving=True)
    seats = [s for s in table.seating.seats if s is not None]
    assert not any(s.public(False)["forgiven"] for s in seats)
    loop.time_out()
    assert {s.name: s.public(False)["forgiven"] for s in seats} == {
        s.name: s.name == first for s in seats
    }
    loop.new_game()
    assert not any(s.public(False)["forgiven"] for s in seats)


WARNING = {  # the warning, its button, the log line everyone reads
    "ru": (
        "Ваше время вышло: в этот раз за вас сыграл бот; в следующий раз вы проиграете раунд.",
        "Понятно",
        "Iris: время вышло",
    ),
    "en": (
        "Your clock ran out: a bot played for you this time; next time you lose the round.",
        "Got it",
        "Iris: time ran out",
    ),
}


def my_turn(table: Any) -> bool:
    round_ = table.game.state.round if table.game is not None else None
    return round_ is not None and not round_.over and round_.turn == "Iris"


@pytest.mark.parametrize(("lang", "viewport"), [("ru", PHONE), ("en", DESKTOP)])
def test_the_player_whose_first_timeout_was_forgiven_is_warned_in_their_banner(
    app: Any, live_server: str, browser: Any, lang: str, viewport: dict[str, int]
) -> None:
    """Iris's clock runs out in a quick game: her banner warns her, in her language, and the
    live region says it; a watcher's page shows no warning; "Got it" puts it away."""
    page = open_page(browser, viewport, locale=lang)
    page.goto(f"http://{live_server}/")
    page.fill("#nickname", "Iris")
    page.click("#quick-button")
    page.wait_for_url("**/t/*")
    code = page.url.split("/t/")[1].split("?")[0]
    watcher = open_page(browser, PHONE, locale=lang)
    watcher.goto(f"http://{live_server}/t/{code}")
    table = app.extensions["liarsdice_hub"].get(code)
    page.wait_for_function("() => !document.getElementById('actions').hidden", timeout=30000)
    assert page.is_hidden("#banner")
    deadline = time.monotonic() + 30
    while not my_turn(table):  # the page saw Iris's turn; the table may still be dealing it
        assert time.monotonic() < deadline
        time.sleep(0.01)
    # Iris's clock runs out, as the clock's job does it (not waiting out the turn)
    table.hub.scheduler.call_later(0, lambda: table.clock.run(table.clock.gen, table.loop.time_out))
    text, got_it, logged = WARNING[lang]
    page.wait_for_selector("#banner:not([hidden]) #forgiven")
    assert page.inner_text("#forgiven strong") == text
    page.wait_for_function("(text) => window.liarsdiceAnnounced.includes(text)", arg=text)
    fits(page)
    page.screenshot(path=f"/tmp/seats49-warning-{lang}.png")
    watcher.wait_for_function(
        "(line) => document.getElementById('log-lines').innerText.includes(line)", arg=logged
    )
    assert watcher.is_hidden("#banner") and watcher.locator("#forgiven").count() == 0
    page.get_by_role("button", name=got_it).click()
    assert page.is_hidden("#banner")
    page.wait_for_timeout(300)  # the next states (bots move) keep it put away
    assert page.is_hidden("#banner") and page.locator("#forgiven").count() == 0
    assert not page.errors and not watcher.errors, (page.errors, watcher.errors)
