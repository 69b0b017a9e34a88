"""The socket gate: how many WebSockets the server and each client may hold, open and talk through.

Contract: :meth:`SocketGate.admit` lets a new socket in or raises :class:`Refused` with a WebSocket
close code and a reason fit to show a player (the server's cap, the client's cap, the client
opening sockets too fast); every admitted socket is given back with :meth:`SocketGate.release`.
A client that flooded a socket is barred for a while (:meth:`SocketGate.bar`). Before a handshake
is even parsed by Flask, the door (:mod:`liarsdice_demo.edge.handshakes`) asks :meth:`SocketGate.knock`,
which refuses a barred client or one opening sockets too fast, and otherwise takes the opening's
token (then ``admit(client, knocked=True)`` does not take another).
:meth:`SocketGate.allow_message` meters messages per client, across all of that client's sockets,
so opening more sockets buys no more throughput; :meth:`SocketGate.read_delay` and
:meth:`SocketGate.inflated` meter the bytes read from them and the bytes their compressed messages
inflate to. A client is its key
(:func:`liarsdice_demo.edge.clients.client_key`: its address, or its IPv6 /64). Thread-safe (one
lock; constant work per call), and cheap under gevent.
"""

from __future__ import annotations

import math
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
    "BYTES_PER_SECOND": 64 * 1024,
    "BYTES_BURST": 256 * 1024,
    "INFLATED_BYTES_PER_SECOND": 64 * 1024,
    "INFLATED_BYTES_BURST": 256 * 1024,
}
"""Config keys (and defaults) read by :meth:`SocketGate.from_config`; ``MAX_SOCKETS=None`` means
as many as the process's file descriptor limit allows (:func:`socket_capacity`)."""

RESERVED_FDS = 256
"""File descriptors kept for the database and the server itself."""
PAGE_CONNECTIONS = 1000
"""Connections kept for page requests when the sockets are at their cap."""

MAX_READ_DELAY = 1.0
"""The longest one read waits for its client's byte budget (the next read waits again)."""
FORGET_AFTER = 300.0
"""Seconds after which a client with no socket is forgotten (its buckets were full long ago)."""


def connection_capacity() -> int:
    """How many connections (one file descriptor each) fit under this process's open-file limit,
    leaving :data:`RESERVED_FDS` for the database and the server itself: past it, accepting a
    connection or opening SQLite would fail with "too many open files"."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(2 * PAGE_CONNECTIONS, soft - RESERVED_FDS)


def socket_capacity() -> int:
    """How many WebSockets the server holds by default: the connection capacity less
    :data:`PAGE_CONNECTIONS`, so that pages can always be served."""
    return connection_capacity() - PAGE_CONNECTIONS


class MeteredSocket:
    """A socket whose reads spend its client's byte budget: past it (or past its budget of
    inflated bytes, :meth:`SocketGate.inflated`), the reader waits before reading again, so
    whatever a client sends (messages, compressed or not, control frames, junk) costs the server
    at most the budgets; TCP pushes back on the sender meanwhile. Everything else is the socket."""

    def __init__(self, sock: Any, gate: SocketGate, client: str) -> None:
        self._sock, self._gate, self._client = sock, gate, client

    def recv(self, size: int) -> bytes:
        data: bytes = self._sock.recv(size)
        delay = self._gate.read_delay(self._client, len(data)) if data else 0.0  # not at the end
        if delay:
            time.sleep(min(delay, MAX_READ_DELAY))
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


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

    def debt(self) -> float:
        """Seconds until the bucket is out of debt (0 when it is not in debt)."""
        return self.spend(0)

    def spend(self, amount: float) -> float:
        """Spend ``amount`` tokens, going into debt if need be; the seconds until the bucket is
        out of debt (0 when it never was)."""
        self._refill()
        self._tokens -= amount
        return max(0.0, -self._tokens / self.rate)


class _Client:
    __slots__ = ("barred_until", "bytes", "inflated", "messages", "opens", "seen", "sockets")

    def __init__(self, gate: SocketGate) -> None:
        self.sockets = 0
        self.barred_until = 0.0
        self.opens = TokenBucket(gate.opens_rate, gate.opens_burst)
        self.messages = TokenBucket(gate.message_rate, gate.message_burst)
        self.bytes = TokenBucket(gate.byte_rate, gate.byte_burst)
        self.inflated = TokenBucket(gate.inflated_rate, gate.inflated_burst)
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
        byte_rate: float = DEFAULTS["BYTES_PER_SECOND"],
        byte_burst: int = DEFAULTS["BYTES_BURST"],
        inflated_rate: float = DEFAULTS["INFLATED_BYTES_PER_SECOND"],
        inflated_burst: int = DEFAULTS["INFLATED_BYTES_BURST"],
    ) -> None:
        self.max_sockets, self.max_per_client = max_sockets, max_per_client
        self.opens_rate, self.opens_burst = opens_rate, opens_burst
        self.message_rate, self.message_burst = message_rate, message_burst
        self.flood_penalty = flood_penalty
        self.byte_rate, self.byte_burst = byte_rate, byte_burst
        self.inflated_rate, self.inflated_burst = inflated_rate, inflated_burst
        self.open = 0
        self._clients: dict[str, _Client] = {}
        self._lock = threading.Lock()
        self._last_prune = time.monotonic()

    @classmethod
    def from_config(cls, config: Any) -> SocketGate:
        """A gate with the limits in ``config`` (keys of :data:`DEFAULTS`)."""

        def get(key: str) -> Any:
            return config.get(key, DEFAULTS[key])

        return cls(
            max_sockets=get("MAX_SOCKETS") or socket_capacity(),
            max_per_client=get("MAX_SOCKETS_PER_CLIENT"),
            opens_rate=get("SOCKET_OPENS_PER_SECOND"),
            opens_burst=get("SOCKET_OPENS_BURST"),
            message_rate=get("MESSAGES_PER_SECOND"),
            message_burst=get("MESSAGES_BURST"),
            flood_penalty=get("FLOOD_PENALTY_SECONDS"),
            byte_rate=get("BYTES_PER_SECOND"),
            byte_burst=get("BYTES_BURST"),
            inflated_rate=get("INFLATED_BYTES_PER_SECOND"),
            inflated_burst=get("INFLATED_BYTES_BURST"),
        )

    def barred(self, client: str) -> float:
        """Seconds ``client`` stays barred for flooding (0 when it is not)."""
        with self._lock:
            state = self._clients.get(client)
            return max(0.0, state.barred_until - time.monotonic()) if state is not None else 0.0

    def knock(self, client: str) -> tuple[float, str] | None:
        """Before ``client``'s handshake: None, with the opening's token taken, if it may go on;
        else the seconds to wait and why (barred for flooding, or opening sockets too fast)."""
        with self._lock:
            state = self._state(client)
            barred = state.barred_until - time.monotonic()
            if barred > 0:
                return barred, f"too many messages: wait {math.ceil(barred)} s before reconnecting"
            if state.opens.take():
                return None
            wait = max(1, math.ceil(state.opens.wait()))
            return wait, f"too many connections opened: try again in {wait} s"

    def admit(self, client: str, *, knocked: bool = False) -> None:
        """Count a new socket of ``client``, or raise :class:`Refused` saying why not; with
        ``knocked``, :meth:`knock` already took the opening's token."""
        with self._lock:
            state = self._state(client)
            if not knocked and not state.opens.take():
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

    def read_delay(self, client: str, received: int) -> float:
        """Count ``received`` bytes read from ``client``'s sockets; the seconds to wait before
        reading from them again (0 within the client's byte budget and inflated-byte budget)."""
        with self._lock:
            state = self._clients.get(client)
            if state is None:
                return 0.0
            return max(state.bytes.spend(received), state.inflated.debt())

    def inflated(self, client: str, size: int) -> None:
        """Count ``size`` bytes that ``client``'s compressed messages inflated to: past the
        budget, its sockets' next reads wait (:meth:`read_delay`)."""
        with self._lock:
            state = self._clients.get(client)
            if state is not None:
                state.inflated.spend(size)

    def _state(self, client: str) -> _Client:
        """``client``'s state (a new one if it has none), marked as seen now; under the lock."""
        self._prune()
        state = self._clients.get(client)
        if state is None:
            state = self._clients[client] = _Client(self)
        state.seen = time.monotonic()
        return state

    def _prune(self) -> None:
        now = time.monotonic()
        if now - self._last_prune < FORGET_AFTER:
            return
        self._last_prune = now
        for client, state in list(self._clients.items()):
            if state.sockets == 0 and now - state.seen > FORGET_AFTER:
                del self._clients[client]
