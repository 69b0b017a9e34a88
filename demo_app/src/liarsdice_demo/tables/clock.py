"""A table's turn clock: the turn's deadline, the pause after a reveal, and their jobs.

Contract: the jobs (a turn's time-out, a bot's move, the end of a pause) run on the hub's
scheduler, which never cancels one; instead each job carries the clock's generation number
(:attr:`TurnClock.gen`) from when it was scheduled, and :meth:`TurnClock.run` runs it, under the
table's lock, only if the generation is still current and ``live()`` (the table still plays, and
this process drives it). Whatever makes scheduled jobs stale moves the generation on. A job the
store refuses because another process changed the table first
(:class:`~liarsdice_demo.storage.live_store.StoreConflict`) calls ``recover()`` instead. The deadline is
kept twice: on the monotonic clock (for ``remaining``) and as wall-clock time (stored).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Any

from liarsdice_demo.storage.live_store import StoreConflict


class TurnClock:
    """The clock of one table. ``hub`` provides ``scheduler`` and ``settings["BOT_DELAY"]``."""

    def __init__(
        self,
        hub: Any,
        lock: threading.RLock,
        live: Callable[[], bool],
        recover: Callable[[], None],
    ) -> None:
        self.hub = hub
        self._lock = lock
        self._live = live
        self._recover = recover
        self.gen = 0
        """The generation: a job scheduled in an older one does nothing."""
        self.deadline: float | None = None
        """When the turn's time runs out (monotonic), if a clock runs."""
        self.deadline_at: float | None = None
        """The same moment as wall-clock time (stored)."""
        self.pause_until: float | None = None
        """When the pause after a reveal ends (wall-clock time, stored), if one is running."""
        self.bot_due: float | None = None
        """When the current bot move was due (monotonic), for latency figures."""
        self._held_until = 0.0
        """No bot stands in for an away player before this (monotonic): a resumed table."""

    def invalidate(self) -> None:
        """Make every job scheduled so far do nothing."""
        self.gen += 1

    def start(self, seconds: float) -> None:
        """A new turn: jobs scheduled so far go stale and the clock runs out in ``seconds``."""
        self.gen += 1
        self.set_deadline(seconds)

    def halt(self) -> None:
        """The game ended: jobs scheduled so far go stale and no clock runs."""
        self.gen += 1
        self.set_deadline(None)

    def set_deadline(self, seconds: float | None) -> None:
        """The turn clock runs out ``seconds`` from now (``None``: no clock is running)."""
        if seconds is None:
            self.deadline = self.deadline_at = None
        else:
            self.deadline = time.monotonic() + seconds
            self.deadline_at = time.time() + seconds

    def load(self, deadline_at: float | None, pause_until: float | None) -> None:
        """Take a stored deadline and pause end (wall-clock times); schedules nothing."""
        self.pause_until = pause_until
        self.deadline_at = deadline_at
        left = None if deadline_at is None else deadline_at - time.time()
        self.deadline = None if left is None else time.monotonic() + left

    def remaining(self) -> float | None:
        """Seconds left on the turn's clock (never below 0, to 0.01 s), or ``None``."""
        if self.deadline is None:
            return None
        return max(0.0, round(self.deadline - time.monotonic(), 2))

    def arm(
        self,
        seconds: float,
        time_out: Callable[[], None],
        bot_turn: Callable[[], None] | None = None,
    ) -> None:
        """Schedule ``time_out`` in ``seconds`` and, when the turn is a bot's, ``bot_turn`` after
        the hub's bot delay, both in the current generation."""
        gen, scheduler = self.gen, self.hub.scheduler
        scheduler.call_later(seconds, functools.partial(self.run, gen, time_out))
        if bot_turn is not None:
            delay = self.hub.settings["BOT_DELAY"]
            self.bot_due = time.monotonic() + delay
            scheduler.call_later(delay, functools.partial(self.run, gen, bot_turn))

    def hold_stand_ins(self, seconds: float) -> None:
        """No bot stands in for an away player for ``seconds`` (players reconnect meanwhile)."""
        self._held_until = time.monotonic() + seconds

    def stand_ins_held(self) -> float:
        """Seconds left before a bot may stand in for an away player (0 when it may now)."""
        return max(0.0, self._held_until - time.monotonic())

    def later(self, seconds: float, fn: Callable[[], None]) -> None:
        """Schedule ``fn`` in ``seconds``, in the current generation (a bot standing in)."""
        self.hub.scheduler.call_later(seconds, functools.partial(self.run, self.gen, fn))

    def pause(
        self,
        seconds: float,
        then: Callable[[], None],
        until: float | None = None,
        schedule: bool = True,
    ) -> None:
        """Stop the clock for ``seconds`` and (``schedule``: this process drives the table) run
        ``then`` when they are over. ``until``: the stored end of a pause going on (``seconds``
        is what is left of it)."""
        self.gen += 1
        self.set_deadline(None)
        self.pause_until = until if until is not None else time.time() + seconds
        if schedule:
            self.hub.scheduler.call_later(seconds, functools.partial(self.run, self.gen, then))

    def run(self, gen: int, fn: Callable[[], None]) -> None:
        """Run ``fn`` under the table's lock if generation ``gen`` is current and the table is
        ``live()``; if another process changed the table meanwhile, ``recover()`` instead."""
        with self._lock:
            if gen == self.gen and self._live():
                try:
                    fn()
                except StoreConflict:
                    self._recover()
