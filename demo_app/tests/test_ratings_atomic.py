"""Ratings are atomic: concurrent ``save_game`` calls lose no rating update.

Many rated games are saved at once (threads, then processes) into one database, SQLite and
PostgreSQL; the final ratings must equal a sequential replay of the same games, with the same
rating function, in the order they were committed (game ids are assigned inside the write
transaction, after the seats' players are locked, so among games sharing a player id order is
commit order). A lost update (a game rated from ratings another game then overwrote) makes the
replay differ, and so does a wrong ``rating_before`` stored for a seat.
"""

from __future__ import annotations

import multiprocessing
import threading
from random import Random
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import func, insert, select

from liarsdice_demo.storage import db, ratings
from liarsdice_demo.storage.history import save_game

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
        "winners": [min(places, key=places.__getitem__)],
        "sides": [[name] for name in places],
        "events": [],
    }


def _save_many(url: str, seed: int, count: int) -> None:
    rng = Random(seed)
    for number in range(count):
        save_game(url, _record(rng, seed * 1000 + number))


def _check_against_replay(url: str) -> None:
    """Replay the stored games in id (commit) order and compare with the stored ratings."""
    gp, p = db.game_players, db.players
    with db.engine_for(url).connect() as conn:
        games = conn.execute(select(db.games.c.id, db.games.c.rated).order_by("id")).all()
        assert len(games) == GAMES
        current: dict[str, tuple[float, float]] = {name: DEFAULT for name in POOL}
        counts: dict[str, int] = dict.fromkeys(POOL, 0)
        for game in games:
            seats = conn.execute(
                select(gp.c.name, gp.c.place, gp.c.rating_before, gp.c.rating_after)
                .where(gp.c.game_id == game.id)
                .order_by(gp.c.seat)
            ).all()
            if not game.rated:
                continue
            new = ratings.rate([[current[s.name]] for s in seats], [s.place for s in seats])
            for seat, [rating] in zip(seats, new, strict=True):
                assert seat.rating_before == ratings.display(*current[seat.name]), game.id
                assert seat.rating_after == ratings.display(*rating), game.id
                current[seat.name] = rating
                counts[seat.name] += 1
        query = select(p.c.nickname, p.c.mu, p.c.sigma, p.c.rated_games)
        stored = {row.nickname: row for row in conn.execute(query)}
    assert set(stored) <= set(POOL)
    for name, row in stored.items():
        assert row.rated_games == counts[name], name
        assert (row.mu, row.sigma) == pytest.approx(current[name], rel=1e-9, abs=1e-9)


def test_concurrent_threads_lose_no_rating_update(database_url: str) -> None:
    engine = db.engine_for(database_url)
    db.init_schema(engine)
    with engine.begin() as conn:  # the bots exist already: this test is about the ratings alone
        conn.execute(insert(db.players), [{"nickname": n, "bot_kind": "bot"} for n in POOL])
    workers = 8
    errors: list[BaseException] = []

    def run(seed: int) -> None:
        try:
            _save_many(database_url, seed, GAMES // workers)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in range(1, workers + 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    _check_against_replay(database_url)


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs the fork start method"
)
def test_concurrent_processes_lose_no_rating_update(database_url: str) -> None:
    engine = db.engine_for(database_url)
    db.init_schema(engine)
    engine.dispose()  # no pooled connection is shared with the forked processes
    context = multiprocessing.get_context("fork")  # the bots are created concurrently too
    processes = [
        context.Process(target=_save_many, args=(database_url, seed, GAMES // 2))
        for seed in (11, 12)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [process.exitcode for process in processes] == [0, 0]
    _check_against_replay(database_url)


def test_a_failed_save_rolls_back_and_releases_the_lock(database_url: str) -> None:
    engine = db.engine_for(database_url)
    db.init_schema(engine)
    broken = _record(Random(0), 0)
    broken["places"] = {}  # KeyError after the reads and the game insert, inside the transaction
    with pytest.raises(KeyError):
        save_game(database_url, broken)
    save_game(database_url, _record(Random(1), 1))
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(db.games)).scalar() == 1


def test_a_game_is_saved_once_even_by_two_savers_at_once(database_url: str) -> None:
    engine = db.engine_for(database_url)
    db.init_schema(engine)
    record = {**_record(Random(2), 2), "live_key": "table-uid:1"}
    record["config"].rated = True
    start = threading.Barrier(4)
    results: list[tuple[int, Any]] = []

    def save() -> None:
        start.wait()
        results.append(save_game(database_url, record))

    threads = [threading.Thread(target=save) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({game_id for game_id, _ in results}) == 1
    assert sum(changes is not None for _, changes in results) == 1  # rated once
    assert save_game(database_url, record) == (results[0][0], None)  # and once more: no change
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(db.games)).scalar() == 1
        assert conn.execute(select(func.max(db.players.c.rated_games))).scalar() == 1
