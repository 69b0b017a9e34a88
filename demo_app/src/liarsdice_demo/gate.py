"""The socket gate: how many WebSockets the server and each client may hold, open and talk through.

Contract: :meth:`SocketGate.admit` lets a new socket in or raises :class:`Refused` with a WebSocket
close code and a reason fit to show a player (the server's cap, the client's cap, the client
opening sockets too fast, or the client barred for a while by :meth:`SocketGate.bar` after it
flooded a socket); every admitted socket is given back with :meth:`SocketGate.release`.
:meth:`SocketGate.allow_message` meters messages per client, across all of that client's sockets,
so opening more sockets buys no more throughput. A client is its key
(:func:`liarsdice_demo.clients.client_key`: its address, or its IPv6 /64). Thread-safe (one
lock; constant work per call), and cheap under gevent.
"""

from __future__ import annotations

import resource
import threading
import time
from typing import Any

TRY_AGAIN_LATER = 1013
"""WebSocket close code for "the server is overloaded: try again later" (RFC 6455 registry)."""
FLOODED = 1008
"""WebSocket close code for a client that sent too many messages (policy violation)."""

DEFAULTS: dict[str, Any] = {
    "MAX_SOCKETS": None,
    "MAX_SOCKETS_PER_CLIENT": 32,
    "SOCKET_OPENS_PER_SECOND": 2.0,
    "SOCKET_OPENS_BURST": 40,
    "MESSAGES_PER_SECOND": 20.0,
    "MESSAGES_BURST": 60,
    "FLOOD_PENALTY_SECONDS": 30.0,
}
"""Config keys (and defaults) read by :meth:`SocketGate.from_config`; ``MAX_SOCKETS=None`` means
as many as the process's file descriptor limit allows (:func:`socket_capacity`)."""

RESERVED_FDS = 256
"""File descriptors kept for page requests, the database and the server itself."""

FORGET_AFTER = 300.0
"""Seconds after which a client with no socket is forgotten (its buckets were full long ago)."""


def socket_capacity() -> int:
    """How many WebSockets (one file descriptor each) fit under this process's open-file limit,
    leaving :data:`RESERVED_FDS` for everything else: past it, every request (and SQLite) would
    fail with "too many open files", so the gate refuses sockets first."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(16, soft - RESERVED_FDS)


class Refused(Exception):
    """A socket was not admitted: ``code`` and ``reason`` go into the close frame."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; :meth:`take` spends one if there is one."""

    __slots__ = ("_stamp", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, float(burst)
        self._tokens, self._stamp = float(burst), time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def take(self) -> bool:
        """Spend a token; False (nothing spent) when the bucket is empty."""
        self._refill()
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until the next token."""
        self._refill()
        return max(0.0, (1 - self._tokens) / self.rate)


class _Client:
    __slots__ = ("barred_until", "messages", "opens", "seen", "sockets")

    def __init__(self, gate: SocketGate) -> None:
        self.sockets = 0
        self.barred_until = 0.0
        self.opens = TokenBucket(gate.opens_rate, gate.opens_burst)
        self.messages = TokenBucket(gate.message_rate, gate.message_burst)
        self.seen = time.monotonic()


class SocketGate:
    """Socket counts and meters, globally and per client."""

    def __init__(
        self,
        *,
        max_sockets: int,
        max_per_client: int,
        opens_rate: float,
        opens_burst: int,
        message_rate: float,
        message_burst: int,
        flood_penalty: float,
    ) -> None:
        self.max_sockets, self.max_per_client = max_sockets, max_per_client
        self.opens_rate, self.opens_burst = opens_rate, opens_burst
        self.message_rate, self.message_burst = message_rate, message_burst
        self.flood_penalty = flood_penalty
        self.open = 0
        self._clients: dict[str, _Client] = {}
        self._lock = threading.Lock()
        self._last_prune = time.monotonic()

    @classmethod
    def from_config(cls, config: Any) -> SocketGate:
        """A gate with the limits in ``config`` (keys of :data:`DEFAULTS`)."""
        get = lambda key: config.get(key, DEFAULTS[key])  # noqa: E731
        return cls(
            max_sockets=get("MAX_SOCKETS") or socket_capacity(),
            max_per_client=get("MAX_SOCKETS_PER_CLIENT"),
            opens_rate=get("SOCKET_OPENS_PER_SECOND"),
            opens_burst=get("SOCKET_OPENS_BURST"),
            message_rate=get("MESSAGES_PER_SECOND"),
            message_burst=get("MESSAGES_BURST"),
            flood_penalty=get("FLOOD_PENALTY_SECONDS"),
        )

    def admit(self, client: str) -> None:
        """Count a new socket of ``client``, or raise :class:`Refused` saying why not."""
        with self._lock:
            self._prune()
            state = self._clients.get(client)
            if state is None:
                state = self._clients[client] = _Client(self)
            state.seen = now = time.monotonic()
            if now < state.barred_until:
                wait = max(1, round(state.barred_until - now))
                raise Refused(FLOODED, f"too many messages: wait {wait} s before reconnecting")
            if not state.opens.take():
                wait = max(1, round(state.opens.wait()))
                raise Refused(
                    TRY_AGAIN_LATER, f"too many connections opened: try again in {wait} s"
                )
            if state.sockets >= self.max_per_client:
                raise Refused(
                    TRY_AGAIN_LATER,
                    f"you have {state.sockets} connections open, the most one client may hold:"
                    " close a tab and try again",
                )
            if self.open >= self.max_sockets:
                raise Refused(TRY_AGAIN_LATER, "the server is full: try again later")
            state.sockets += 1
            self.open += 1

    def release(self, client: str) -> None:
        """Forget one admitted socket of ``client``."""
        with self._lock:
            state = self._clients.get(client)
            if state is not None and state.sockets > 0:
                state.sockets -= 1
                state.seen = time.monotonic()
                self.open -= 1

    def bar(self, client: str) -> None:
        """Refuse new sockets of ``client`` for the flood penalty (it flooded a socket)."""
        with self._lock:
            state = self._clients.get(client)
            if state is not None:
                state.barred_until = time.monotonic() + self.flood_penalty

    def allow_message(self, client: str) -> bool:
        """Take a token for one message of ``client`` (all its sockets share the bucket)."""
        with self._lock:
            state = self._clients.get(client)
            return state is None or state.messages.take()

    def sockets_of(self, client: str) -> int:
        """How many sockets ``client`` holds now."""
        with self._lock:
            state = self._clients.get(client)
            return state.sockets if state else 0

    def _prune(self) -> None:
        now = time.monotonic()
        if now - self._last_prune < FORGET_AFTER:
            return
        self._last_prune = now
        for client, state in list(self._clients.items()):
            if state.sockets == 0 and now - state.seen > FORGET_AFTER:
                del self._clients[client]
