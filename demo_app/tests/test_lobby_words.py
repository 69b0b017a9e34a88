"""Player-facing words of the lobby, history and leaderboard: titles in the page's language,
labelled placings, the rating in plain words with its detail folded away."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.titles import game_title
from liarsdice_demo.text.places import place_text

UK = {"Accept-Language": "uk"}


@pytest.fixture
def game_id(app: Any) -> int:
    """A finished rated game of bots on the casino's rules."""
    config = parse_config({"preset": "casino", "seats": 3, "rated": True, "bot_kind": "random"})
    table = app.extensions["liarsdice_hub"].create(config, start=True)
    deadline = time.monotonic() + 30
    while table.game_id is None:
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.02)
    return int(table.game_id)


@pytest.mark.parametrize(
    ("place", "text"),
    [
        (1, "1st place"),
        (2, "2nd place"),
        (3, "3rd place"),
        (4, "4th place"),
        (11, "11th place"),
        (12, "12th place"),
        (13, "13th place"),
        (21, "21st place"),
        (112, "112th place"),
    ],
)
def test_places_read_as_ordinals(app: Any, place: int, text: str) -> None:
    with app.test_request_context("/"):
        assert place_text(place) == text


def test_replay_placings_are_labelled_in_each_language(client: Any, game_id: int) -> None:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "(1st place)" in page and "(2nd place)" in page
    assert not re.search(r"</a> \(\d\)", page)
    ukrainian = client.get(f"/games/{game_id}", headers=UK).get_data(as_text=True)
    assert "(місце 1)" in ukrainian
    assert "Казино з револьвером" in ukrainian  # the title too


def test_history_titles_read_in_the_page_language(client: Any, game_id: int) -> None:
    english = client.get("/").get_data(as_text=True)
    assert "Casino revolver" in english
    lobby = client.get("/", headers=UK).get_data(as_text=True)
    games = lobby.split('id="quick"')[0].rsplit('<ul class="tables">', 1)[-1]
    assert "Казино з револьвером" in games and "Casino revolver" not in games


def test_a_title_that_cannot_be_rebuilt_stays_the_stored_one(app: Any) -> None:
    row = {
        "title": "Old rules",
        "preset": None,
        "variants": json.dumps(["gone-variant"]),
        "options": "{}",
        "dice_per_player": 5,
    }
    with app.test_request_context("/", headers=UK):
        assert game_title(row, "uk") == "Old rules"


def test_the_leaderboard_speaks_plainly_and_folds_the_detail(client: Any, game_id: int) -> None:
    page = client.get("/leaderboard").get_data(as_text=True)
    board = page.split('id="board"')[1].split("</table>")[0]
    assert "Rating" in board and "Games" in board
    assert "μ" not in board and "σ" not in board
    main = page.split('id="how-ratings-work"')[0]
    assert "Plackett" not in main and "3 ×" not in main
    assert 'href="#how-ratings-work"' in main
    assert "Plackett-Luce" in page.split('id="how-ratings-work"')[1]
