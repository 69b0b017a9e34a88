"""The demo as it is served: ``liarsdice-demo`` (gunicorn's gevent worker) and the README's gunicorn
command line, each started in a subprocess on a free port, played over real WebSockets.

These check what only the real server shows: a whole game through greenlet sockets, the socket
caps and their close reasons, floods closed and barred, headers that name no version.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from simple_websocket import Client, ConnectionClosed
from wsproto.utilities import LocalProtocolError

from .conftest import WSPlayer, closed_with

WORKER = "liarsdice_demo.serve.DemoWorker"
"""The worker class of the README's gunicorn command line."""

Serve = Callable[..., str]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serving(proc: subprocess.Popen[bytes], host: str, log: Path) -> str:
    """``host`` once the server ``proc`` answers there (30 s at most; its ``log`` if it died)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            # A timeout long enough for a loaded machine: a probe given up on still reached the
            # app, and tests that count requests against a limit would count it twice.
            urllib.request.urlopen(f"http://{host}/api/catalog", timeout=10).close()
            return host
        except OSError:
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start in 30 s"
            time.sleep(0.2)


@pytest.fixture(params=["liarsdice-demo", "gunicorn"])
def serve(request: Any, tmp_path: Path) -> Iterator[Serve]:
    """Start the server (with ``LIARSDICE_DEMO_<KEY>`` settings); yields its ``host:port``."""
    started: list[tuple[subprocess.Popen[bytes], Any]] = []

    def start(**settings: Any) -> str:
        port = free_port()
        env = dict(os.environ, LIARSDICE_DEMO_BOT_DELAY="0", LIARSDICE_DEMO_REVEAL_PAUSE="0")
        env.update({f"LIARSDICE_DEMO_{k}": json.dumps(v) for k, v in settings.items()})
        db = str(tmp_path / "served.sqlite")
        if request.param == "gunicorn":  # the README's command line
            env["LIARSDICE_DEMO_DATABASE"] = db
            cmd = [sys.executable, "-m", "gunicorn", "-w", "1", "-k", WORKER]
            cmd += ["-b", f"127.0.0.1:{port}", "liarsdice_demo:create_app()"]
        else:
            cmd = [sys.executable, "-m", "liarsdice_demo", "--port", str(port), "--db", db]
        log = open(tmp_path / f"server-{port}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        started.append((proc, log))
        return serving(proc, f"127.0.0.1:{port}", tmp_path / f"server-{port}.log")

    yield start
    for proc, log in started:
        proc.terminate()
        code = proc.wait(20)
        log.close()
        assert code == 0, Path(log.name).read_text()  # a clean, graceful stop


def post(host: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"http://{host}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def new_table_socket_url(host: str) -> str:
    """The WebSocket URL of a new 2-seat table on ``host``."""
    status, made = post(host, "/api/tables", {"nickname": "Iris", "preset": "dudo", "seats": 2})
    assert status == 200, made
    return f"ws://{host}/ws/{made['code']}"


def test_a_whole_game_over_the_served_app(serve: Serve) -> None:
    host = serve()
    with urllib.request.urlopen(f"http://{host}/", timeout=10) as page:
        server = page.headers.get("Server", "")
        assert not any(ch.isdigit() for ch in server), server  # no version in Server
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    status, made = post(host, "/api/tables", {"nickname": "Iris", "preset": "dudo", "seats": 3})
    assert status == 200, made
    iris = WSPlayer(host, made["code"], made["seat_token"]).connect()
    try:
        assert iris.expect("welcome")["seat"] == 0
        iris.send("start")
        rng, deadline = random.Random(3), time.monotonic() + 90
        while not any(
            m["type"] == "state" and m["table"]["status"] == "over" for m in iris.messages
        ):
            assert time.monotonic() < deadline, "the game did not finish"
            states = [m for m in iris.drain() if m["type"] == "state"]
            legal = states[-1]["legal"] if states else None
            if legal and legal["calls"] and (rng.random() < 0.4 or not legal["bids"]):
                iris.send("call", kind=rng.choice(legal["calls"]))
            elif legal:
                quantity, face = legal["bids"][0]
                iris.send("bid", quantity=quantity, face=face)
            time.sleep(0.01)
        iris.send("ping")
        assert iris.expect("pong")
    finally:
        iris.close()


def test_socket_caps_close_with_a_reason(serve: Serve) -> None:
    host = serve(MAX_SOCKETS_PER_CLIENT=2)
    url = new_table_socket_url(host)
    held = [Client.connect(url), Client.connect(url)]
    try:
        third = Client.connect(url)
        assert closed_with(third) == (
            1013,
            "you have 2 connections open, the most one client may hold: close a tab and try again",
        )
        held.pop().close()
        time.sleep(0.5)
        fourth = Client.connect(url)  # a freed place can be taken again
        fourth.send(json.dumps({"v": 1, "type": "hello"}))
        assert json.loads(fourth.receive(timeout=10))["type"] == "welcome"
        held.append(fourth)
    finally:
        for ws in held:
            with contextlib.suppress(ConnectionClosed):
                ws.close()


def test_a_socket_for_no_table_is_closed_as_gone(serve: Serve) -> None:
    host = serve()
    ws = Client.connect(f"ws://{host}/ws/NOSUCHTB")
    assert closed_with(ws) == (4404, "no live table has the code 'NOSUCHTB'")


def test_the_server_cap_refuses_the_next_socket(serve: Serve) -> None:
    host = serve(MAX_SOCKETS=1)
    url = new_table_socket_url(host)
    first = Client.connect(url)
    try:
        assert closed_with(Client.connect(url)) == (1013, "the server is full: try again later")
    finally:
        first.close()


def test_a_flooding_socket_is_closed_and_its_client_barred(serve: Serve) -> None:
    host = serve(FLOOD_PENALTY_SECONDS=60, LIMIT_TARPIT_SECONDS=0)
    url = new_table_socket_url(host)
    flooder = Client.connect(url)
    # LocalProtocolError: simple-websocket's client races its own reader, which may have just
    # taken in the server's close frame (wsproto refuses to send then) before marking it closed
    with contextlib.suppress(ConnectionClosed, OSError, LocalProtocolError):
        for _ in range(2000):
            flooder.send(json.dumps({"v": 1, "type": "ping"}))
    assert closed_with(flooder) == (1008, "too many messages: closed")
    request = urllib.request.Request(
        url.replace("ws://", "http://"), headers={"Connection": "Upgrade", "Upgrade": "websocket"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 429
    assert 0 < int(refused.value.headers["Retry-After"]) <= 60
    assert refused.value.read().decode().startswith("too many messages: wait ")


def slow_post(host: str) -> socket.socket:
    """A POST whose headers promise a body that never comes."""
    name, port = host.split(":")
    conn = socket.create_connection((name, int(port)), timeout=15)
    conn.sendall(
        b"POST /api/validate HTTP/1.1\r\nHost: " + host.encode() + b"\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    return conn


def status_of(conn: socket.socket) -> str:
    with conn:
        return conn.recv(4096).split(b"\r\n", 1)[0].decode()


def test_a_body_that_never_comes_is_cut_off_and_one_client_holds_few(serve: Serve) -> None:
    host = serve(BODY_SECONDS=1, MAX_REQUESTS_IN_FLIGHT=2)
    held = [slow_post(host), slow_post(host)]
    time.sleep(0.3)
    assert status_of(slow_post(host)) == "HTTP/1.1 429 Too Many Requests"
    assert [status_of(conn) for conn in held] == ["HTTP/1.1 408 Request Timeout"] * 2
    with urllib.request.urlopen(f"http://{host}/", timeout=10) as page:
        assert page.status == 200
