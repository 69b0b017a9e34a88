"""The table hub: the one owner of live tables, kept in ``app.extensions["liarsdice_hub"]``.

Contract: :meth:`TableHub.create` makes a table with a fresh code of :data:`CODE_LENGTH` letters
from :data:`CODE_LETTERS` (24**8, about 1.1e11 codes) and refuses a player or address at its caps
(:class:`TooManyTables`), or a full server (:class:`ServerFull`; both by :mod:`.room`);
:meth:`TableHub.get` finds one by code (case-insensitive);
:meth:`TableHub.listed` is what the lobby may show: public tables not yet over. The hub's own
lock only guards the code → table map; each table has its own lock. Timers, bot turns and saving
finished games run on the hub's :class:`~liarsdice_demo.tables.scheduler.Scheduler`, never on request
threads. Every minute the hub's :mod:`.sweep` closes tables idle for
:data:`~.sweep.IDLE_SECONDS`, finished ones idle for :data:`~.sweep.FINISHED_SECONDS` and those
that never started by the rule of :mod:`.expiry` (within minutes when nobody sits at them), and
their sockets get close code 4404. :meth:`TableHub.shutdown`
stops every thread the hub started.

Every live table is also kept in a store, written before each broadcast. **Embedded** (the
default): the app's SQLite file (:class:`~liarsdice_demo.storage.live_store.LiveStore`); this process is
the only one, and a new hub reloads every stored table and drives it on (clock, bots, saving a
finished game), so a restart, even ``kill -9``, loses no game. **Shared** (``REDIS_URL``):
:class:`~liarsdice_demo.storage.redis_store.RedisStore`, and any number of processes and hosts share the
tables (:mod:`liarsdice_demo.storage.cluster`): each holds copies of the tables its sockets and pages use
(:meth:`TableHub.get` loads one on demand), drives the tables whose lease it holds, and the lobby
and the caps count every process's tables. A table whose rules cannot be built here (a variant
not installed) is left in the store and logged.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from typing import Any

from flask import Flask, current_app

from liarsdice.reducer import InvalidEvent
from liarsdice_demo.storage import history
from liarsdice_demo.storage.live_store import LiveStore, StoreUnavailable
from liarsdice_demo.tables.composition import ConfigError, TableConfig
from liarsdice_demo.tables.latency import Latency
from liarsdice_demo.tables.room import Room
from liarsdice_demo.tables.room import ServerFull as ServerFull
from liarsdice_demo.tables.room import TooManyTables as TooManyTables
from liarsdice_demo.tables.scheduler import Scheduler
from liarsdice_demo.tables.sweep import LIVE, SWEEP_SECONDS, Sweep
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.tables.table_storage import summarize

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""No I or O (read as 1 and 0): 24 letters."""
CODE_LENGTH = 8
KEY = "liarsdice_hub"
RECORDS_SECONDS = 1.0
"""How long the shared store's list of tables is reused (the lobby, the caps)."""

log = logging.getLogger(__name__)


class TableHub:
    """Live tables by code, with the scheduler that drives their clocks and bots."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        redis_url = settings.get("REDIS_URL")
        self.store: Any = _redis_store(redis_url) if redis_url else LiveStore(settings["DATABASE"])
        self.scheduler = Scheduler(workers=settings.get("HUB_WORKERS", 4))
        self._tables: dict[str, TableSession] = {}
        self._lock = threading.Lock()
        self._latency = Latency(settings)
        self.node = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process's name: in seats (where their sockets are) and in leases."""
        self.cluster: Any = None  # a liarsdice_demo.storage.cluster.Cluster with a shared store
        self._records: tuple[float, list[tuple[str, dict[str, Any]]]] = (-RECORDS_SECONDS, [])
        self._records_lock = threading.Lock()
        self.sweep = Sweep(self)
        """Closes the tables this process drives once they expire."""
        shared = self._shared_records if redis_url else None
        self._room = Room(settings, self._tables, shared, self.sweep)
        if redis_url:
            from liarsdice_demo.storage.cluster import Cluster

            self.cluster = Cluster(self)
        else:
            self._restore()
        self.scheduler.call_later(SWEEP_SECONDS, self.sweep.run)

    def _restore(self) -> None:
        """Drive every table the embedded store kept (one that cannot be rebuilt is logged)."""
        for stored in self.store.load():
            table = self._rebuild(stored)
            if table is not None:
                self._tables[stored.code] = table
                table.keep_nodes(lambda node: node == self.node)  # no socket outlives a restart
                table.drive()
        if self._tables:
            log.info("restored %d live tables", len(self._tables))

    def _rebuild(self, stored: Any) -> TableSession | None:
        try:
            return TableSession.restore(stored, self)
        except (ConfigError, InvalidEvent, KeyError, TypeError) as problem:
            log.error("live table %s cannot be restored here: %s", stored.code, problem)
            return None

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
        ``public`` lists it in the lobby; it counts toward the host's caps and ``client``'s (an
        address: :class:`TooManyTables`; a full server: :class:`ServerFull`)."""
        with self._lock:
            self._room.check(client, host[0] if host else None)
            code = self._new_code()
            host_id = host[0] if host else None
            table = TableSession(code, config, self, host_id, public=public, client=client)
            if self.cluster is not None:
                self.cluster.watch(code)
                table.driving = self.cluster.claim(code)
            self._tables[code] = table
        table.save()
        with self._records_lock:  # the lobby lists it at once, without reading every table
            read_at, records = self._records
            if all(known != code for known, _ in records):  # a read since the save has it
                self._records = (read_at, [*records, (code, table.record())])
        if host is not None:
            table.sit(*host)
        if start:
            table.start_now()
        return table

    def check_room(self, client: str | None, player: int | None = None) -> None:
        """:class:`TooManyTables` if ``player`` (an id; ``None``: a newcomer) or ``client`` (an
        address) is at its cap, :class:`ServerFull` if the server is; else nothing (a table may
        still be refused by :meth:`create` after a race)."""
        with self._lock:
            self._room.check(client, player)

    def _new_code(self) -> str:
        """A code no table has, here or in any process sharing the store."""
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self._tables and self.store.reserve(code, time.time()):
                return code

    def get(self, code: str) -> TableSession | None:
        """The live table ``code``, or ``None`` (shared store: a copy is loaded if this process
        holds none)."""
        code = code.upper()
        with self._lock:
            table = self._tables.get(code)
        if table is not None or self.cluster is None:
            return table
        try:  # outside the lock: other tables do not wait on Redis
            self.cluster.watch(code)  # first: no change is missed between the read and this
            stored = self.store.table(code)
        except Exception as down:  # redis-py's errors: the shared store is unreachable
            raise StoreUnavailable(f"the table store is unreachable: {down}") from None
        loaded = None if stored is None else self._rebuild(stored)
        with self._lock:
            if loaded is not None:
                return self._tables.setdefault(code, loaded)
            if code in self._tables:  # another request loaded it meanwhile
                return self._tables[code]
        self.cluster.unwatch(code)
        return None

    def _shared_records(self) -> list[tuple[str, dict[str, Any]]]:
        """Every process's tables (code, record) from the shared store, read at most once per
        :data:`RECORDS_SECONDS`: the lobby and the caps need a recent list, not a read each."""
        with self._records_lock:  # not the hub's lock: create() asks while holding that
            read_at, records = self._records
            if time.monotonic() - read_at > RECORDS_SECONDS:
                records = self.store.records()
                self._records = (time.monotonic(), records)
            return records

    def local(self, code: str) -> TableSession | None:
        """This process's copy of table ``code``, if it holds one."""
        with self._lock:
            return self._tables.get(code)

    def forget(self, code: str) -> None:
        """Drop this process's copy of table ``code`` (the store keeps the table)."""
        with self._lock:
            dropped = self._tables.pop(code, None)
        self.sweep.forget(code)
        if dropped is not None and self.cluster is not None:
            self.cluster.unwatch(code)

    def tables(self) -> list[TableSession]:
        """Every live table, newest first."""
        with self._lock:
            return sorted(self._tables.values(), key=lambda t: t.created, reverse=True)

    def listed(self) -> list[dict[str, Any]]:
        """Summaries of the public tables waiting or playing, newest first: all the lobby may
        show (shared store: every process's tables).

        The shared store's list is read at most once per :data:`RECORDS_SECONDS`, and a table
        created here joins it as it was created: a table this process holds a copy of is listed
        with that copy's status, so a game that has just ended here is not shown as live."""
        if self.cluster is not None:
            found = [summarize(code, r) for code, r in reversed(self._shared_records())]
            with self._lock:
                held = {code: table.status for code, table in self._tables.items()}
            for summary in found:
                summary["status"] = held.get(summary["code"], summary["status"])
        else:
            found = [table.summary() for table in self.tables()]
        return [t for t in found if t["public"] and t["status"] in LIVE]

    def save_game(self, record: dict[str, Any]) -> tuple[int, dict[str, dict[str, float]] | None]:
        """Store a finished game (and update ratings if rated); runs on a scheduler worker."""
        return history.save_game(self.settings["DATABASE_URL"], record)

    def record_latency(self, delays: list[float], kind: str = "action") -> None:
        """Keep delays when ``settings["MEASURE"]`` is on (the load benchmark): ``action``, from
        a move's due time to its broadcast here; ``fanout``, from another process's commit to
        the broadcast of its change here."""
        self._latency.record(delays, kind)

    def take_latency(self, kind: str = "action") -> list[float]:
        """The delays of ``kind`` recorded so far, forgetting them."""
        return self._latency.take(kind)

    def shutdown(self) -> None:
        """Stop the scheduler and its workers (live tables stop moving; the store keeps them, and
        with a shared store other processes take over the tables this one drove)."""
        if self.cluster is not None:
            self.cluster.shutdown()
        self.scheduler.shutdown()
        self.store.close()


def _redis_store(url: str) -> Any:
    """The Redis store at ``url``; redis-py is imported only here, so a server without Redis
    never imports it (and gevent patches the standard library before it is imported)."""
    from liarsdice_demo.storage.redis_store import RedisStore

    return RedisStore(url)


def init_app(app: Flask) -> None:
    """Attach a new hub to ``app``."""
    app.extensions[KEY] = TableHub(app.config)


def current_hub() -> TableHub:
    """The hub of the current app."""
    hub: TableHub = current_app.extensions[KEY]
    return hub
