"""The door before a WebSocket handshake: refused handshakes cost next to nothing.

Contract: :class:`HandshakeDoor` wraps the WSGI app (inside ProxyFix, so the client is the real
one). A request for ``/ws/…`` first asks the socket gate (:meth:`SocketGate.knock
<liarsdice_demo.edge.gate.SocketGate.knock>`): a client barred for flooding, or opening sockets faster
than its rate, gets a plain ``429`` with ``Retry-After`` and ``Connection: close`` — no Flask
request, no routing, no WebSocket handshake, no compressor. The answer is held back
``tarpit`` seconds so that a client reconnecting in a loop asks slowly; at most
:data:`HELD_PER_CLIENT` of one client's refusals are held at once. While a client has that many
held, :meth:`HandshakeDoor.turns_away` says so for its address, and the server closes its new
connections as soon as they are accepted, before reading a byte (``serve.DemoWorker``; not behind
a proxy, whose address is every client's): a storm from one address then costs an accept and a
close per connection, not a parsed request. An admitted request goes on with ``environ[KNOCKED]``
set: the gate took its opening's token already (and ``environ[limits.METERED]``: the app's
request limit does not count it again).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterable
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

from liarsdice_demo.edge.admission import StartResponse, WSGIApp, refuse
from liarsdice_demo.edge.clients import key_for
from liarsdice_demo.edge.gate import SocketGate
from liarsdice_demo.edge.limits import METERED

KEY = "liarsdice_door"
"""Where :func:`install` puts the door in ``app.extensions``."""
KNOCKED = "liarsdice.knocked"
"""The ``environ`` key set on a socket request the door let in."""
PREFIX = "/ws/"
HELD_PER_CLIENT = 16
"""The most refusals of one client held back at once."""


class HandshakeDoor:
    """WSGI middleware: refuse the socket requests of barred or too-fast clients before the app."""

    def __init__(self, app: WSGIApp, gate: SocketGate, tarpit: float, by_peer: bool) -> None:
        self.app, self.gate, self.tarpit = app, gate, tarpit
        self.by_peer = by_peer
        """Whether a connection's peer address is its client's (no proxy in front)."""
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def turns_away(self, peer: str) -> bool:
        """Whether a connection just accepted from ``peer`` should be closed unread: its client
        has :data:`HELD_PER_CLIENT` refusals held (never behind a proxy)."""
        if not self.by_peer:
            return False
        with self._lock:
            return self._held.get(key_for(peer), 0) >= HELD_PER_CLIENT

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not environ.get("PATH_INFO", "").startswith(PREFIX):
            return self.app(environ, start_response)
        client = key_for(environ.get("REMOTE_ADDR"))
        refusal = self.gate.knock(client)
        if refusal is None:
            environ[KNOCKED] = environ[METERED] = True  # the gate metered its opening
            return self.app(environ, start_response)
        wait, reason = refusal
        self._hold(client)
        return refuse(environ, start_response, "429 Too Many Requests", reason, math.ceil(wait))

    def _hold(self, client: str) -> None:
        """Sleep the tarpit, unless ``client`` already has :data:`HELD_PER_CLIENT` held."""
        with self._lock:
            held = self._held.get(client, 0)
            if not self.tarpit or held >= HELD_PER_CLIENT:
                return
            self._held[client] = held + 1
        try:
            time.sleep(self.tarpit)
        finally:
            with self._lock:
                left = self._held[client] - 1
                if left:
                    self._held[client] = left
                else:
                    del self._held[client]


def install(app: Any, gate: SocketGate) -> None:
    """Put a :class:`HandshakeDoor` around ``app.wsgi_app``, inside ProxyFix if there is one (so
    that ``REMOTE_ADDR`` is the client's), holding refusals ``LIMIT_TARPIT_SECONDS``; it is also
    ``app.extensions[KEY]``, for the server's accept (:meth:`HandshakeDoor.turns_away`)."""
    outer = app.wsgi_app
    behind_proxy = isinstance(outer, ProxyFix)
    door = HandshakeDoor(
        outer.app if behind_proxy else outer,
        gate,
        app.config["LIMIT_TARPIT_SECONDS"],
        by_peer=not behind_proxy,
    )
    if behind_proxy:
        outer.app = door
    else:
        app.wsgi_app = door
    app.extensions[KEY] = door
