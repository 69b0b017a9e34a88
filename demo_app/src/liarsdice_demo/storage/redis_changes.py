"""Announcements of shared tables' changes over Redis pub/sub: this process's listener.

Contract, with the keys of :mod:`liarsdice_demo.storage.redis_store` (same ``prefix``):

- the channel ``{prefix}changed:{code}`` (:meth:`RedisChanges.channel`): each commit of table
  ``code`` publishes the change there, as lines: ``<new version> <Redis's clock, in seconds>
  <first>``, the record, then each new event (all JSON, one per line; read by
  :meth:`RedisChanges.change`); dropping the table publishes ``closed``. A process subscribes
  only to the channels of the tables it holds (:meth:`RedisChanges.watch`);
- the channel ``{prefix}wake:{node}``: the listener subscribes there too, so that
  :meth:`RedisChanges.close` can wake it.

While ``away`` is set (Redis does not answer), :meth:`RedisChanges.watch` raises
:class:`~liarsdice_demo.storage.live_store.StoreUnavailable` at once.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

import orjson
import redis
from redis.client import PubSub

from liarsdice.events import Event
from liarsdice.serialization import from_data
from liarsdice_demo.storage.live_store import StoredTable, StoreUnavailable

log = logging.getLogger(__name__)


class RedisChanges:
    """The announcements under ``prefix``: ``client`` publishes (with a timeout), ``listening``
    (no read timeout) carries the subscription; both decode responses and stay the caller's to
    close, after :meth:`close`."""

    def __init__(
        self, client: redis.Redis, listening: redis.Redis, prefix: str, away: threading.Event
    ) -> None:
        self._redis = client
        self._listening = listening
        self._prefix = prefix
        self._away = away
        self._pubsub: Any = None
        self._wake = ""
        self._listener: threading.Thread | None = None
        self._closing = threading.Event()

    def channel(self, code: str) -> str:
        """The channel of table ``code``'s announcements."""
        return f"{self._prefix}changed:{code}"

    @staticmethod
    def change(code: str, message: str) -> tuple[int, float, StoredTable]:
        """An announced change of table ``code``: its version, when it was committed (Redis's
        clock) and the change itself (the record, and the new events from ``first``)."""
        head, record, *events = message.split("\n")
        version, at, first = head.split()
        rows = [orjson.loads(event) for event in events]
        change = StoredTable(
            code, orjson.loads(record), from_data(rows, list[Event]), int(version), int(first)
        )
        return int(version), float(at), change

    @staticmethod
    def change_version(message: str) -> int:
        """The version an announcement (a change, not ``closed``) brings, read without decoding
        the rest."""
        return int(message[: message.index(" ")])

    def listen(self, changed: Callable[[str, str], None], node: str) -> None:
        """Call ``changed(code, message)`` (``message``: a change for :meth:`change`, or
        ``closed``) for each announcement of a table :meth:`watch` was called for, on a thread of
        its own, until :meth:`close`. ``node`` names this process's own channel, which
        :meth:`close` uses to wake the listener."""
        subscriber: Callable[..., PubSub] = self._listening.pubsub  # redis-py leaves it untyped
        self._pubsub = subscriber(ignore_subscribe_messages=True)
        self._wake = f"{self._prefix}wake:{node}"
        self._pubsub.subscribe(self._wake)
        self._listener = threading.Thread(
            target=self._listen, args=(changed,), name="liarsdice-announcements", daemon=True
        )
        self._listener.start()

    def watch(self, code: str) -> None:
        """Receive table ``code``'s announcements from now on (idempotent);
        :class:`StoreUnavailable` if Redis cannot be reached."""
        if self._away.is_set():
            raise StoreUnavailable("Redis does not answer")
        try:
            self._pubsub.subscribe(self.channel(code))
        except redis.RedisError as down:
            raise StoreUnavailable(f"Redis: {down}") from None

    def unwatch(self, code: str) -> None:
        """Stop receiving table ``code``'s announcements."""
        self._pubsub.unsubscribe(self.channel(code))

    def close(self) -> None:
        """Stop the listener, if :meth:`listen` started one."""
        self._closing.set()
        if self._listener is not None:
            with contextlib.suppress(redis.RedisError):
                self._redis.publish(self._wake, "stop")
            self._listener.join(2.0)
            self._pubsub.close()

    def _listen(self, changed: Callable[[str, str], None]) -> None:
        """The listener's loop: one blocking read per message (no polling)."""
        start = len(self.channel(""))
        while not self._closing.is_set():
            try:
                message = self._pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
            except (redis.RedisError, OSError) as problem:  # redis-py reconnects on the next read
                if self._closing.is_set():
                    return
                log.warning("live table announcements: %s; listening again in 1 s", problem)
                self._closing.wait(1.0)
                continue
            if message is not None and message["channel"] != self._wake:
                changed(message["channel"][start:], message["data"])
