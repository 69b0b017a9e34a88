"""Several processes, one set of live tables: who drives each table, and keeping copies in step.

Used when the hub's store is Redis (``REDIS_URL``). Contract:

- **Leases.** Every :data:`LEASE_SECONDS` / 3 each process renews the leases it holds and tries to
  take every lease nobody holds (one Redis round trip each), on a thread of its own, so a busy
  scheduler cannot make it late. The holder of a table's lease *drives* it: its clock, its bots,
  saving its finished game, closing it when idle. A process that dies stops renewing; within
  :data:`LEASE_SECONDS` its leases expire and the next tick of another process takes them and
  drives the tables on (:meth:`.Driver.drive`), so a table is driven again at most
  ``LEASE_SECONDS * 4 / 3`` seconds after its driver died. A process told to stop (``SIGTERM``:
  :meth:`Cluster.drain`) releases its leases at once and takes no more, so others take over at
  their next tick, even while its own sockets are still closing.
- **Copies in step.** A process holds a copy of every table it drives or that one of its sockets
  or pages asked for, and subscribes to those tables' channels only (:meth:`Cluster.watch`,
  :meth:`Cluster.unwatch`, called by the hub as copies come and go). Each commit is announced
  on the table's channel; the listener reads only an announcement's version, and hands a newer
  one to a scheduler worker, which catches the copy up (:meth:`.TableSession.sync`: from the
  announcement itself, which carries the change, or from Redis if this copy missed one) and
  sends this process's sockets their new views. Pub/sub delivers at most once (an outage, or a
  copy loaded just as its subscription starts, can miss an announcement), so every lease tick
  also compares each copy's version with the store's and catches up the copies behind.
- **Outages.** While Redis does not answer, every process drops its copies and closes their
  sockets with 1013 within about a second (:mod:`liarsdice_demo.storage.outage`).
- **Conflicts** between processes are settled by the store's version check (see
  :mod:`liarsdice_demo.tables.table_storage`).
"""

from __future__ import annotations

import functools
import logging
import threading
from typing import Any

import redis

from liarsdice_demo.storage.outage import OutageWatch

log = logging.getLogger(__name__)

LEASE_SECONDS = 5.0
"""How long a table's lease lasts unless its holder renews it (it renews every third of it)."""


class Cluster:
    """This process's part in a group of processes sharing one Redis (see the module doc)."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.store = hub.store
        self.leases = hub.store.leases
        """The store's leases (:class:`.RedisLeases`)."""
        self.changes = hub.store.changes
        """The store's announcements (:class:`.RedisChanges`)."""
        self.node: str = hub.node
        """This process's name in leases, seats and its heartbeat."""
        self.lease_seconds = float(hub.settings.get("LEASE_SECONDS", LEASE_SECONDS))
        self._stopped = threading.Event()
        self._draining = threading.Event()
        self.changes.listen(self._announced, self.node)
        self._keeper = threading.Thread(target=self._keep_leases, name="liarsdice-leases")
        self._keeper.daemon = True
        self._keeper.start()
        self.outage = OutageWatch(hub)

    @property
    def _ms(self) -> int:
        return int(self.lease_seconds * 1000)

    def claim(self, code: str) -> bool:
        """Take the lease of a new table made here; True if this process now drives it."""
        return bool(self.leases.acquire([code], self.node, self._ms))

    def watch(self, code: str) -> None:
        """Follow table ``code``'s announcements: this process now holds a copy of it."""
        self.changes.watch(code)

    def unwatch(self, code: str) -> None:
        """Stop following table ``code``: this process dropped its copy."""
        try:
            self.changes.unwatch(code)
        except redis.RedisError as problem:  # reconnecting: only the subscriptions held come back
            if not self.store.away.is_set():  # in an outage, every copy is dropped: say it once
                log.warning("table %s: not unsubscribed: %s", code, problem)

    def drain(self) -> None:
        """This process is stopping: give up every table it drives now, and take no more, so
        other processes drive them on at their next tick (its sockets may still play until they
        close). Its heartbeat goes on till it exits."""
        self._draining.set()
        driven = [table for table in self.hub.tables() if table.driving]
        for table in driven:
            table.stop_driving()
        try:
            self.leases.release([table.code for table in driven], self.node)
        except redis.RedisError as problem:
            log.warning("table leases not released: %s", problem)

    def _keep_leases(self) -> None:
        """Renew this process's leases and take the free ones, every third of a lease."""
        while not self._stopped.is_set():
            try:
                self._renew_and_take()
            except Exception as problem:  # Redis away, or a bug: log it, never stop keeping
                log.warning("table leases: %s", problem)
            self._stopped.wait(self.lease_seconds / 3)

    def _renew_and_take(self) -> None:
        self.leases.beat(self.node, 3 * self._ms)  # a late tick must not make players look away
        for table in self.hub.tables():  # and if it did, their seats say so again
            table.keep_present()
        if self._draining.is_set():
            return
        tables = [table for table in self.hub.tables() if table.driving]
        nodes = {node for table in tables for seat in table.seats if seat for node in seat.nodes}
        alive = self.leases.alive(nodes)
        for table in tables:  # seats whose sockets were in a process that died
            if any(set(seat.nodes) - alive for seat in table.seats if seat):
                table.keep_nodes(alive.__contains__)
        driven = [table.code for table in tables]
        for code in self.leases.renew(driven, self.node, self._ms):
            table = self.hub.local(code)
            if table is not None:
                holder = self.leases.holder(code)
                log.warning(
                    "table %s: lease lost (now held by %s): this process stops", code, holder
                )
                table.stop_driving()
        self._catch_up()
        free = [code for code in self.store.codes() if code not in driven]
        for code in self.leases.acquire(free, self.node, self._ms):
            table = self.hub.get(code)
            if table is None:  # closed meanwhile, or its rules cannot be built here
                self.leases.release([code], self.node)
                continue
            log.info("table %s: driving it (its lease was free)", code)
            table.refresh()
            table.drive()

    def _catch_up(self) -> None:
        """Catch up every copy the store holds a newer version of (an announcement was missed),
        and close those it no longer holds (one round trip for the versions)."""
        tables = self.hub.tables()
        stored = self.store.versions([table.code for table in tables])
        for table, version in zip(tables, stored, strict=True):
            if version > table.version:
                self.hub.scheduler.submit(functools.partial(table.sync, version))
            elif version == 0 and table.version > 0:
                self.hub.scheduler.submit(table.refresh)  # closed: refresh() closes the copy

    def _announced(self, code: str, data: str) -> None:
        """A commit (``data``: its version, time and change) or a close of table ``code`` (on
        the listener, which decodes only the version: a change this copy made or has is
        skipped)."""
        table = self.hub.local(code)
        if table is None:
            return
        if data == "closed":
            self.hub.forget(code)
            table.close()
            return
        version = self.changes.change_version(data)
        if version <= table.version:
            return

        def catch_up() -> None:
            if version > table.version:
                _, at, change = self.changes.change(code, data)
                table.sync(version, at, change)

        self.hub.scheduler.submit(catch_up)

    def shutdown(self) -> None:
        """Stop keeping leases and release this process's (others take the tables over)."""
        self.outage.stop()
        self._stopped.set()
        self._keeper.join(10)
        driven = [table.code for table in self.hub.tables() if table.driving]
        try:
            self.leases.release(driven, self.node)
        except redis.RedisError as problem:
            log.warning("table leases not released: %s", problem)
