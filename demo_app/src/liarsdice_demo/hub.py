"""The table hub: the one owner of live tables, kept in ``app.extensions["liarsdice_hub"]``.

Contract: :meth:`TableHub.create` makes a table with a fresh 4-letter code; :meth:`TableHub.get`
finds one by code (case-insensitive). The hub's own lock only guards the code → table map; each
table has its own lock. Timers, bot turns and saving finished games run on the hub's
:class:`~liarsdice_demo.scheduler.Scheduler`, never on request threads. :meth:`TableHub.shutdown`
stops every thread the hub started. This is the only mutable state the app keeps in memory.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from flask import Flask, current_app

from liarsdice_demo import history
from liarsdice_demo.composition import TableConfig
from liarsdice_demo.scheduler import Scheduler
from liarsdice_demo.table import TableSession

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
IDLE_SECONDS = 3600.0
SWEEP_SECONDS = 300.0
KEY = "liarsdice_hub"


class TableHub:
    """Live tables by code, with the scheduler that drives their clocks and bots."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.scheduler = Scheduler(workers=settings.get("HUB_WORKERS", 4))
        self._tables: dict[str, TableSession] = {}
        self._lock = threading.Lock()
        self._latency: list[float] = []
        self.scheduler.call_later(SWEEP_SECONDS, self._sweep)

    def create(
        self, config: TableConfig, host: tuple[int, str] | None = None, *, start: bool = False
    ) -> TableSession:
        """A new table; ``host`` (player id, nickname) takes seat 1; ``start`` deals at once."""
        with self._lock:
            if len(self._tables) >= self.settings.get("MAX_TABLES", 2000):
                raise RuntimeError("the server is full: try again later")
            code = self._new_code()
            table = TableSession(code, config, self, host[0] if host else None)
            self._tables[code] = table
        if host is not None:
            table.sit(*host)
        if start:
            table.start_now()
        return table

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(4))
            if code not in self._tables:
                return code

    def get(self, code: str) -> TableSession | None:
        """The live table ``code``, or ``None``."""
        with self._lock:
            return self._tables.get(code.upper())

    def tables(self) -> list[TableSession]:
        """Every live table, newest first."""
        with self._lock:
            return sorted(self._tables.values(), key=lambda t: t.created, reverse=True)

    def save_game(self, record: dict[str, Any]) -> tuple[int, dict[str, dict[str, float]] | None]:
        """Store a finished game (and update ratings if rated); runs on a scheduler worker."""
        return history.save_game(self.settings["DATABASE"], record)

    def record_latency(self, delays: list[float]) -> None:
        """Keep action-to-broadcast delays when ``settings["MEASURE"]`` is on (the benchmark)."""
        if self.settings.get("MEASURE"):
            with self._lock:
                self._latency.extend(delays)

    def take_latency(self) -> list[float]:
        """The delays recorded so far, forgetting them."""
        with self._lock:
            found, self._latency = self._latency, []
            return found

    def _sweep(self) -> None:
        now = time.monotonic()
        with self._lock:
            for code, table in list(self._tables.items()):
                if table.connections == 0 and now - table.touched > IDLE_SECONDS:
                    del self._tables[code]
        self.scheduler.call_later(SWEEP_SECONDS, self._sweep)

    def shutdown(self) -> None:
        """Stop the scheduler and its workers (live tables stop moving)."""
        self.scheduler.shutdown()


def init_app(app: Flask) -> None:
    """Attach a new hub to ``app``."""
    app.extensions[KEY] = TableHub(app.config)


def current_hub() -> TableHub:
    """The hub of the current app."""
    return current_app.extensions[KEY]  # type: ignore[no-any-return]
