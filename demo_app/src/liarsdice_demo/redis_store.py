"""Live tables kept in Redis, shared by every process and host that uses the same server.

Contract: the contract of :class:`~liarsdice_demo.live_store.LiveStore` (``reserve``, ``commit``,
``load``, ``drop``, ``close``), with these keys (``prefix`` defaults to ``liarsdice:``):

- ``{prefix}tables``: a sorted set of every live table's code, scored by its creation time.
  :meth:`RedisStore.reserve` adds a code only if it is not there, so codes are unique across
  processes and hosts;
- ``{prefix}table:{code}``: a hash with the table's ``record`` (JSON), its ``version`` (commits
  so far) and its current ``game`` number;
- ``{prefix}log:{code}``: a stream of the current game's events, the event at position ``i`` of
  game ``g`` under the entry id ``g-(i+1)`` (field ``e``: the event as JSON);
- ``{prefix}lease:{code}``: the id of the process that drives the table (its clock and bots),
  with an expiry (:meth:`RedisStore.acquire`, :meth:`RedisStore.renew`, :meth:`RedisStore.release`);
- ``{prefix}node:{node}``: a process's heartbeat, with an expiry (:meth:`RedisStore.beat`,
  :meth:`RedisStore.alive`);
- the channel ``{prefix}changed:{code}``: each commit publishes the change there, as lines: ``<new
  version> <Redis's clock, in seconds> <first>``, the record, then each new event (all JSON, one
  per line; see :meth:`RedisStore.change`); :meth:`RedisStore.drop` publishes ``closed``. A
  process subscribes only to the channels of the tables it holds (:meth:`RedisStore.watch`);
- the channel ``{prefix}wake:{node}``: each process listens there too, so that closing the store
  can wake its listener.

:meth:`RedisStore.commit` is one Lua script, so it is atomic: it checks the version, writes, and
publishes. Two processes changing one table at once are ordered by Redis: one commit succeeds, the
other raises :class:`~liarsdice_demo.live_store.StoreConflict` and writes nothing.

**Outages.** Every command waits at most :data:`TIMEOUT_SECONDS` for Redis (``socket_timeout``
and ``socket_connect_timeout`` in the URL's query set others), the listener's subscription
excepted (it waits for announcements). :meth:`RedisStore.ping` asks whether Redis answers within
:data:`PROBE_TIMEOUT`; while :attr:`RedisStore.away` is set (by :mod:`liarsdice_demo.outage`,
which pings), :meth:`~RedisStore.commit`, :meth:`~RedisStore.table` and :meth:`~RedisStore.watch`
raise :class:`~liarsdice_demo.live_store.StoreUnavailable` at once, without waiting on Redis.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import orjson
import redis
from redis.backoff import NoBackoff
from redis.client import PubSub
from redis.retry import Retry

from liarsdice.events import Event
from liarsdice.serialization import from_data, to_data
from liarsdice_demo.batcher import Batcher
from liarsdice_demo.live_store import StoreConflict, StoredTable, StoreUnavailable

log = logging.getLogger(__name__)

COMMIT = """
local version = tonumber(ARGV[2])
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if stored ~= version then
  return redis.error_reply('CONFLICT table ' .. ARGV[1] .. ' is at version ' .. stored)
end
local game, first = tonumber(ARGV[4]), tonumber(ARGV[5])
if game > tonumber(redis.call('HGET', KEYS[1], 'game') or '0') then
  redis.call('DEL', KEYS[2])
end
for i = 7, #ARGV do
  redis.call('XADD', KEYS[2], game .. '-' .. (first + i - 6), 'e', ARGV[i])
end
redis.call('HSET', KEYS[1], 'record', ARGV[3], 'version', version + 1, 'game', game)
redis.call('ZADD', KEYS[3], 'NX', ARGV[6], ARGV[1])
local now = redis.call('TIME')
local at = now[1] .. '.' .. string.format('%06d', now[2])
local change = {(version + 1) .. ' ' .. at .. ' ' .. first, ARGV[3]}
for i = 7, #ARGV do change[#change + 1] = ARGV[i] end
redis.call('PUBLISH', KEYS[4], table.concat(change, '\\n'))
return version + 1
"""

ACQUIRE = """
local taken = {}
for i, key in ipairs(KEYS) do
  if redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    taken[#taken + 1] = i
  elseif redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    taken[#taken + 1] = i
  end
end
return taken
"""

RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""

RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""

VERSIONS = """
local found = {}
for i, key in ipairs(KEYS) do found[i] = redis.call('HGET', key, 'version') or '0' end
return found
"""
"""Each lease and version script handles many tables in one call: a lease tick costs one short
command per job, whatever the number of tables."""

LAST = "18446744073709551615"
"""The highest sequence number of a stream entry id."""

TIMEOUT_SECONDS = 2.0
"""How long a command waits for Redis before it fails (redis-py's default is 5 s)."""
PROBE_TIMEOUT = 1.0
"""How long :meth:`RedisStore.ping` waits for an answer."""


class RedisStore:
    """The live tables of one Redis database (``url``: ``redis://host:port/db``)."""

    def __init__(self, url: str, prefix: str = "liarsdice:") -> None:
        # RESP2: redis-py reads a RESP3 pub/sub message about three times slower (here, 8.1)
        options: dict[str, Any] = {"decode_responses": True, "protocol": 2}
        waits = {"socket_timeout": TIMEOUT_SECONDS, "socket_connect_timeout": TIMEOUT_SECONDS}
        self._redis = redis.Redis.from_url(url, **options, **waits)  # the URL's query prevails
        self._listening = redis.Redis.from_url(url, **options)
        self._listening.connection_pool.connection_kwargs["socket_timeout"] = None
        probe = {"socket_timeout": PROBE_TIMEOUT, "socket_connect_timeout": PROBE_TIMEOUT}
        self._probe = redis.Redis.from_url(url, **options, **probe, retry=Retry(NoBackoff(), 0))
        self.away = threading.Event()
        """Set while Redis does not answer: the store's calls fail at once."""
        try:
            self._redis.ping()
        except redis.RedisError as problem:
            raise RuntimeError(f"cannot reach Redis at {url.split('@')[-1]}: {problem}") from None
        self._prefix = prefix
        self._commits = Batcher(self._redis, COMMIT)
        self._acquire = self._redis.register_script(ACQUIRE)
        self._renew = self._redis.register_script(RENEW)
        self._release = self._redis.register_script(RELEASE)
        self._versions = self._redis.register_script(VERSIONS)
        self._pubsub: Any = None
        self._wake = ""
        self._listener: threading.Thread | None = None
        self._closing = threading.Event()

    def _key(self, kind: str, code: str) -> str:
        return f"{self._prefix}{kind}:{code}"

    @property
    def _tables(self) -> str:
        return f"{self._prefix}tables"

    def _reachable(self) -> None:
        """:class:`StoreUnavailable` at once while Redis is known to be away."""
        if self.away.is_set():
            raise StoreUnavailable("Redis does not answer")

    def ping(self) -> bool:
        """Whether Redis answers within :data:`PROBE_TIMEOUT` (one try)."""
        try:
            return bool(self._probe.ping())
        except (redis.RedisError, OSError):
            return False

    # --- the store's contract --------------------------------------------------------------------

    def reserve(self, code: str, created: float) -> bool:
        """Claim ``code`` for a new table; False if any process holds it already."""
        return bool(self._redis.zadd(self._tables, {code: created}, nx=True))

    def commit(
        self,
        code: str,
        version: int,
        record: dict[str, Any],
        game: int,
        first: int = 0,
        events: Sequence[Event] = (),
    ) -> int:
        """As :meth:`liarsdice_demo.live_store.LiveStore.commit`, and announced on the table's
        channel; one atomic script, sent with the commits of other tables that fall due at the
        same time (:mod:`liarsdice_demo.batcher`). :class:`StoreUnavailable` if Redis cannot be
        reached."""
        self._reachable()
        rows = [orjson.dumps(row) for row in to_data(list(events), list[Event])]
        keys = [self._key("table", code), self._key("log", code), self._tables]
        keys.append(self._key("changed", code))
        args = [code, version, orjson.dumps(record), game, first, record.get("created", 0.0)]
        try:
            return int(self._commits.call(keys, [*args, *rows]))
        except redis.ResponseError as clash:
            if "CONFLICT" not in str(clash):
                raise
            raise StoreConflict(str(clash).removeprefix("CONFLICT ")) from None
        except redis.RedisError as down:
            raise StoreUnavailable(f"Redis: {down}") from None

    def version(self, code: str) -> int:
        """The stored version of table ``code`` (0 if it is not stored)."""
        return int(self._redis.hget(self._key("table", code), "version") or 0)

    def versions(self, codes: Sequence[str]) -> list[int]:
        """The stored version of each of ``codes`` (0: not stored), in one call."""
        if not codes:
            return []
        keys = [self._key("table", code) for code in codes]
        return [int(found) for found in self._versions(keys=keys)]

    def drop(self, code: str) -> None:
        """Forget table ``code`` (its record, events, lease and code) and announce it closed."""
        with self._redis.pipeline() as pipe:
            pipe.delete(self._key("table", code), self._key("log", code), self._key("lease", code))
            pipe.zrem(self._tables, code)
            pipe.publish(self._key("changed", code), "closed")
            pipe.execute()

    def load(self) -> list[StoredTable]:
        """Every stored table with its current game's events in order, oldest table first (a
        code reserved but never stored is skipped)."""
        found = (self.table(code) for code in self.codes())
        return [table for table in found if table is not None]

    def close(self) -> None:
        """Stop listening and close the connection pool."""
        self._closing.set()
        if self._listener is not None:
            with contextlib.suppress(redis.RedisError):
                self._redis.publish(self._wake, "stop")
            self._listener.join(2.0)
            self._pubsub.close()
        for client in (self._redis, self._listening, self._probe):
            client.close()

    # --- what several processes need -------------------------------------------------------------

    def codes(self) -> list[str]:
        """Every live table's code, oldest first."""
        return [str(code) for code in self._redis.zrange(self._tables, 0, -1)]

    def table(self, code: str, game: int = 0, first: int = 0) -> StoredTable | None:
        """Table ``code`` as stored (``None`` if it is not): its record and version, and the
        events of its current game from position ``first`` on if that game is ``game``, else
        all of them (``first`` says which: 0, or the one asked for); :class:`StoreUnavailable`
        at once while Redis is :attr:`away`."""
        self._reachable()
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hmget(self._key("table", code), "record", "version", "game")
            pipe.xrange(self._key("log", code), f"{game}-{first + 1}", f"{game}-{LAST}")
            (text, version, stored_game), entries = pipe.execute()
        if text is None:
            return None
        if int(stored_game) != game:
            first = 0
            entries = self._redis.xrange(
                self._key("log", code), f"{stored_game}-1", f"{stored_game}-{LAST}"
            )
        rows = [orjson.loads(fields["e"]) for _, fields in entries]
        events = from_data(rows, list[Event])
        return StoredTable(code, orjson.loads(text), events, int(version), first)

    def records(self) -> list[tuple[str, dict[str, Any]]]:
        """Every live table's code and record, oldest first (one round trip for the records)."""
        codes = self.codes()
        with self._redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.hget(self._key("table", code), "record")
            texts = pipe.execute()
        return [(code, orjson.loads(text)) for code, text in zip(codes, texts, strict=True) if text]

    def acquire(self, codes: Sequence[str], node: str, ms: int) -> list[str]:
        """Take the lease of each of ``codes`` that nobody holds (or ``node`` holds already: a
        copy it dropped in an outage), for ``ms`` milliseconds, as ``node``; returns the codes
        taken (one call)."""
        if not codes:
            return []
        keys = [self._key("lease", code) for code in codes]
        return [codes[i - 1] for i in self._acquire(keys=keys, args=[node, ms])]

    def renew(self, codes: Sequence[str], node: str, ms: int) -> list[str]:
        """Extend ``node``'s leases of ``codes`` by ``ms``; returns the codes ``node`` no longer
        holds (expired, or taken by another process), in one call."""
        if not codes:
            return []
        keys = [self._key("lease", code) for code in codes]
        return [codes[i - 1] for i in self._renew(keys=keys, args=[node, ms])]

    def release(self, codes: Sequence[str], node: str) -> None:
        """Give up ``node``'s leases of ``codes`` (another process may take them at once)."""
        if codes:
            self._release(keys=[self._key("lease", code) for code in codes], args=[node])

    def beat(self, node: str, ms: int) -> None:
        """Say that process ``node`` is alive for the next ``ms`` milliseconds."""
        self._redis.set(self._key("node", node), 1, px=ms)

    def alive(self, nodes: Sequence[str] | set[str]) -> set[str]:
        """Those of ``nodes`` whose heartbeat has not expired."""
        ordered = list(nodes)
        with self._redis.pipeline(transaction=False) as pipe:
            for node in ordered:
                pipe.exists(self._key("node", node))
            found = pipe.execute()
        return {node for node, there in zip(ordered, found, strict=True) if there}

    def holder(self, code: str) -> str | None:
        """The process that holds table ``code``'s lease, if any."""
        found = self._redis.get(self._key("lease", code))
        return None if found is None else str(found)

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
        self._wake = self._key("wake", node)
        self._pubsub.subscribe(self._wake)
        self._listener = threading.Thread(
            target=self._listen, args=(changed,), name="liarsdice-announcements", daemon=True
        )
        self._listener.start()

    def watch(self, code: str) -> None:
        """Receive table ``code``'s announcements from now on (idempotent);
        :class:`StoreUnavailable` if Redis cannot be reached."""
        self._reachable()
        try:
            self._pubsub.subscribe(self._key("changed", code))
        except redis.RedisError as down:
            raise StoreUnavailable(f"Redis: {down}") from None

    def unwatch(self, code: str) -> None:
        """Stop receiving table ``code``'s announcements."""
        self._pubsub.unsubscribe(self._key("changed", code))

    def _listen(self, changed: Callable[[str, str], None]) -> None:
        """The listener's loop: one blocking read per message (no polling)."""
        start = len(self._key("changed", ""))
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
