"""The WebSocket endpoint ``/ws/<code>``: one socket per seat (or spectator), JSON messages.

Contract: the first message must be ``hello`` (with the seat token for a seat, without it to
watch); then each message is rate-limited per socket, parsed (:func:`liarsdice_demo.protocol.parse`,
which checks the size and nesting caps on the raw text before parsing) and handed to the table,
which replies with an error or broadcasts the change. Malformed, oversized, too deeply nested,
out-of-turn or illegal messages get an ``error`` reply and change nothing (docs/protocol.md lists
the limits). A message that trips a bug in the server gets an ``internal error`` reply (the bug is
logged) and the socket stays open. A socket whose client stops reading is closed, not waited for.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask
from flask_sock import Sock

from liarsdice_demo.connection import Connection
from liarsdice_demo.hub import current_hub
from liarsdice_demo.protocol import ProtocolError, error, message, parse
from liarsdice_demo.table import TableError

log = logging.getLogger(__name__)
sock = Sock()
IDLE_POLL = 1.0
HELLO_SECONDS = 30.0


@sock.route("/ws/<code>")
def table_socket(ws: Any, code: str) -> None:
    """Serve one client of table ``code`` until it goes away."""
    table = current_hub().get(code)
    conn = Connection(ws)
    waited = 0.0
    warned = False
    try:
        if table is None:
            conn.send(error(f"no live table has the code {code!r}"))
            return
        while not conn.closed:
            raw = ws.receive(timeout=IDLE_POLL)
            if raw is None:
                waited += IDLE_POLL
                if not conn.greeted and waited >= HELLO_SECONDS:
                    conn.send(error("say hello first"))
                    return
                continue
            if not conn.allow():
                if not warned:
                    conn.send(error("too many messages: slow down"))
                    warned = True
                continue
            warned = False
            try:
                _handle(table, conn, raw)
            except Exception:  # a bug, not the client's fault: say so, keep the socket open
                log.exception("table %s: a client message was not handled", code)
                conn.send(error("internal error: the message was not handled"))
    finally:
        if table is not None:
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
    """Register the WebSocket route on ``app``."""
    sock.init_app(app)
