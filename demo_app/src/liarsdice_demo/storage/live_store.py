"""Live tables outlive the process: each live table's record and event log, kept in SQLite.

Contract: :meth:`LiveStore.commit` writes a table's record (a JSON object: settings, seats with
their tokens' digests, status, clock deadline; see ``TableSession.record``) and the events its
current game added since the last commit, in one transaction, and returns once it is committed:
a table calls it before it broadcasts what changed, so no player ever sees a change the store has
not kept. Each commit names the version of the table it was made from and bumps it; a commit
made from an older version raises :class:`StoreConflict` and writes nothing (optimistic
concurrency: two writers can never interleave one table's changes). :meth:`LiveStore.reserve`
claims a new table's code once: codes are unique among all processes sharing the store.
:meth:`LiveStore.load` gives back every stored table with the events of its current game, oldest
table first; :meth:`LiveStore.drop` forgets a table (the hub closed it).
:class:`~liarsdice_demo.storage.redis_store.RedisStore` keeps the same contract, and more.

The database is in WAL mode with ``synchronous = NORMAL``: a commit survives the process being
killed (``kill -9``), not a power cut of the host (the last moments may then be lost).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import orjson

from liarsdice.events import Event
from liarsdice.serialization import from_data, to_data
from liarsdice_demo.storage.db import connect, write_transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS live_tables (
    code TEXT PRIMARY KEY,
    record TEXT,                       -- JSON object (TableSession.record); NULL: code reserved
    created REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,  -- commits so far
    game INTEGER NOT NULL DEFAULT 0      -- the game whose events are stored
);
CREATE TABLE IF NOT EXISTS live_events (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,             -- the table's game number (1, then each rematch)
    seq INTEGER NOT NULL,              -- position in that game's log, from 0
    event TEXT NOT NULL,               -- JSON, liarsdice.serialization
    PRIMARY KEY (code, game, seq)
);
"""


class StoreConflict(RuntimeError):
    """The table changed in the store since the version a commit was made from."""


class StoreUnavailable(RuntimeError):
    """The store cannot be reached (a shared store's server is down): nothing was written."""


@attrs.frozen
class StoredTable:
    """A table as a store holds it: its record, its current game's events (``first`` on: 0 for
    the whole log) and its version."""

    code: str
    record: dict[str, Any]
    events: list[Event]
    version: int
    first: int = 0


class LiveStore:
    """The live tables of one SQLite file (one connection, shared under a lock)."""

    def __init__(self, path: str | Path) -> None:
        self._conn = connect(path)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.executescript(SCHEMA)
        self._lock = threading.Lock()

    def reserve(self, code: str, created: float) -> bool:
        """Claim ``code`` for a new table; False if it is taken already."""
        with self._lock, write_transaction(self._conn):
            cursor = self._conn.execute(
                "INSERT INTO live_tables (code, record, created) VALUES (?, NULL, ?)"
                " ON CONFLICT (code) DO NOTHING",
                (code, created),
            )
            return cursor.rowcount == 1

    def commit(
        self,
        code: str,
        version: int,
        record: dict[str, Any],
        game: int,
        first: int = 0,
        events: Sequence[Event] = (),
    ) -> int:
        """Store ``record`` as table ``code``'s and ``events`` as positions ``first``, ``first +
        1``… of its game number ``game`` (dropping the events of its earlier games), in one
        transaction, if the stored table is at ``version`` (0: new); returns the new version.
        Else :class:`StoreConflict`, and nothing is written."""
        rows = [
            (code, game, first + i, orjson.dumps(to_data(event, Event)).decode())
            for i, event in enumerate(events)
        ]
        with self._lock, write_transaction(self._conn):
            found = self._conn.execute(
                "SELECT version, game FROM live_tables WHERE code = ?", (code,)
            ).fetchone()
            stored = found["version"] if found else 0
            if stored != version:
                raise StoreConflict(f"table {code} is at version {stored}, not {version}")
            if found is not None and game > found["game"]:
                self._conn.execute("DELETE FROM live_events WHERE code = ?", (code,))
            self._conn.executemany("INSERT INTO live_events VALUES (?, ?, ?, ?)", rows)
            self._conn.execute(
                "INSERT INTO live_tables (code, record, created, version, game)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (code) DO UPDATE SET"
                " record = excluded.record, version = excluded.version, game = excluded.game",
                (
                    code,
                    orjson.dumps(record).decode(),
                    record.get("created", 0.0),
                    version + 1,
                    game,
                ),
            )
        return version + 1

    def version(self, code: str) -> int:
        """The stored version of table ``code`` (0 if it is not stored)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT version FROM live_tables WHERE code = ?", (code,)
            ).fetchone()
        return int(row["version"]) if row else 0

    def drop(self, code: str) -> None:
        """Forget table ``code`` and its events."""
        with self._lock, write_transaction(self._conn):
            self._conn.execute("DELETE FROM live_tables WHERE code = ?", (code,))
            self._conn.execute("DELETE FROM live_events WHERE code = ?", (code,))

    def load(self) -> list[StoredTable]:
        """Every stored table with its current game's events in order, oldest table first."""
        with self._lock:
            codes = self._conn.execute(
                "SELECT code FROM live_tables WHERE record IS NOT NULL ORDER BY created"
            ).fetchall()
        found = (self.table(row["code"]) for row in codes)
        return [table for table in found if table is not None]

    def table(self, code: str) -> StoredTable | None:
        """Table ``code`` with its current game's events, or ``None`` if it is not stored."""
        with self._lock, write_transaction(self._conn):  # one consistent read
            row = self._conn.execute(
                "SELECT record, version, game FROM live_tables"
                " WHERE code = ? AND record IS NOT NULL",
                (code,),
            ).fetchone()
            if row is None:
                return None
            events = self._conn.execute(
                "SELECT event FROM live_events WHERE code = ? AND game = ? ORDER BY seq",
                (code, row["game"]),
            ).fetchall()
        log = from_data([orjson.loads(e["event"]) for e in events], list[Event])
        return StoredTable(code, orjson.loads(row["record"]), log, row["version"])

    def ping(self) -> bool:
        """Whether the SQLite file answers a query now."""
        try:
            with self._lock:
                self._conn.execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()
