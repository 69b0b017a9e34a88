"""Laws that play always ends: every round within its bid ladder, every game within its move limit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from liarsdice.events import BidMade, RoundResolved, RoundStarted
from liarsdice.models import Bid, BidAction, CallAction, TimeoutAction
from liarsdice.ruleset import Ruleset
from liarsdice.testing.driver import NewGame, Step, show_bid, show_state, timeline
from liarsdice.testing.laws._common import GAMES_END, ROUNDS_END, LawViolation, at_step


def rounds_end(rules: Ruleset, steps: Sequence[Step]) -> None:
    """The player on turn always has a legal move; every bid strictly raises the one before, so a
    round holds at most as many bids as the ladder for its dice; a round is resolved before the
    next one starts."""
    rank: Callable[[Bid], Any] = rules.hooks.bid_rank
    for step in steps:
        if step.action is None:
            raise LawViolation(ROUNDS_END, rules, f"dead end: {step.error}", show_state(step.state))
    open_round: RoundStarted | None = None
    bids: list[Bid] = []
    bound = 0
    for step in timeline(steps):
        for event in step.events:
            if isinstance(event, RoundStarted):
                if open_round is not None:
                    raise LawViolation(
                        ROUNDS_END,
                        rules,
                        f"round {event.number} started before round {open_round.number} ended",
                        at_step(step),
                    )
                open_round, bids = event, []
                bound = len(rules.ladder(sum(map(len, event.rolls.values())))[1])
            elif isinstance(event, BidMade):
                if bids and not rank(event.bid) > rank(bids[-1]):
                    raise LawViolation(
                        ROUNDS_END,
                        rules,
                        f"{show_bid(event.bid)} does not raise {show_bid(bids[-1])}",
                        at_step(step),
                    )
                bids.append(event.bid)
                if len(bids) > bound:
                    raise LawViolation(
                        ROUNDS_END,
                        rules,
                        f"{len(bids)} bids in a round whose ladder has {bound}",
                        at_step(step),
                    )
            elif isinstance(event, RoundResolved):
                open_round = None


def games_end(rules: Ruleset, steps: Sequence[Step]) -> None:
    """A game has a winner by the time it has played the most moves its ruleset allows at its
    table (:meth:`~liarsdice.Ruleset.move_limit`: rounds x turns a round, from the plugins'
    ``liarsdice_game_limit``), counting accepted bids, calls and timeouts, not illegal attempts.
    A game the driver cut short before the limit proves nothing either way."""
    played = list(timeline(steps))
    if not played or not isinstance(played[0].action, NewGame):
        return
    start = played[0].action
    limit = rules.move_limit(len(start.players), start.dice_per_player)
    moves = 0
    for step in played:
        if not isinstance(step.action, BidAction | CallAction | TimeoutAction):
            continue
        moves += 1
        assert step.after is not None
        if moves >= limit.moves and not step.after.over:
            raise LawViolation(
                GAMES_END,
                rules,
                f"no winner after {moves} moves, the most the ruleset allows {limit.explain()}; "
                "a variant undoes what the economics take, or lengthens games without declaring "
                "it (liarsdice_game_limit)",
                at_step(step),
            )
