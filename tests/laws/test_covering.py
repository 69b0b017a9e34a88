"""Covering arrays under a constraint oracle (liarsdice.testing.suite.covering), on a small made-up
space whose refusals are known: every well-formed tuple is held by an accepted row or reported
with its reason, and no row holds what the oracle refuses."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from random import Random

import pytest

from liarsdice.testing.suite.covering import Assignment, Factor, Row, cover

FACTORS = [
    Factor("a", (False, True)),
    Factor("b", (False, True)),
    Factor("c", (0, 1, 2)),
    Factor("a.x", (1, 2, 3), requires=("a", True)),
    Factor("b.y", ("p", "q"), requires=("b", True)),
]


def refused(row: Row) -> str | None:
    """``a`` and ``b`` conflict; ``a.x=3`` is refused beside ``c=2``; ``a.x=2`` beside ``b.y=q``
    and ``c=1`` (a refusal only three values make)."""
    if row.get("a") and row.get("b"):
        return "a conflicts with b"
    if row.get("a.x") == 3 and row.get("c") == 2:
        return "a.x=3 needs c below 2"
    if row.get("a.x") == 2 and row.get("b.y") == "q" and row.get("c") == 1:
        return "never all three"
    return None


class Oracle:
    """The made-up constraint: rows are refused by :func:`refused`; a tuple is completed by trying
    every row that holds it."""

    asked = 0

    def refusal(self, row: Row) -> str | None:
        self.asked += 1
        return refused(row)

    def complete(self, fixed: Assignment) -> Row | str:
        first = None
        for row in rows():
            if all(row.get(name, object()) == value for name, value in fixed):
                reason = refused(row)
                if reason is None:
                    return row
                first = first or reason
        return first or "no row holds it"


def rows() -> Iterator[Row]:
    """Every row of the space (an option only beside its variant in)."""
    for a, b, c in itertools.product((False, True), (False, True), (0, 1, 2)):
        for x in (1, 2, 3) if a else (None,):
            for y in ("p", "q") if b else (None,):
                row: Row = {"a": a, "b": b, "c": c}
                if x is not None:
                    row["a.x"] = x
                if y is not None:
                    row["b.y"] = y
                yield row


def well_formed(strength: int) -> Iterator[Assignment]:
    values = [(f.name, v) for f in FACTORS for v in f.values]
    needs = {f.name: f.requires for f in FACTORS}
    for chosen in itertools.combinations(values, strength):
        names = [name for name, _ in chosen]
        if len(set(names)) < strength:
            continue
        given = dict(chosen)
        if any(
            needs[name] is not None and needs[name][0] in given and given[needs[name][0]] is False
            for name in names
        ):
            continue
        yield chosen


def holds(row: Row, tuple_: Assignment) -> bool:
    return all(row.get(name, object()) == value for name, value in tuple_)


def possible(tuple_: Assignment) -> bool:
    return any(holds(row, tuple_) and refused(row) is None for row in rows())


@pytest.mark.parametrize("strength", [1, 2, 3])
def test_every_tuple_some_accepted_row_holds_is_covered_and_the_rest_reported(
    strength: int,
) -> None:
    found = cover(FACTORS, strength, Oracle(), Random(1))
    assert all(refused(row) is None for row in found.rows)
    reported = {tuple_ for tuple_, _ in found.uncoverable}
    for tuple_ in well_formed(strength):
        if possible(tuple_):
            assert any(holds(row, tuple_) for row in found.rows), tuple_
        else:
            assert tuple_ in reported, tuple_
    assert found.tuples == len(list(well_formed(strength)))
    assert found.covered + len(reported) == found.tuples


def test_uncoverable_pairs_come_with_the_oracle_s_reason() -> None:
    found = cover(FACTORS, 2, Oracle(), Random(0))
    reasons = dict(found.uncoverable)
    assert reasons[(("a", True), ("b", True))] == "a conflicts with b"
    assert reasons[(("c", 2), ("a.x", 3))] == "a.x=3 needs c below 2"
    assert (("a.x", 1), ("b.y", "p")) in reasons  # a.x needs a, b.y needs b: they conflict


def test_an_option_takes_no_value_when_its_variant_is_out() -> None:
    found = cover(FACTORS, 2, Oracle(), Random(2))
    for row in found.rows:
        assert ("a.x" in row) == row["a"] and ("b.y" in row) == row["b"]


def test_a_pair_to_avoid_is_neither_sought_nor_held() -> None:
    avoid = ((("c", 0), ("a.x", 1)),)
    found = cover(FACTORS, 2, Oracle(), Random(3), avoid=avoid)
    assert not any(holds(row, avoid[0]) for row in found.rows)


def test_fewer_rows_than_the_product_of_the_two_largest_domains_times_two() -> None:
    found = cover(FACTORS, 2, Oracle(), Random(4))
    assert len(found.rows) <= 2 * 3 * 3


def test_the_same_seed_gives_the_same_rows() -> None:
    assert cover(FACTORS, 2, Oracle(), Random(5)) == cover(FACTORS, 2, Oracle(), Random(5))


def test_a_strength_beyond_three_is_refused() -> None:
    with pytest.raises(ValueError, match="strength must be one of"):
        cover(FACTORS, 4, Oracle(), Random(0))
