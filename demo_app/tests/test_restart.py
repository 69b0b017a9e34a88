"""Live tables survive a restart of the embedded (SQLite) server: in process, and after ``kill -9``
of a served process, players get their seat, dice, bids and clock back and the game finishes.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest
import redis

from liarsdice.events import Event
from liarsdice.game import Game
from liarsdice.reducer import replay
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import from_data
from liarsdice_demo import create_app
from liarsdice_demo.storage.live_store import LiveStore, StoreConflict
from liarsdice_demo.storage.redis_store import RedisStore
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.driving import RESUME_GRACE

from .conftest import Tab, WSPlayer
from .test_served import free_port, post, serving

SETTINGS = {"TESTING": True, "BOT_DELAY": 0.0, "REVEAL_PAUSE": 0.0}


def hub_of(app: Any) -> Any:
    return app.extensions["liarsdice_hub"]


def test_a_table_comes_back_after_a_restart_and_plays_on(tmp_path: Path) -> None:
    database = str(tmp_path / "demo.sqlite")
    first = create_app({**SETTINGS, "DATABASE": database})
    hub = hub_of(first)
    body = {"nickname": "Iris", "preset": "perudo", "seats": 3, "turn_seconds": 120}
    made = first.test_client().post("/api/tables", json=body).json
    table, token = hub.get(made["code"]), made["seat_token"]
    table.start_now()  # Iris and two bots; the bots act at once, then Iris's clock runs
    deadline = time.monotonic() + 30
    while table.game.state.round.turn != "Iris" or table.game.state.round.over:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    table.attach(Tab(), token)  # Iris has the table open: her seat shows as connected
    with table.lock:
        events, dice = list(table.game.events), table.known_dice("Iris")
        left = table.clock.deadline - time.monotonic()
        assert table.seats[0].public(True)["connected"]
    hub.shutdown()  # the process stops: nothing more is written

    second = create_app({**SETTINGS, "DATABASE": database})
    try:
        again = hub_of(second).get(table.code)
        assert again is not None and again.status == "playing"
        assert again.game.events == events and again.game.state == replay(events)
        assert again.known_dice("Iris") == dice
        assert [s.name for s in again.seats] == [s.name for s in table.seats]
        assert again.seating.by_token(token) is again.seats[0]
        assert not again.seats[0].public(True)["connected"]  # her socket died with the process
        assert again.join_key == table.join_key and again.uid == table.uid
        remaining = again.clock.deadline - time.monotonic()
        assert min(RESUME_GRACE, 120) - 1 <= remaining <= left + 0.5  # what was left, not more
        # Iris times out (a short clock for the test); the bots go on and the game ends.
        again.hub.scheduler.call_later(
            0, lambda: again.clock.run(again.clock.gen, again.loop.time_out)
        )
        deadline = time.monotonic() + 60
        while again.status != "over" or again.game_id is None:
            assert time.monotonic() < deadline, again.status
            with again.lock:
                if again.game.state.round.turn == "Iris" and not again.game.state.round.over:
                    again.loop.time_out()
            time.sleep(0.01)
        assert again.game.events[: len(events)] == events
    finally:
        hub_of(second).shutdown()
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT events FROM games").fetchall()
    assert len(rows) == 1
    saved = from_data(json.loads(rows[0][0]), list[Event])
    assert saved == again.game.events and replay(saved).winner is not None


def test_a_finished_game_that_was_not_saved_is_saved_once_on_restart(tmp_path: Path) -> None:
    database = str(tmp_path / "demo.sqlite")
    app = create_app({**SETTINGS, "DATABASE": database})
    hub = hub_of(app)
    config = parse_config({"variants": ["dice-loss", "calza"], "seats": 2, "dice_per_player": 1})
    table = hub.create(config, start=True)  # two bots
    deadline = time.monotonic() + 30
    while table.game_id is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    hub.shutdown()
    # As if the process died after the game was stored as over but before it was saved.
    store = LiveStore(database)
    [stored] = store.load()
    record = {**stored.record, "game_id": None}
    store.commit(table.code, stored.version, record, stored.record["game"], len(stored.events))
    store.close()
    for _ in range(2):  # two restarts: the game is saved once
        again = create_app({**SETTINGS, "DATABASE": database})
        restored = hub_of(again).get(table.code)
        deadline = time.monotonic() + 10
        while restored.game_id is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert restored.game_id == table.game_id
        hub_of(again).shutdown()
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_a_finished_game_the_database_refused_is_saved_when_it_takes_it(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from liarsdice_demo.tables.sweep import expired

    app = create_app({**SETTINGS, "DATABASE": str(tmp_path / "demo.sqlite")})
    hub = hub_of(app)
    real_save, refused = hub.save_game, []

    def database_down_twice(record: dict[str, Any]) -> Any:
        if len(refused) < 2:
            refused.append(record["live_key"])
            raise OSError("connection refused")  # as a driver's error would
        return real_save(record)

    monkeypatch.setattr(hub, "save_game", database_down_twice)
    try:
        config = parse_config(
            {"variants": ["dice-loss", "calza"], "seats": 2, "dice_per_player": 1}
        )
        table = hub.create(config, start=True)  # two bots
        deadline = time.monotonic() + 30
        while not refused:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        # Unsaved, the finished table is not closed however long it waits.
        assert table.status == "over" and table.game_id is None
        assert not expired(table, time.monotonic() + 10**6)
        while table.game_id is None:  # tried again after 1 s, then after 2 s
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert len(refused) == 2 and len(set(refused)) == 1
        assert expired(table, time.monotonic() + 10**6)
    finally:
        hub.shutdown()


@pytest.fixture(params=["sqlite", "redis"])
def store(request: Any, tmp_path: Path) -> Iterator[Any]:
    """Each kind of live store, empty."""
    if request.param == "sqlite":
        made: Any = LiveStore(tmp_path / "live.sqlite")
    else:
        url = request.getfixturevalue("redis_url")
        made = RedisStore(url, prefix=f"test-{tmp_path.name}:")
    yield made
    made.close()


def test_the_store_keeps_one_log_and_refuses_a_second_writer(store: Any) -> None:
    events = replay_log()
    assert store.reserve("ABCD", 1.0) and not store.reserve("ABCD", 2.0)
    assert store.load() == []  # a reserved code holds no table yet
    record = {"game": 1, "created": 1.0}
    assert store.commit("ABCD", 0, record, 1, 0, events[:2]) == 1
    for version in (0, 2):  # made from an older copy, or from none
        with pytest.raises(StoreConflict, match="ABCD"):
            store.commit("ABCD", version, {**record, "x": 1}, 1, 2, events[2:3])
    [stored] = store.load()
    assert (stored.events, stored.record, stored.version) == (events[:2], record, 1)
    assert store.commit("ABCD", 1, {**record, "y": 2}, 1, 2) == 2  # the record alone
    assert store.commit("ABCD", 2, record, 1, 2, events[2:4]) == 3
    assert store.load()[0].events == events[:4]
    assert store.commit("ABCD", 3, {"game": 2, "created": 1.0}, 2, 0, events[:1]) == 4  # rematch
    assert store.table("ABCD").events == events[:1]
    store.commit("EFGH", 0, {"game": 1, "created": 2.0}, 1, 0, events[:3])
    assert [t.code for t in store.load()] == ["ABCD", "EFGH"]  # oldest first
    store.drop("ABCD")
    assert [t.code for t in store.load()] == ["EFGH"] and store.table("ABCD") is None
    assert store.reserve("ABCD", 3.0)  # a dropped code is free again


def test_two_writers_racing_on_one_table_one_wins(store: Any) -> None:
    events = replay_log()
    store.commit("RACE", 0, {"game": 1, "created": 1.0}, 1, 0, events[:2])
    outcomes: list[str] = []

    def write(name: str) -> None:
        try:
            store.commit("RACE", 1, {"game": 1, "created": 1.0, "by": name}, 1, 2, events[2:3])
            outcomes.append(name)
        except StoreConflict:
            outcomes.append("refused")

    racers = [threading.Thread(target=write, args=(name,)) for name in ("one", "two")]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert len(outcomes) == 2 and outcomes.count("refused") == 1
    stored = store.table("RACE")
    assert stored.record["by"] in outcomes and stored.events == events[:3]


def replay_log() -> list[Event]:
    game = Game(Ruleset.build(["dice-loss"]), ["Ann", "Ben"], Random(1))
    game.start_round()
    game.bid("Ann", 1, 2)
    game.bid("Ben", 2, 2)
    game.call("Ann")
    return list(game.events)


@pytest.fixture(params=["sqlite", "redis"])
def server(request: Any, tmp_path: Path) -> Iterator[Any]:
    """Start (and restart) ``liarsdice-demo`` on one SQLite file, its live tables there or in
    Redis (database 1, emptied first); yields ``start() -> host``."""
    redis_url = None
    if request.param == "redis":
        redis_url = request.getfixturevalue("redis_url").replace("/0", "/1")
        redis.Redis.from_url(redis_url).flushdb()
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[Any] = []

    def start() -> str:
        port = free_port()
        env = dict(os.environ, LIARSDICE_DEMO_BOT_DELAY="0", LIARSDICE_DEMO_REVEAL_PAUSE="0")
        cmd = [sys.executable, "-m", "liarsdice_demo", "--port", str(port)]
        cmd += ["--db", str(tmp_path / "served.sqlite")]
        cmd += ["--redis", redis_url] if redis_url else []
        log = open(tmp_path / f"server-{port}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        procs.append(proc)
        logs.append(log)
        return serving(proc, f"127.0.0.1:{port}", tmp_path / f"server-{port}.log")

    start.procs = procs  # type: ignore[attr-defined]
    start.redis_url = redis_url  # type: ignore[attr-defined]
    yield start
    for proc, log in zip(procs, logs, strict=True):
        if proc.poll() is None:
            proc.terminate()
            proc.wait(20)
        log.close()


def latest_state(player: WSPlayer, timeout: float = 20.0) -> dict[str, Any]:
    """The newest state message once it is ``player``'s turn to act."""
    deadline = time.monotonic() + timeout
    while True:
        states = [m for m in player.messages if m["type"] == "state"]
        if states and (states[-1]["legal"] or states[-1]["table"]["status"] in ("over", "stopped")):
            return states[-1]
        assert time.monotonic() < deadline, "it never became the player's turn"
        time.sleep(0.02)


def test_kill_9_and_restart_the_game_goes_on(server: Any, tmp_path: Path) -> None:
    host = server()
    status, made = post(
        host, "/api/tables", {"nickname": "Iris", "preset": "dudo", "seats": 3, "turn_seconds": 90}
    )
    assert status == 200, made
    iris = WSPlayer(host, made["code"], made["seat_token"]).connect()
    iris.expect("welcome")
    iris.send("start")
    for _ in range(3):  # Iris bids three times (the bots answer at once)
        state = latest_state(iris)
        if state["table"]["status"] != "playing":
            break
        iris.messages.clear()
        quantity, face = state["legal"]["bids"][0]
        iris.send("bid", quantity=quantity, face=face)
    before = latest_state(iris)
    assert before["table"]["status"] == "playing", "the game ended before the crash"
    iris.close()
    server.procs[0].send_signal(signal.SIGKILL)
    server.procs[0].wait(10)

    if server.redis_url:  # the table was kept in Redis, not in the SQLite file
        assert redis.Redis.from_url(server.redis_url).zscore("liarsdice:tables", made["code"])
        with sqlite3.connect(tmp_path / "served.sqlite") as db:
            names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            assert "live_tables" not in names
    host = server()  # the same database, a new process
    iris = WSPlayer(host, made["code"], made["seat_token"]).connect()
    assert iris.expect("welcome")["seat"] == 0
    after = latest_state(iris)
    assert after["view"]["own_dice"] == before["view"]["own_dice"]
    assert after["view"]["bids"] == before["view"]["bids"]
    assert after["legal"] == before["legal"]
    assert RESUME_GRACE - 2 <= after["table"]["remaining"] <= before["table"]["remaining"] + 0.5
    while True:  # Iris plays on: the game finishes
        state = latest_state(iris)
        if state["table"]["status"] != "playing":
            break
        iris.messages.clear()
        legal = state["legal"]
        if legal["calls"]:
            iris.send("call", kind=legal["calls"][0])
        else:
            iris.send("bid", quantity=legal["bids"][0][0], face=legal["bids"][0][1])
    iris.close()
    with sqlite3.connect(tmp_path / "served.sqlite") as db:
        deadline = time.monotonic() + 10
        while not (rows := db.execute("SELECT events FROM games").fetchall()):
            assert time.monotonic() < deadline, "the finished game was not saved"
            time.sleep(0.1)
    assert len(rows) == 1
    saved = from_data(json.loads(rows[0][0]), list[Event])
    state = replay(saved)  # no event lost or doubled: the log replays to the final state
    assert state.winner is not None
    assert [e for e in saved if type(e).__name__ == "GameStarted"] == saved[:1]


def test_kill_9_during_the_pause_after_a_reveal_the_players_come_back_to_it(
    tmp_path: Path,
) -> None:
    """Embedded mode, ``kill -9`` 2.5 s into a 4 s pause after a reveal: the restarted server
    (about 2 s to start) must not deal the next round before the players are back."""
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> str:
        port = free_port()
        env = dict(os.environ, LIARSDICE_DEMO_BOT_DELAY="0", LIARSDICE_DEMO_REVEAL_PAUSE="4")
        cmd = [sys.executable, "-m", "liarsdice_demo", "--port", str(port)]
        cmd += ["--db", str(tmp_path / "served.sqlite")]
        log = tmp_path / f"server-{port}.log"
        with open(log, "wb") as out:
            procs.append(subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT))
        return serving(procs[-1], f"127.0.0.1:{port}", log)

    try:
        host = start()
        body = {"nickname": "Iris", "preset": "dudo", "seats": 2, "turn_seconds": 90}
        status, made = post(host, "/api/tables", body)
        assert status == 200, made
        iris = WSPlayer(host, made["code"], made["seat_token"]).connect()
        iris.expect("welcome")
        iris.send("start")
        deadline = time.monotonic() + 30
        while not (reveals := [m for m in iris.messages if m["type"] == "reveal"]):
            assert time.monotonic() < deadline, "nobody called"
            states = [m for m in iris.messages if m["type"] == "state"]
            legal = states[-1]["legal"] if states else None
            if legal:  # Iris calls as soon as she can (or the bot does)
                iris.messages.clear()
                if legal["calls"]:
                    iris.send("call", kind=legal["calls"][0])
                else:
                    iris.send("bid", quantity=legal["bids"][0][0], face=legal["bids"][0][1])
            time.sleep(0.01)
        [reveal] = reveals
        time.sleep(2.5)
        iris.close()
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(10)

        host = start()
        back = WSPlayer(host, made["code"], made["seat_token"]).connect()
        back.expect("welcome")
        first = back.expect("state")
        assert first["reveal"] is not None, "the next round was dealt before Iris came back"
        assert first["reveal"]["rolls"] == reveal["rolls"]
        assert first["reveal"]["explanation"] == reveal["explanation"]
        assert first["table"]["status"] == "playing" and first["legal"] is None
        deadline = time.monotonic() + RESUME_GRACE + 10  # then the game goes on
        while (latest := back.messages[-1])["type"] != "state" or latest["reveal"] is not None:
            assert time.monotonic() < deadline, "the next round never came"
            time.sleep(0.05)
        back.close()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(20)
