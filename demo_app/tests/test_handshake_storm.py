"""Handshake storms: a barred or too-fast client's handshake is refused at the door, before Flask,
with a plain 429; while one address has many refusals held, its connections are closed unread.

The unit tests drive :class:`HandshakeDoor` and the app's WSGI stack; the served tests storm the
real server (``liarsdice-demo`` and the README's gunicorn command line).
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from typing import Any

import pytest
from simple_websocket import Client

from liarsdice_demo import create_app
from liarsdice_demo.edge.gate import SocketGate
from liarsdice_demo.edge.handshakes import HELD_PER_CLIENT, KEY, KNOCKED, HandshakeDoor

from .conftest import SETTINGS, handshake_request
from .test_served import Serve, new_table_socket_url, serve  # noqa: F401 - the fixture


def gate(**overrides: Any) -> SocketGate:
    settings: dict[str, Any] = {
        "max_sockets": 100,
        "max_per_client": 10,
        "opens_rate": 0.001,
        "opens_burst": 2,
        "message_rate": 1.0,
        "message_burst": 5,
        "flood_penalty": 60.0,
    }
    return SocketGate(**{**settings, **overrides})


class Recorder:
    """A WSGI app that records the requests it was given."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        self.seen.append(environ)
        start_response("200 OK", [])
        return [b"app"]


def call(app: Any, path: str, address: str = "203.0.113.9") -> tuple[str, dict[str, str], bytes]:
    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        answer.update(status=status, headers=dict(headers))

    body = b"".join(app({"PATH_INFO": path, "REMOTE_ADDR": address}, start_response))
    return answer["status"], answer["headers"], body


def test_past_its_opening_rate_a_client_is_refused_before_the_app() -> None:
    inner = Recorder()
    door = HandshakeDoor(inner, gate(), tarpit=0, by_peer=True)
    assert call(door, "/ws/ABC")[0] == "200 OK"
    assert call(door, "/ws/ABC")[0] == "200 OK"
    assert all(environ[KNOCKED] for environ in inner.seen)  # the gate's token is taken
    status, headers, body = call(door, "/ws/ABC")
    assert status == "429 Too Many Requests" and len(inner.seen) == 2
    assert body.decode().startswith("too many connections opened: try again in ")
    assert headers["Connection"] == "close" and headers["Content-Type"].startswith("text/plain")
    assert int(headers["Retry-After"]) >= 1
    assert call(door, "/ws/ABC", address="198.51.100.1")[0] == "200 OK"  # another client
    for _ in range(5):  # pages are not sockets: they pass, and spend nothing
        assert call(door, "/table/ABC")[0] == "200 OK"


def test_a_barred_client_is_refused_before_the_app() -> None:
    inner, the_gate = Recorder(), gate(opens_burst=10)
    door = HandshakeDoor(inner, the_gate, tarpit=0, by_peer=True)
    the_gate.admit("203.0.113.9")
    the_gate.bar("203.0.113.9")
    status, headers, body = call(door, "/ws/ABC")
    assert status == "429 Too Many Requests" and not inner.seen
    assert body.decode().startswith("too many messages: wait ")
    assert 55 <= int(headers["Retry-After"]) <= 60


def test_the_app_never_sees_a_refused_handshake(tmp_path: Any) -> None:
    """The door is in the app's WSGI stack, before Flask: no before_request hook runs."""
    app = create_app({**SETTINGS, "DATABASE": str(tmp_path / "x.sqlite"), "SOCKET_OPENS_BURST": 0})
    ran: list[str] = []
    app.before_request(lambda: ran.append("flask") and None)
    try:
        upgrade = {"Upgrade": "websocket", "Connection": "Upgrade"}
        response = app.test_client().get("/ws/ABCDEFGH", headers=upgrade)
        assert response.status_code == 429 and ran == []
        assert response.mimetype == "text/plain"
        assert app.test_client().get("/api/catalog").status_code == 200 and ran == ["flask"]
    finally:
        app.extensions["liarsdice_hub"].shutdown()


def test_while_a_client_has_many_refusals_held_its_address_is_turned_away() -> None:
    door = HandshakeDoor(Recorder(), gate(opens_burst=0), tarpit=0.5, by_peer=True)
    held = [threading.Thread(target=call, args=(door, "/ws/ABC")) for _ in range(HELD_PER_CLIENT)]
    for thread in held:
        thread.start()
    time.sleep(0.2)
    assert door.turns_away("203.0.113.9")
    assert not door.turns_away("198.51.100.1")
    started = time.monotonic()
    assert call(door, "/ws/ABC")[0] == "429 Too Many Requests"  # past the cap: not held
    assert time.monotonic() - started < 0.2
    for thread in held:
        thread.join()
    assert not door.turns_away("203.0.113.9")  # the refusals were answered
    behind_proxy = HandshakeDoor(Recorder(), gate(), tarpit=0.5, by_peer=False)
    assert not behind_proxy.turns_away("203.0.113.9")  # the proxy's address is everyone's


def test_the_door_is_the_apps_extension_and_sits_inside_proxy_fix(tmp_path: Any) -> None:
    app = create_app(
        {**SETTINGS, "DATABASE": str(tmp_path / "x.sqlite"), "PROXY_FIX": {"x_for": 1}}
    )
    try:
        door = app.extensions[KEY]
        assert app.wsgi_app.app is door and not door.by_peer
    finally:
        app.extensions["liarsdice_hub"].shutdown()


def handshake_status(host: str, path: str, source: str = "127.0.0.1") -> str:
    """The status line the server answers a WebSocket handshake from ``source`` with ('' if it
    closed the connection unread)."""
    name, port = host.split(":")
    with socket.create_connection((name, int(port)), 10, (source, 0)) as sock:
        sock.sendall(handshake_request(host, path))
        try:
            return sock.recv(4096).split(b"\r\n", 1)[0].decode()
        except ConnectionResetError:
            return ""


def test_a_served_client_past_its_opening_rate_gets_a_plain_429(serve: Serve) -> None:  # noqa: F811
    host = serve(SOCKET_OPENS_BURST=2, SOCKET_OPENS_PER_SECOND=0.01, LIMIT_TARPIT_SECONDS=0)
    url = new_table_socket_url(host)
    first, second = Client.connect(url), Client.connect(url)
    try:
        request = urllib.request.Request(
            url.replace("ws://", "http://"),
            headers={"Connection": "Upgrade", "Upgrade": "websocket"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 429
        assert refused.value.headers["Content-Type"].startswith("text/plain")
        assert refused.value.read().decode().startswith("too many connections opened: try again")
        first.send(json.dumps({"v": 1, "type": "hello"}))  # the admitted sockets are served
        assert json.loads(first.receive(timeout=10))["type"] == "welcome"
    finally:
        first.close()
        second.close()


def test_a_served_storm_from_one_address_is_turned_away_and_others_play(
    serve: Serve,  # noqa: F811
    request: Any,
) -> None:
    host = serve(SOCKET_OPENS_BURST=1, SOCKET_OPENS_PER_SECOND=0.01, LIMIT_TARPIT_SECONDS=2)
    url = new_table_socket_url(host)
    path = url.split(host, 1)[1]
    statuses: list[str] = []
    storm = [
        threading.Thread(target=lambda: statuses.append(handshake_status(host, path)))
        for _ in range(3 * HELD_PER_CLIENT)
    ]
    for thread in storm:
        thread.start()
        time.sleep(0.01)
    try:  # another client, meanwhile, is served at once
        assert handshake_status(host, path, "127.0.0.2") == "HTTP/1.1 101 Switching Protocols"
    finally:
        for thread in storm:
            thread.join()
    assert statuses.count("HTTP/1.1 101 Switching Protocols") == 1, statuses
    refused = statuses.count("HTTP/1.1 429 Too Many Requests")
    turned_away = statuses.count("")
    assert refused + turned_away == len(storm) - 1
    if request.node.callspec.params["serve"] == "liarsdice-demo":  # its worker closes them unread
        assert refused >= HELD_PER_CLIENT and turned_away >= HELD_PER_CLIENT, statuses


def test_served_handshakes_are_metered_by_the_gate_not_the_request_limit(
    serve: Serve,  # noqa: F811
) -> None:
    host = serve(LIMIT_REQUESTS="3 per minute", LIMIT_TARPIT_SECONDS=0)  # started: 1 request
    url = new_table_socket_url(host)  # 2
    sockets = [Client.connect(url) for _ in range(5)]  # not counted: within the gate's burst
    try:
        pages = []
        for _ in range(2):
            try:
                urllib.request.urlopen(f"http://{host}/api/catalog", timeout=10).close()
                pages.append(200)
            except urllib.error.HTTPError as refused:
                pages.append(refused.code)
        assert pages == [200, 429]  # the request limit is on, and the sockets spent none of it
    finally:
        for ws in sockets:
            ws.close()
