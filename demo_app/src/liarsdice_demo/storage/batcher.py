"""Script calls that fall due together travel to Redis together: one round trip per batch.

Contract: :meth:`Batcher.call` runs one Lua script call (``EVALSHA``) and returns its reply, or
raises its error (a ``redis.RedisError``), as a direct call would. A call made while no batch is
on its way is sent at once by its own thread. Calls made while one is on its way wait; when it is
back, they go together in the next batch, sent by the thread of the first of them: one pipeline
without a transaction, since each script is atomic on its own and the calls of one batch come
from different tables. Under load a round trip then carries several commits, and the client's
per-round-trip cost (taking a connection, a send, a read) is paid once per batch; without load
nothing waits and no thread is added. A batch lost to a connection error fails each of its calls
with that error.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import redis
from redis.exceptions import NoScriptError

MAX_BATCH = 64
"""The most calls one round trip carries."""


class _Call:
    """One script call: its keys and arguments, then its reply (or error); or, for the first
    call of a batch, the batch it must send (:attr:`lead`)."""

    __slots__ = ("args", "done", "keys", "lead", "reply")

    def __init__(self, keys: Sequence[str], args: Sequence[Any]) -> None:
        self.keys, self.args = keys, args
        self.done = threading.Event()
        self.reply: Any = None
        self.lead: list[_Call] | None = None


class Batcher:
    """Calls of one Lua ``script`` on ``client``, batched while a round trip is on its way."""

    def __init__(self, client: redis.Redis, script: str) -> None:
        self._client = client
        self._script = client.register_script(script)
        self._lock = threading.Lock()
        self._waiting: list[_Call] = []
        self._sending = False

    def call(self, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """The script's reply for ``keys`` and ``args``; its error (``redis.RedisError``) is
        raised here."""
        pending = _Call(keys, args)
        with self._lock:
            if self._sending:
                self._waiting.append(pending)
            else:
                self._sending = True
                pending.lead = [pending]
        if pending.lead is None:
            pending.done.wait()  # for its reply, or to send the next batch
        if pending.lead is not None:
            try:
                self._send(pending.lead)
            finally:
                self._hand_over()
        if isinstance(pending.reply, Exception):
            raise pending.reply
        return pending.reply

    def _hand_over(self) -> None:
        """After a batch: the calls waiting form the next one, sent by the first of them."""
        with self._lock:
            following, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
            self._sending = bool(following)
        if following:
            following[0].lead = following
            following[0].done.set()

    def _send(self, batch: list[_Call]) -> None:
        """Send ``batch`` and hand each call but the first (this thread's) its reply."""
        for pending, reply in zip(batch, self._replies(batch), strict=True):
            pending.reply = reply
            if pending is not batch[0]:
                pending.done.set()

    def _replies(self, batch: list[_Call]) -> list[Any]:
        """Each call's reply or error; calls refused because Redis lost the script (a restart,
        a flush) are sent again once it is loaded."""
        try:
            replies = self._pipeline(batch)
            lost = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
            if lost:
                self._client.script_load(self._script.script)
                for i, reply in zip(lost, self._pipeline([batch[i] for i in lost]), strict=True):
                    replies[i] = reply
            return replies
        except Exception as failed:  # Redis unreachable (or a bug): every call raises it
            return [failed] * len(batch)

    def _pipeline(self, batch: list[_Call]) -> list[Any]:
        if len(batch) == 1:  # no pipeline for one call
            [pending] = batch
            try:
                return [
                    self._client.evalsha(
                        self._script.sha, len(pending.keys), *pending.keys, *pending.args
                    )
                ]
            except redis.ResponseError as refused:
                return [refused]
        with self._client.pipeline(transaction=False) as pipe:
            for pending in batch:
                pipe.evalsha(self._script.sha, len(pending.keys), *pending.keys, *pending.args)
            return list(pipe.execute(raise_on_error=False))
