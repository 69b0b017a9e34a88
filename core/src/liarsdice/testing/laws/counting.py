"""The law about rulings: one loser per challenge, and the bid stands iff the count reaches the quantity.

:func:`challenge_has_one_loser` also checks that every ruling is about the call just made, names
distinct living players, and counts what an independent recount of the rolls finds.
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice.events import RoundResolved
from liarsdice.models import CallAction, GameState, Resolution
from liarsdice.ruleset import Ruleset
from liarsdice.testing.driver import Step, show_bid, timeline
from liarsdice.testing.laws._common import ONE_LOSER, LawViolation, answered_by, at_step


def challenge_has_one_loser(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every ruling names distinct living players as losers and winners; a call's count equals an
    independent recount of the rolls with ``matching_faces``; a challenge has exactly one loser and
    one winner, and the bid stands (the challenger loses) iff the count reaches the quantity."""
    matching = rules.hooks.matching_faces
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
            faces = matching(state, placed.bid.face)
            recount = sum(die in faces for roll in state.round.rolls.values() for die in roll)
            if ruling.count != recount:
                raise LawViolation(
                    ONE_LOSER,
                    rules,
                    f"count {ruling.count}, but the rolls hold {recount} of {sorted(faces)} "
                    f"(faces from {_counter(rules, state, placed.bid.face)})",
                    at_step(step),
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
