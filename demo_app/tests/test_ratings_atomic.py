"""Ratings are atomic: concurrent ``save_game`` calls lose no rating update.

Many rated games are saved at once (threads, then processes) into one SQLite file; the final
ratings must equal a sequential replay of the same games, with the same rating function, in the
order they were committed (game ids are assigned inside the write transaction, so id order is
commit order). A lost update (a game rated from ratings another game then overwrote) makes the
replay differ, and so does a wrong ``rating_before`` stored for a seat.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path
from random import Random
from types import SimpleNamespace
from typing import Any

import pytest

from liarsdice_demo import ratings
from liarsdice_demo.db import connect, init_schema
from liarsdice_demo.history import save_game

POOL = [f"bot{i}" for i in range(6)]
GAMES = 200
DEFAULT = (25.0, 25.0 / 3)


def _record(rng: Random, number: int) -> dict[str, Any]:
    """A finished bot game: 2-4 players from the pool, random places (ties allowed), mostly rated."""
    names = rng.sample(POOL, rng.randint(2, 4))
    order = names[:]
    rng.shuffle(order)
    places: dict[str, int] = {}
    for position, name in enumerate(order, start=1):
        tie = position > 1 and rng.random() < 0.2
        places[name] = places[order[position - 2]] if tie else position
    config = SimpleNamespace(
        title=f"game {number}",
        variants=(),
        rules=SimpleNamespace(options={}),
        preset=None,
        rated=rng.random() < 0.9,
        dice_per_player=5,
    )
    return {
        "code": f"T{number}",
        "config": config,
        "seats": [
            {"seat": seat, "name": name, "player_id": None, "bot_kind": "bot"}
            for seat, name in enumerate(names)
        ],
        "places": places,
        "winner": min(places, key=places.__getitem__),
        "events": [],
    }


def _save_many(path: str, seed: int, count: int) -> None:
    rng = Random(seed)
    for number in range(count):
        save_game(path, _record(rng, seed * 1000 + number))


def _check_against_replay(path: Path) -> None:
    """Replay the stored games in id (commit) order and compare with the stored ratings."""
    conn = connect(path)
    try:
        games = conn.execute("SELECT id, rated FROM games ORDER BY id").fetchall()
        assert len(games) == GAMES
        current: dict[str, tuple[float, float]] = {name: DEFAULT for name in POOL}
        counts: dict[str, int] = dict.fromkeys(POOL, 0)
        for game in games:
            seats = conn.execute(
                "SELECT name, place, rating_before, rating_after FROM game_players"
                " WHERE game_id = ? ORDER BY seat",
                (game["id"],),
            ).fetchall()
            if not game["rated"]:
                continue
            new = ratings.rate([(*current[s["name"]], s["place"]) for s in seats])
            for seat, rating in zip(seats, new, strict=True):
                assert seat["rating_before"] == ratings.display(*current[seat["name"]]), game["id"]
                assert seat["rating_after"] == ratings.display(*rating), game["id"]
                current[seat["name"]] = rating
                counts[seat["name"]] += 1
        stored = {
            row["nickname"]: row
            for row in conn.execute("SELECT nickname, mu, sigma, rated_games FROM players")
        }
    finally:
        conn.close()
    assert set(stored) <= set(POOL)
    for name, row in stored.items():
        assert row["rated_games"] == counts[name], name
        assert (row["mu"], row["sigma"]) == pytest.approx(current[name], rel=1e-9, abs=1e-9)


def test_concurrent_threads_lose_no_rating_update(tmp_path: Path) -> None:
    path = str(tmp_path / "ratings.sqlite")
    init_schema(path)
    conn = connect(path)
    with conn:  # the bots exist already: this test is about the ratings alone
        conn.executemany(
            "INSERT INTO players (nickname, bot_kind) VALUES (?, 'bot')", [(n,) for n in POOL]
        )
    conn.close()
    workers = 8
    errors: list[BaseException] = []

    def run(seed: int) -> None:
        try:
            _save_many(path, seed, GAMES // workers)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in range(1, workers + 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    _check_against_replay(tmp_path / "ratings.sqlite")


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs the fork start method"
)
def test_concurrent_processes_lose_no_rating_update(tmp_path: Path) -> None:
    path = str(tmp_path / "ratings.sqlite")
    init_schema(path)
    context = multiprocessing.get_context("fork")  # the bots are created concurrently too
    processes = [
        context.Process(target=_save_many, args=(path, seed, GAMES // 2)) for seed in (11, 12)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [process.exitcode for process in processes] == [0, 0]
    _check_against_replay(tmp_path / "ratings.sqlite")


def test_a_failed_save_rolls_back_and_releases_the_lock(tmp_path: Path) -> None:
    path = str(tmp_path / "ratings.sqlite")
    init_schema(path)
    broken = _record(Random(0), 0)
    broken["places"] = {}  # KeyError after the reads and the game insert, inside the transaction
    with pytest.raises(KeyError):
        save_game(path, broken)
    save_game(path, _record(Random(1), 1))
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    finally:
        conn.close()
