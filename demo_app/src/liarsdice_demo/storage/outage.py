"""While the shared Redis is away: every process says so at once, and nobody plays on a stale copy.

Contract (shared mode only): each process pings Redis every :data:`PROBE_SECONDS` on a thread of
its own (:meth:`.RedisStore.ping`, which waits at most :data:`~.redis_store.PROBE_TIMEOUT`). When a
ping fails, the store is marked :attr:`~.RedisStore.away` (its calls fail at once: a move is
refused at once, a page or ``GET /api/tables/<code>`` answers 503) and every copy this process
holds is dropped, its sockets closed with 1013 ("try again later"), whether or not anyone acted:
players on every process learn of the outage within about a second, and come back (the page's
script retries 1013 with a growing wait) to a table loaded afresh once Redis answers. When a ping
succeeds again the mark is cleared, and the leases of the dropped tables are taken back at the
next lease tick (:mod:`.cluster`).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

log = logging.getLogger(__name__)

PROBE_SECONDS = 0.5
"""How often each process asks whether Redis answers."""

AWAY_REASON = "the table store is unreachable: try again in a moment"
"""The close reason of a socket whose table's store went away."""


class OutageWatch:
    """Pings the hub's Redis store and drops every copy while it is away (see the module doc)."""

    def __init__(self, hub: Any, every: float = PROBE_SECONDS) -> None:
        self.hub = hub
        self.store = hub.store
        self.every = every
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="liarsdice-outage", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stopped.wait(self.every):
            try:
                self.check()
            except Exception:  # a bug: log it, never stop watching
                log.exception("watching Redis")

    def check(self) -> None:
        """One probe: mark the store away (and drop every copy) or back."""
        if self.store.ping():
            if self.store.away.is_set():
                self.store.away.clear()
                log.warning("Redis answers again: tables load from it as players come back")
            return
        if not self.store.away.is_set():
            self.store.away.set()
            log.warning("Redis does not answer: every table here is closed with 1013")
        self.drop_all()

    def drop_all(self) -> None:
        """Drop every copy this process holds (a copy loaded meanwhile too), sockets closed 1013."""
        for table in self.hub.tables():
            table.abandon(AWAY_REASON)

    def stop(self) -> None:
        """Stop watching (the hub is shutting down)."""
        self._stopped.set()
        self._thread.join(self.every + 2)
