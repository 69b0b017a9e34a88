"""Outages answer as documented: JSON under ``/api/`` for every status, ``Retry-After`` as set, a
health check that tells, a Redis without AOF refused, and with a real ``redis-server`` killed under
two served processes: every socket closed with 1013 at once, and the game back when Redis is."""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from simple_websocket import ConnectionClosed

from liarsdice_demo import create_app
from liarsdice_demo.storage.live_store import StoreUnavailable

from .conftest import REDIS_SERVER, SETTINGS, WSPlayer, handshake_request, redis_options
from .test_cluster import Servers, latest
from .test_served import free_port

LIMITED = {**SETTINGS, "LIMIT_REQUESTS": "20 per second; 600 per minute"}
"""Flask-Limiter's headers on, with the windows that rewrote ``Retry-After`` to 4, 58 or 59."""


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Any]:
    app = create_app({**LIMITED, "DATABASE": str(tmp_path / "x.sqlite")})
    yield app
    app.extensions["liarsdice_hub"].shutdown()


def test_a_503_carries_json_under_the_api_and_retry_after_as_set(
    limited: Any, monkeypatch: Any
) -> None:
    hub = limited.extensions["liarsdice_hub"]

    def away(code: str) -> None:
        raise StoreUnavailable("Redis: connection refused")

    monkeypatch.setattr(hub, "get", away)
    client = limited.test_client()
    for _ in range(3):  # the limiter's windows are partly spent: the header does not move
        answer = client.get("/api/tables/ABCDEFGH")
        assert answer.status_code == 503 and answer.mimetype == "application/json"
        assert answer.headers["Retry-After"] == "5"
        assert answer.json == {
            "ok": False,
            "error": "The table store cannot be reached: try again in a moment.",
            "retry_after": 5,
        }
    page = client.get("/t/ABCDEFGH")
    assert page.status_code == 503 and page.mimetype == "text/html"
    assert page.headers["Retry-After"] == "5"
    limited.config["OUTAGE_RETRY_AFTER"] = 12
    assert client.get("/api/tables/ABCDEFGH").headers["Retry-After"] == "12"


def test_every_error_under_the_api_is_json(limited: Any) -> None:
    client = limited.test_client()
    big = client.post("/api/tables", data=b"x" * (65 * 1024), content_type="application/json")
    assert big.status_code == 413 and big.mimetype == "application/json"
    assert big.json["ok"] is False and big.json["error"]
    for path, status in (("/api/nowhere", 404), ("/api/catalog", 405)):
        answer = client.post(path, json={})
        assert answer.status_code == status and answer.mimetype == "application/json", path
        assert answer.json["ok"] is False
    page = client.get("/nowhere")
    assert page.status_code == 404 and page.mimetype == "text/html"


def test_the_health_check_answers_200_only_when_the_stores_answer(
    limited: Any, monkeypatch: Any
) -> None:
    client = limited.test_client()
    answer = client.get("/api/health")
    assert answer.status_code == 200 and answer.json == {"ok": True}
    store = limited.extensions["liarsdice_hub"].store
    monkeypatch.setattr(store, "ping", lambda: False)
    down = client.get("/api/health")
    assert down.status_code == 503 and down.headers["Retry-After"] == "5"
    assert down.json["ok"] is False and down.json["down"] == ["live tables"]


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[Any]:
    """Start a ``redis-server`` of this test's own (``start(aof=True)``, again on the same port
    and folder after a kill); yields ``start``, with ``.url`` and ``.proc``."""
    if REDIS_SERVER is None:
        pytest.skip("needs redis-server (apt-get install redis-server)")
    port, folder = free_port(), tmp_path / "redis"
    folder.mkdir()

    def start(aof: bool = True) -> str:
        start.proc = subprocess.Popen(  # type: ignore[attr-defined]
            [REDIS_SERVER, *redis_options(port, folder, aof)], stdout=subprocess.DEVNULL
        )
        wait_until(lambda: answers(start.url), 10)  # type: ignore[attr-defined]
        return start.url  # type: ignore[attr-defined]

    start.url = f"redis://127.0.0.1:{port}/0"  # type: ignore[attr-defined]
    yield start
    if start.proc.poll() is None:  # type: ignore[attr-defined]
        start.proc.kill()  # type: ignore[attr-defined]
        start.proc.wait(10)  # type: ignore[attr-defined]


def answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url).ping())
    except redis.RedisError:
        return False


def wait_until(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def kill(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)


def test_a_redis_without_aof_is_refused_unless_allowed(
    own_redis: Any, tmp_path: Path, caplog: Any
) -> None:
    url = own_redis(aof=False)
    settings = {**SETTINGS, "DATABASE": str(tmp_path / "x.sqlite"), "REDIS_URL": url}
    with pytest.raises(RuntimeError, match="redis-server --appendonly yes"):
        create_app(settings)
    with caplog.at_level(logging.WARNING, "liarsdice_demo.storage.persistence"):
        app = create_app({**settings, "ALLOW_REDIS_WITHOUT_AOF": True})
    app.extensions["liarsdice_hub"].shutdown()
    assert "keeps no append-only file" in caplog.text and "running anyway" in caplog.text


def test_the_command_refuses_a_redis_without_aof_in_one_line(
    own_redis: Any, tmp_path: Path
) -> None:
    url = own_redis(aof=False)
    db = str(tmp_path / "x.sqlite")
    command = [sys.executable, "-m", "liarsdice_demo", "--redis", url, "--db", db, "--port", "1"]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 2, ran.stderr
    assert "Traceback" not in ran.stderr and "redis-server --appendonly yes" in ran.stderr
    assert "liarsdice-demo on" not in ran.stdout  # nothing was started


def get(host: str, path: str) -> tuple[int, str, str | None, Any]:
    """Status, content type, ``Retry-After`` and JSON body of ``GET path``."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://{host}{path}", timeout=10) as answer:
            status, headers, body = answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as refused:
        status, headers, body = refused.code, refused.headers, refused.read()
    kind = headers.get_content_type()
    return status, kind, headers.get("Retry-After"), json.loads(body) if body else None


def closed(player: WSPlayer) -> int | None:
    """The close code ``player``'s socket got, once its reader has ended."""
    assert player.ws is not None and player._reader is not None
    return None if player._reader.is_alive() else player.ws.close_reason


def open_seat(host: str, code: str, token: str) -> WSPlayer:
    """A new socket of the seat of ``token``, saying hello unless the server closed it at once."""
    player = WSPlayer(host, code, token).connect(hello=False)
    with contextlib.suppress(ConnectionClosed, OSError):  # closed already: its reader says how
        player.send("hello", seat_token=token)
    return player


def new_socket_closed_with(host: str, code: str, token: str) -> int | None:
    """The close code a new socket of the seat of ``token`` gets, read off the wire: its handshake
    and hello sent at once, then everything the server sends until it hangs up (simple-websocket's
    client can miss a close frame that arrives with the handshake's answer, and says 1005)."""
    hello = json.dumps({"v": 1, "type": "hello", "seat_token": token}).encode()
    assert len(hello) < 126
    name, port = host.split(":")
    received = b""
    with socket.create_connection((name, int(port)), 10) as sock:
        sock.sendall(
            handshake_request(host, f"/ws/{code}")
            + bytes([0x81, 0x80 | len(hello)])
            + bytes(4)  # a zero mask: the payload as it is
            + hello
        )
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(4096):
                received += chunk
    status, _, frames = received.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 101"), status
    while len(frames) >= 2:  # the server's frames: unmasked, short
        opcode, length = frames[0] & 0x0F, frames[1] & 0x7F
        start = 2 + {126: 2, 127: 8}.get(length, 0)
        if length >= 126:
            length = int.from_bytes(frames[2:start])
        if opcode == 0x8:
            return int.from_bytes(frames[start : start + 2])
        frames = frames[start + length :]
    return None


def rejoin(host: str, code: str, token: str) -> dict[str, Any] | int:
    """The first state a seat's new socket gets, or the close code that ends the trying: it
    connects again while it is told 1013 (the process has not yet seen Redis back)."""
    deadline = time.monotonic() + 10
    while True:
        player = open_seat(host, code, token)
        wait_until(lambda: latest(player) or closed(player), 5)  # noqa: B023
        state = latest(player)
        if state is not None:
            player.close()
            return state
        refused = closed(player)
        # 1005: simple-websocket's client missed the 1013 that came with the handshake
        if refused not in (1013, 1005):
            assert refused is not None
            return refused
        assert time.monotonic() < deadline, "still refused 10 s after Redis came back"
        time.sleep(0.2)


def test_redis_killed_under_two_processes_closes_every_socket_1013_at_once(
    own_redis: Any, tmp_path: Path
) -> None:
    from .test_served import post

    servers = Servers(tmp_path, own_redis())
    try:
        a, b = servers.start(), servers.start()
        body = {"nickname": "Iris", "preset": "dudo", "seats": 2, "public": True}
        status, made = post(a, "/api/tables", {**body, "turn_seconds": 120})
        assert status == 200, made
        status, sat = post(b, f"/api/tables/{made['code']}/seat", {"nickname": "Knox"})
        assert status == 200, sat
        code = made["code"]
        iris = WSPlayer(a, code, made["seat_token"]).connect()
        knox = WSPlayer(b, code, sat["seat_token"]).connect()
        watcher = WSPlayer(b, code).connect()
        for player in (iris, knox, watcher):
            player.expect("state")
        iris.send("start")
        wait_until(lambda: any((latest(p) or {}).get("legal") for p in (iris, knox)))
        before = latest(iris)
        assert all(get(host, "/api/health")[:2] == (200, "application/json") for host in (a, b))

        kill(own_redis.proc)
        killed = time.monotonic()
        wait_until(lambda: all(closed(p) for p in (iris, knox, watcher)), 5)
        took = time.monotonic() - killed
        assert [closed(p) for p in (iris, knox, watcher)] == [1013, 1013, 1013]
        assert took < 2.0, f"the sockets were closed {took:.2f} s after Redis went away"
        for host in (a, b):  # no process answers from a copy it can no longer keep
            status, kind, retry, found = get(host, f"/api/tables/{code}")
            assert (status, kind, retry, found["ok"]) == (503, "application/json", "5", False)
            status, kind, retry, found = get(host, "/api/health")
            assert (status, kind, retry, found["down"]) == (503, "application/json", "5", ["redis"])
        # a new socket is refused at once, to come back later
        assert new_socket_closed_with(b, code, sat["seat_token"]) == 1013

        own_redis()  # the same folder: the append-only file brings the table back
        for host in (a, b):
            wait_until(lambda host=host: get(host, "/api/health")[0] == 200, 10)
        state = rejoin(b, code, sat["seat_token"])
        assert isinstance(state, dict), state
        assert state["view"]["bids"] == before["view"]["bids"]
        assert state["table"]["status"] == "playing"
    finally:
        servers.stop()


@pytest.mark.parametrize("aof", [True, False], ids=["appendonly", "no-aof"])
def test_kill_9_of_redis_keeps_the_game_only_with_aof(
    own_redis: Any, tmp_path: Path, aof: bool, monkeypatch: Any
) -> None:
    from .test_served import post

    if not aof:
        monkeypatch.setenv("LIARSDICE_DEMO_ALLOW_REDIS_WITHOUT_AOF", "true")
    servers = Servers(tmp_path, own_redis(aof))
    try:
        host = servers.start()
        body = {"nickname": "Iris", "preset": "dudo", "seats": 3, "turn_seconds": 120}
        status, made = post(host, "/api/tables", body)
        assert status == 200, made
        iris = WSPlayer(host, made["code"], made["seat_token"]).connect()
        iris.expect("state")
        iris.send("start")
        wait_until(lambda: (latest(iris) or {}).get("legal"))
        before = latest(iris)
        iris.close()
        kill(own_redis.proc)
        own_redis(aof)
        if aof:
            state = rejoin(host, made["code"], made["seat_token"])
            assert isinstance(state, dict), state
            assert state["view"]["bids"] == before["view"]["bids"]
            assert state["view"]["own_dice"] == before["view"]["own_dice"]
        else:
            assert rejoin(host, made["code"], made["seat_token"]) == 4404  # every game is lost
    finally:
        servers.stop()
