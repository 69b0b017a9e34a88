"""Two served processes share one real Redis: players on either play one game, the process that
drives a table can die (``kill -9``) and the other takes over, and two processes acting on one
table at once are ordered by the store."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from liarsdice import engine
from liarsdice.events import BidMade, Event
from liarsdice.reducer import replay
from liarsdice.serialization import from_data

from .conftest import Conn, WSPlayer
from .test_served import free_port, post, serving

LEASE = 1.5
"""The lease the servers use here (seconds): a dead driver's tables move within LEASE * 4 / 3."""


class Servers:
    """Demo processes on one SQLite file and one Redis database."""

    def __init__(self, folder: Path, redis_url: str) -> None:
        self.folder, self.redis_url = folder, redis_url
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: list[Any] = []

    def start(self, workers: int = 1) -> str:
        port = free_port()
        env = dict(os.environ, LIARSDICE_DEMO_BOT_DELAY="0.05", LIARSDICE_DEMO_REVEAL_PAUSE="0")
        env["LIARSDICE_DEMO_LEASE_SECONDS"] = str(LEASE)
        cmd = [sys.executable, "-m", "liarsdice_demo", "--port", str(port)]
        cmd += ["--db", str(self.folder / "shared.sqlite"), "--redis", self.redis_url]
        cmd += ["--workers", str(workers)]
        log = open(self.folder / f"server-{port}.log", "wb")  # noqa: SIM115
        self.logs.append(log)
        proc = subprocess.Popen(
            cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        host = f"127.0.0.1:{port}"
        self.procs[host] = proc
        return serving(proc, host, self.folder / f"server-{port}.log")

    def kill(self, host: str) -> None:
        """``kill -9`` the server at ``host``: gunicorn's master and its worker at once."""
        proc = self.procs[host]
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def runs(self, node: str | None, host: str) -> bool:
        """True when the process named ``node`` (host:pid:random) is part of the server at ``host``."""
        if node is None:
            return False
        try:
            return os.getpgid(int(node.split(":")[1])) == self.procs[host].pid
        except ProcessLookupError:
            return False

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
                proc.wait(20)
        for log in self.logs:
            log.close()


@pytest.fixture
def servers(redis_url: str, tmp_path: Path) -> Iterator[Servers]:
    url = redis_url.replace("/0", "/2")
    redis.Redis.from_url(url).flushdb()
    made = Servers(tmp_path, url)
    yield made
    made.stop()


def lease_holder(servers: Servers, code: str) -> str | None:
    found = redis.Redis.from_url(servers.redis_url).get(f"liarsdice:lease:{code}")
    return None if found is None else found.decode()


def latest(player: WSPlayer) -> dict[str, Any] | None:
    states = [m for m in player.messages if m["type"] == "state"]
    return states[-1] if states else None


def play_on(player: WSPlayer, rng: random.Random) -> None:
    """If it is ``player``'s turn in the newest state, make a legal move."""
    state = latest(player)
    legal = state and state["legal"]
    if not legal:
        return
    player.messages.clear()
    if legal["calls"] and (rng.random() < 0.4 or not legal["bids"]):
        player.send("call", kind=rng.choice(legal["calls"]))
    else:
        quantity, face = legal["bids"][0]
        player.send("bid", quantity=quantity, face=face)


def bids_seen(player: WSPlayer) -> list[dict[str, Any]]:
    """The bids of the round in ``player``'s newest view."""
    state = latest(player)
    return list(state["view"]["bids"]) if state and state["view"] else []


def over(player: WSPlayer) -> bool:
    return any(m["type"] == "state" and m["table"]["status"] == "over" for m in player.messages)


def play_to_the_end(players: list[WSPlayer], rng: random.Random) -> None:
    """Each of ``players`` makes a legal move on their turn until every one sees the game over."""
    deadline = time.monotonic() + 120
    while not all(over(player) for player in players):
        assert time.monotonic() < deadline, "the game did not finish"
        for player in players:
            play_on(player, rng)
        time.sleep(0.02)


def saved_games(folder: Path) -> list[list[Event]]:
    with sqlite3.connect(folder / "shared.sqlite") as db:
        rows = db.execute("SELECT events FROM games ORDER BY id").fetchall()
    return [from_data(json.loads(row[0]), list[Event]) for row in rows]


def wait_saved(folder: Path, count: int = 1) -> list[list[Event]]:
    deadline = time.monotonic() + 20
    while len(games := saved_games(folder)) < count:
        assert time.monotonic() < deadline, "the finished game was not saved"
        time.sleep(0.1)
    return games


def table_with_two_players(first: str, second: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Iris makes a 4-seat public table on ``first``, Knox sits through ``second``."""
    body = {"nickname": "Iris", "preset": "dudo", "seats": 4, "public": True, "turn_seconds": 30}
    status, made = post(first, "/api/tables", body)
    assert status == 200, made
    status, sat = post(second, f"/api/tables/{made['code']}/seat", {"nickname": "Knox"})
    assert status == 200, sat
    return made, sat


def test_players_on_two_processes_play_one_game(servers: Servers) -> None:
    one, two = servers.start(), servers.start()
    made, sat = table_with_two_players(one, two)
    code = made["code"]
    # The lobby of either process lists the table (the shared store, read at most once a
    # second), with both seats taken.
    for host in (one, two):

        def listed(host: str = host) -> list[tuple[str, int]]:
            with urllib.request.urlopen(f"http://{host}/api/tables", timeout=5) as answer:
                return [(t["code"], t["taken"]) for t in json.loads(answer.read())["tables"]]

        wait_until(lambda: listed() == [(code, 2)], 5.0, pause=0.3)
    iris = WSPlayer(one, code, made["seat_token"]).connect()
    knox = WSPlayer(two, code, sat["seat_token"]).connect()
    try:
        assert iris.expect("welcome")["seat"] == 0 and knox.expect("welcome")["seat"] == 1
        iris.send("start")
        play_to_the_end([iris, knox], random.Random(5))
        finals = [latest(p) for p in (iris, knox)]
        assert finals[0]["view"]["winner"] == finals[1]["view"]["winner"] is not None
        assert any(m["type"] == "reveal" for m in knox.messages)  # fanned out from process 1
        # Each sees the other connected, though on another process: a rematch needs both.
        for state in finals:
            assert [s["connected"] for s in state["table"]["seats"][:2]] == [True, True]
        iris.send("rematch")
        wait_until(lambda: latest(knox)["table"]["seats"][0]["rematch"])
        assert latest(knox)["table"]["status"] == "over"  # Iris alone cannot restart
        knox.send("rematch")
        wait_until(lambda: latest(iris)["table"]["status"] == "playing")
    finally:
        iris.close()
        knox.close()
    [events] = wait_saved(servers.folder)
    assert replay(events).winner == finals[0]["view"]["winner"]


def test_one_server_with_two_workers_plays_whole_games(servers: Servers) -> None:
    host = servers.start(workers=2)  # requests and sockets land on either worker
    for game in range(2):
        made, sat = table_with_two_players(host, host)
        iris = WSPlayer(host, made["code"], made["seat_token"]).connect()
        knox = WSPlayer(host, made["code"], sat["seat_token"]).connect()
        try:
            iris.expect("welcome")
            knox.expect("welcome")
            iris.send("start")
            play_to_the_end([iris, knox], random.Random(game))
        finally:
            iris.close()
            knox.close()
    for events in wait_saved(servers.folder, 2):
        assert replay(events).winner is not None


def test_the_driver_dies_and_the_other_process_drives_on(servers: Servers) -> None:
    one, two = servers.start(), servers.start()
    made, sat = table_with_two_players(one, two)
    code = made["code"]
    driver = lease_holder(servers, code)
    assert servers.runs(driver, one)  # the process that made the table drives it
    iris = WSPlayer(one, code, made["seat_token"]).connect()
    knox = WSPlayer(two, code, sat["seat_token"]).connect()
    iris.expect("welcome")
    knox.expect("welcome")
    iris.send("start")
    rng = random.Random(11)
    deadline = time.monotonic() + 60
    while len(bids_seen(knox)) < 3:
        assert time.monotonic() < deadline and not over(knox), "no bids before the crash"
        play_on(iris, rng)
        play_on(knox, rng)
        time.sleep(0.02)
    seen = bids_seen(knox)
    iris.close()
    servers.kill(one)
    killed = time.monotonic()
    while (holder := lease_holder(servers, code)) in (None, driver):
        assert time.monotonic() - killed < LEASE * 4 / 3 + 2, "no process took the table over"
        time.sleep(0.05)
    took = time.monotonic() - killed
    assert servers.runs(holder, two)
    assert took < LEASE * 4 / 3 + 2
    # Iris reconnects to the survivor with the token she holds; the game goes on to its end.
    iris = WSPlayer(two, code, made["seat_token"]).connect()
    try:
        assert iris.expect("welcome")["seat"] == 0
        play_to_the_end([iris, knox], rng)
    finally:
        iris.close()
        knox.close()
    [events] = wait_saved(servers.folder)
    final = replay(events)  # the log replays: nothing lost or doubled, or the reducer would say
    assert final.winner == latest(knox)["view"]["winner"]
    made_bids = [(e.player, e.bid.quantity, e.bid.face) for e in events if isinstance(e, BidMade)]
    before = [(b["player"], b["bid"]["quantity"], b["bid"]["face"]) for b in seen]
    assert any(made_bids[i : i + len(before)] == before for i in range(len(made_bids)))


def test_a_stopping_server_hands_its_tables_over_at_once(servers: Servers) -> None:
    one = servers.start(workers=2)
    two = servers.start()
    made, _ = table_with_two_players(one, two)
    code = made["code"]
    assert servers.runs(lease_holder(servers, code), one)
    iris = WSPlayer(one, code, made["seat_token"]).connect()  # keeps a worker of one busy
    try:
        iris.expect("welcome")
        servers.procs[one].terminate()  # SIGTERM: a deploy draining the node
        stopped = time.monotonic()
        while not servers.runs(holder := lease_holder(servers, code), two):
            # not the socket's 5 s of grace, nor a lease picked up by the other worker of one
            assert time.monotonic() - stopped < LEASE / 3 + 1.5, f"still held by {holder}"
            time.sleep(0.05)
    finally:
        iris.close()


def test_two_processes_acting_at_once_one_wins(servers: Servers) -> None:
    one, two = servers.start(), servers.start()
    made, sat = table_with_two_players(one, two)
    code = made["code"]
    # Iris has a tab on each process; on her turn both tabs send a different bid at once.
    tab_one = WSPlayer(one, code, made["seat_token"]).connect()
    tab_two = WSPlayer(two, code, made["seat_token"]).connect()
    knox = WSPlayer(two, code, sat["seat_token"]).connect()
    rng, races = random.Random(2), []
    try:
        for tab in (tab_one, tab_two, knox):
            tab.expect("welcome")
        tab_one.send("start")
        deadline = time.monotonic() + 120
        while not over(knox):
            assert time.monotonic() < deadline, "the game did not finish"
            play_on(knox, rng)
            mine, theirs = latest(tab_one), latest(tab_two)
            if not (mine and theirs and mine["legal"] and theirs["legal"]):
                time.sleep(0.02)
                continue
            bids = mine["legal"]["bids"]
            if len(races) >= 3 or len(bids) < 2 or mine["view"] != theirs["view"]:
                play_on(tab_one, rng)
                continue
            tab_one.messages.clear()
            tab_two.messages.clear()
            tab_one.send("bid", quantity=bids[0][0], face=bids[0][1])
            tab_two.send("bid", quantity=bids[1][0], face=bids[1][1])
            for tab in (tab_one, tab_two):
                tab.expect("state", timeout=10)
            time.sleep(0.5)
            errors = [
                m["error"] for t in (tab_one, tab_two) for m in t.messages if m["type"] == "error"
            ]
            races.append((bids[0], bids[1], errors))
    finally:
        for tab in (tab_one, tab_two, knox):
            tab.close()
    assert len(races) == 3
    for first, second, errors in races:
        assert len(errors) == 1, (first, second, errors)  # exactly one of the two was refused
        assert "turn" in errors[0] or "changed" in errors[0], errors[0]
        print("refused:", errors[0])
    [events] = wait_saved(servers.folder)
    replay(events)  # one log, in order: the reducer refuses a doubled or missing event


def wait_until(check: Any, seconds: float = 10.0, pause: float = 0.01) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(pause)


def two_processes(
    redis_url: str, tmp_path: Path, db: int, **settings: Any
) -> tuple[list[Any], list[Any]]:
    """Two apps in this process, as two processes of one host (one SQL file, one Redis database:
    number ``db``, emptied); clocks and bots slow unless ``settings`` say otherwise."""
    from liarsdice_demo import create_app

    url = redis_url.replace("/0", f"/{db}")
    redis.Redis.from_url(url).flushdb()
    config = {"TESTING": True, "REDIS_URL": url, "BOT_DELAY": 60.0, "REVEAL_PAUSE": 60.0}
    config.update(settings, DATABASE=str(tmp_path / "one.sqlite"))
    apps = [create_app(config) for _ in "ab"]
    return apps, [app.extensions["liarsdice_hub"] for app in apps]


def test_a_stale_copy_is_refused_then_judges_the_move_again(
    redis_url: str, tmp_path: Path, monkeypatch: Any
) -> None:
    from liarsdice_demo.edge.protocol import parse as parse_intent

    apps, hubs = two_processes(redis_url, tmp_path, 3)
    try:
        body = {
            "nickname": "Iris",
            "preset": "dudo",
            "seats": 2,
            "bot_kind": "none",
            "public": True,
        }
        made = apps[0].test_client().post("/api/tables", json=body).json
        sat = (
            apps[1]
            .test_client()
            .post(f"/api/tables/{made['code']}/seat", json={"nickname": "Knox"})
        )
        assert sat.status_code == 200, sat.json
        driver, copy = (hub.get(made["code"]) for hub in hubs)
        assert driver.driving and not copy.driving
        reads = []
        real_table = hubs[1].store.table
        monkeypatch.setattr(hubs[1].store, "table", lambda *a: reads.append(a) or real_table(*a))
        driver.start_now()
        wait_until(lambda: copy.version == driver.version and copy.game is not None)
        assert copy.game.events == driver.game.events and reads == []  # from announcements only
        turn = driver.game.state.round.turn
        legal = [b for b in engine.legal_bids(driver.config.rules, driver.game.state, turn)][:2]
        conns = [Conn(), Conn()]
        for conn, table in zip(conns, (driver, copy), strict=True):
            conn.seat = next(s.index for s in table.seats if s.name == turn)
        # The copy misses the next announcement (as if it had not arrived yet) ...
        monkeypatch.setattr(copy, "sync", lambda *a, **k: None)
        bid = {"v": 1, "type": "bid", "quantity": legal[0].quantity, "face": legal[0].face}
        driver.handle(conns[0], parse_intent(json.dumps(bid)))
        assert not [m for m in conns[0].sent if m["type"] == "error"]
        # ... and a different bid of the same seat reaches it: the store refuses its commit, the
        # copy reloads, and the engine refuses the bid on the fresh state with its reason.
        other = {**bid, "quantity": legal[1].quantity, "face": legal[1].face}
        copy.handle(conns[1], parse_intent(json.dumps(other)))
        assert [m["error"] for m in conns[1].sent if m["type"] == "error"] == [
            "it is not your turn"
        ]
        assert copy.game.events == driver.game.events and copy.version == driver.version
        assert len(reads) == 1  # the one reload
        # A refusal judged on a copy that is behind is judged again on the fresh state.
        monkeypatch.undo()
        monkeypatch.setattr(copy, "sync", lambda *a, **k: None)
        nxt = driver.game.state.round.turn
        conns[0].seat = next(s.index for s in driver.seats if s.name == nxt)
        raise_bid = engine.legal_bids(driver.config.rules, driver.game.state, nxt)[0]
        move = {"v": 1, "type": "bid", "quantity": raise_bid.quantity, "face": raise_bid.face}
        driver.handle(conns[0], parse_intent(json.dumps(move)))  # the copy does not hear of it
        then = driver.game.state.round.turn
        conns[1].seat = next(s.index for s in copy.seats if s.name == then)
        conns[1].sent.clear()
        copy.handle(
            conns[1], parse_intent(json.dumps({"v": 1, "type": "call", "kind": "challenge"}))
        )
        assert not [m for m in conns[1].sent if m["type"] == "error"]
        wait_until(lambda: driver.version == copy.version)
        assert copy.game.events == driver.game.events
    finally:
        for hub in hubs:
            hub.shutdown()


def test_a_process_hears_only_the_tables_it_holds_and_catches_up_a_missed_change(
    redis_url: str, tmp_path: Path
) -> None:
    apps, hubs = two_processes(redis_url, tmp_path, 4)
    server = redis.Redis.from_url(redis_url.replace("/0", "/4"), decode_responses=True)

    def listeners(code: str) -> int:
        channel = f"liarsdice:changed:{code}"
        return int(dict(server.pubsub_numsub(channel))[channel])

    try:
        body = {"nickname": "Iris", "preset": "dudo", "seats": 2, "bot_kind": "random"}
        made = apps[0].test_client().post("/api/tables", json=body).json
        code = made["code"]
        assert listeners(code) == 1  # the process that made it, not the other
        copy = hubs[1].get(code)
        wait_until(lambda: listeners(code) == 2)
        driver = hubs[0].local(code)
        # The copy's announcements are lost (as in an outage): the lease tick catches it up.
        hubs[1].store.changes.unwatch(code)
        wait_until(lambda: listeners(code) == 1)
        driver.start_now()
        time.sleep(0.3)
        assert copy.version < driver.version and copy.game is None
        hubs[1].cluster._catch_up()
        wait_until(lambda: copy.version == driver.version)
        assert copy.game is not None and copy.game.events == driver.game.events
        # A copy dropped stops listening; a copy that missed its table's close is closed.
        hubs[1].forget(code)
        assert hubs[1].get(code) is not None
        wait_until(lambda: listeners(code) == 2)
        hubs[1].forget(code)
        wait_until(lambda: listeners(code) == 1)
        hubs[1].get(code)
        hubs[1].store.changes.unwatch(code)
        hubs[0].store.drop(code)
        hubs[1].cluster._catch_up()
        wait_until(lambda: hubs[1].local(code) is None)
    finally:
        for hub in hubs:
            hub.shutdown()


def test_changes_from_another_process_do_not_hold_the_pause_after_a_reveal(
    redis_url: str, tmp_path: Path
) -> None:
    _, hubs = two_processes(redis_url, tmp_path, 7, BOT_DELAY=0.02, REVEAL_PAUSE=1.0)
    try:
        from liarsdice_demo.tables.composition import parse_config

        config = parse_config({"preset": "dudo", "seats": 2, "bot_kind": "random"})
        driver = hubs[0].create(config, start=True)  # two bots
        copy = hubs[1].get(driver.code)
        wait_until(lambda: driver.clock.pause_until is not None, seconds=30)
        revealed = time.monotonic()
        # Another process commits every 50 ms (a seated player reloading the page, say).
        while time.monotonic() - revealed < 2.5:
            copy.seat_token(copy.seats[1])
            if driver.clock.pause_until is None:
                break
            time.sleep(0.05)
        wait_until(lambda: driver.clock.pause_until is None, seconds=5)
        assert time.monotonic() - revealed < 1.0 + 0.5
    finally:
        for hub in hubs:
            hub.shutdown()


def test_a_move_while_redis_is_down_is_refused_and_the_copy_dropped(tmp_path: Path) -> None:
    from liarsdice_demo import create_app
    from liarsdice_demo.edge.protocol import parse as parse_intent
    from liarsdice_demo.web.sockets import _handle

    from .conftest import REDIS_SERVER, redis_options

    if REDIS_SERVER is None:
        pytest.skip("needs redis-server (apt-get install redis-server)")
    port = free_port()
    server = subprocess.Popen(
        [REDIS_SERVER, *redis_options(port, tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    wait_until(lambda: redis_answers(port))
    url = f"redis://127.0.0.1:{port}/0"
    settings = {"TESTING": True, "REDIS_URL": url, "BOT_DELAY": 60.0, "REVEAL_PAUSE": 60.0}
    app = create_app({**settings, "DATABASE": str(tmp_path / "one.sqlite")})
    hub = app.extensions["liarsdice_hub"]
    try:
        body = {"nickname": "Iris", "preset": "dudo", "seats": 2, "bot_kind": "random"}
        made = app.test_client().post("/api/tables", json=body).json
        table = hub.get(made["code"])
        table.start_now()
        wait_until(lambda: table.game.state.round.turn == "Iris")
        tab = Conn()
        table.attach(tab, made["seat_token"])
        server.terminate()
        server.wait(10)
        bid = engine.legal_bids(table.config.rules, table.game.state, "Iris")[0]
        move = {"v": 1, "type": "bid", "quantity": bid.quantity, "face": bid.face}
        table.handle(tab, parse_intent(json.dumps(move)))
        errors = [m["error"] for m in tab.sent if m["type"] == "error"]
        assert errors == [
            "the server cannot reach its table store: nothing was played, try again soon"
        ]
        assert hub.local(made["code"]) is None and tab.closed == 1013  # players come back later
        page = app.test_client().get(f"/t/{made['code']}")
        assert page.status_code == 503 and "Retry-After" in page.headers
        hub._records = (-10.0, [])  # the lobby's cached list is old: it must read Redis
        for path in ("/", "/api/tables"):
            answer = app.test_client().get(path)
            assert answer.status_code == 503 and "Retry-After" in answer.headers, path
        # A tab saying hello now is told to come back later (1013), not sent an internal error.
        late = Conn()
        hello = {"v": 1, "type": "hello", "seat_token": made["seat_token"]}
        _handle(table, late, json.dumps(hello))
        assert late.closed == 1013 and not [m for m in late.sent if m["type"] == "error"]
    finally:
        if server.poll() is None:
            server.terminate()
        hub.shutdown()


def redis_answers(port: int) -> bool:
    try:
        return bool(redis.Redis(port=port).ping())
    except redis.RedisError:
        return False
