"""At most one log record per key (a client) per period, so no client can fill the log.

Contract: :meth:`LogOnce.exception` logs its message with the current traceback (as
``Logger.exception``) unless a record was logged for the same key less than ``period`` seconds
ago; then it only counts the one it left out, and the next record logged for that key says how
many were. It remembers at most ``max_keys`` keys, forgetting those logged longest ago first
(a forgotten key logs at once next time). Thread-safe.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

PERIOD = 60.0
MAX_KEYS = 10_000


class LogOnce:
    """Log records throttled per key: one per ``period`` seconds."""

    def __init__(
        self,
        period: float = PERIOD,
        max_keys: int = MAX_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.period = period
        self.max_keys = max_keys
        self._clock = clock
        self._keys: OrderedDict[str, tuple[float, int]] = OrderedDict()
        """Per key: when its last record was logged, and how many were left out since."""
        self._lock = threading.Lock()

    def allow(self, key: str) -> int | None:
        """How many records of ``key`` were left out since its last one, if one may be logged
        now (and it is counted as logged); ``None`` (and it is counted as left out) if not."""
        now = self._clock()
        with self._lock:
            last = self._keys.get(key)
            if last is not None and now - last[0] < self.period:
                self._keys[key] = (last[0], last[1] + 1)
                return None
            self._keys.pop(key, None)
            self._keys[key] = (now, 0)  # the newest last: the oldest are forgotten first
            while len(self._keys) > self.max_keys:
                self._keys.popitem(last=False)
            return 0 if last is None else last[1]

    def exception(self, logger: logging.Logger, key: str, msg: str, *args: object) -> None:
        """``logger.exception(msg, *args)`` for ``key``, at most once per period (a record after
        some were left out ends with "(N more like this from <key> were not logged)")."""
        left_out = self.allow(key)
        if left_out is None:
            return
        if left_out:
            msg += " (%d more like this from %s were not logged)"
            args = (*args, left_out, key)
        logger.exception(msg, *args)
