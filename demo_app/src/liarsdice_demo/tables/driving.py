"""Which process runs a table's clock and bots: taking a table over, letting it go, re-arming it.

Contract: a table's clock and bots run only in the process that *drives* it
(``TableSession.driving``: always, with the embedded SQLite store; the holder of the table's
lease, with Redis). :meth:`Driver.drive` starts driving a table another process drove (or that
was stored before a restart), resuming its clock with the time it had left, never less than
:data:`RESUME_GRACE`; :meth:`Driver.stop` lets it go, and every job
scheduled before goes stale. After a reload, :meth:`Driver.rearm` schedules what the driver must
do next. :meth:`~Driver.drive` and :meth:`~Driver.stop` take the table's
re-entrant lock themselves (they also run from the scheduler and the store's syncs);
:meth:`~Driver.rearm` runs under the caller's. What a driver uses of its table is
:class:`DrivenTable`.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Protocol

from liarsdice_demo.storage.live_store import StoreConflict
from liarsdice_demo.tables.clock import TurnClock
from liarsdice_demo.tables.composition import TableConfig
from liarsdice_demo.tables.match import Match

RESUME_GRACE = 15.0
"""After a restart or a takeover, a running clock resumes with the time it had left, but never
less than this (or the whole turn, if shorter): players need a moment to reconnect. No bot stands
in for an away player (:mod:`.stand_in`) before it either."""


class Refreshing(Protocol):
    """What a driver uses of the table's storage (a :class:`~.table_storage.TableStorage`)."""

    def refresh(self) -> None: ...


class Saving(Protocol):
    """What a driver uses of the table's saver (a :class:`~.saving.GameSaver` is one)."""

    def later(self) -> None: ...


class Turns(Protocol):
    """What a driver uses of the table's turn cycle (a :class:`~.game_loop.GameLoop` is one)."""

    def pause(self, seconds: float, until: float | None = None) -> None: ...
    def next_turn(self, seconds: float | None = None) -> None: ...
    def arm(self, seconds: float) -> None: ...


class DrivenTable(Protocol):
    """What a :class:`Driver` uses of its table (a ``TableSession`` is one)."""

    driving: bool
    """This process runs the table's clock and bots."""

    @property
    def code(self) -> str: ...
    @property
    def config(self) -> TableConfig: ...
    @property
    def lock(self) -> threading.RLock: ...
    @property
    def hub(self) -> Any:
        """Provides ``settings["REVEAL_PAUSE"]``."""

    @property
    def match(self) -> Match: ...
    @property
    def clock(self) -> TurnClock: ...
    @property
    def storage(self) -> Refreshing: ...
    @property
    def saver(self) -> Saving: ...
    @property
    def loop(self) -> Turns: ...


class Driver:
    """Driving ``table``: whether this process runs its clock and bots."""

    def __init__(self, table: DrivenTable) -> None:
        self.table = table

    def drive(self) -> None:
        """Drive the table from now on (after a restart, or when its driver died): see
        :meth:`rearm`, with the clock resumed."""
        table = self.table
        with table.lock:
            table.driving = True
            table.clock.invalidate()
            table.clock.hold_stand_ins(RESUME_GRACE)
            try:
                self.rearm(resume=True)
            except StoreConflict:  # it changed since this copy was loaded: drive the new state
                table.storage.refresh()

    def stop(self) -> None:
        """Another process drives the table now: this one's clock and bot jobs do nothing."""
        table = self.table
        with table.lock:
            table.driving = False
            table.clock.invalidate()

    def rearm(self, resume: bool = False) -> None:
        """Schedule what the driver must do next in the state just loaded: save a finished game
        not saved yet, start the next round after a reveal, or run the turn's clock: armed to the
        stored deadline (no commit) or, to ``resume`` it, restarted with the time it had left but
        at least :data:`RESUME_GRACE` (a commit). A pause after a reveal goes on with the time it
        had left."""
        table = self.table
        match, clock = table.match, table.clock
        if match.status == "over" and match.game_id is None:
            table.saver.later()
        if match.status != "playing" or match.game is None or match.game.state.round is None:
            return
        if match.game.state.round.over:  # the pause goes on: a reload or a sync never restarts it
            whole, until = table.hub.settings["REVEAL_PAUSE"], clock.pause_until
            left = whole if until is None else max(0.0, min(whole, until - time.time()))
            table.loop.pause(left, until)
        elif resume:
            whole = table.config.turn_seconds
            left = whole if clock.deadline_at is None else clock.deadline_at - time.time()
            table.loop.next_turn(max(left, min(RESUME_GRACE, whole)))
        elif clock.deadline_at is not None:
            table.loop.arm(clock.deadline_at - time.time())
