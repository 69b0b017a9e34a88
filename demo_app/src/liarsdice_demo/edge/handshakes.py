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
request limit does not count it again). It then waits its turn in the process's handshake budget
(:mod:`liarsdice_demo.edge.handshake_budget`), when the door has one: established sockets' messages
go first, and handshakes spend at most their share of the CPU. Its :class:`Ticket
<liarsdice_demo.edge.handshake_budget.Ticket>` is ``environ[TICKET]``; the socket view ends it
(:func:`handshake_done`) once the socket is upgraded and admitted or refused, and the door ends
it when the app returns, if the view did not. Past the budget's count of waiting handshakes, the
door answers ``503`` with ``Retry-After``.
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
from liarsdice_demo.edge.handshake_budget import HandshakeBudget
from liarsdice_demo.edge.limits import METERED

KEY = "liarsdice_door"
"""Where :func:`install` puts the door in ``app.extensions``."""
KNOCKED = "liarsdice.knocked"
"""The ``environ`` key set on a socket request the door let in."""
TICKET = "liarsdice.handshake_ticket"
"""The ``environ`` key of a let-in handshake's budget ticket."""
BUSY_RETRY = 5
"""The ``Retry-After`` (seconds) of a handshake refused because too many are waiting."""
PREFIX = "/ws/"
HELD_PER_CLIENT = 16
"""The most refusals of one client held back at once."""


class HandshakeDoor:
    """WSGI middleware: refuse the socket requests of barred or too-fast clients before the app."""

    def __init__(
        self,
        app: WSGIApp,
        gate: SocketGate,
        tarpit: float,
        by_peer: bool,
        budget: HandshakeBudget | None = None,
    ) -> None:
        self.app, self.gate, self.tarpit, self.budget = app, gate, tarpit, budget
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
            return self._in_turn(environ, start_response)
        wait, reason = refusal
        self._hold(client)
        return refuse(environ, start_response, "429 Too Many Requests", reason, math.ceil(wait))

    def _in_turn(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Run the app once the handshake budget lets this handshake through."""
        if self.budget is None:
            return self.app(environ, start_response)
        ticket = self.budget.wait_turn()
        if ticket is None:
            busy = "the server is busy: try again in a moment"
            return refuse(environ, start_response, "503 Service Unavailable", busy, BUSY_RETRY)
        environ[TICKET] = ticket
        try:
            return self.app(environ, start_response)
        finally:
            ticket.done()

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


def handshake_done(environ: dict[str, Any]) -> None:
    """End the handshake budget's ticket of the socket request ``environ`` (if it has one)."""
    ticket = environ.get(TICKET)
    if ticket is not None:
        ticket.done()


def install(app: Any, gate: SocketGate) -> None:
    """Put a :class:`HandshakeDoor` around ``app.wsgi_app``, inside ProxyFix if there is one (so
    that ``REMOTE_ADDR`` is the client's), holding refusals ``LIMIT_TARPIT_SECONDS``, with a
    handshake budget from the app's config (:meth:`HandshakeBudget.from_config`); it is also
    ``app.extensions[KEY]``, for the server's accept (:meth:`HandshakeDoor.turns_away`)."""
    outer = app.wsgi_app
    behind_proxy = isinstance(outer, ProxyFix)
    door = HandshakeDoor(
        outer.app if behind_proxy else outer,
        gate,
        app.config["LIMIT_TARPIT_SECONDS"],
        by_peer=not behind_proxy,
        budget=HandshakeBudget.from_config(app.config),
    )
    if behind_proxy:
        outer.app = door
    else:
        app.wsgi_app = door
    app.extensions[KEY] = door
