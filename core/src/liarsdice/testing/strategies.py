"""Hypothesis strategies for rulesets, bids, rolls, tables and whole recorded games.

Everything shrinks toward the simplest case: the smallest valid set of variants, options at their
defaults, two players with one die, and games that call as early as they can. ::

    from hypothesis import given
    from liarsdice.testing import laws, strategies as lst

    @given(lst.games(lst.rulesets(["dice-loss", "my-variant"])))
    def test_laws(game):
        laws.check_game(game.rules, game.steps)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from liarsdice.errors import RulesetError
from liarsdice.models import JSON, Bid
from liarsdice.options import Option
from liarsdice.ruleset import BASELINE, FACES, Ruleset, installed
from liarsdice.testing.driver import PlayedGame, play_game, quick_shapes, seat_names
from liarsdice.testing.suite import (
    Fixed,
    declared_options,
    playable_options,
    smallest_combination,
    structurally_valid,
    valid_subsets,
)

SearchStrategy = st.SearchStrategy

MAX_SUBSET_CANDIDATES = 20
"""Up to this many candidate variants, every valid subset is listed up front and one is drawn
(shrinking to the smallest); beyond it, a subset is grown one variant at a time, each kept only if
the subset stays valid. Neither way throws a draw away."""


# --- rulesets -------------------------------------------------------------------------------------


def option_values(option: Option) -> SearchStrategy[JSON]:
    """Values valid for ``option``'s declaration, shrinking to its default: both booleans, an int in
    [minimum, maximum] (default +- 10 where a bound is missing), a str from its choices (a str
    option without choices keeps its default)."""
    default = option.default
    if type(default) is bool:
        return st.sampled_from([default, not default])
    if type(default) is int:
        low = option.minimum if option.minimum is not None else default - 10
        high = option.maximum if option.maximum is not None else default + 10
        return st.one_of(st.just(default), st.integers(low, high))
    if option.choices:
        return st.sampled_from([default, *(c for c in option.choices if c != default)])
    return st.just(default)


_ruleset_cache: dict[
    tuple[tuple[str, ...], tuple[tuple[str, Any], ...]], tuple[object, Ruleset]
] = {}


def _build(names: tuple[str, ...], options: Mapping[str, Any]) -> Ruleset:
    """``Ruleset.build``, cached while the installed plugins stay the same."""
    key = (names, tuple(sorted(options.items())))
    variants = installed()
    cached = _ruleset_cache.get(key)
    if cached is not None and cached[0] is variants:
        return cached[1]
    rules = Ruleset.build(names, options)
    if len(_ruleset_cache) > 4096:
        _ruleset_cache.clear()
    _ruleset_cache[key] = (variants, rules)
    return rules


@st.composite
def _listed_combination(
    draw: st.DrawFn, candidates: tuple[str, ...], include: tuple[str, ...], fixed: Fixed
) -> tuple[str, ...]:
    """One of the valid subsets, listed up front; a subset that no option values build beside the
    ``fixed`` ones is passed over for the next one in the list (never thrown away)."""
    subsets = valid_subsets(candidates, include)
    start = draw(st.integers(0, len(subsets) - 1)) if subsets else 0
    for index in range(len(subsets)):
        names = subsets[(start + index) % len(subsets)]
        if playable_options(names, fixed) is not None:
            return names
    raise InvalidArgument(
        f"no combination of {list(candidates)} including {list(include)} builds"
        + (f" with {dict(fixed)}" if fixed else "")
    )


@st.composite
def _grown_combination(
    draw: st.DrawFn, candidates: tuple[str, ...], include: tuple[str, ...], fixed: Fixed
) -> tuple[str, ...]:
    """A valid subset grown from the smallest one holding ``include``: each other candidate, drawn
    in or out, joins only if the subset stays structurally valid and buildable."""
    base = smallest_combination(candidates, include, fixed)
    chosen = list(base)
    wanted = [name for name in candidates if name not in base and draw(st.booleans())]
    grew = True
    while grew:  # a variant may become addable once what it requires has joined
        grew = False
        for name in list(wanted):
            trial = tuple(sorted((*chosen, name)))
            if (
                structurally_valid(trial, installed())
                and playable_options(trial, fixed) is not None
            ):
                chosen.append(name)
                wanted.remove(name)
                grew = True
    return tuple(sorted(chosen))


@st.composite
def _rulesets(
    draw: st.DrawFn,
    variants: Sequence[str] | None,
    include: tuple[str, ...],
    options: Mapping[str, Any],
) -> Ruleset:
    known = installed()
    candidates = tuple(sorted(set(known if variants is None else variants) - {BASELINE}))
    unknown = [name for name in (*candidates, *include) if name not in known]
    if unknown:
        raise InvalidArgument(f"unknown variants {unknown}; installed: {', '.join(known)}")
    fixed = tuple(sorted((k, v) for k, v in options.items() if not isinstance(v, SearchStrategy)))
    combination = (
        _listed_combination if len(candidates) <= MAX_SUBSET_CANDIDATES else _grown_combination
    )
    names = draw(combination(candidates, include, fixed))
    values: dict[str, Any] = {}
    for name in (BASELINE, *names):
        for option in known[name].options:
            given = options.get(option.key, option_values(option))
            values[option.key] = draw(given) if isinstance(given, SearchStrategy) else given
    try:
        return _build(names, values)
    except RulesetError:
        pass
    # The drawn values clash (a plugin's combination_problem refuses them): put drawn options
    # back to their defaults one at a time, then fall back to values known to build.
    drawn = [key for key in values if key not in options]
    defaults = {option.key: option.default for option in declared_options(names)}
    for key in drawn:
        values[key] = defaults[key]
        try:
            return _build(names, values)
        except RulesetError:
            continue
    fallback = playable_options(names, fixed)
    assert fallback is not None  # the combination was drawn because it builds
    return _build(names, {**fallback, **{k: v for k, v in values.items() if k not in drawn}})


def rulesets(
    variants: Iterable[str] | None = None,
    *,
    include: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
) -> SearchStrategy[Ruleset]:
    """Valid rulesets: the baseline plus a subset of ``variants`` (default: every installed one)
    that contains ``include``, with every option drawn from its declaration.

    ``options`` pins option values (``{"standard.wild_ones": False}``) or gives a strategy for them;
    options of variants not drawn are ignored. Only valid rulesets are drawn, and none is thrown
    away: combinations come from the valid ones (:func:`~liarsdice.testing.suite.valid_subsets`),
    and drawn option values that a plugin refuses in that combination are put back to their
    defaults, one at a time, until ``Ruleset.build`` accepts them.
    """
    return _rulesets(
        None if variants is None else tuple(variants), tuple(sorted(include)), dict(options or {})
    )


# --- bids, rolls, tables --------------------------------------------------------------------------


def bids(max_quantity: int = 30, *, faces: Sequence[int] = FACES) -> SearchStrategy[Bid]:
    """Well-formed bids: quantity 1..``max_quantity``, a face from ``faces``."""
    return st.builds(Bid, st.integers(1, max_quantity), st.sampled_from(tuple(faces)))


def any_bids(max_quantity: int = 32) -> SearchStrategy[Bid]:
    """Bids including malformed ones: quantity 0..``max_quantity``, faces 0 to 7."""
    return st.builds(Bid, st.integers(0, max_quantity), st.integers(0, 7))


def rolls(min_dice: int = 1, max_dice: int = 5) -> SearchStrategy[tuple[int, ...]]:
    """One player's roll: ``min_dice`` to ``max_dice`` faces 1-6."""
    return st.lists(st.integers(1, 6), min_size=min_dice, max_size=max_dice).map(tuple)


@attrs.frozen
class Table:
    """A table shape: the players, clockwise, and the dice each starts with."""

    players: tuple[str, ...]
    dice_per_player: int


def tables(
    min_players: int = 2, max_players: int = 6, min_dice: int = 1, max_dice: int = 5
) -> SearchStrategy[Table]:
    """Table shapes: 2-6 players named ``p1``, ``p2``, ... and 1-5 dice each (by default)."""
    return st.builds(
        lambda n, dice: Table(seat_names(n), dice),
        st.integers(min_players, max_players),
        st.integers(min_dice, max_dice),
    )


def quick_tables(rules: Ruleset) -> SearchStrategy[Table]:
    """The tables :func:`games` plays by default: 2-4 players with 1-3 dice each, so games end
    quickly, moved inside the table size of the ruleset's preset (perudo: 2-4 players with 5
    dice each), and only those no plugin refuses (``liarsdice_table_problem``: teams, 2 or 4
    players): :func:`~liarsdice.testing.driver.quick_shapes`, shrinking to the smallest."""
    shapes = quick_shapes(rules)
    if not shapes:
        raise InvalidArgument(f"{rules!r} takes none of the quick tables (2-4 players, 1-3 dice)")
    return st.sampled_from(shapes).map(lambda shape: Table(seat_names(shape[0]), shape[1]))


def table_rolls(table: Table) -> SearchStrategy[dict[str, tuple[int, ...]]]:
    """A full roll of ``table`` at its starting dice (for ``engine.start_round(rolls=...)``)."""
    size = table.dice_per_player
    return st.fixed_dictionaries({name: rolls(size, size) for name in table.players})


def seeds() -> SearchStrategy[int]:
    """Seeds for the engine's ``Random``."""
    return st.integers(0, 2**32 - 1)


# --- games ----------------------------------------------------------------------------------------


@st.composite
def _games(
    draw: st.DrawFn,
    rules: Ruleset | SearchStrategy[Ruleset],
    table: SearchStrategy[Table] | None,
    max_moves: int | None,
    weights: tuple[int, int, int],
) -> PlayedGame:
    chosen = draw(rules) if isinstance(rules, SearchStrategy) else rules
    shape = draw(quick_tables(chosen) if table is None else table)
    refusal = chosen.table_refusal(len(shape.players), shape.dice_per_player)
    if refusal is not None:
        raise InvalidArgument(
            f"games(): the table strategy drew {len(shape.players)} players x "
            f"{shape.dice_per_player} dice, but {refusal}: give tables the ruleset takes, or "
            "leave table out (quick_tables)"
        )
    seed = draw(seeds())
    choices: dict[int, SearchStrategy[int]] = {}

    def choose(n: int) -> int:
        if n not in choices:
            choices[n] = st.integers(0, n - 1)
        return draw(choices[n])

    return play_game(
        chosen,
        shape.players,
        shape.dice_per_player,
        seed,
        choose,
        max_moves=max_moves,
        weights=weights,
    )


def games(
    rules: Ruleset | SearchStrategy[Ruleset] | None = None,
    *,
    table: SearchStrategy[Table] | None = None,
    max_moves: int | None = None,
    weights: tuple[int, int, int] = (12, 1, 2),
) -> SearchStrategy[PlayedGame]:
    """Whole recorded games (:class:`~liarsdice.testing.driver.PlayedGame`).

    Draws a ruleset (default: :func:`rulesets`), a table (default: :func:`quick_tables`, 2-4
    players with 1-3 dice within the table size of the ruleset's preset; a given ``table`` that
    draws one the preset does not take raises ``InvalidArgument``) and a seed for the engine's
    RNG, then plays with every choice drawn from Hypothesis: at each turn a legal call or bid,
    now and then a timeout, and now and then an illegal action that must be refused (``weights``
    = legal, timeout, illegal). A game runs to the ruleset's move limit for its table
    (``Ruleset.move_limit``), where it comes out ``stuck`` and breaks the law that games end; a
    smaller ``max_moves`` cuts it short, incomplete.
    """
    return _games(
        rulesets() if rules is None else rules,
        table,
        max_moves,
        weights,
    )


__all__ = [
    "Table",
    "any_bids",
    "bids",
    "games",
    "option_values",
    "quick_tables",
    "rolls",
    "rulesets",
    "seeds",
    "table_rolls",
    "tables",
]
