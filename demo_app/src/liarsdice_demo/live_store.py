"""Live tables outlive the process: each live table's record and event log, kept in SQLite.

Contract: :meth:`LiveStore.commit` writes a table's record (a JSON object: settings, seats with
their tokens' hashes, status, clock deadline; see :mod:`liarsdice_demo.snapshot`) and the events
its current game added since the last commit, in one transaction, and returns once it is
committed: a table calls it before it broadcasts what changed, so no player ever sees a move the
store has not kept. An event is stored at its place in the game's log (game number, position);
writing a place already taken raises :class:`StoreConflict` and writes nothing, so two writers can
never interleave one log. :meth:`LiveStore.load` gives back every stored table with the events of
its current game, oldest table first; :meth:`LiveStore.drop` forgets a table (the hub closed it).

The database is in WAL mode with ``synchronous = NORMAL``: a commit survives the process being
killed (``kill -9``), not a power cut of the host (the last moments may then be lost).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from liarsdice.events import Event
from liarsdice.serialization import from_data, to_data
from liarsdice_demo.db import connect, write_transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS live_tables (
    code TEXT PRIMARY KEY,
    record TEXT NOT NULL,              -- JSON object, liarsdice_demo.snapshot
    created REAL NOT NULL
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
    """Another writer already stored an event at this place of the table's log."""


@attrs.frozen
class StoredTable:
    """A table as :meth:`LiveStore.load` found it: its record and its current game's events."""

    code: str
    record: dict[str, Any]
    events: list[Event]


class LiveStore:
    """The live tables of one SQLite file (one connection, shared under a lock)."""

    def __init__(self, path: str | Path) -> None:
        self._conn = connect(path)
        self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.executescript(SCHEMA)
        self._lock = threading.Lock()

    def commit(
        self,
        code: str,
        record: dict[str, Any],
        game: int,
        first: int = 0,
        events: Sequence[Event] = (),
    ) -> None:
        """Store ``record`` as table ``code``'s and ``events`` as positions ``first``, ``first +
        1``… of its game number ``game`` (dropping the events of its earlier games): one
        transaction. :class:`StoreConflict` if a position is taken (nothing is written)."""
        rows = [
            (code, game, first + i, json.dumps(to_data(event, Event)))
            for i, event in enumerate(events)
        ]
        with self._lock:
            try:
                with write_transaction(self._conn):
                    self._conn.execute(
                        "INSERT INTO live_tables (code, record, created) VALUES (?, ?, ?)"
                        " ON CONFLICT (code) DO UPDATE SET record = excluded.record",
                        (code, json.dumps(record), record.get("created", 0.0)),
                    )
                    if first == 0 and rows:
                        self._conn.execute(
                            "DELETE FROM live_events WHERE code = ? AND game < ?", (code, game)
                        )
                    self._conn.executemany("INSERT INTO live_events VALUES (?, ?, ?, ?)", rows)
            except sqlite3.IntegrityError as clash:
                raise StoreConflict(
                    f"table {code}: game {game} already has an event at a position from {first}"
                ) from clash

    def drop(self, code: str) -> None:
        """Forget table ``code`` and its events."""
        with self._lock, write_transaction(self._conn):
            self._conn.execute("DELETE FROM live_tables WHERE code = ?", (code,))
            self._conn.execute("DELETE FROM live_events WHERE code = ?", (code,))

    def load(self) -> list[StoredTable]:
        """Every stored table with its current game's events in order, oldest table first."""
        with self._lock:
            tables = self._conn.execute(
                "SELECT code, record FROM live_tables ORDER BY created"
            ).fetchall()
            found = []
            for row in tables:
                record = json.loads(row["record"])
                events = self._conn.execute(
                    "SELECT event FROM live_events WHERE code = ? AND game = ? ORDER BY seq",
                    (row["code"], record.get("game", 0)),
                ).fetchall()
                log = [from_data(json.loads(e["event"]), Event) for e in events]  # type: ignore[type-abstract]
                found.append(StoredTable(row["code"], record, log))
            return found

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()
