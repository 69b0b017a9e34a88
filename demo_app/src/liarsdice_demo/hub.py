"""The table hub: the one owner of live tables, kept in ``app.extensions["liarsdice_hub"]``.

Contract: :meth:`TableHub.create` makes a table with a fresh code of :data:`CODE_LENGTH` letters
from :data:`CODE_LETTERS` (24**8, about 1.1e11 codes) and refuses a client that already hosts
``MAX_TABLES_PER_CLIENT`` live tables (:mod:`.table_cap`; :class:`TooManyTables`), or a full
server (:class:`ServerFull`, with the seconds until the sweep that frees a place);
:meth:`TableHub.get` finds one by code (case-insensitive);
:meth:`TableHub.listed` is what the lobby may show: public tables not yet over. The hub's own
lock only guards the code → table map; each table has its own lock. Timers, bot turns and saving
finished games run on the hub's :class:`~liarsdice_demo.scheduler.Scheduler`, never on request
threads. Every minute the hub closes tables idle for :data:`IDLE_SECONDS`, finished ones idle
for :data:`FINISHED_SECONDS` and those that never started by the rule of :mod:`.expiry` (within
minutes when nobody sits at them), and their sockets get close code 4404. :meth:`TableHub.shutdown`
stops every thread the hub started.

Every live table is also kept in a store, written before each broadcast. **Embedded** (the
default): the app's SQLite file (:class:`~liarsdice_demo.live_store.LiveStore`); this process is
the only one, and a new hub reloads every stored table and drives it on (clock, bots, saving a
finished game), so a restart, even ``kill -9``, loses no game. **Shared** (``REDIS_URL``):
:class:`~liarsdice_demo.redis_store.RedisStore`, and any number of processes and hosts share the
tables (:mod:`liarsdice_demo.cluster`): each holds copies of the tables its sockets and pages use
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
from flask_babel import gettext

from liarsdice.reducer import InvalidEvent
from liarsdice_demo import history
from liarsdice_demo.composition import ConfigError, TableConfig
from liarsdice_demo.expiry import attended, closes_at, first_sweep
from liarsdice_demo.live_store import LiveStore, StoreUnavailable
from liarsdice_demo.scheduler import Scheduler
from liarsdice_demo.table import TableSession
from liarsdice_demo.table_cap import MAX_HELD, held_tables, open_tables
from liarsdice_demo.table_storage import summarize

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""No I or O (read as 1 and 0): 24 letters."""
CODE_LENGTH = 8
MAX_TABLES_PER_CLIENT = 5
CAP_RETRY_SECONDS = 60
"""The ``Retry-After`` given to a client at its table cap (a game usually ends within minutes)."""
FULL_RETRY_SECONDS = 60
"""The ``Retry-After`` at the server's cap when no table's closing time is known (all playing)."""
LIVE = ("waiting", "playing")
IDLE_SECONDS = 3600.0
"""A table nobody has acted at (or joined) for this long is closed, whoever still watches it."""
FINISHED_SECONDS = 600.0
"""A table whose game is over (or stopped) closes this long after its last action."""
SWEEP_SECONDS = 60.0
KEY = "liarsdice_hub"
RECORDS_SECONDS = 1.0
"""How long the shared store's list of tables is reused (the lobby, the caps)."""

log = logging.getLogger(__name__)


class TooManyTables(RuntimeError):
    """This client already hosts as many live tables as it may; ``retry_after`` in seconds."""

    retry_after = CAP_RETRY_SECONDS


class ServerFull(RuntimeError):
    """The server holds ``MAX_TABLES`` tables; ``retry_after``: whole seconds until a sweep is
    due to close one, as far as this process knows (:data:`FULL_RETRY_SECONDS` if none is)."""

    def __init__(self, text: str, retry_after: int) -> None:
        super().__init__(text)
        self.retry_after = retry_after


class TableHub:
    """Live tables by code, with the scheduler that drives their clocks and bots."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        redis_url = settings.get("REDIS_URL")
        self.store: Any = _redis_store(redis_url) if redis_url else LiveStore(settings["DATABASE"])
        self.scheduler = Scheduler(workers=settings.get("HUB_WORKERS", 4))
        self._tables: dict[str, TableSession] = {}
        self._lock = threading.Lock()
        self._latency: dict[str, list[float]] = {"action": [], "fanout": []}
        self.node = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process's name: in seats (where their sockets are) and in leases."""
        self.cluster: Any = None  # a liarsdice_demo.cluster.Cluster with a shared store
        self._records: tuple[float, list[tuple[str, dict[str, Any]]]] = (-RECORDS_SECONDS, [])
        self._records_lock = threading.Lock()
        self._seen: dict[str, float] = {}
        """When (epoch seconds) a seated player was last seen at each never-started table."""
        self._next_sweep = time.monotonic() + SWEEP_SECONDS
        if redis_url:
            from liarsdice_demo.cluster import Cluster

            self.cluster = Cluster(self)
        else:
            self._restore()
        self.scheduler.call_later(SWEEP_SECONDS, self._sweep)

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
        ``public`` lists it in the lobby; ``client`` (an address) counts towards that client's
        cap (:class:`TooManyTables`; a full server: :class:`ServerFull`)."""
        with self._lock:
            self._check_room(client)
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

    def check_room(self, client: str | None) -> None:
        """:class:`TooManyTables` if ``client`` is at its cap, :class:`ServerFull` if the server
        is; else nothing (a table may still be refused by :meth:`create` after a race)."""
        with self._lock:
            self._check_room(client)

    def _check_room(self, client: str | None) -> None:
        records = self._records_for_cap()
        if client is not None and open_tables(records, client) >= self._per_client():
            raise TooManyTables(
                gettext(
                    "you already have %(n)s tables open (a game going, or waiting for players): "
                    "finish one, or try again later",
                    n=self._per_client(),
                )
            )
        held = int(self.settings.get("MAX_HELD_TABLES_PER_CLIENT", MAX_HELD))
        if client is not None and held_tables(records, client) >= held:
            raise TooManyTables(
                gettext(
                    "you have %(n)s tables still open (a finished table closes %(minutes)s "
                    "minutes after its game): try again later",
                    n=held,
                    minutes=round(FINISHED_SECONDS / 60),
                )
            )
        if len(records) >= self.settings.get("MAX_TABLES", 2000):
            wait = self._wait_for_room()
            raise ServerFull(
                gettext("the server is full: try again in %(wait)s s", wait=wait), wait
            )

    def _wait_for_room(self) -> int:
        """Seconds until the first sweep due to close a table (the caller holds the hub's lock):
        a never-started table of any process (:func:`.expiry.closes_at`; another process's
        sweeps may come up to :data:`SWEEP_SECONDS` later) or a finished one here; else
        :data:`FULL_RETRY_SECONDS` (when a game being played ends is not known)."""
        wall, now = time.time(), time.monotonic()
        closing = [self._closes_at(table) for table in self._tables.values()]
        if self.cluster is not None:
            closing += [
                closes_at(r["status"], r["created"], attended(r), self._seen.get(code))
                for code, r in self._shared_records()
            ]
        delays = [at - wall for at in closing if at is not None]
        delays += [
            left
            for table in self._tables.values()
            if table.status not in LIVE and (left := _idle_left(table, now)) is not None
        ]
        if not delays:
            return FULL_RETRY_SECONDS
        return first_sweep(min(delays), self._next_sweep - now, SWEEP_SECONDS)

    def _per_client(self) -> int:
        return int(self.settings.get("MAX_TABLES_PER_CLIENT", MAX_TABLES_PER_CLIENT))

    def _records_for_cap(self) -> list[dict[str, Any]]:
        """The record of every table (shared store: every process's), finished ones included:
        all count toward ``MAX_TABLES``, the live ones (:mod:`table_cap`) toward a client's cap."""
        if self.cluster is not None:
            return [record for _, record in self._shared_records()]
        return [{"client": table.client, "status": table.status} for table in self._tables.values()]

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
        self._seen.pop(code, None)
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
        if self.settings.get("MEASURE"):
            with self._lock:
                self._latency[kind].extend(delays)

    def take_latency(self, kind: str = "action") -> list[float]:
        """The delays of ``kind`` recorded so far, forgetting them."""
        with self._lock:
            found, self._latency[kind] = self._latency[kind], []
            return found

    def _sweep(self) -> None:
        """Close the tables this process drives that are idle, long finished or never started
        (every process's copies of them close when the store announces it), and forget copies
        nobody here uses."""
        now, wall = time.monotonic(), time.time()
        held = self.tables()  # a table's lock is never taken under the hub's
        expired = [t for t in held if t.driving and (_expired(t, now) or self._unstarted(t, wall))]
        unused = [t for t in held if not t.driving and not t.connections]
        for table in (*expired, *unused):
            self.forget(table.code)
        for table in expired:
            self.store.drop(table.code)
            table.close("this table has closed: start a new one from the lobby")
        self._next_sweep = time.monotonic() + SWEEP_SECONDS
        self.scheduler.call_later(SWEEP_SECONDS, self._sweep)

    def _unstarted(self, table: TableSession, wall: float) -> bool:
        """Whether ``table`` never started and is due to close; notes when a seated player is
        seen at it."""
        if table.status != "waiting":
            self._seen.pop(table.code, None)
            return False
        if _present(table):
            self._seen[table.code] = wall
        at = self._closes_at(table)
        return at is not None and wall >= at

    def _closes_at(self, table: TableSession) -> float | None:
        """When ``table`` closes if it never starts (:func:`.expiry.closes_at`)."""
        seen = self._seen.get(table.code)
        return closes_at(table.status, table.created, _present(table), seen)

    def shutdown(self) -> None:
        """Stop the scheduler and its workers (live tables stop moving; the store keeps them, and
        with a shared store other processes take over the tables this one drove)."""
        if self.cluster is not None:
            self.cluster.shutdown()
        self.scheduler.shutdown()
        self.store.close()


def _expired(table: TableSession, now: float) -> bool:
    """True for a table to close: idle, or long finished (but a finished game the SQL database
    has not taken yet keeps its table: the driver keeps trying to save it)."""
    left = _idle_left(table, now)
    return left is not None and left < 0


def _present(table: TableSession) -> bool:
    """Whether a human seated at ``table`` has a socket open in any process."""
    return any(seat is not None and seat.kind == "human" and seat.present for seat in table.seats)


def _idle_left(table: TableSession, now: float) -> float | None:
    """Seconds until ``table`` has been idle (or finished) too long, or ``None`` while it keeps a
    finished game the SQL database has not taken yet."""
    if table.status == "over" and table.game_id is None:
        return None
    limit = IDLE_SECONDS if table.status in LIVE else FINISHED_SECONDS
    return table.touched + limit - now


def _redis_store(url: str) -> Any:
    """The Redis store at ``url``; redis-py is imported only here, so a server without Redis
    never imports it (and gevent patches the standard library before it is imported)."""
    from liarsdice_demo.redis_store import RedisStore

    return RedisStore(url)


def init_app(app: Flask) -> None:
    """Attach a new hub to ``app``."""
    app.extensions[KEY] = TableHub(app.config)


def current_hub() -> TableHub:
    """The hub of the current app."""
    hub: TableHub = current_app.extensions[KEY]
    return hub
