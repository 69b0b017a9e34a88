"""Many games on one core, a local process pool or a Dask cluster, with the same results.

:func:`play` maps a game function over the game numbers ``0 .. games - 1`` and yields its results
in game order, whatever the backend: this process (``workers=1``), a
:class:`~concurrent.futures.ProcessPoolExecutor` of ``workers`` processes, or the Dask cluster whose
scheduler is at ``dask`` (needs ``pip install 'liarsdice-rules[dask]'``, and liarsdice with the
ruleset's plugins installed on every worker). Other processes get games in chunks of up to
:data:`CHUNK`, and the ruleset as :meth:`~liarsdice.Ruleset.to_data`, rebuilt once per process.

A game function takes ``(rules, game number)``, must pickle (a module-level function or a
:func:`functools.partial` of one) and should draw its randomness from :func:`game_seed`, so that a
game plays the same wherever it runs.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from liarsdice.ruleset import Ruleset

R = TypeVar("R")
CHUNK = 250
"""The most games in one task sent to another process."""


class BackendError(RuntimeError):
    """The Dask cluster cannot be used: ``distributed`` is not installed, or no scheduler answers."""


def game_seed(seed: int, *path: int) -> int:
    """The seed of game ``path[0]`` of a run seeded ``seed`` (further numbers pick a stream within
    the game, such as a seat's): the first 8 bytes of the BLAKE2b digest of ``"seed:game[:seat]"``
    as a big-endian integer. It depends on nothing else, so neither does the game."""
    text = ":".join(str(part) for part in (seed, *path))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def play(
    rules: Ruleset,
    game: Callable[[Ruleset, int], R],
    games: int,
    *,
    workers: int = 1,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[R]:
    """``game(rules, i)`` for ``i`` in ``range(games)``, in that order, on the chosen backend.

    ``progress(n)`` is told as each game (in this process) or chunk of ``n`` games is done. An
    exception a game raises comes out here, the first game's first. Raises :class:`ValueError`
    for ``workers < 1`` or ``workers > 1`` with ``dask``, :class:`BackendError` when Dask fails.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if dask is not None and workers > 1:
        raise ValueError("choose a process pool (workers > 1) or a Dask cluster, not both")
    if dask is not None:
        return _on_dask(rules, game, games, dask, progress)
    if workers > 1:
        return _on_pool(rules, game, games, workers, progress)
    return _here(rules, game, games, progress)


def _here(
    rules: Ruleset,
    game: Callable[[Ruleset, int], R],
    games: int,
    progress: Callable[[int], None] | None,
) -> Iterator[R]:
    for number in range(games):
        yield game(rules, number)
        if progress is not None:
            progress(1)


def _chunks(games: int, slots: int) -> list[tuple[int, int]]:
    """``(start, stop)`` ranges covering the games: at least 4 per slot when there are enough
    games to go round, none over :data:`CHUNK`."""
    size = max(1, min(CHUNK, math.ceil(games / (4 * slots))))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


@functools.lru_cache(maxsize=4)
def _rebuilt(data: str) -> Ruleset:
    return Ruleset.from_data(json.loads(data))


def _play_chunk(data: str, game: Callable[[Ruleset, int], R], start: int, stop: int) -> list[R]:
    """Games ``start .. stop - 1`` in a worker, with the ruleset ``data`` built once per process."""
    rules = _rebuilt(data)
    return [game(rules, number) for number in range(start, stop)]


def _in_order(
    chunks: list[tuple[int, int]], tasks: list[Any], progress: Callable[[int], None] | None
) -> Iterator[Any]:
    """The results of the chunks' tasks (futures), chunk by chunk, telling ``progress``."""
    for (start, stop), task in zip(chunks, tasks, strict=True):
        yield from task.result()
        if progress is not None:
            progress(stop - start)


def _on_pool(
    rules: Ruleset,
    game: Callable[[Ruleset, int], R],
    games: int,
    workers: int,
    progress: Callable[[int], None] | None,
) -> Iterator[R]:
    data = json.dumps(rules.to_data(), sort_keys=True)
    pool = ProcessPoolExecutor(workers)
    try:
        chunks = _chunks(games, workers)
        tasks = [pool.submit(_play_chunk, data, game, start, stop) for start, stop in chunks]
        yield from _in_order(chunks, tasks, progress)
    finally:
        pool.shutdown(cancel_futures=True)


def _on_dask(
    rules: Ruleset,
    game: Callable[[Ruleset, int], R],
    games: int,
    address: str,
    progress: Callable[[int], None] | None,
) -> Iterator[R]:
    try:
        from distributed import Client
    except ImportError:
        raise BackendError(
            "running games on Dask needs distributed: pip install 'liarsdice-rules[dask]'"
        ) from None
    try:
        client: Any = Client(address, set_as_default=False, timeout=10)  # type: ignore[no-untyped-call]
    except OSError as error:
        raise BackendError(f"no Dask scheduler answers at {address}: {error}") from None
    data = json.dumps(rules.to_data(), sort_keys=True)
    try:
        chunks = _chunks(games, max(1, sum(client.nthreads().values())))
        tasks = [
            client.submit(_play_chunk, data, game, start, stop, pure=False)
            for start, stop in chunks
        ]
        yield from _in_order(chunks, tasks, progress)
    finally:
        client.close()
