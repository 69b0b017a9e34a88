"""Randomness the solver can follow: integer draws enumerated with their chances, others refused.

The engine passes its ``random.Random`` to the hooks that may draw. The solver passes a
:class:`Scripted` one instead: in a round's moves it refuses every draw (a reroll under the cup is
a chance event no player sees, which the public tree cannot hold), and where a call settles the
round it answers each integer draw (``randrange``, ``randint``, ``choice``, ``shuffle``,
``sample``) from a script, so that :func:`every_draw` can run a settlement once per sequence of
answers and give each result with its chance (the revolver's pull: ``randrange(chambers)``).
A draw of a real number (``random()``, ``choices``, ``uniform``...) has no finite list of
outcomes and is refused everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import TypeVar

Result = TypeVar("Result")


class Drawn(Exception):
    """A plugin drew at random where the solver cannot follow; the message says what it drew."""


class Scripted(Random):
    """A ``Random`` whose integer draws answer ``script`` in order, then 0; with ``strict`` every
    draw raises :class:`Drawn`. ``ranges`` records how many outcomes each draw had, ``values``
    what it was answered."""

    def __init__(self, script: Sequence[int] = (), *, strict: bool = False) -> None:
        super().__init__(0)
        self.script = tuple(script)
        self.strict = strict
        self.ranges: list[int] = []
        self.values: list[int] = []

    def _randbelow(self, n: int) -> int:
        """The next integer in ``range(n)``: what the script says (every integer draw of
        ``Random`` comes here)."""
        if self.strict:
            raise Drawn(f"an integer below {n}")
        index = len(self.values)
        value = self.script[index] if index < len(self.script) else 0
        if not 0 <= value < n:
            raise Drawn(f"an integer below {n}, but a draw of the same call had another range")
        self.ranges.append(n)
        self.values.append(value)
        return value

    def random(self) -> float:
        raise Drawn("a real number")

    def getrandbits(self, k: int) -> int:
        raise Drawn(f"{k} random bits")

    @property
    def chance(self) -> float:
        """The chance of the sequence of answers given so far."""
        chance = 1.0
        for n in self.ranges:
            chance /= n
        return chance


def every_draw(run: Callable[[Random], Result], limit: int) -> list[tuple[Result, float]]:
    """``run``'s result for every sequence of answers to its integer draws, with its chance
    (one result of chance 1 when it draws nothing). ``run`` must draw the same way for the same
    answers. More than ``limit`` sequences raise :class:`Drawn`."""
    found: list[tuple[Result, float]] = []
    pending: list[tuple[int, ...]] = [()]
    while pending:
        script = pending.pop()
        rng = Scripted(script)
        found.append((run(rng), rng.chance))
        if len(found) > limit:
            raise Drawn(f"more than {limit} sequences of integers")
        for depth in range(len(script), len(rng.ranges)):
            pending += [(*rng.values[:depth], value) for value in range(1, rng.ranges[depth])]
    return found


def drawn_cause(error: BaseException) -> Drawn | None:
    """The :class:`Drawn` behind ``error`` (the engine wraps what a hook raised), or ``None``."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, Drawn):
            return seen
        seen = seen.__cause__
    return None
