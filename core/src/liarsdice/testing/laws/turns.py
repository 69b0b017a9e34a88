"""The law about the order of play: a variant's "next player" is the player who plays next.

A rule may speak of the next player ("no opening with one one when the next player has one die").
Play goes clockwise unless a variant says otherwise (``liarsdice_next_turn``), so the next player
is :func:`liarsdice.engine.next_player`, not ``state.next_alive`` (always clockwise). The kit
plays each variant beside :data:`~liarsdice.testing.plugins.ANTICLOCKWISE`, which turns play
anticlockwise, and :func:`next_player_follows_turn_order` checks those games against the mirror
table: the same seats in reverse order, played clockwise, without the test variant. Both tables
have the same order of play, so a variant that follows the order of play answers the same at both:
the same legal bids and calls for the player on turn, and the same losers and winners of a call.
A variant that asks for the next player clockwise answers the other neighbour at one of them.

Rules about seats rather than the order of play (who opens when the chosen opener is out, the order
in which the table pays) are not compared: they stay clockwise by rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from liarsdice import engine
from liarsdice.discovery import call_on
from liarsdice.events import RoundResolved
from liarsdice.models import BidAction, CallAction, GameState, Resolution
from liarsdice.ruleset import Ruleset
from liarsdice.testing.driver import Step, show_bid, timeline
from liarsdice.testing.laws._common import TURN_ORDER, LawViolation, at_step
from liarsdice.testing.plugins import ANTICLOCKWISE_NAME

_ADVICE = (
    "a rule about the next player must ask engine.next_player(rules, state, player), which "
    "follows the order of play; state.next_alive is always clockwise"
)


def mirrored(state: GameState) -> GameState:
    """``state`` with the seats in reverse order: clockwise there is anticlockwise here."""
    return attrs.evolve(state, players=state.players[::-1])


def clockwise(rules: Ruleset) -> Ruleset:
    """``rules`` without the anticlockwise test variant (the same plugins and option values)."""
    kept = [variant for variant in rules.variants if variant.name != ANTICLOCKWISE_NAME]
    return Ruleset(kept, rules.options, rules.preset, rules.defaults)


def _who_differs(
    hooks: Sequence[str], sides: Sequence[tuple[Ruleset, GameState]], **arguments: Any
) -> str:
    """Which plugins answer ``hooks`` differently on the two ``sides`` (ruleset, state), in words:
    ``"cheko's liarsdice_bid_problem"``; empty if none does."""
    (ours, here), (theirs, there) = sides
    found = []
    for hook in hooks:
        for impl in getattr(ours.pm.hook, hook).get_hookimpls():
            name = impl.plugin_name
            asked = {**arguments, "options": ours.options}
            answer = call_on(name, ours.pm, hook, **asked, rules=ours, state=here)
            other = call_on(name, theirs.pm, hook, **asked, rules=theirs, state=there)
            if str(answer) != str(other):
                found.append(f"{name}'s {hook} ({answer!s} / {other!s})")
    return "; ".join(found)


def _said(reasons: Sequence[object]) -> str:
    """Reasons in words, quoted and joined, for comparing and for the message."""
    return "; ".join(repr(str(reason)) for reason in reasons)


def _ruling(resolution: Resolution | None) -> Any:
    """A ruling with its losers and winners as sets: the order in which the table pays is a rule
    about seats."""
    if resolution is None:
        return None
    return attrs.evolve(
        resolution,
        losers=tuple(sorted(resolution.losers)),
        winners=tuple(sorted(resolution.winners)),
    )


def next_player_follows_turn_order(rules: Ruleset, steps: Sequence[Step]) -> None:
    """In a game played beside the anticlockwise test variant (only there: other games pass),
    the turn passes to :func:`~liarsdice.engine.next_player` of the player who bid, and at each
    move by the player on turn the variants answer as at the mirror table played clockwise: the
    same objections to each raise and each call kind and, for a call that ends the round, the
    same losers and winners. The message names the plugins and hooks that answered differently."""
    if ANTICLOCKWISE_NAME not in rules.names:
        return
    other = clockwise(rules)
    for step in timeline(steps):
        state, action = step.state, step.action
        if not isinstance(action, BidAction | CallAction) or state is None:
            continue
        assert state.round is not None and step.after is not None
        turn = state.round.turn
        if action.player != turn:
            continue  # a call out of turn
        after = step.after
        if isinstance(action, BidAction) and after.round is not None:
            named = engine.next_player(rules, after, turn)
            if after.round.turn != named:
                raise LawViolation(
                    TURN_ORDER,
                    rules,
                    f"after {turn}'s bid the turn is {after.round.turn}'s, but "
                    f"engine.next_player names {named}",
                    at_step(step),
                )
        there = mirrored(state)
        sides = ((rules, state), (other, there))
        for bid in rules.bids_above(state.round.current_bid, state.round.dice_in_play):
            ours = _said(engine.bid_problems(rules, state, turn, bid))
            theirs = _said(engine.bid_problems(other, there, turn, bid))
            if ours != theirs:
                culprit = _who_differs(
                    ("liarsdice_face_allowed", "liarsdice_bid_problem", "liarsdice_bid_problems"),
                    sides,
                    player=turn,
                    face=bid.face,
                    bid=bid,
                    bids=[bid],
                    payload={},
                )
                raise LawViolation(
                    TURN_ORDER,
                    rules,
                    f"played anticlockwise, {turn}'s bid of {show_bid(bid)} meets {ours or 'no'} "
                    f"objection; at the mirror table played clockwise, {theirs or 'none'} "
                    f"(answered differently: {culprit or 'no single hook'}): " + _ADVICE,
                    at_step(step),
                )
        for kind in rules.calls:
            ours = _said(engine.call_problems(rules, state, turn, kind))
            theirs = _said(engine.call_problems(other, there, turn, kind))
            if ours != theirs:
                culprit = _who_differs(
                    ("liarsdice_call_problem",), sides, player=turn, call=kind, payload={}
                )
                raise LawViolation(
                    TURN_ORDER,
                    rules,
                    f"played anticlockwise, {turn}'s call {kind} meets {ours or 'no'} objection; "
                    f"at the mirror table played clockwise, {theirs or 'none'} (answered "
                    f"differently: {culprit or 'no single hook'}): " + _ADVICE,
                    at_step(step),
                )
        ruled = next((e.resolution for e in step.events if isinstance(e, RoundResolved)), None)
        if isinstance(action, CallAction) and ruled is not None and ruled.count is not None:
            mirror = other.hooks.resolve_call(there, turn, action.kind, ruled.count)
            if _ruling(mirror) != _ruling(ruled):
                culprit = _who_differs(
                    ("liarsdice_resolve_call",),
                    sides,
                    player=turn,
                    call=action.kind,
                    count=ruled.count,
                )
                raise LawViolation(
                    TURN_ORDER,
                    rules,
                    f"played anticlockwise, the ruling is {ruled}; at the mirror table played "
                    f"clockwise it is {mirror} (answered differently: "
                    f"{culprit or 'no single hook'}): " + _ADVICE,
                    at_step(step),
                )
