"""Who drives each shared table, and which processes are alive, kept in Redis.

Contract, with the keys of :mod:`liarsdice_demo.storage.redis_store` (same ``prefix``):

- ``{prefix}lease:{code}``: the id of the process that drives table ``code`` (its clock and
  bots), with an expiry (:meth:`RedisLeases.acquire`, :meth:`RedisLeases.renew`,
  :meth:`RedisLeases.release`); each of these handles many tables in one call, so a lease tick
  costs one short command per job, whatever the number of tables;
- ``{prefix}node:{node}``: a process's heartbeat, with an expiry (:meth:`RedisLeases.beat`,
  :meth:`RedisLeases.alive`).
"""

from __future__ import annotations

from collections.abc import Sequence

import redis

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


class RedisLeases:
    """The table leases and process heartbeats of one Redis client (``client``: decoding
    responses) under ``prefix``."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self._redis = client
        self._prefix = prefix
        self._acquire = client.register_script(ACQUIRE)
        self._renew = client.register_script(RENEW)
        self._release = client.register_script(RELEASE)

    def key(self, code: str) -> str:
        """The key of table ``code``'s lease."""
        return f"{self._prefix}lease:{code}"

    def acquire(self, codes: Sequence[str], node: str, ms: int) -> list[str]:
        """Take the lease of each of ``codes`` that nobody holds (or ``node`` holds already: a
        copy it dropped in an outage), for ``ms`` milliseconds, as ``node``; returns the codes
        taken (one call)."""
        if not codes:
            return []
        keys = [self.key(code) for code in codes]
        return [codes[i - 1] for i in self._acquire(keys=keys, args=[node, ms])]

    def renew(self, codes: Sequence[str], node: str, ms: int) -> list[str]:
        """Extend ``node``'s leases of ``codes`` by ``ms``; returns the codes ``node`` no longer
        holds (expired, or taken by another process), in one call."""
        if not codes:
            return []
        keys = [self.key(code) for code in codes]
        return [codes[i - 1] for i in self._renew(keys=keys, args=[node, ms])]

    def release(self, codes: Sequence[str], node: str) -> None:
        """Give up ``node``'s leases of ``codes`` (another process may take them at once)."""
        if codes:
            self._release(keys=[self.key(code) for code in codes], args=[node])

    def holder(self, code: str) -> str | None:
        """The process that holds table ``code``'s lease, if any."""
        found = self._redis.get(self.key(code))
        return None if found is None else str(found)

    def beat(self, node: str, ms: int) -> None:
        """Say that process ``node`` is alive for the next ``ms`` milliseconds."""
        self._redis.set(self._node(node), 1, px=ms)

    def alive(self, nodes: Sequence[str] | set[str]) -> set[str]:
        """Those of ``nodes`` whose heartbeat has not expired."""
        ordered = list(nodes)
        with self._redis.pipeline(transaction=False) as pipe:
            for node in ordered:
                pipe.exists(self._node(node))
            found = pipe.execute()
        return {node for node, there in zip(ordered, found, strict=True) if there}

    def _node(self, node: str) -> str:
        return f"{self._prefix}node:{node}"
