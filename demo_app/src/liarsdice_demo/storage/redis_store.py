"""Live tables kept in Redis, shared by every process and host that uses the same server.

Contract: the contract of :class:`~liarsdice_demo.storage.live_store.LiveStore` (``reserve``, ``commit``,
``load``, ``drop``, ``close``), with these keys (``prefix`` defaults to ``liarsdice:``):

- ``{prefix}tables``: a sorted set of every live table's code, scored by its creation time.
  :meth:`RedisStore.reserve` adds a code only if it is not there, so codes are unique across
  processes and hosts;
- ``{prefix}table:{code}``: a hash with the table's ``record`` (JSON), its ``version`` (commits
  so far) and its current ``game`` number;
- ``{prefix}log:{code}``: a stream of the current game's events, the event at position ``i`` of
  game ``g`` under the entry id ``g-(i+1)`` (field ``e``: the event as JSON);
- ``{prefix}lease:{code}`` and ``{prefix}node:{node}``: who drives each table, and each
  process's heartbeat (:attr:`RedisStore.leases`, :mod:`liarsdice_demo.storage.redis_leases`);
- the channels ``{prefix}changed:{code}``, where each commit publishes the change and
  :meth:`RedisStore.drop` publishes ``closed``, and ``{prefix}wake:{node}``
  (:attr:`RedisStore.changes`, :mod:`liarsdice_demo.storage.redis_changes`).

:meth:`RedisStore.commit` is one Lua script, so it is atomic: it checks the version, writes, and
publishes. Two processes changing one table at once are ordered by Redis: one commit succeeds, the
other raises :class:`~liarsdice_demo.storage.live_store.StoreConflict` and writes nothing.

**Outages.** Every command waits at most :data:`TIMEOUT_SECONDS` for Redis (``socket_timeout``
and ``socket_connect_timeout`` in the URL's query set others), the listener's subscription
excepted (it waits for announcements). :meth:`RedisStore.ping` asks whether Redis answers within
:data:`PROBE_TIMEOUT`; while :attr:`RedisStore.away` is set (by :mod:`liarsdice_demo.storage.outage`,
which pings), :meth:`~RedisStore.commit`, :meth:`~RedisStore.table` and
:meth:`.RedisChanges.watch` raise :class:`~liarsdice_demo.storage.live_store.StoreUnavailable`
at once, without waiting on Redis.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import orjson
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from liarsdice.events import Event
from liarsdice.serialization import from_data, to_data
from liarsdice_demo.storage.batcher import Batcher
from liarsdice_demo.storage.live_store import StoreConflict, StoredTable, StoreUnavailable
from liarsdice_demo.storage.redis_changes import RedisChanges
from liarsdice_demo.storage.redis_leases import RedisLeases

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

VERSIONS = """
local found = {}
for i, key in ipairs(KEYS) do found[i] = redis.call('HGET', key, 'version') or '0' end
return found
"""
"""The version of many tables in one call (once per lease tick)."""

LAST = "18446744073709551615"
"""The highest sequence number of a stream entry id."""

TIMEOUT_SECONDS = 2.0
"""How long a command waits for Redis before it fails (redis-py's default is 5 s)."""
PROBE_TIMEOUT = 1.0
"""How long :meth:`RedisStore.ping` waits for an answer."""


class RedisStore:
    """The live tables of one Redis database (``url``: ``redis://host:port/db``); its
    :attr:`leases` and :attr:`changes` share its connection and ``prefix``."""

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
        self._versions = self._redis.register_script(VERSIONS)
        self.leases = RedisLeases(self._redis, prefix)
        """Who drives each table, and which processes are alive."""
        self.changes = RedisChanges(self._redis, self._listening, prefix, self.away)
        """The tables' change announcements, and this process's listener."""

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
        """As :meth:`liarsdice_demo.storage.live_store.LiveStore.commit`, and announced on the table's
        channel; one atomic script, sent with the commits of other tables that fall due at the
        same time (:mod:`liarsdice_demo.storage.batcher`). :class:`StoreUnavailable` if Redis cannot be
        reached."""
        self._reachable()
        rows = [orjson.dumps(row) for row in to_data(list(events), list[Event])]
        keys = [self._key("table", code), self._key("log", code), self._tables]
        keys.append(self.changes.channel(code))
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
            pipe.delete(self._key("table", code), self._key("log", code), self.leases.key(code))
            pipe.zrem(self._tables, code)
            pipe.publish(self.changes.channel(code), "closed")
            pipe.execute()

    def load(self) -> list[StoredTable]:
        """Every stored table with its current game's events in order, oldest table first (a
        code reserved but never stored is skipped)."""
        found = (self.table(code) for code in self.codes())
        return [table for table in found if table is not None]

    def close(self) -> None:
        """Stop listening and close the connection pools."""
        self.changes.close()
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
