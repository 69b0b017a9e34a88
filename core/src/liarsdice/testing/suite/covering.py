"""Covering arrays under a constraint oracle: rows that between them hold every valid t-tuple.

A :class:`Factor` is a dimension with values; a factor may *require* another factor's value (an
option takes a value only with its variant in; otherwise it takes none). A *t-tuple* fixes t
factors to values, and is well formed when it gives no factor a value its requirement rules out.
A *row* gives every factor whose requirement holds a value, and covers each tuple it agrees with.

:func:`cover` grows rows greedily, AETG-style: each row starts from the first uncovered tuple;
the other factors are then set one at a time, in a random order, each to the value that covers
the most uncovered tuples together with the values already set (ties broken at random), never to
a value that forms a pair known to be refused; of several such tries, the row that covers most
and that the oracle accepts is kept. A tuple no grown row could hold is handed to the oracle's
:meth:`~Oracle.complete`, which builds the smallest row holding it, or says why none exists: the
tuple is then *uncoverable*, reported with that reason, and for pairs remembered so that later
rows avoid it. Uncovered tuples are kept as a boolean array over value ids (numpy), so a gain is
one array sum.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from random import Random
from typing import Protocol

import attrs
import numpy as np
import numpy.typing as npt

from liarsdice.models import JSON

STRENGTHS = (1, 2, 3)
"""The strengths :func:`cover` builds (the uncovered tuples are a dense array of ``values**t``)."""

Row = dict[str, JSON]
"""A configuration: factor name -> value, for every factor whose requirement holds."""

Assignment = tuple[tuple[str, JSON], ...]
"""A t-tuple: (factor name, value) pairs, in factor order."""


@attrs.frozen
class Factor:
    """A dimension of the configurations: its values, and the (factor, value) it requires to take
    one (``None``: always takes one). A required factor must itself require nothing."""

    name: str
    values: tuple[JSON, ...]
    requires: tuple[str, JSON] | None = None


class Oracle(Protocol):
    """What decides which rows exist."""

    def refusal(self, row: Row) -> str | None:
        """Why ``row`` is refused, or ``None`` when it is accepted."""

    def complete(self, fixed: Assignment) -> Row | str:
        """A row the oracle accepts that holds ``fixed``, or the reason none could be found."""


@attrs.frozen
class Coverage:
    """What :func:`cover` built: the rows, how many well-formed t-tuples there are, how many the
    rows hold, and those none could, each with the reason."""

    strength: int
    rows: tuple[Row, ...]
    tuples: int
    covered: int
    uncoverable: tuple[tuple[Assignment, str], ...]


@attrs.define
class _Space:
    """The factors' values numbered: value id -> (factor, value), the ids of each factor, and the
    id each value requires (-1: none)."""

    factors: Sequence[Factor]
    factor_of: list[int] = attrs.Factory(list)
    value_of: list[JSON] = attrs.Factory(list)
    ids: list[list[int]] = attrs.Factory(list)
    needs: list[int] = attrs.Factory(list)

    def __attrs_post_init__(self) -> None:
        index = {factor.name: number for number, factor in enumerate(self.factors)}
        for number, factor in enumerate(self.factors):
            self.ids.append(
                list(range(len(self.factor_of), len(self.factor_of) + len(factor.values)))
            )
            self.factor_of += [number] * len(factor.values)
            self.value_of += list(factor.values)
        for factor in self.factors:
            need = -1
            if factor.requires is not None:
                required, value = factor.requires
                owner = self.factors[index[required]]
                if owner.requires is not None:
                    raise ValueError(f"{factor.name} requires {required}, which requires another")
                need = self.ids[index[required]][owner.values.index(value)]
            self.needs += [need] * len(factor.values)

    @property
    def size(self) -> int:
        return len(self.factor_of)

    def assignment(self, ids: Sequence[int]) -> Assignment:
        return tuple((self.factors[self.factor_of[i]].name, self.value_of[i]) for i in sorted(ids))

    def clashes(self, a: int, b: int) -> bool:
        """``a`` and ``b`` cannot be in one row: the same factor, or one's requirement ruled out
        by the other."""
        fa, fb = self.factor_of[a], self.factor_of[b]
        if fa == fb:
            return True
        need_a, need_b = self.needs[a], self.needs[b]
        return (need_a >= 0 and self.factor_of[need_a] == fb and need_a != b) or (
            need_b >= 0 and self.factor_of[need_b] == fa and need_b != a
        )


def _uncovered(space: _Space, strength: int) -> npt.NDArray[np.bool_]:
    """Every well-formed t-tuple, as a symmetric boolean array over value ids."""
    size = space.size
    found = np.zeros((size,) * strength, dtype=bool)
    for chosen in itertools.combinations(range(len(space.factors)), strength):
        found[np.ix_(*(space.ids[f] for f in chosen))] = True
    for axes in itertools.permutations(range(strength)):
        found |= found.transpose(axes)
    if strength > 1:
        for a in range(size):
            for b in range(size):
                if a != b and space.factor_of[a] != space.factor_of[b] and space.clashes(a, b):
                    _forget(found, (a, b))
    return found


def _forget(array: npt.NDArray[np.bool_], members: Sequence[int]) -> None:
    """Mark every tuple holding all of ``members`` (two or more ids) as not wanted."""
    strength = array.ndim
    for places in itertools.permutations(range(strength), len(members)):
        index: list[int | slice] = [slice(None)] * strength
        for place, member in zip(places, members, strict=True):
            index[place] = member
        array[tuple(index)] = False


def _count(array: npt.NDArray[np.bool_], ids: Sequence[int]) -> int:
    """How many tuples of ``array`` lie within ``ids`` (each counted once)."""
    block = array[np.ix_(*([list(ids)] * array.ndim))]
    return int(block.sum()) // _orders(array.ndim)


def _orders(strength: int) -> int:
    return int(np.prod(range(1, strength + 1)))


def _gain(array: npt.NDArray[np.bool_], value: int, chosen: Sequence[int]) -> int:
    """Uncovered tuples holding ``value`` and otherwise within ``chosen``."""
    if array.ndim == 1:
        return int(array[value])
    if not chosen:
        return 0
    block = array[value][np.ix_(*([list(chosen)] * (array.ndim - 1)))]
    return int(block.sum()) // _orders(array.ndim - 1)


def _first(array: npt.NDArray[np.bool_]) -> tuple[int, ...] | None:
    """The first tuple still marked in ``array`` (ids ascending: the array is symmetric, so the
    first marked index in C order is the sorted one), or ``None``."""
    flat = array.reshape(-1)
    at = int(flat.argmax())
    if not flat[at]:
        return None
    return tuple(int(i) for i in np.unravel_index(at, array.shape))


def cover(
    factors: Sequence[Factor],
    strength: int,
    oracle: Oracle,
    rng: Random,
    *,
    tries: int = 4,
    avoid: Sequence[Assignment] = (),
) -> Coverage:
    """Rows the oracle accepts that hold every well-formed ``strength``-tuple of ``factors`` that
    any accepted row can hold; the others are reported uncoverable. ``avoid`` lists pairs known to
    be refused, which rows never hold: tuples holding one are not sought, and not reported."""
    if strength not in STRENGTHS:
        raise ValueError(f"covering strength must be one of {STRENGTHS}, not {strength}")
    space = _Space(factors)
    wanted = _uncovered(space, strength)
    total = int(wanted.sum()) // _orders(strength)
    held = np.zeros_like(wanted)
    bad = np.zeros((space.size, space.size), dtype=bool)
    position = {
        (factor.name, value): index
        for factor, ids in zip(factors, space.ids, strict=True)
        for value, index in zip(factor.values, ids, strict=True)
    }
    for pair in avoid:
        a, b = (position[member] for member in pair)
        bad[a, b] = bad[b, a] = True
        if strength > 1:
            _forget(wanted, (a, b))
    uncoverable: list[tuple[Assignment, str]] = []
    rows: list[Row] = []
    while (seed := _first(wanted)) is not None:
        best: tuple[int, list[int]] | None = None
        for _ in range(tries):
            ids = _grow(space, wanted, bad, seed, rng)
            gain = _count(wanted, ids)
            if (best is None or gain > best[0]) and oracle.refusal(_row(space, ids)) is None:
                best = (gain, ids)
        if best is None:
            completed = oracle.complete(space.assignment(seed))
            if isinstance(completed, str):
                uncoverable.append((space.assignment(seed), completed))
                _forget(wanted, seed)
                if strength == 2:
                    bad[seed[0], seed[1]] = bad[seed[1], seed[0]] = True
                continue
            best = (0, [position[(name, value)] for name, value in completed.items()])
        rows.append(_row(space, best[1]))
        _mark(wanted, best[1], False)
        _mark(held, best[1], True)
        if wanted[seed]:  # a completion that does not hold its tuple: never ask again
            uncoverable.append((space.assignment(seed), "the completion does not hold it"))
            _forget(wanted, seed)
    covered = int((held & _uncovered(space, strength)).sum()) // _orders(strength)
    return Coverage(strength, tuple(rows), total, covered, tuple(uncoverable))


def _mark(array: npt.NDArray[np.bool_], ids: Sequence[int], value: bool) -> None:
    """Set every tuple within ``ids`` to ``value``."""
    array[np.ix_(*([list(ids)] * array.ndim))] = value


def _row(space: _Space, ids: Sequence[int]) -> Row:
    return {space.factors[space.factor_of[i]].name: space.value_of[i] for i in sorted(ids)}


def _grow(
    space: _Space,
    wanted: npt.NDArray[np.bool_],
    bad: npt.NDArray[np.bool_],
    seed: Sequence[int],
    rng: Random,
) -> list[int]:
    """One greedy row holding ``seed``: its requirements first, then each factor without a
    requirement, then each whose requirement holds, in random order, at its best value."""
    chosen = list(seed)
    taken = {space.factor_of[i] for i in chosen}
    for member in seed:
        need = space.needs[member]
        if need >= 0 and space.factor_of[need] not in taken:
            chosen.append(need)
            taken.add(space.factor_of[need])
    free = [f for f in range(len(space.factors)) if f not in taken]
    plain = [f for f in free if space.needs[space.ids[f][0]] < 0]
    dependent = [f for f in free if f not in plain]
    rng.shuffle(plain)
    rng.shuffle(dependent)
    for factor in plain + dependent:
        need = space.needs[space.ids[factor][0]]
        if need >= 0 and need not in chosen:
            continue  # its requirement does not hold: it takes no value
        options = [v for v in space.ids[factor] if not bad[v, chosen].any()] or space.ids[factor]
        gains = [(_gain(wanted, v, chosen), rng.random(), v) for v in options]
        chosen.append(max(gains)[2])
    return chosen
