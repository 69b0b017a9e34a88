"""The end of a game on the table page (issue 49, the smaller items and missing features), in
Debian's Chromium (Playwright): the host's mark is a labelled word, not the winner's star; the
summary at game over (places, each with the rating and its change, the rounds, the best call);
the watchers, counted and named.

Skipped (with the reason) when ``/usr/bin/chromium`` is absent: ``apt-get install chromium``.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import create_in_lobby
from .test_game_night import move
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


SUMMARY = {
    "en": ("1st place", "rating", "Best call, round", lambda n: f"{n} round"),
    "ru": ("место 1", "рейтинг", "Лучший вызов, раунд", lambda n: f"Сыграно раундов: {n}"),
    "uk": ("місце 1", "рейтинг", "Найкращий виклик, раунд", lambda n: f"Зіграно раундів: {n}"),
}


def rated_table(page: Any, host: str, seats: int) -> str:
    """A rated table of ``seats`` (1 die each, random bots for the empty seats) made by Iris in
    the lobby; its code, with ``page`` on the table."""
    page.goto(f"http://{host}/")
    page.fill("#nickname", "Iris")
    page.select_option("#preset", "")
    for variant in ("dice-loss", "calza"):
        page.check(f"input[name=variant][value={variant}]")
    page.fill("#seats", str(seats))
    page.fill("#dice_per_player", "1")
    page.select_option("#bot_kind", "random")
    page.check("#rated")
    page.wait_for_selector(".validation.ok")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    return str(page.url.split("/t/")[1].split("?")[0])


def play_out(page: Any) -> None:
    """Make ``page``'s moves until the game is over (its winner shown)."""
    deadline = time.monotonic() + 90
    while not page.is_visible("#winner"):
        assert time.monotonic() < deadline, "the game did not end"
        move(page)
        page.wait_for_timeout(50)  # a poll's pace, not a wait for something


def signed(delta: float, lang: str) -> str:
    """A rating change as the page writes it: "+1.5", "−0.8", "±0" (uk, ru: "+1,5")."""
    if not delta:
        return "±0"
    figure = f"{abs(delta):.1f}".replace(".", "," if lang != "en" else ".")
    return ("+" if delta > 0 else "\u2212") + figure


@pytest.mark.parametrize(("lang", "viewport"), [("ru", PHONE), ("uk", PHONE), ("en", DESKTOP)])
def test_game_over_shows_the_places_with_their_ratings_the_rounds_and_the_best_call(
    app: Any, live_server: str, browser: Any, lang: str, viewport: dict[str, int]
) -> None:
    """At the end of a rated game of three the banner lists every player by place, each with
    "rating 1.5 (+1.5)" (the real change's sign: a minus for a fall, ±0 for none), then the rounds
    played and the best call; nothing sticks out of a phone."""
    page = open_page(browser, viewport, locale=lang)
    code = rated_table(page, live_server, 3)
    page.click("#start")
    play_out(page)
    first, rating, best_call, rounds = SUMMARY[lang]
    page.wait_for_selector("#places .rating")  # once the game is saved
    table = app.extensions["liarsdice_hub"].get(code)
    summary = table.fanout.table_data()["summary"]
    changes = table.match.ratings
    lines = page.locator("#places li").all_inner_texts()
    assert len(lines) == 3 and lines[0].startswith(first), lines
    for line, entry in zip(lines, summary["places"], strict=True):
        change = changes[entry["name"]]
        after = f"{change['after']:.1f}".replace(".", "," if lang != "en" else ".")
        assert f"{rating} {after} ({signed(change['delta'], lang)})" in line, (line, change)
        assert entry["name"].replace(" (bot)", "") in line
    beside = page.eval_on_selector_all(  # a wrapped rating starts under the name, not the place
        "#places li",
        """(lines) => lines.map((l) => l.querySelector('.rating').getBoundingClientRect().left
          >= l.querySelector('.place').getBoundingClientRect().right - 1)""",
    )
    assert all(beside), (beside, lines)
    facts = page.inner_text("#game-facts")
    assert rounds(summary["rounds"]) in facts
    assert (best_call in facts) == (summary["best_call"] is not None), facts
    fits(page)
    page.locator("#banner").scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/end49-summary-{lang}.png")
    assert not page.errors, page.errors


def test_the_watchers_are_counted_and_named_for_players_and_watchers(
    live_server: str, browser: Any
) -> None:
    """Mila (a known player: she made a table once) watches Iris's table on a Ukrainian phone,
    then a guest nobody knows: both pages, Iris's desktop in English and Mila's phone in
    Ukrainian, say how many watch and who; when the guest leaves, the count follows."""
    iris = open_page(browser, DESKTOP, locale="en")
    create_in_lobby(iris, live_server, seats="3", dice_per_player="2", bot_kind="random")
    watch_link = iris.url.split("?")[0]  # the code only: it lets people watch, not sit
    mila = open_page(browser, PHONE, locale="uk")
    mila.goto(f"http://{live_server}/")
    mila.fill("#nickname", "Mila")
    mila.click("#create-button")  # her own table: the server knows her from now on
    mila.wait_for_url("**/t/*")
    mila.goto(watch_link)
    iris.wait_for_selector("#watchers:has-text('1 watching: Mila')")
    mila.wait_for_selector("#watchers:has-text('1 глядач: Mila')")
    guest = open_page(browser, PHONE, locale="ru")
    guest.goto(watch_link)
    iris.wait_for_selector("#watchers:has-text('2 watching: Mila and 1 guest')")
    mila.wait_for_selector("#watchers:has-text('2 глядачі: Mila і 1 гість')")
    guest.wait_for_selector("#watchers:has-text('2 зрителя: Mila и 1 гость')")
    fits(mila)
    mila.screenshot(path="/tmp/end49-watchers-uk.png", full_page=True)
    iris.screenshot(path="/tmp/end49-watchers-en.png")
    guest.context.close()
    iris.wait_for_selector("#watchers:has-text('1 watching: Mila')")
    mila.wait_for_selector("#watchers:has-text('1 глядач: Mila')")
    assert not iris.errors and not mila.errors, (iris.errors, mila.errors)
