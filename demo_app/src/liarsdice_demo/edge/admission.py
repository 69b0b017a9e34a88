"""The door: each client's plain HTTP requests in flight, and the deadline for a request body.

Contract: :class:`Admission` wraps the WSGI app (inside ProxyFix, so the client is the real one).
A client (:func:`liarsdice_demo.edge.clients.key_for`) may have at most ``max_in_flight`` requests
being served at once; one more is answered 429 at once, before any other work. A request body is
read here, whole, within ``body_seconds`` (under gevent; a thread cannot be interrupted, so the
development server reads without a deadline) or the request is answered 408; a body that cannot
be read (a malformed chunked encoding) is a 400. Either way the app never sees the request. Without
this, one client could hold thousands of requests whose bodies never finish, each holding a file
descriptor, until the server could accept nothing. WebSocket handshakes are not counted here:
once upgraded they are sockets, which the socket gate counts and caps.
"""

from __future__ import annotations

import contextlib
import io
import json
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from liarsdice_demo.edge.clients import key_for

DEFAULTS: dict[str, Any] = {"MAX_REQUESTS_IN_FLIGHT": 16, "BODY_SECONDS": 10.0}
"""Config keys read by :func:`init_app`."""

WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HEADERS = [
    ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"),
    ("Connection", "close"),
]

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class BodyTimeout(Exception):
    """The request body did not arrive in time."""


class Admission:
    """WSGI middleware: a per-client cap on requests in flight and a deadline for bodies."""

    def __init__(
        self, app: WSGIApp, *, max_in_flight: int, body_seconds: float, max_body: int
    ) -> None:
        self.app = app
        self.max_in_flight = max_in_flight
        self.body_seconds = body_seconds
        self.max_body = max_body
        self._in_flight: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            return self.app(environ, start_response)
        client = key_for(environ.get("REMOTE_ADDR"))
        with self._lock:
            if self._in_flight.get(client, 0) >= self.max_in_flight:
                return refuse(
                    environ, start_response, "429 Too Many Requests", "too many requests at once"
                )
            self._in_flight[client] = self._in_flight.get(client, 0) + 1
        try:
            try:
                self._buffer_body(environ)
            except BodyTimeout:
                return refuse(
                    environ, start_response, "408 Request Timeout", "the request body was late"
                )
            except Exception:  # the server's reader refused the body (e.g. a bad chunk size)
                return refuse(
                    environ, start_response, "400 Bad Request", "the request body is malformed"
                )
            return self.app(environ, start_response)
        finally:
            with self._lock:
                left = self._in_flight[client] - 1
                if left:
                    self._in_flight[client] = left
                else:
                    del self._in_flight[client]

    def _buffer_body(self, environ: dict[str, Any]) -> None:
        """Read the body into memory (at most ``max_body`` + 1 bytes, so the app can still say
        413) before the app runs; a declared length over the cap is left to the app's 413."""
        if environ.get("REQUEST_METHOD") not in WITH_BODY:
            return
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        declared = environ.get("CONTENT_LENGTH") or ""
        length = int(declared) if declared.isdigit() else 0
        if length > self.max_body or not (chunked or length):
            return
        with _deadline(self.body_seconds):
            data = environ["wsgi.input"].read(self.max_body + 1 if chunked else length)
        environ["wsgi.input"] = io.BytesIO(data)
        environ["CONTENT_LENGTH"] = str(len(data))
        environ.pop("HTTP_TRANSFER_ENCODING", None)


def refuse(
    environ: dict[str, Any],
    start_response: StartResponse,
    status: str,
    text: str,
    retry_after: int = 1,
) -> list[bytes]:
    """A refusal written before the app: JSON ``{"ok": false, "error": …}`` under ``/api/`` (as
    every answer there), plain text elsewhere; a 429 or a 503 says ``Retry-After: retry_after``. The
    handshake door answers with it too."""
    if environ.get("PATH_INFO", "").startswith("/api/"):
        body, kind = json.dumps({"ok": False, "error": text}).encode(), "application/json"
    else:
        body, kind = f"{text}\n".encode(), "text/plain; charset=utf-8"
    extra = [("Retry-After", str(retry_after))] if status.startswith(("429", "503")) else []
    headers = [("Content-Type", kind), *HEADERS, *extra, ("Content-Length", str(len(body)))]
    start_response(status, headers)
    return [body]


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`BodyTimeout` in the block after ``seconds``, where gevent runs the server."""
    try:
        from gevent import Timeout, monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        yield
        return
    if not monkey.is_module_patched("socket"):
        yield
        return
    with Timeout(seconds, BodyTimeout):
        yield


def init_app(app: Any) -> None:
    """Wrap ``app.wsgi_app`` (call it before ProxyFix wraps the app, so it sits inside)."""
    app.wsgi_app = Admission(
        app.wsgi_app,
        max_in_flight=app.config["MAX_REQUESTS_IN_FLIGHT"],
        body_seconds=app.config["BODY_SECONDS"],
        max_body=app.config["MAX_CONTENT_LENGTH"],
    )
