"""A timer wheel for the hub: one thread keeps a heap of due jobs, a small pool runs them.

Contract: :meth:`Scheduler.call_later` runs ``fn()`` on a worker thread no earlier than ``delay``
seconds from now; :meth:`Scheduler.submit` runs it as soon as a worker is free. Jobs are not
cancelled: a job that may have gone stale checks a generation number itself (see
:mod:`liarsdice_demo.table`). A job's exception is logged and does not stop the scheduler.
:meth:`Scheduler.shutdown` drops pending jobs, waits for running ones and joins every thread.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

log = logging.getLogger(__name__)


class Scheduler:
    """Jobs off the request threads: bot turns, turn clocks, saving games."""

    def __init__(self, workers: int = 4) -> None:
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._counter = itertools.count()
        self._wake = threading.Condition()
        self._stopped = False
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="liarsdice-hub")
        self._thread = threading.Thread(target=self._run, name="liarsdice-timers", daemon=True)
        self._thread.start()

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
        with self._wake:
            if self._stopped:
                return
            self._pool.submit(self._guarded, fn)

    @staticmethod
    def _guarded(fn: Callable[[], None]) -> None:
        try:
            fn()
        except Exception:
            log.exception("a hub job failed")

    def _run(self) -> None:
        with self._wake:
            while not self._stopped:
                now = time.monotonic()
                while self._heap and self._heap[0][0] <= now:
                    _, _, fn = heapq.heappop(self._heap)
                    try:
                        self._pool.submit(self._guarded, fn)
                    except RuntimeError:  # the interpreter is exiting
                        return
                timeout = self._heap[0][0] - now if self._heap else None
                self._wake.wait(timeout)

    def shutdown(self) -> None:
        """Stop: pending jobs are dropped, running ones finish, all threads are joined."""
        with self._wake:
            self._stopped = True
            self._heap.clear()
            self._wake.notify()
        self._thread.join()
        self._pool.shutdown(wait=True, cancel_futures=True)
