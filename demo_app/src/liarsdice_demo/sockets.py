"""The WebSocket endpoint ``/ws/<code>``: one socket per seat (or spectator), JSON messages.

Contract: a socket is first admitted by the app's :class:`~liarsdice_demo.gate.SocketGate` (the
server's and the client's socket caps, the client's rate of opening sockets) or closed at once
with code 1013 and the reason; a socket for a table that does not exist is closed with code
:data:`GONE` (clients stop reconnecting). The first message must be ``hello`` (with the seat token
for a seat, without it to watch) within :data:`HELLO_SECONDS`; then each message is rate-limited
per socket and per client, parsed (:func:`liarsdice_demo.protocol.parse`, which checks the size
and nesting caps on the raw text before parsing) and handed to the table, which replies with an
error or broadcasts the change. Malformed, oversized, too deeply nested, out-of-turn or illegal
messages get an ``error`` reply and change nothing (docs/protocol.md lists the limits). A socket
that keeps sending past its limit is closed with code 1008 and its client may not open sockets
for a while (the gate's flood penalty). A message that trips a
bug in the server gets an ``internal error`` reply (the bug is logged) and the socket stays open.
A socket whose client stops reading is closed, not waited for.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from typing import Any

from flask import Flask, current_app
from flask_sock import Sock
from simple_websocket import ConnectionClosed

from liarsdice_demo.clients import client_key
from liarsdice_demo.connection import Connection
from liarsdice_demo.gate import FLOODED, Refused, SocketGate
from liarsdice_demo.hub import current_hub
from liarsdice_demo.protocol import ProtocolError, error, message, parse
from liarsdice_demo.table import TableError

log = logging.getLogger(__name__)
sock = Sock()
IDLE_POLL = 30.0
"""Seconds between checks, on an idle socket, that the table has not dropped the connection (a
dropped connection's close frame normally wakes the socket at once)."""
HELLO_SECONDS = 30.0
GONE = 4404
"""Close code: no live table has this code (the client should stop reconnecting)."""
FLOOD_DROPS = 100
"""Messages dropped in a row for the rate limit after which the socket is closed."""
KEY = "liarsdice_gate"
CLOSE_WAIT = 2.0
"""Seconds a closing socket waits for the client's close frame (the closing handshake)."""


@sock.route("/ws/<code>")
def table_socket(ws: Any, code: str) -> None:
    """Serve one client of table ``code`` until it goes away."""
    gate: SocketGate = current_app.extensions[KEY]
    client = client_key()
    try:
        gate.admit(client)
    except Refused as refused:
        _hang_up(ws, refused.code, refused.reason)
        return
    try:
        _serve(ws, code, gate, client)
    finally:
        gate.release(client)
        _wait_for_close_reply(ws)


def _hang_up(ws: Any, code: int, reason: str) -> None:
    """Close ``ws`` with ``code`` and ``reason``, and let the client's reply arrive."""
    with contextlib.suppress(ConnectionClosed, OSError):
        ws.close(reason=code, message=reason)
    _wait_for_close_reply(ws)


def _wait_for_close_reply(ws: Any) -> None:
    """Wait (at most :data:`CLOSE_WAIT` s) for the client's answer to our close frame before the
    server drops the TCP connection: dropped earlier, the client's reply meets a reset, which can
    discard our close frame, and with it the reason, before the client has read it."""
    reader = getattr(ws, "thread", None)
    if reader is not None and reader is not threading.current_thread():
        reader.join(CLOSE_WAIT)


def _serve(ws: Any, code: str, gate: SocketGate, client: str) -> None:
    table = current_hub().get(code)
    if table is None:
        _hang_up(ws, GONE, f"no live table has the code {code[:12]!r}")
        return
    with contextlib.suppress(AttributeError, OSError):  # small messages go out at once
        ws.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn = Connection(ws)
    dropped = 0
    try:
        while not conn.closed:
            raw = ws.receive(timeout=IDLE_POLL if conn.greeted else HELLO_SECONDS)
            if raw is None:
                if not conn.greeted:
                    conn.send(error("say hello first"))
                    return
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
                log.exception("table %s: a client message was not handled", code)
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
            conn.send(error(str(problem), intent))
        return
    if intent.type == "ping":
        conn.send(message("pong", id=intent.id))
        return
    table.handle(conn, intent)


def init_app(app: Flask) -> None:
    """Register the WebSocket route on ``app`` and give it a socket gate from its config."""
    app.extensions[KEY] = SocketGate.from_config(app.config)
    sock.init_app(app)
