"""Randomness made explicit: a ``Random`` that plays a script of outcomes and asks for the next.

The engine and the plugins draw everything random from the ``Random`` they are given. A
:class:`ScriptedRandom` answers each draw from a script of outcome indices; when the script runs
out it raises :class:`ChanceNeeded`, naming the finite outcomes of the draw asked for and their
probabilities. The bridge replays a step with a longer script each time, and in between the game
is at a chance node over those outcomes. Finite draws: ``randrange``, ``randint``, ``choice``,
``choices`` (``k`` single draws, weights allowed), ``shuffle`` and ``sample`` (one index draw
per pick), ``getrandbits``; ``random()`` and everything built on it (``uniform``, ``gauss``...)
has infinitely many outcomes and raises :class:`DrawRefused`, as does a draw with more outcomes
or a step with more draws than the bounds given. A ``ScriptedRandom`` has no rigged streams:
:func:`liarsdice.chance.rigged` answers ``None``, so plugins draw from it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from random import Random
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


class ChanceNeeded(Exception):
    """The script ran out at a draw of ``len(probabilities)`` outcomes: outcome ``i`` has
    probability ``probabilities[i]`` and reads ``labels[i]``."""

    def __init__(self, probabilities: tuple[float, ...], labels: tuple[str, ...]) -> None:
        super().__init__(f"a draw of {len(probabilities)} outcomes")
        self.probabilities = probabilities
        self.labels = labels


class DrawRefused(Exception):
    """A draw that cannot be a chance node: continuous, or beyond the bounds; the message says
    which."""


def requested(error: BaseException) -> ChanceNeeded | DrawRefused | None:
    """The :class:`ChanceNeeded` or :class:`DrawRefused` behind ``error``: itself, or the cause
    it was chained from (a hook that drew is reported as a ``HookFailed`` caused by it)."""
    found: BaseException | None = error
    while found is not None:
        if isinstance(found, ChanceNeeded | DrawRefused):
            return found
        found = found.__cause__
    return None


def _uniform(count: int) -> tuple[float, ...]:
    return (1.0 / count,) * count


class ScriptedRandom(Random):
    """A ``Random`` whose draws are the outcome indices of ``script``, in order; a draw past its
    end raises :class:`ChanceNeeded`. A draw with one outcome takes nothing from the script. A
    draw of more than ``max_outcomes`` outcomes, the draw after ``max_draws`` draws, and
    ``random()`` raise :class:`DrawRefused`."""

    def __init__(self, script: Sequence[int], *, max_outcomes: int, max_draws: int) -> None:
        super().__init__(0)
        self._script = tuple(script)
        self._max_outcomes = max_outcomes
        self._max_draws = max_draws
        self.drawn = 0
        """How many outcomes of the script have been drawn."""

    def _draw(self, probabilities: tuple[float, ...], labels: tuple[str, ...]) -> int:
        if len(probabilities) > self._max_outcomes:
            raise DrawRefused(
                f"a draw of {len(probabilities)} outcomes, more than the {self._max_outcomes} "
                "a chance node may have here"
            )
        if self.drawn < len(self._script):
            self.drawn += 1
            return self._script[self.drawn - 1]
        if self.drawn >= self._max_draws:
            raise DrawRefused(f"more than {self._max_draws} draws in one step")
        raise ChanceNeeded(probabilities, labels)

    def _pick(self, values: SupportsLenAndGetItem[object]) -> int:
        """The index of one of ``values``, each alike."""
        count = len(values)
        if count == 1:
            return 0
        labels = tuple(str(values[index]) for index in range(count))
        return self._draw(_uniform(count), labels)

    def _randbelow(self, n: int) -> int:  # what shuffle and sample draw with
        return self._pick(range(n))

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        values = range(start) if stop is None else range(start, stop, step)
        if not values:
            raise ValueError(f"empty range for randrange({start}, {stop}, {step})")
        return values[self._pick(values)]

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        if not len(seq):
            raise IndexError("cannot choose from an empty sequence")
        return seq[self._pick(seq)]

    def choices(
        self,
        population: SupportsLenAndGetItem[T],
        weights: Sequence[float | Fraction] | None = None,
        *,
        cum_weights: Sequence[float | Fraction] | None = None,
        k: int = 1,
    ) -> list[T]:
        count = len(population)
        if cum_weights is not None:
            weights = [b - a for a, b in itertools.pairwise([0, *cum_weights])]
        if weights is None:
            probabilities = _uniform(count)
        else:
            if len(weights) != count:
                raise ValueError("the number of weights does not match the population")
            total = float(sum(weights))
            probabilities = tuple(float(weight) / total for weight in weights)
        labels = tuple(str(population[index]) for index in range(count))
        if count == 1:
            return [population[0]] * k
        return [population[self._draw(probabilities, labels)] for _draw in range(k)]

    def getrandbits(self, k: int, /) -> int:
        return self._pick(range(2**k))

    def random(self) -> float:
        raise DrawRefused(
            "random() draws from infinitely many outcomes, which no chance node can list "
            "(the bridge takes randrange, randint, choice, choices, shuffle, sample, getrandbits)"
        )
