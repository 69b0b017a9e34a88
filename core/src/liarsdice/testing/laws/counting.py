"""The laws about counting: rulings, faces counted from public facts, and the stakes of calls.

One loser per challenge, and the bid stands iff the count reaches the quantity.

:func:`challenge_has_one_loser` also checks that every ruling is about the call just made, names
distinct living players, and counts what an independent recount of the rolls finds.
:func:`counting_ignores_hidden_dice` holds ``matching_faces`` to the contract the odds and the bots
rely on: each unseen die counts on its own, so the faces that count may depend on anything public
(options, bids, plugin state, dice face up) but not on a die under a cup.
:func:`calls_deal_their_stakes` holds each ruling to what its call kind declares it stakes
(``liarsdice_call_stakes``), which is what the bots weigh.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from random import Random

import attrs

from liarsdice.discovery import call_on
from liarsdice.events import RoundResolved
from liarsdice.models import CallAction, GameState, Resolution, remove_dice
from liarsdice.options import Payoff
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.testing.driver import Step, show_bid, show_state, timeline
from liarsdice.testing.laws._common import (
    BLIND_COUNT,
    ONE_LOSER,
    STAKES,
    LawViolation,
    answered_by,
    at_step,
)


def challenge_has_one_loser(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every ruling names distinct living players as losers and winners; the count of a call
    settled by the bid's truth (a challenge, or a kind that declares its stakes) equals an
    independent recount: the bid kind's truth function on the rolls, with ``matching_faces``
    where bids name a face; a challenge has exactly one loser and one winner, and the bid stands
    (the challenger loses) iff the count reaches the quantity."""
    matching = rules.hooks.matching_faces
    kind = rules.bid_kind
    for step in timeline(steps):
        state = step.state
        for event in step.events:
            if not isinstance(event, RoundResolved):
                continue
            ruling = event.resolution
            assert state is not None and state.round is not None
            named = [*ruling.losers, *ruling.winners]
            if len(set(named)) != len(named):
                raise LawViolation(
                    ONE_LOSER, rules, f"a player is named twice in {ruling}", at_step(step)
                )
            for name in named:
                if not any(p.name == name and p.alive for p in state.players):
                    raise LawViolation(
                        ONE_LOSER, rules, f"{name} is not a living player: {ruling}", at_step(step)
                    )
            if ruling.count is None:
                continue
            action = step.action
            placed = state.round.bids[-1] if state.round.bids else None
            if not isinstance(action, CallAction) or placed is None:
                raise LawViolation(
                    ONE_LOSER,
                    rules,
                    f"cups lifted without a call on a bid: {ruling}",
                    at_step(step),
                )
            if (ruling.caller, ruling.call, ruling.bidder, ruling.bid) != (
                action.player,
                action.kind,
                placed.player,
                placed.bid,
            ):
                raise LawViolation(
                    ONE_LOSER,
                    rules,
                    f"the ruling is not about this call: {ruling}"
                    + _ruler(rules, state, action, ruling),
                    at_step(step),
                )
            if ruling.call != "challenge" and rules.call_stakes(ruling.call) is None:
                continue  # not settled by the bid's truth: its count is the plugin's own
            faces = matching(state, placed.bid.face) if kind.names_faces else frozenset(FACES)
            dice = [die for roll in state.round.rolls.values() for die in roll]
            recount = kind.value(placed.bid, dice, faces)
            if ruling.count != recount:
                found = (
                    f"the rolls hold {recount} of {sorted(faces)} "
                    f"(faces from {_counter(rules, state, placed.bid.face)})"
                    if kind.names_faces
                    else f"the {kind.name} bid's value on the rolls is {recount}"
                )
                raise LawViolation(
                    ONE_LOSER, rules, f"count {ruling.count}, but {found}", at_step(step)
                )
            if ruling.call != "challenge":
                continue
            if len(ruling.losers) != 1 or len(ruling.winners) != 1:
                raise LawViolation(
                    ONE_LOSER,
                    rules,
                    f"losers {list(ruling.losers)}, winners {list(ruling.winners)}: "
                    f"want one of each{_ruler(rules, state, action, ruling)}",
                    at_step(step),
                )
            stands = recount >= placed.bid.quantity
            loser, winner = (
                (action.player, placed.player) if stands else (placed.player, action.player)
            )
            if ruling.losers != (loser,) or ruling.winners != (winner,) or ruling.success == stands:
                raise LawViolation(
                    ONE_LOSER,
                    rules,
                    f"{recount} counted for {show_bid(placed.bid)}, so {loser} loses; "
                    f"ruled {ruling}{_ruler(rules, state, action, ruling)}",
                    at_step(step),
                )


def _ruler(rules: Ruleset, state: GameState, action: CallAction, ruling: Resolution) -> str:
    """`` (ruled by <plugin>'s liarsdice_resolve_call)``: who ruled on ``action``."""
    asked = {"state": state, "player": action.player, "call": action.kind, "count": ruling.count}
    return f" (ruled by {answered_by(rules, 'liarsdice_resolve_call', **asked)})"


def _counter(rules: Ruleset, state: GameState, face: int) -> str:
    """Who answered which faces count toward ``face``, in words."""
    return answered_by(rules, "liarsdice_matching_faces", state=state, face=face)


def counting_ignores_hidden_dice(rules: Ruleset, steps: Sequence[Step]) -> None:
    """At every state of a round, ``matching_faces`` answers the same for each face when the dice
    under the cups are dealt again (each die to one face in turn, and to faces drawn at random;
    the dice face up stay): the odds and the bots count each unseen die on its own with it, so an
    answer that depends on hidden dice (wild ones that count only beside a natural) would make
    them wrong, and is refused here, naming the plugin whose answer changed."""
    matching = rules.hooks.matching_faces
    rng = Random(0)
    for step in timeline(steps):
        state = step.state
        if state is None or state.round is None or state.round.over:
            continue
        answers = {face: matching(state, face) for face in FACES}
        for dealt, how in _re_deals(state, rng):
            for face in FACES:
                other = matching(dealt, face)
                if other != answers[face]:
                    raise LawViolation(
                        BLIND_COUNT,
                        rules,
                        f"the faces counting toward a bid on {face}s are {sorted(answers[face])} "
                        f"with the dice as dealt but {sorted(other)} with {how} "
                        f"({_changed(rules, state, dealt, face)}); the odds and the bots count "
                        "each unseen die on its own, so which faces count may depend on public "
                        "facts (options, bids, plugin state, dice face up), never on a die under "
                        f"a cup (re-dealt: {show_state(dealt)})",
                        at_step(step),
                    )


def _re_deals(state: GameState, rng: Random) -> Iterator[tuple[GameState, str]]:
    """``state`` with the dice under the cups dealt again, and how, in words: every hidden die on
    each face in turn, then on faces drawn from ``rng``. Dice face up stay as they are."""
    assert state.round is not None
    shown = state.round.shown
    hidden = {
        name: remove_dice(roll, shown.get(name, ())) for name, roll in state.round.rolls.items()
    }
    deals: list[tuple[list[int] | None, str]] = [
        ([face], f"every die under a cup showing {face}") for face in FACES
    ]
    deals.append((None, "the dice under the cups drawn again at random"))
    for faces, how in deals:
        rolls = {
            name: (*shown.get(name, ()), *(rng.choice(faces or FACES) for _ in dice))
            for name, dice in hidden.items()
        }
        yield attrs.evolve(state, round=attrs.evolve(state.round, rolls=rolls)), how


def _changed(rules: Ruleset, state: GameState, dealt: GameState, face: int) -> str:
    """The plugins whose own ``matching_faces`` answer for ``face`` differs between the two
    states, in words: ``"natural-ace's liarsdice_matching_faces"``."""
    hook = "liarsdice_matching_faces"
    changed = [
        name
        for name in rules.names
        if call_on(name, rules.pm, hook, state=state, face=face, options=rules.options)
        != call_on(name, rules.pm, hook, state=dealt, face=face, options=rules.options)
    ]
    return f"changed by {' and '.join(changed) or 'no plugin'}'s {hook}"


def calls_deal_their_stakes(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every ruling on a call whose kind declares its stakes (:meth:`Ruleset.call_stakes`) is
    right (``success``) exactly when the stakes say, by the count and the quantity, and names as
    losers exactly who that outcome's :class:`~liarsdice.options.Payoff` says takes a lost round
    (the caller, the bidder, every other living player): the bots weigh the call by those stakes.
    """
    for step in timeline(steps):
        for event in step.events:
            if not isinstance(event, RoundResolved) or step.state is None:
                continue
            ruling = event.resolution
            stakes = rules.call_stakes(ruling.call)
            if stakes is None or ruling.count is None or ruling.bid is None:
                continue
            right = {
                "false": ruling.count < ruling.bid.quantity,
                "exact": ruling.count == ruling.bid.quantity,
                "true": ruling.count >= ruling.bid.quantity,
            }[stakes.right_when]
            losers = _losers(step.state, ruling, stakes.right if right else stakes.wrong)
            if ruling.success != right or set(ruling.losers) != losers:
                declared = answered_by(rules, "liarsdice_call_stakes", call=ruling.call)
                raise LawViolation(
                    STAKES,
                    rules,
                    f"{ruling.count} counted for {show_bid(ruling.bid)}: by the stakes "
                    f"{declared} declares ({stakes}), the {ruling.call} call is "
                    f"{'right' if right else 'wrong'} and {sorted(losers) or 'nobody'} lose; "
                    f"ruled {ruling}",
                    at_step(step),
                )


def _losers(state: GameState, ruling: Resolution, payoff: Payoff) -> set[str]:
    """Who ``payoff`` says takes a lost round, in the ruling on a call at ``state``."""
    named = (ruling.caller, ruling.bidder)
    others = [p.name for p in state.players if p.alive and p.name not in named]
    return {
        *([ruling.caller] if payoff.caller else []),
        *([ruling.bidder] if payoff.bidder and ruling.bidder is not None else []),
        *(others if payoff.others else []),
    }
