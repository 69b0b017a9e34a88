"""The WebSocket endpoint ``/ws/<code>``: one socket per seat (or spectator), JSON messages.

Contract: before Flask sees it, a socket request passes the door
(:mod:`liarsdice_demo.edge.handshakes`): a client barred for flooding or opening sockets too fast gets
a plain 429, without a handshake; an admitted handshake waits its turn in the process's handshake
budget (:mod:`liarsdice_demo.edge.handshake_budget`), which it leaves once the socket is admitted
or refused. The socket is admitted by the app's
:class:`~liarsdice_demo.edge.gate.SocketGate` (the server's and the client's socket caps) or closed at
once with code 1013 and the reason. Compressed messages inflate to at most the message cap
(``SOCK_SERVER_OPTIONS["max_message_size"]``; past it the socket is closed with 1009) and spend
the client's budget of inflated bytes (:mod:`liarsdice_demo.edge.inflation`). A socket for a table
that does not exist is closed with code :data:`GONE` (clients stop reconnecting). The first
message must be ``hello`` (with the seat token for a seat, without it to watch) within
:data:`HELLO_SECONDS`; then each message is rate-limited per socket and per client, parsed
(:func:`liarsdice_demo.edge.protocol.parse`, which checks the size and nesting caps on the raw text
before parsing) and handed to the table, which replies with an error or broadcasts the change.
Malformed, oversized, too deeply nested, out-of-turn or illegal messages get an ``error`` reply
and change nothing (docs/protocol.md lists the limits). A socket that keeps sending past its
limit is closed with code 1008 and its client may not open sockets for a while (the gate's flood
penalty: the door refuses its handshakes). A message that trips a bug in the server gets an
``internal error`` reply (the bug is logged, once per client and minute) and the socket stays
open. A socket whose client stops reading is closed, not waited for. Every close the server starts lingers
(:class:`LingeringSocket`), so that its code and reason reach the client even while the client
is still sending.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import socket
import threading
import time
from typing import Any, cast

from flask import Flask, Response, current_app, g, request
from simple_websocket import ConnectionClosed
from simple_websocket import ConnectionError as HandshakeFailed
from wsproto.utilities import RemoteProtocolError

from liarsdice_demo.edge import handshakes, limits
from liarsdice_demo.edge.clients import client_key
from liarsdice_demo.edge.connection import Connection
from liarsdice_demo.edge.gate import FLOODED, TRY_AGAIN_LATER, MeteredSocket, Refused, SocketGate
from liarsdice_demo.edge.inflation import BoundedDeflate
from liarsdice_demo.edge.log_once import LogOnce
from liarsdice_demo.edge.protocol import ProtocolError, error, message, parse
from liarsdice_demo.edge.wsserver import BoundedServer, upgraded
from liarsdice_demo.storage.live_store import StoreUnavailable
from liarsdice_demo.tables.hub import current_hub
from liarsdice_demo.tables.table_errors import GONE, TableError
from liarsdice_demo.text.i18n import page_locale

log = logging.getLogger(__name__)
bugs_logged = LogOnce()
"""A bug a client's messages trip is logged once per client and minute, however many it sends."""
IDLE_POLL = 30.0
"""Seconds between checks, on an idle socket, that the table has not dropped the connection (a
dropped connection's close frame normally wakes the socket at once)."""
HELLO_SECONDS = 30.0
"""Seconds from connecting by which a socket must have said hello (else it is closed)."""
UNGREETED = 1008
"""Close code for a socket that did not say hello in time."""
FLOOD_DROPS = 100
"""Messages dropped in a row for the rate limit after which the socket is closed."""
KEY = "liarsdice_gate"
READER_WAIT = 5.0
"""Seconds to wait for simple-websocket's reader to finish once its socket is shut down."""
LINGER_SECONDS = 1.0
"""The longest a closing socket reads and discards what its client still sends."""
LINGER_BYTES = 1024 * 1024
"""The most a closing socket reads and discards (then it is closed all the same)."""
MAX_MESSAGE = 16 * 1024
"""The message cap when ``SOCK_SERVER_OPTIONS`` sets no ``max_message_size``."""


class LingeringSocket:
    """A socket whose close lingers, so that the close frame reaches a client that is still sending.

    Closing a TCP socket, or shutting down its read side, while the peer is still sending makes
    the kernel answer that data with a reset, and a reset can overtake or wipe out what the peer
    has not read yet: the close frame, whose code and reason the player never sees (a flooder
    always is still sending). So :meth:`linger` shuts down only the write side (the client gets
    the close frame, then end-of-stream) and from then on :meth:`recv` reads and discards what the
    client still sends until it closes, for at most :data:`LINGER_SECONDS` and
    :data:`LINGER_BYTES`, then returns ``b""``, which ends simple-websocket's reader; :meth:`close`
    (the reader's, at its end) lingers the same way first. Everything else is the socket."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._until: float | None = None
        self._left = LINGER_BYTES

    def linger(self) -> None:
        """Send end-of-stream after what was sent; reads now discard, within the bounds."""
        if self._until is None:
            self._until = time.monotonic() + LINGER_SECONDS
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_WR)

    def recv(self, size: int) -> bytes:
        if self._until is None:
            data: bytes = self._sock.recv(size)
            return data
        self._discard()
        return b""

    def close(self) -> None:
        self.linger()
        self._discard()
        self._sock.close()

    def _discard(self) -> None:
        """Read and drop what the client sends until it closes or a bound is reached."""
        until = self._until or 0.0  # set by linger(), which comes first
        while self._left > 0 and (wait := until - time.monotonic()) > 0:
            try:
                self._sock.settimeout(wait)
                data = self._sock.recv(min(self._left, 64 * 1024))
            except OSError:  # a timeout, a reset or a closed socket: the lingering is over
                return
            if not data:
                return
            self._left -= len(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def table_socket(code: str) -> Response:
    """Accept the handshake and serve one client of table ``code`` until it goes away."""
    gate: SocketGate = current_app.extensions[KEY]
    client = client_key()
    options = dict(current_app.config["SOCK_SERVER_OPTIONS"])
    cap = options.get("max_message_size") or MAX_MESSAGE
    deflate = BoundedDeflate(cap, functools.partial(gate.inflated, client))
    try:
        ws = BoundedServer(request.environ, deflate, **options)
    except (HandshakeFailed, RemoteProtocolError):
        return Response("not a WebSocket handshake", 400, mimetype="text/plain")
    # The reader looks it up on every read; it stands in for the socket (its __getattr__).
    ws.sock = cast(socket.socket, LingeringSocket(ws.sock))
    admitted = False
    try:
        try:
            gate.admit(client, knocked=request.environ.get(handshakes.KNOCKED, False))
            admitted = True
        finally:  # the handshake is over: serving the socket is not charged to the budget
            handshakes.handshake_done(request.environ)
        _serve(ws, code, gate, client)
    except Refused as refused:  # from admit: the socket was not counted
        _hang_up(ws, refused.code, refused.reason)
    except ConnectionClosed:
        pass
    finally:
        try:
            _stop_reader(ws)
        finally:
            if admitted:  # only now: a lingering socket still counts for its client
                gate.release(client)
    return upgraded(ws)


def _hang_up(ws: Any, code: int, reason: str) -> None:
    """Close ``ws`` with ``code`` and ``reason``."""
    with contextlib.suppress(ConnectionClosed, OSError):
        ws.close(reason=code, message=reason)


def _stop_reader(ws: Any) -> None:
    """Close lingering (:class:`LingeringSocket`) and end simple-websocket's reader before the
    server closes the socket: a socket closed while the reader's gevent selector still watches it
    can crash the whole process (gevent's selectors say so). The reader ends when the lingering
    does (the client closed, or a bound was reached); one still waiting on a client that neither
    sends nor closes is woken by shutting the socket down, and then closes its selector."""
    with contextlib.suppress(AttributeError, OSError):
        ws.sock.linger()
    reader = getattr(ws, "thread", None)
    if reader is None or reader is threading.current_thread():
        return
    reader.join(LINGER_SECONDS)
    if reader.is_alive():
        with contextlib.suppress(AttributeError, OSError):
            ws.sock.shutdown(socket.SHUT_RDWR)
        reader.join(READER_WAIT)


def _serve(ws: Any, code: str, gate: SocketGate, client: str) -> None:
    try:
        table = current_hub().get(code)
    except StoreUnavailable:
        _hang_up(ws, TRY_AGAIN_LATER, "the table store is unreachable: try again in a moment")
        return
    if table is None:
        retry = limits.spend_code_miss()
        if retry is not None:
            _hang_up(ws, TRY_AGAIN_LATER, f"too many unknown codes: try again in {retry} s")
        else:
            _hang_up(ws, GONE, f"no live table has the code {code[:12]!r}")
        return
    with contextlib.suppress(AttributeError, OSError):  # small messages go out at once
        ws.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    ws.sock = MeteredSocket(ws.sock, gate, client)  # the reader looks it up on every read
    conn = Connection(ws, locale=page_locale())  # the language of the page that opened it
    conn.nickname = g.player["nickname"] if g.get("player") else None  # the player cookie's
    dropped = 0
    hello_by = time.monotonic() + HELLO_SECONDS
    try:
        while not conn.closed:
            if not conn.greeted and time.monotonic() > hello_by:
                conn.abandon(UNGREETED, "say hello first: closed")
                break
            wait = IDLE_POLL if conn.greeted else max(0.05, hello_by - time.monotonic())
            raw = ws.receive(timeout=wait)
            if raw is None:
                continue
            if not (conn.allow() and gate.allow_message(client)):
                dropped += 1
                if dropped == 1:
                    conn.send(error("too many messages: slow down"))
                elif dropped >= FLOOD_DROPS:
                    conn.abandon(FLOODED, "too many messages: closed")
                    gate.bar(client)
                continue
            dropped = 0
            try:
                _handle(table, conn, raw)
            except Exception:  # a bug, not the client's fault: say so, keep the socket open
                bugs_logged.exception(
                    log, client, "table %s: a client message was not handled", code
                )
                conn.send(error("internal error: the message was not handled"))
    finally:
        table.detach(conn)
        conn.close()


def _handle(table: Any, conn: Connection, raw: object) -> None:
    """Parse one client message and act on it; a refused message gets an error reply."""
    try:
        intent = parse(raw)
    except ProtocolError as problem:
        conn.send(error(str(problem)))
        return
    if not conn.greeted:
        if intent.type != "hello":
            conn.send(error("say hello first", intent))
            return
        try:
            table.attach(conn, intent.fields.get("seat_token"))
        except TableError as problem:
            conn.send(error(problem.text, intent))
        except StoreUnavailable:  # the seat could not be marked present: come back later
            conn.abandon(TRY_AGAIN_LATER, "the table store is unreachable: try again in a moment")
        return
    if intent.type == "ping":
        conn.send(message("pong", id=intent.id))
        return
    table.handle(conn, intent)


def init_app(app: Flask) -> None:
    """Register the WebSocket route on ``app``, give it a socket gate from its config, and put
    the door (:mod:`liarsdice_demo.edge.handshakes`) before the app for that gate."""
    app.extensions[KEY] = gate = SocketGate.from_config(app.config)
    app.add_url_rule("/ws/<code>", view_func=table_socket, websocket=True)
    handshakes.install(app, gate)
