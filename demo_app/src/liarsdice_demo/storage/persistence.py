"""Whether the shared Redis keeps what it is told: the check made before a server uses it.

Contract: :func:`require_aof` asks the Redis of ``REDIS_URL`` whether it keeps an append-only file
(``CONFIG GET appendonly``, or ``INFO persistence``'s ``aof_enabled`` where ``CONFIG`` is not
allowed, as on managed services). Without one, a restart of ``redis-server`` (a crash, ``kill
-9``, a reboot) loses every live table: players reconnect to 4404. So it raises ``RuntimeError``
naming the fix (``redis-server --appendonly yes``) unless ``allow`` is true
(``ALLOW_REDIS_WITHOUT_AOF``, ``--allow-redis-without-aof``), which logs a warning instead.
``appendfsync no`` (the system decides when the file reaches the disk) is allowed with a warning.
"""

from __future__ import annotations

import logging

from liarsdice_demo.storage.db import shown

log = logging.getLogger(__name__)

FIX = "start it with `redis-server --appendonly yes` (or `CONFIG SET appendonly yes`)"
ALLOW = "--allow-redis-without-aof or ALLOW_REDIS_WITHOUT_AOF"


def aof_enabled(url: str) -> tuple[bool | None, str | None]:
    """Whether the Redis at ``url`` keeps an append-only file (``None``: it will not say), and
    its ``appendfsync`` where it says; ``RuntimeError`` if it cannot be reached."""
    import redis  # here: importing redis-py costs about 0.4 s, and the embedded mode needs none

    client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=5)
    try:
        try:
            found = client.config_get("append*")
            return found.get("appendonly") == "yes", found.get("appendfsync")
        except redis.ResponseError:  # CONFIG renamed or refused (managed Redis)
            info = client.info("persistence")
            enabled = info.get("aof_enabled")
            return (None if enabled is None else bool(int(enabled))), None
    except redis.ResponseError:
        return None, None
    except redis.RedisError as problem:
        raise RuntimeError(f"cannot reach Redis at {url.split('@')[-1]}: {problem}") from None
    finally:
        client.close()


def require_aof(url: str, allow: bool = False) -> None:
    """Refuse (``RuntimeError``) a Redis at ``url`` that keeps no append-only file, unless
    ``allow``: then warn (see the module doc)."""
    enabled, fsync = aof_enabled(url)
    where = shown(url)
    if enabled:
        if fsync == "no":
            log.warning(
                "Redis at %s has appendfsync no: a crash of its host may lose the last 30 s"
                " of every live table (appendfsync everysec loses at most 1 s)",
                where,
            )
        return
    said = "keeps no append-only file" if enabled is False else "does not say whether it keeps"
    if enabled is None:
        said += " an append-only file (CONFIG and INFO refused)"
    problem = (
        f"Redis at {where} {said}: a restart of redis-server would lose every live game; {FIX}"
    )
    if not allow:
        raise RuntimeError(f"{problem}, or run anyway with {ALLOW}")
    log.warning("%s (running anyway: %s)", problem, ALLOW)
