"""The table hub: the one owner of live tables, kept in ``app.extensions["liarsdice_hub"]``.

Contract: :meth:`TableHub.create` makes a table with a fresh code of :data:`CODE_LENGTH` letters
from :data:`CODE_LETTERS` (24**8, about 1.1e11 codes) and refuses a client that already hosts
``MAX_TABLES_PER_CLIENT`` tables, finished ones included (:class:`TooManyTables`), or a full server
(``RuntimeError``); :meth:`TableHub.get` finds one by code (case-insensitive);
:meth:`TableHub.listed` is what the lobby may show: public tables not yet over. The hub's own
lock only guards the code → table map; each table has its own lock. Timers, bot turns and saving
finished games run on the hub's :class:`~liarsdice_demo.scheduler.Scheduler`, never on request
threads. Every minute the hub closes tables idle for :data:`IDLE_SECONDS` and finished ones idle
for :data:`FINISHED_SECONDS`, and their sockets get close code 4404. :meth:`TableHub.shutdown`
stops every thread the hub started.

Every live table is also kept in the :class:`~liarsdice_demo.live_store.LiveStore` (the app's
SQLite file), written before each broadcast: a new hub reloads every stored table and runs it
again (clock, bots, saving a finished game), so a restart, even ``kill -9``, loses no game. A
table whose rules cannot be built here (a variant not installed) is left in the store and logged.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from typing import Any

from flask import Flask, current_app

from liarsdice.reducer import InvalidEvent
from liarsdice_demo import history
from liarsdice_demo.composition import ConfigError, TableConfig
from liarsdice_demo.live_store import LiveStore
from liarsdice_demo.scheduler import Scheduler
from liarsdice_demo.table import TableSession

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""No I or O (read as 1 and 0): 24 letters."""
CODE_LENGTH = 8
MAX_TABLES_PER_CLIENT = 5
CAP_RETRY_SECONDS = 60
"""The ``Retry-After`` given to a client at its table cap (a game usually ends within minutes)."""
LIVE = ("waiting", "playing")
IDLE_SECONDS = 3600.0
"""A table nobody has acted at (or joined) for this long is closed, whoever still watches it."""
FINISHED_SECONDS = 600.0
"""A table whose game is over (or stopped) closes this long after its last action."""
SWEEP_SECONDS = 60.0
KEY = "liarsdice_hub"

log = logging.getLogger(__name__)


class TooManyTables(RuntimeError):
    """This client already hosts as many live tables as it may; ``retry_after`` in seconds."""

    retry_after = CAP_RETRY_SECONDS


class TableHub:
    """Live tables by code, with the scheduler that drives their clocks and bots."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.scheduler = Scheduler(workers=settings.get("HUB_WORKERS", 4))
        self._tables: dict[str, TableSession] = {}
        self._lock = threading.Lock()
        self._latency: list[float] = []
        self.store = LiveStore(settings["DATABASE"])
        self._restore()
        self.scheduler.call_later(SWEEP_SECONDS, self._sweep)

    def _restore(self) -> None:
        """Run every table the store kept again (a table that cannot be rebuilt is logged)."""
        for stored in self.store.load():
            try:
                table = TableSession.restore(stored.code, stored.record, stored.events, self)
            except (ConfigError, InvalidEvent, KeyError, TypeError) as problem:
                log.error("live table %s cannot be restored here: %s", stored.code, problem)
                continue
            self._tables[stored.code] = table
        if self._tables:
            log.info("restored %d live tables", len(self._tables))

    def create(
        self,
        config: TableConfig,
        host: tuple[int, str] | None = None,
        *,
        start: bool = False,
        public: bool = False,
        client: str | None = None,
    ) -> TableSession:
        """A new table; ``host`` (player id, nickname) takes seat 1; ``start`` deals at once;
        ``public`` lists it in the lobby; ``client`` (an address) counts towards that client's
        cap (:class:`TooManyTables`)."""
        with self._lock:
            self._check_room(client)
            code = self._new_code()
            host_id = host[0] if host else None
            table = TableSession(code, config, self, host_id, public=public, client=client)
            self._tables[code] = table
        if host is not None:
            table.sit(*host)
        if start:
            table.start_now()
        return table

    def check_room(self, client: str | None) -> None:
        """:class:`TooManyTables` if ``client`` is at its cap, ``RuntimeError`` if the server is
        full; else nothing (a table may still be refused by :meth:`create` after a race)."""
        with self._lock:
            self._check_room(client)

    def _check_room(self, client: str | None) -> None:
        if client is not None and self._hosted_by(client) >= self._per_client():
            raise TooManyTables(
                f"you already have {self._per_client()} tables open (a finished table closes "
                f"{FINISHED_SECONDS / 60:.0f} minutes after its game): try again later"
            )
        if len(self._tables) >= self.settings.get("MAX_TABLES", 2000):
            raise RuntimeError("the server is full: try again later")

    def _per_client(self) -> int:
        return int(self.settings.get("MAX_TABLES_PER_CLIENT", MAX_TABLES_PER_CLIENT))

    def _hosted_by(self, client: str) -> int:
        """Tables ``client`` created that the hub still holds, finished ones included (they close
        :data:`FINISHED_SECONDS` after their game, so they cannot pile up)."""
        return sum(t.client == client for t in self._tables.values())

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
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

    def listed(self) -> list[TableSession]:
        """Public tables waiting or playing, newest first: all the lobby may show."""
        return [t for t in self.tables() if t.public and t.status in LIVE]

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
            expired = [code for code, table in self._tables.items() if _expired(table, now)]
            closed = [self._tables.pop(code) for code in expired]
        for table in closed:
            self.store.drop(table.code)
            table.close("this table has closed: start a new one from the lobby")
        self.scheduler.call_later(SWEEP_SECONDS, self._sweep)

    def shutdown(self) -> None:
        """Stop the scheduler and its workers (live tables stop moving; the store keeps them)."""
        self.scheduler.shutdown()
        self.store.close()


def _expired(table: TableSession, now: float) -> bool:
    idle = now - table.touched
    return idle > IDLE_SECONDS or (table.status not in LIVE and idle > FINISHED_SECONDS)


def init_app(app: Flask) -> None:
    """Attach a new hub to ``app``."""
    app.extensions[KEY] = TableHub(app.config)


def current_hub() -> TableHub:
    """The hub of the current app."""
    return current_app.extensions[KEY]  # type: ignore[no-any-return]
