"""Laws about accepting moves: legal ones apply, illegal ones change nothing, only the living act.

The same module holds the law on the game's end: it is over once one side (a player, or a team) is
left, if not before, with every living player among the winners, and nothing is accepted after.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from liarsdice import engine
from liarsdice.events import GameWon, OpenerChosen, RoundStarted
from liarsdice.models import BidAction, CallAction, GameState, TimeoutAction
from liarsdice.ruleset import Ruleset
from liarsdice.testing.driver import ILLEGAL, TIMEOUT, Step, timeline
from liarsdice.testing.laws._common import (
    APPLY,
    ELIMINATED,
    ILLEGAL_NOTHING,
    ONE_WINNER,
    LawViolation,
    at_step,
    first_difference,
)


def illegal_actions_change_nothing(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every action built to be illegal is refused with a reason, emits no event, raises nothing
    else, and leaves the state exactly as it was (not even mutated in place)."""
    for step in steps:
        if step.intent != ILLEGAL:
            continue
        if step.error is not None:
            raise LawViolation(
                ILLEGAL_NOTHING, rules, f"raised {step.error} instead of refusing", at_step(step)
            )
        if step.refused is None:
            shown = ", ".join(type(event).__name__ for event in step.events)
            raise LawViolation(
                ILLEGAL_NOTHING, rules, f"an illegal action was accepted ({shown})", at_step(step)
            )
        if not step.refused or not all(step.refused):
            raise LawViolation(
                ILLEGAL_NOTHING, rules, "refused without giving a reason", at_step(step)
            )
        if step.events:
            raise LawViolation(
                ILLEGAL_NOTHING, rules, "a refused action emitted events", at_step(step)
            )
        if step.snapshot != step.snapshot_after:
            difference = first_difference(
                json.loads(step.snapshot or "null"), json.loads(step.snapshot_after or "null")
            )
            raise LawViolation(
                ILLEGAL_NOTHING,
                rules,
                f"refusing the action mutated the state: {difference}",
                at_step(step),
            )


def eliminated_players_never_act(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Any action by a player who is out (or not at the table) is refused and changes nothing; only
    living players open rounds."""
    for step in steps:
        action, state = step.action, step.state
        if isinstance(action, BidAction | CallAction | TimeoutAction) and state is not None:
            seat = next((p for p in state.players if p.name == action.player), None)
            if (seat is None or not seat.alive) and (step.refused is None or step.events):
                who = "a stranger" if seat is None else "an eliminated player"
                raise LawViolation(ELIMINATED, rules, f"{who} acted: {step}", at_step(step))
        if step.accepted and step.after is not None:
            for event in step.events:
                if isinstance(event, OpenerChosen | RoundStarted):
                    opener = event.player if isinstance(event, OpenerChosen) else event.opener
                    if not step.after.player(opener).alive:
                        raise LawViolation(
                            ELIMINATED, rules, f"{opener} is out but opens", at_step(step)
                        )


def living_sides(rules: Ruleset, state: GameState) -> list[tuple[str, ...]]:
    """The sides (:func:`liarsdice.engine.sides`) that still have a living player."""
    alive = {player.name for player in state.alive}
    return [side for side in engine.sides(rules, state) if alive.intersection(side)]


def game_has_one_winner(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Once only one side has living players the game is over (a side is one player, or a team:
    ``liarsdice_partners``); it may end earlier where the rules say (``liarsdice_game_winners``).
    An ended game has exactly one ``GameWon`` event, naming the winners the state records, with
    every living player among them, and nothing is accepted afterwards. (A game the driver cut
    short is checked as far as it went.)"""
    played = list(timeline(steps))
    wins = [
        (index, event)
        for index, step in enumerate(played)
        for event in step.events
        if isinstance(event, GameWon)
    ]
    if len(wins) > 1:
        raise LawViolation(
            ONE_WINNER, rules, f"{len(wins)} GameWon events", at_step(played[wins[1][0]])
        )
    for index, step in enumerate(played):
        after = step.after
        assert after is not None
        living = [p.name for p in after.alive]
        if after.over:
            if not set(living) <= set(after.winners):
                raise LawViolation(
                    ONE_WINNER,
                    rules,
                    f"winners {list(after.winners)}, living {living}",
                    at_step(step),
                )
            if not wins or wins[0][0] > index or wins[0][1].winners != after.winners:
                raise LawViolation(
                    ONE_WINNER, rules, "the game is won without a matching GameWon", at_step(step)
                )
            if index != len(played) - 1:
                raise LawViolation(
                    ONE_WINNER,
                    rules,
                    "a move was accepted after the game was won",
                    at_step(played[index + 1]),
                )
        elif len(living_sides(rules, after)) < 2:
            raise LawViolation(
                ONE_WINNER, rules, f"living {living}, one side, but nobody has won", at_step(step)
            )
        elif wins and wins[0][0] <= index:
            raise LawViolation(
                ONE_WINNER, rules, "GameWon was emitted but the game goes on", at_step(step)
            )


def legal_moves_apply(rules: Ruleset, steps: Sequence[Step]) -> None:
    """The engine applies every move it offers as legal, and a timeout by the player on turn,
    without raising; starting a game or a round does not raise either."""
    for step in steps:
        if step.intent == ILLEGAL or step.action is None:
            continue
        if step.error is not None:
            raise LawViolation(APPLY, rules, f"the engine raised {step.error}", at_step(step))
        if step.intent == TIMEOUT and step.refused is not None:
            raise LawViolation(
                APPLY, rules, f"a timeout was refused: {'; '.join(step.refused)}", at_step(step)
            )
