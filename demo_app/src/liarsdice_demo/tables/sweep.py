"""The hub's sweep: every minute it closes the tables this process drives that have expired.

Contract: :meth:`Sweep.run` closes the tables the hub drives that are idle for
:data:`IDLE_SECONDS`, finished and idle for :data:`FINISHED_SECONDS` (once the SQL database has
taken their game), or never started (the rule of :mod:`.expiry`: it notes when a seated player is
seen at such a table), drops them from the store (every process's copies close when the store
announces it), forgets the copies nobody here uses, and runs again :data:`SWEEP_SECONDS` later.
:meth:`Sweep.frees_in` says when a sweep is due to free a place.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from liarsdice_demo.tables.expiry import attended, closes_at, first_sweep
from liarsdice_demo.tables.scheduler import Scheduler
from liarsdice_demo.tables.table import TableSession

LIVE = ("waiting", "playing")
IDLE_SECONDS = 3600.0
"""A table nobody has acted at (or joined) for this long is closed, whoever still watches it."""
FINISHED_SECONDS = 600.0
"""A table whose game is over (or stopped) closes this long after its last action."""
SWEEP_SECONDS = 60.0


class Swept(Protocol):
    """What the sweep uses of the hub."""

    store: Any
    scheduler: Scheduler

    def tables(self) -> list[TableSession]: ...

    def forget(self, code: str) -> None: ...


class Sweep:
    """The sweep of ``hub``'s tables, with when a seated player was last seen at each
    never-started one; :meth:`run` sweeps once and schedules the next."""

    def __init__(self, hub: Swept) -> None:
        self._hub = hub
        self.seen: dict[str, float] = {}
        """When (epoch seconds) a seated player was last seen at each never-started table."""
        self.next_at = time.monotonic() + SWEEP_SECONDS
        """When (``time.monotonic``) the next sweep is due."""

    def run(self) -> None:
        """Close the tables this process drives that are idle, long finished or never started
        (every process's copies of them close when the store announces it), and forget copies
        nobody here uses."""
        now, wall = time.monotonic(), time.time()
        held = self._hub.tables()  # a table's lock is never taken under the hub's
        due = [t for t in held if t.driving and (expired(t, now) or self._unstarted(t, wall))]
        unused = [t for t in held if not t.driving and not t.connections]
        for table in (*due, *unused):
            self._hub.forget(table.code)
        for table in due:
            self._hub.store.drop(table.code)
            table.close()
        self.next_at = time.monotonic() + SWEEP_SECONDS
        self._hub.scheduler.call_later(SWEEP_SECONDS, self.run)

    def forget(self, code: str) -> None:
        """Table ``code`` is no longer held here."""
        self.seen.pop(code, None)

    def frees_in(
        self, tables: Iterable[TableSession], shared: Sequence[tuple[str, dict[str, Any]]]
    ) -> int | None:
        """Whole seconds until the first sweep due to close a table: a never-started one of
        ``tables`` (this process's) or of ``shared`` (every process's records; another
        process's sweeps may come up to :data:`SWEEP_SECONDS` later), or a finished one of
        ``tables``; ``None`` if none is due (when a game being played ends is not known)."""
        wall, now = time.time(), time.monotonic()
        tables = list(tables)
        closing = [self._closes_at(table) for table in tables]
        closing += [
            closes_at(r["status"], r["created"], attended(r), self.seen.get(code))
            for code, r in shared
        ]
        delays = [at - wall for at in closing if at is not None]
        delays += [
            left
            for table in tables
            if table.status not in LIVE and (left := idle_left(table, now)) is not None
        ]
        if not delays:
            return None
        return first_sweep(min(delays), self.next_at - now, SWEEP_SECONDS)

    def _unstarted(self, table: TableSession, wall: float) -> bool:
        """Whether ``table`` never started and is due to close; notes when a seated player is
        seen at it."""
        if table.status != "waiting":
            self.seen.pop(table.code, None)
            return False
        if _present(table):
            self.seen[table.code] = wall
        at = self._closes_at(table)
        return at is not None and wall >= at

    def _closes_at(self, table: TableSession) -> float | None:
        """When ``table`` closes if it never starts (:func:`.expiry.closes_at`)."""
        return closes_at(table.status, table.created, _present(table), self.seen.get(table.code))


def expired(table: TableSession, now: float) -> bool:
    """True for a table to close: idle, or long finished (but a finished game the SQL database
    has not taken yet keeps its table: the driver keeps trying to save it)."""
    left = idle_left(table, now)
    return left is not None and left < 0


def idle_left(table: TableSession, now: float) -> float | None:
    """Seconds until ``table`` has been idle (or finished) too long, or ``None`` while it keeps a
    finished game the SQL database has not taken yet."""
    if table.status == "over" and table.game_id is None:
        return None
    limit = IDLE_SECONDS if table.status in LIVE else FINISHED_SECONDS
    return table.touched + limit - now


def _present(table: TableSession) -> bool:
    """Whether a human seated at ``table`` has a socket open in any process."""
    return any(seat is not None and seat.kind == "human" and seat.present for seat in table.seats)
