"""Laws that a game's record gives the game back: by replay, through JSON, and from the same seed.

Folding the events rebuilds every state; states, events and actions survive a JSON round trip; and
the same seed and moves give the same events and states again.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from liarsdice import engine
from liarsdice.events import Event
from liarsdice.models import Action, BidAction, CallAction, GameState, TimeoutAction
from liarsdice.reducer import apply_event, replay
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import dumps, loads
from liarsdice.testing.driver import NewGame, StartRound, Step, dice_stream, start_round, timeline
from liarsdice.testing.laws._common import (
    JSON_TRIP,
    REPLAY,
    SAME_SEED,
    LawViolation,
    at_step,
    difference,
)


def replay_rebuilds_state(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Folding the events with :func:`liarsdice.reducer.apply_event` gives the engine's state after
    every step, and :func:`liarsdice.reducer.replay` of the whole log gives the final state."""
    state: GameState | None = None
    log: list[Event] = []
    last: Step | None = None
    for step in timeline(steps):
        for event in step.events:
            try:
                state = apply_event(state, event)
            except Exception as error:
                raise LawViolation(
                    REPLAY, rules, f"replaying {event!r} raised {error}", at_step(step)
                ) from error
        log += step.events
        if state != step.after:
            raise LawViolation(
                REPLAY,
                rules,
                f"replayed state differs: {difference(state, step.after)}",
                at_step(step),
            )
        last = step
    if last is not None and replay(log) != last.after:
        raise LawViolation(
            REPLAY, rules, "replay() of the whole log differs from the final state", at_step(last)
        )


def json_round_trip(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Every state, event and action comes back equal from ``serialization.dumps``/``loads``, and
    dumping it again gives the same text."""
    for step in timeline(steps):
        checks: list[tuple[Any, Any]] = [(step.after, GameState)]
        checks += [(event, Event) for event in step.events]
        if isinstance(step.action, BidAction | CallAction | TimeoutAction):
            checks.append((step.action, Action))
        for value, kind in checks:
            try:
                text = dumps(value, kind)
                back = loads(text, kind)
                again = dumps(back, kind)
            except Exception as error:
                raise LawViolation(
                    JSON_TRIP, rules, f"{value!r} fails: {error}", at_step(step)
                ) from error
            if back != value or again != text:
                raise LawViolation(
                    JSON_TRIP,
                    rules,
                    f"{type(value).__name__} changes: {difference(value, back)}",
                    at_step(step),
                )


def same_seed_same_game(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Replaying the accepted moves through the engine from ``Random(seed)`` (and the driver's
    :func:`~liarsdice.testing.driver.dice_stream`) gives the same events and states again
    (nothing random escapes the injected RNG; refused moves draw nothing)."""
    played = list(timeline(steps))
    if not played:
        return
    start = played[0].action
    if not isinstance(start, NewGame):
        raise LawViolation(
            SAME_SEED, rules, "the record does not start with a new game", at_step(played[0])
        )
    rng, dice = Random(start.seed), dice_stream(start.seed)
    state: GameState | None = None
    for step in played:
        try:
            if isinstance(step.action, NewGame):
                state, events = engine.new_game(
                    rules, start.players, rng, dice_per_player=start.dice_per_player
                )
            elif isinstance(step.action, StartRound):
                assert state is not None
                state, events = start_round(rules, state, rng, dice)
            else:
                assert state is not None
                assert isinstance(step.action, BidAction | CallAction | TimeoutAction)
                state, events = engine.step(rules, state, step.action, rng)
        except Exception as error:
            raise LawViolation(
                SAME_SEED, rules, f"the same move now raises {error!r}", at_step(step)
            ) from error
        if tuple(events) != step.events or state != step.after:
            if tuple(events) != step.events:
                detail = f"events differ: {list(events)} != {list(step.events)}"
            else:
                detail = f"states differ: {difference(state, step.after)}"
            raise LawViolation(SAME_SEED, rules, detail, at_step(step))
