"""A per-process CPU budget for WebSocket handshakes: established sockets' messages go first.

Contract: a handshake the door admitted (:mod:`liarsdice_demo.edge.handshakes`) first waits its
turn at :meth:`HandshakeBudget.wait_turn`, which returns a :class:`Ticket` once three things hold:
the handshakes before it were let through (one waiter is let through at a time, in the order of
the lock, FIFO under gevent), the budget is not in debt (:class:`CpuBudget`: handshakes may spend
``share`` seconds of the process's CPU per second, and at most ``burst`` seconds at once), and the
event loop is idle (``gevent.idle``: no socket read, timer or wake-up of an established socket is
pending). The handshake then runs, and :meth:`Ticket.done` charges the CPU time its thread spent
since the ticket was given (if the handshake waited meanwhile, e.g. on Redis, what ran then is
charged too: the budget errs on the side of the established sockets). So a wave of handshakes is
served a few at a time between the other sockets' messages, at most ``share`` of the CPU, instead
of holding the process for its whole length; the handshakes wait (their connections are open,
unread past their headers), they are not refused. Only past ``max_waiting`` waiting handshakes
does :meth:`HandshakeBudget.wait_turn` return None (the door answers 503). Without gevent (the
development server's threads) there is no idle wait: the budget alone paces handshakes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

DEFAULTS: dict[str, Any] = {
    "HANDSHAKE_CPU_SHARE": 0.5,
    "HANDSHAKE_CPU_BURST": 0.01,
    "HANDSHAKES_WAITING": 4096,
}
"""Config keys (and defaults) read by :meth:`HandshakeBudget.from_config`: the share of one CPU
second per second handshakes may spend, the CPU seconds they may spend at once, and how many
handshakes may wait for their turn."""


class CpuBudget:
    """A token bucket of CPU seconds: ``share`` seconds come in per second of ``clock``, up to
    ``burst``; :meth:`charge` spends (into debt if need be), :meth:`debt` says how long until the
    balance is back to zero. Not thread-safe (:class:`HandshakeBudget` holds a lock)."""

    def __init__(
        self, share: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"the handshake CPU share must be in (0, 1], not {share!r}")
        if not burst > 0:
            raise ValueError(f"the handshake CPU burst must be positive, not {burst!r}")
        self.share, self.burst, self._clock = share, float(burst), clock
        self._balance, self._stamp = self.burst, clock()

    def _refill(self) -> None:
        now = self._clock()
        self._balance = min(self.burst, self._balance + (now - self._stamp) * self.share)
        self._stamp = now

    @property
    def balance(self) -> float:
        """CPU seconds left (negative: in debt)."""
        self._refill()
        return self._balance

    def charge(self, cpu: float) -> None:
        """Spend ``cpu`` seconds (a negative reading counts as none)."""
        self._refill()
        self._balance -= max(0.0, cpu)

    def debt(self) -> float:
        """Seconds of ``clock`` until the balance is no longer negative (0 when it is not)."""
        return max(0.0, -self.balance / self.share)


def current_sleep(seconds: float) -> None:
    """``time.sleep``, looked up when called: gevent patches it after this module is imported."""
    time.sleep(seconds)


def gevent_idle() -> None:
    """Wait until gevent's event loop has nothing else pending (no-op without gevent's patching:
    threads have no loop to be idle)."""
    from gevent import idle, monkey

    if monkey.is_module_patched("threading"):
        idle()


class Ticket:
    """One handshake let through: :meth:`done` charges its CPU time to the budget, once."""

    def __init__(self, budget: HandshakeBudget, started: float) -> None:
        self._budget, self._started = budget, started
        self._open = True

    def done(self) -> None:
        """The handshake is over (the socket is served from now on, or it was refused)."""
        if self._open:
            self._open = False
            self._budget.charge(self._budget.cpu() - self._started)


class HandshakeBudget:
    """The process's handshakes, paced by a :class:`CpuBudget` and let through when the event
    loop is idle; ``clock``, ``cpu`` (the thread's CPU time), ``sleep`` and ``idle`` are
    parameters so that tests can drive it."""

    def __init__(
        self,
        share: float,
        burst: float,
        max_waiting: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        cpu: Callable[[], float] = time.thread_time,
        sleep: Callable[[float], None] = current_sleep,
        idle: Callable[[], None] = gevent_idle,
    ) -> None:
        if max_waiting < 1:
            raise ValueError(f"at least one handshake must be able to wait, not {max_waiting!r}")
        self.max_waiting = max_waiting
        self.cpu, self._sleep, self._idle = cpu, sleep, idle
        self._budget = CpuBudget(share, burst, clock)
        self._lock = threading.Lock()
        """Guards the budget and the count of waiters."""
        self._turn = threading.Lock()
        """Held by the one waiter being let through."""
        self.waiting = 0

    @classmethod
    def from_config(cls, config: Any) -> HandshakeBudget:
        """A budget with the settings in ``config`` (keys of :data:`DEFAULTS`)."""

        def get(key: str) -> Any:
            return config.get(key, DEFAULTS[key])

        return cls(
            get("HANDSHAKE_CPU_SHARE"), get("HANDSHAKE_CPU_BURST"), get("HANDSHAKES_WAITING")
        )

    def debt(self) -> float:
        """Seconds until handshakes may run again (0 when they may now)."""
        with self._lock:
            return self._budget.debt()

    def charge(self, cpu: float) -> None:
        """Charge ``cpu`` seconds of handshake work."""
        with self._lock:
            self._budget.charge(cpu)

    def wait_turn(self) -> Ticket | None:
        """Wait until this handshake may run (see the module's contract); its :class:`Ticket`,
        or None at once when :attr:`max_waiting` handshakes are waiting already."""
        with self._lock:
            if self.waiting >= self.max_waiting:
                return None
            self.waiting += 1
        try:
            with self._turn:
                while (delay := self.debt()) > 0:
                    self._sleep(delay)
                self._idle()
        finally:
            with self._lock:
                self.waiting -= 1
        return Ticket(self, self.cpu())
