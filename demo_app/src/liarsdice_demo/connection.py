"""One client's WebSocket, as the hub sees it: a bounded outbox drained by its own thread.

Contract: :meth:`Connection.send` never blocks (the table lock is held while sending): it queues
the message, and a connection whose outbox is full (a client that stopped reading) is closed
instead of slowing its table down. :meth:`Connection.allow` is a token bucket that bounds how much
work one socket may ask for. :meth:`Connection.close` stops the sender thread and joins it.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from typing import Any

OUTBOX = 256
RATE = 10.0
"""Messages per second a client may send on average."""
BURST = 30


class Connection:
    """A WebSocket (anything with ``send(str)``) plus its outbox, sender thread and rate limit."""

    def __init__(self, ws: Any, *, outbox: int = OUTBOX, rate: float = RATE, burst: int = BURST):
        self.ws = ws
        self.seat: int | None = None
        self.table: Any = None
        self.greeted = False
        self._outbox: queue.Queue[str | None] = queue.Queue(maxsize=outbox)
        self._closed = threading.Event()
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._stamp = time.monotonic()
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
        text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
        try:
            self._outbox.put_nowait(text)
        except queue.Full:
            self._closed.set()

    def allow(self) -> bool:
        """Take a token for one client message; False when the client sends too fast."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def _drain(self) -> None:
        while True:
            try:
                text = self._outbox.get(timeout=0.5)
            except queue.Empty:
                if self.closed:
                    return
                continue
            if text is None:
                return
            try:
                self.ws.send(text)
            except Exception:
                self._closed.set()
                return

    def abandon(self) -> None:
        """Mark the connection closed without waiting (safe under a table lock); the socket's own
        handler notices, stops and calls :meth:`close`."""
        self._closed.set()
        with contextlib.suppress(queue.Full):
            self._outbox.put_nowait(None)

    def close(self) -> None:
        """Stop sending (after what is queued, if the client still reads) and join the thread."""
        self.abandon()
        if threading.current_thread() is not self._sender:
            self._sender.join(timeout=5)
