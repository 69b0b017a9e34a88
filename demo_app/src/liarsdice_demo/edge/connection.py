"""One client's WebSocket, as the hub sees it: a bounded outbox drained by its own sender.

Contract: :meth:`Connection.send` never blocks (the table lock is held while sending): it queues
the message, and a connection whose outbox is full (a client that stopped reading) is closed
instead of slowing its table down. :meth:`Connection.allow` is a token bucket that bounds how much
work one socket may ask for. :meth:`Connection.abandon` ends the connection from anywhere (under a
table lock too), with a close code and reason for the client; the sender delivers what was
queued before it, then the close frame. :meth:`Connection.close` stops the sender and joins
it. The sender is a thread, or a greenlet when the server runs under gevent.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
from typing import Any

from liarsdice_demo.edge.gate import TokenBucket
from liarsdice_demo.edge.protocol import encode

OUTBOX = 256
RATE = 10.0
"""Messages per second a client may send on average, per socket."""
BURST = 30
NORMAL = 1000
LAGGING = 1008
"""Close code for a client that stopped reading (policy violation)."""
SENDER_GRACE = 2.0
"""Seconds :meth:`Connection.close` waits for the sender before cutting the socket."""


class Connection:
    """A WebSocket (anything with ``send(str)``) plus its outbox, sender, rate limit and the
    language its messages are read in."""

    def __init__(
        self,
        ws: Any,
        *,
        locale: str = "en",
        outbox: int = OUTBOX,
        rate: float = RATE,
        burst: int = BURST,
    ):
        self.ws = ws
        self.locale = locale
        """The language its player reads (``liarsdice.i18n.LOCALES``)."""
        self.nickname: str | None = None
        """Its player's nickname when the request that opened it knew them (for the watchers)."""
        self.seat: int | None = None
        self.table: Any = None
        self.greeted = False
        self.close_code = NORMAL
        self.close_reason = ""
        self._cut = False
        self._outbox: queue.Queue[str | None] = queue.Queue(maxsize=outbox)
        self._closed = threading.Event()
        self._bucket = TokenBucket(rate, burst)
        self._sender = threading.Thread(target=self._drain, name="liarsdice-ws-send", daemon=True)
        self._sender.start()

    @property
    def closed(self) -> bool:
        """True once the connection was closed (by us or because the client went away)."""
        return self._closed.is_set()

    def send(self, data: dict[str, Any] | str) -> None:
        """Queue ``data`` (a message dict or its JSON text); close the connection if it lags."""
        if self.closed:
            return
        text = data if isinstance(data, str) else encode(data, self.locale)
        try:
            self._outbox.put_nowait(text)
        except queue.Full:
            self._cut = True
            self._end(LAGGING, "you stopped reading: reload to reconnect")

    def allow(self) -> bool:
        """Take a token for one client message; False when the client sends too fast."""
        return self._bucket.take()

    def abandon(self, code: int = NORMAL, reason: str = "") -> None:
        """End the connection without waiting (safe under a table lock): what is queued is still
        sent, then a close frame with ``code`` and ``reason``. The socket's own handler notices,
        stops and calls :meth:`close`."""
        self._end(code, reason)
        try:
            self._outbox.put_nowait(None)
        except queue.Full:
            self._cut = True  # the client is not reading what is queued: drop it

    def _end(self, code: int, reason: str) -> None:
        if not self.closed:
            self.close_code, self.close_reason = code, reason
        self._closed.set()

    def _drain(self) -> None:
        """The sender: blocks until there is something to send (no polling), stops at the end
        marker or once the connection is cut, then sends the close frame."""
        while True:
            text = self._outbox.get()
            if text is None or self._cut:
                break
            try:
                self.ws.send(text)
            except Exception:
                self._closed.set()
                return
        with contextlib.suppress(Exception):
            self.ws.close(reason=self.close_code, message=self.close_reason)

    def close(self) -> None:
        """Stop sending (after what is queued, if the client still reads) and join the sender;
        a sender stuck on a client that does not read is cut off by shutting the socket down."""
        self.abandon()
        if threading.current_thread() is self._sender:
            return
        self._sender.join(timeout=SENDER_GRACE)
        if self._sender.is_alive():
            raw = getattr(self.ws, "sock", None)
            if raw is not None:
                with contextlib.suppress(OSError):
                    raw.shutdown(socket.SHUT_RDWR)
            self._sender.join(timeout=SENDER_GRACE)
