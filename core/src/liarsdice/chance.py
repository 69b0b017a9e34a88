"""Injected randomness, and a way to rig named draws in advance (scenario files, tests).

Everything random in a game — rolls, roll-offs, revolver spins — is drawn from an RNG passed in by
the caller: ``random.Random(seed)`` for tests and replays, ``secrets.SystemRandom()`` live.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from random import Random

from liarsdice.models import JSON


class RiggedRandom(Random):
    """A seeded ``Random`` whose named draws can be fixed in advance.

    ``rig("trigger", ["click", "bang"])`` makes the next two :func:`rigged` draws of stream
    ``"trigger"`` return those values; once a stream is empty, plugins draw normally again.
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._streams: dict[str, deque[JSON]] = {}

    def rig(self, stream: str, outcomes: Iterable[JSON]) -> None:
        """Queue ``outcomes`` for ``stream``, after any already queued."""
        self._streams.setdefault(stream, deque()).extend(outcomes)

    def take_rigged(self, stream: str) -> JSON | None:
        """The next queued outcome of ``stream``, or ``None`` when none is left."""
        queue = self._streams.get(stream)
        return queue.popleft() if queue else None

    def leftovers(self) -> Mapping[str, list[JSON]]:
        """Queued outcomes nobody drew, by stream (a scenario that rigs too much is suspect)."""
        return {name: list(queue) for name, queue in self._streams.items() if queue}


def rigged(rng: Random, stream: str) -> JSON | None:
    """The pre-set outcome of the next draw from ``stream``, or ``None`` to draw from ``rng``.

    Plugins call this before a named random draw, so scenario files can rig it::

        outcome = rigged(rng, "trigger")
        hit = outcome == "bang" if outcome is not None else rng.randrange(6) < bullets
    """
    take = getattr(rng, "take_rigged", None)
    return take(stream) if take is not None else None
