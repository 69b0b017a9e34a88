"""The door alone: a client's requests in flight are capped, bodies are read before the app runs
(or refused), WebSocket handshakes pass through."""

from __future__ import annotations

import io
import json
import threading
from typing import Any

from liarsdice_demo.edge.admission import Admission


class Recorder:
    """A WSGI app that records what it was given; it can be made to wait."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.release = threading.Event()
        self.release.set()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        self.release.wait(10)
        length = int(environ.get("CONTENT_LENGTH") or 0)
        self.bodies.append(environ["wsgi.input"].read(length))
        start_response("200 OK", [])
        return [b"ok"]


def call(door: Admission, address: str = "10.0.0.1", **environ: Any) -> str:
    seen: list[str] = []
    base = {"REQUEST_METHOD": "GET", "REMOTE_ADDR": address, "wsgi.input": io.BytesIO()}
    door({**base, **environ}, lambda status, headers: seen.append(status))
    return seen[0]


def test_a_clients_requests_in_flight_are_capped_and_others_pass() -> None:
    app = Recorder()
    door = Admission(app, max_in_flight=2, body_seconds=1, max_body=100)
    app.release.clear()
    waiting = [threading.Thread(target=call, args=(door,)) for _ in range(2)]
    for thread in waiting:
        thread.start()
    while sum(door._in_flight.values()) < 2:
        threading.Event().wait(0.01)
    assert call(door).startswith("429")  # answered at once: the app never ran
    app.release.set()
    assert call(door, "10.0.0.2") == "200 OK"
    for thread in waiting:
        thread.join(10)
    assert call(door) == "200 OK"  # the places are free again
    assert door._in_flight == {}


def test_a_body_is_read_before_the_app_runs_and_a_broken_one_is_refused() -> None:
    app = Recorder()
    door = Admission(app, max_in_flight=4, body_seconds=1, max_body=100)
    post = {"REQUEST_METHOD": "POST", "CONTENT_LENGTH": "5", "wsgi.input": io.BytesIO(b"hello")}
    assert call(door, **post) == "200 OK"
    chunked = {
        "REQUEST_METHOD": "POST",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": io.BytesIO(b"chunked body"),
    }
    assert call(door, **chunked) == "200 OK"
    assert app.bodies == [b"hello", b"chunked body"]

    class Broken(io.RawIOBase):
        def read(self, size: int = -1) -> bytes:
            raise ValueError("Invalid chunk size: 'ZZ'")

    bad = {"REQUEST_METHOD": "POST", "HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": Broken()}
    assert call(door, **bad).startswith("400")
    assert len(app.bodies) == 2


def test_websocket_handshakes_are_left_to_the_socket_gate() -> None:
    app = Recorder()
    door = Admission(app, max_in_flight=0, body_seconds=1, max_body=100)
    assert call(door, HTTP_UPGRADE="websocket") == "200 OK"
    assert call(door).startswith("429")


def test_a_refusal_under_api_is_json_and_elsewhere_plain_text() -> None:
    door = Admission(Recorder(), max_in_flight=0, body_seconds=1, max_body=100)

    def refusal(path: str) -> tuple[str, dict[str, str], bytes]:
        seen: list[tuple[str, list[tuple[str, str]]]] = []
        environ = {"REQUEST_METHOD": "GET", "REMOTE_ADDR": "10.0.0.1", "PATH_INFO": path}
        body = b"".join(door({**environ, "wsgi.input": io.BytesIO()}, lambda *a: seen.append(a)))
        return seen[0][0], dict(seen[0][1]), body

    status, headers, body = refusal("/api/tables")
    assert status.startswith("429") and headers["Retry-After"] == "1"
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"ok": False, "error": "too many requests at once"}
    status, headers, body = refusal("/")
    assert (
        headers["Content-Type"].startswith("text/plain") and body == b"too many requests at once\n"
    )
