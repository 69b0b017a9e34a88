"""The law that a variant does something: it changes at least one legal move or ruling.

A plugin whose hooks never change the game (a dead hook, a misspelt condition, an option that can
never take effect) passes every other law, since it breaks nothing. :func:`variant_changes_play`
searches for a difference instead: it plays seeded random games under the smallest ruleset holding
the variant (at each option row that uses every option value) and, at every step, asks the same
question of the same ruleset *without* the variant, from the same state and the same random
stream: which moves are legal, which payloads are offered, and what a move, a timeout, a round's
start or the game's start does. The first difference passes the law; none in the whole search is a
:class:`~liarsdice.testing.laws.LawViolation`.

What does not count as a difference: the variant's own plugin state and private state (what it
remembers, until that changes something else), and :class:`~liarsdice.events.Notice` narration.
A plugin that only presents (rules text, public facts, narration) declares
``VariantInfo(presentation=True)``; the law then checks the converse, that it changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from random import Random

from liarsdice import engine
from liarsdice.combination import structural_problem
from liarsdice.errors import IllegalAction, RulesetError
from liarsdice.events import Event, Notice, PluginStateSet, PrivateStateSet
from liarsdice.models import Action, BidAction, CallAction, GameState, TimeoutAction
from liarsdice.ruleset import BASELINE, Ruleset, installed
from liarsdice.testing.driver import show_move, show_state
from liarsdice.testing.laws import LawViolation
from liarsdice.testing.suite import (
    RELEVANCE_CASE,
    law_cases,
    option_rows,
    playable_options,
    smallest_combination,
)

DOES_SOMETHING = "a variant changes at least one legal move or ruling"

GAMES_PER_RULESET = 12
"""Seeded games played under each ruleset the search tries."""

MAX_MOVES = 400
"""Moves per searched game (a difference shows up early or not at all)."""

TABLES = ((2, 1), (3, 2), (2, 3), (4, 2), (3, 5))
"""Table shapes (players, dice each) the games cycle through."""


def _matters(events: Sequence[Event], variant: str) -> list[Event]:
    """``events`` without the variant's own bookkeeping and narration."""
    return [
        event
        for event in events
        if not isinstance(event, Notice)
        and not (isinstance(event, PluginStateSet | PrivateStateSet) and event.plugin == variant)
    ]


def _twin(rng: Random) -> Random:
    """A second random stream in the same state as ``rng``."""
    twin = Random()
    twin.setstate(rng.getstate())
    return twin


def baseline_for(rules: Ruleset, variant: str) -> Ruleset | None:
    """``rules`` without ``variant`` (and without what needs it); where that leaves no economics,
    with another installed economics plugin instead. ``None`` when nothing builds."""
    known = installed()
    rest = [name for name in rules.names if name != variant]
    while True:  # drop what required the variant, transitively
        needy = [
            name
            for name in rest
            if any(
                not any(
                    other == required or required in known[other].info.provides
                    for other in rest
                    if other != name
                )
                for required in known[name].info.requires
            )
        ]
        if not needy:
            break
        rest = [name for name in rest if name not in needy]
    swaps: list[list[str]] = [rest]
    if structural_problem([known[BASELINE], *(known[name] for name in rest)]) is not None:
        swaps = [
            [*rest, name]
            for name, other in sorted(known.items())
            if other.info.economics and name not in (variant, *rest)
        ]
    for names in swaps:
        kept = {
            key: value
            for key, value in rules.options.items()
            if key.partition(".")[0] in {BASELINE, *names}
        }
        try:
            return Ruleset.build(names, kept)
        except RulesetError:
            continue
    return None


def _outcome(rules: Ruleset, state: GameState, action: Action, rng: Random) -> object:
    try:
        return engine.step(rules, state, action, rng)[1]
    except IllegalAction as refused:
        return ("refused", tuple(refused.reasons))


def _moves(rules: Ruleset, state: GameState, player: str) -> list[Action]:
    moves: list[Action] = [
        CallAction(player, kind) for kind in engine.legal_calls(rules, state, player)
    ]
    moves += [BidAction(player, bid) for bid in engine.legal_bids(rules, state, player)]
    return moves


def _first_difference(
    rules: Ruleset, other: Ruleset, variant: str, players: int, dice: int, seed: int
) -> str | None:
    """Play one game under ``rules`` and compare every step with ``other``; the first difference
    in words, or ``None``."""
    names = [f"p{i}" for i in range(1, players + 1)]
    rng, chooser = Random(seed), Random(seed + 1)
    twin = _twin(rng)
    state, events = engine.new_game(rules, names, rng, dice_per_player=dice)
    try:
        _, theirs = engine.new_game(other, names, twin, dice_per_player=dice)
    except Exception as error:
        return f"the game's start: without it, {type(error).__name__}: {error}"
    if _matters(events, variant) != _matters(theirs, variant):
        return f"the game's start: {events} against {theirs}"
    for _ in range(MAX_MOVES):
        if state.over:
            return None
        round_ = state.round
        twin = _twin(rng)
        if round_ is None or round_.over:
            after, events = engine.start_round(rules, state, rng)
            try:
                _, theirs = engine.start_round(other, state, twin)
            except Exception as error:
                return f"a round's start: without it, {type(error).__name__}: {error}"
            if _matters(events, variant) != _matters(theirs, variant):
                return f"a round's start at {show_state(state)}: {events} against {theirs}"
            state = after
            continue
        turn = round_.turn
        ours, without = _moves(rules, state, turn), _moves(other, state, turn)
        if ours != without:
            return f"the legal moves at {show_state(state)}: {ours} against {without}"
        action = ours[chooser.randrange(len(ours))] if ours else TimeoutAction(turn)
        if chooser.random() < 0.1:
            action = TimeoutAction(turn)
        offered = engine.payload_choices(rules, state, action)
        if offered != engine.payload_choices(other, state, action):
            return f"the payloads offered for {show_move(action)} at {show_state(state)}"
        after, events = engine.step(rules, state, action, rng)
        try:
            outcome = _outcome(other, state, action, twin)
        except Exception as error:
            return f"{show_move(action)}: without it, {type(error).__name__}: {error}"
        if not isinstance(outcome, list) or _matters(events, variant) != _matters(outcome, variant):
            return f"{show_move(action)} at {show_state(state)}: {events} against {outcome}"
        state = after
    return None


def _rulesets_holding(variant: str) -> Iterator[Ruleset]:
    """The rulesets the search plays: the smallest holding ``variant`` alone, then the smallest
    holding it with each compatible variant, each at every option row of its combination."""
    seen: set[tuple[tuple[str, ...], tuple[tuple[str, object], ...]]] = set()
    for case in law_cases(variant):
        if case.name == RELEVANCE_CASE or case.name == "any-combination":
            continue
        names = smallest_combination(case.candidates, case.include)
        for row in [playable_options(names) or {}, *option_rows(names)[0]]:
            key = (names, tuple(sorted(row.items())))
            if key not in seen:
                seen.add(key)
                yield Ruleset.build(names, row)


def _search(variant: str, games: int, seed: int) -> tuple[str | None, list[Ruleset]]:
    """The first difference ``variant`` makes, in words (``None`` if none), and the rulesets it
    was compared with."""
    compared: list[Ruleset] = []
    for index, rules in enumerate(_rulesets_holding(variant)):
        other = baseline_for(rules, variant)
        if other is None:
            continue
        compared.append(other)
        for game in range(games):
            players, dice = TABLES[game % len(TABLES)]
            if rules.table_refusal(players, dice) or other.table_refusal(players, dice):
                continue  # a table one of them cannot be played at (teams: an odd one)
            try:
                found = _first_difference(
                    rules, other, variant, players, dice, seed + 1_000 * index + game
                )
            except Exception as error:
                raise LawViolation(
                    DOES_SOMETHING,
                    rules,
                    f"playing a game to compare raised {type(error).__name__}: {error}",
                    f"{players} players x {dice} dice, seed {seed + 1_000 * index + game}",
                ) from error
            if found is not None:
                return f"{rules!r}: {found}", compared
    return None, compared


def variant_changes_play(variant: str, *, games: int = GAMES_PER_RULESET, seed: int = 0) -> str:
    """Law: ``variant`` changes at least one legal move or ruling (and a variant that declares
    ``VariantInfo(presentation=True)`` changes none). Returns what the search found, in words;
    raises :class:`LawViolation` when it contradicts the variant."""
    if variant == BASELINE:
        return "the baseline is what the others are compared with"
    presentation = installed()[variant].info.presentation
    found, compared = _search(variant, games, seed)
    if presentation:
        if found is not None:
            raise LawViolation(
                DOES_SOMETHING,
                None,
                f"{variant} declares VariantInfo(presentation=True) but changes the game",
                found,
            )
        return f"{variant} declares itself a presentation plugin, and changed nothing"
    if found is not None:
        return found
    if not compared:
        return f"no ruleset without {variant} builds to compare with"
    raise LawViolation(
        DOES_SOMETHING,
        compared[0],
        f"{variant} changed no legal move, payload offer or ruling in {games} seeded games under "
        f"each of {len(compared)} rulesets holding it (alone and beside each compatible variant, "
        f"at option values that use every value), each compared with the same ruleset without "
        f"it (the ruleset shown)",
        "a plugin that only presents (rules text, public facts, narration) declares "
        "VariantInfo(presentation=True)",
    )


__all__ = ["DOES_SOMETHING", "baseline_for", "variant_changes_play"]
