"""A timer wheel for the hub: one thread keeps a heap of due jobs, a few worker threads run them.

Contract: :meth:`Scheduler.call_later` runs ``fn()`` on a worker thread no earlier than ``delay``
seconds from now; :meth:`Scheduler.submit` runs it as soon as a worker is free. Jobs are not
cancelled: a job that may have gone stale checks a generation number itself (see
:mod:`liarsdice_demo.tables.table`). A job's exception is logged and does not stop the scheduler.
:meth:`Scheduler.shutdown` drops pending jobs, waits for running ones and joins every thread.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Scheduler:
    """Jobs off the request threads: bot turns, turn clocks, saving games."""

    def __init__(self, workers: int = 4) -> None:
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._counter = itertools.count()
        self._wake = threading.Condition()
        self._stopped = False
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        """Jobs due now, taken by the workers in order (``None``: a worker stops)."""
        self._workers = [
            threading.Thread(target=self._work, name=f"liarsdice-hub-{n}", daemon=True)
            for n in range(workers)
        ]
        self._thread = threading.Thread(target=self._run, name="liarsdice-timers", daemon=True)
        for thread in (*self._workers, self._thread):
            thread.start()

    def call_later(self, delay: float, fn: Callable[[], None]) -> None:
        """Run ``fn`` on a worker after ``delay`` seconds (at once if ``delay <= 0``)."""
        if delay <= 0:
            self.submit(fn)
            return
        with self._wake:
            if self._stopped:
                return
            heapq.heappush(self._heap, (time.monotonic() + delay, next(self._counter), fn))
            self._wake.notify()

    def submit(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on a worker as soon as one is free."""
        if not self._stopped:
            self._jobs.put(fn)

    def _work(self) -> None:
        """A worker: run jobs one after another until told to stop."""
        while (fn := self._jobs.get()) is not None:
            try:
                fn()
            except Exception:
                log.exception("a hub job failed")

    def _run(self) -> None:
        with self._wake:
            while not self._stopped:
                now = time.monotonic()
                while self._heap and self._heap[0][0] <= now:
                    self._jobs.put(heapq.heappop(self._heap)[2])
                timeout = self._heap[0][0] - now if self._heap else None
                self._wake.wait(timeout)

    def shutdown(self) -> None:
        """Stop: pending jobs are dropped, running ones finish, all threads are joined."""
        with self._wake:
            self._stopped = True
            self._heap.clear()
            self._wake.notify()
        self._thread.join()
        with contextlib.suppress(queue.Empty):
            while True:
                self._jobs.get_nowait()
        for _ in self._workers:
            self._jobs.put(None)
        for worker in self._workers:
            if worker is not threading.current_thread():
                worker.join()
