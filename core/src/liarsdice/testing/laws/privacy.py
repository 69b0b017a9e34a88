"""The law that a player's view hides other players' hidden dice and private state until the cups lift.

:func:`views_hide_dice` also runs :func:`~liarsdice.testing.laws.public_log.public_events_hide_dice`,
the same law for the event log as each viewer is sent it, and a non-interference test: each round
is played again with the dice the viewer may not see re-dealt (:func:`re_deal`) and the same
actions, and everything the viewer gets must stay the same until the cups are lifted.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping, Sequence
from random import Random
from typing import Any

import attrs

from liarsdice import engine
from liarsdice.errors import IllegalAction
from liarsdice.events import Event
from liarsdice.models import BidAction, CallAction, GameState, TimeoutAction
from liarsdice.ruleset import FACES, Ruleset
from liarsdice.serialization import dumps, to_data
from liarsdice.testing.driver import (
    NewGame,
    StartRound,
    Step,
    dice_stream,
    show_state,
    start_round,
    timeline,
)
from liarsdice.testing.laws._common import HIDDEN, LawViolation, at_step, first_difference
from liarsdice.testing.laws.public_log import public_events_hide_dice
from liarsdice.views import player_view, public_events


def _hide_others(state: GameState, viewer: str | None) -> GameState:
    """``state`` with the hidden dice the viewer may not see changed (each die moved to another
    face; dice shown face up stay) and every other player's private state replaced."""
    round_ = state.round
    assert round_ is not None
    sees = round_.sees(viewer)
    rolls = {
        name: roll
        if name in sees
        else (*round_.shown.get(name, ()), *(die % 6 + 1 for die in round_.hidden(name)))
        for name, roll in round_.rolls.items()
    }
    private = {
        plugin: {
            player: value if player == viewer else {"replaced by the law": True}
            for player, value in players.items()
        }
        for plugin, players in round_.private.items()
    }
    changed = attrs.evolve(round_, rolls=rolls, private=private)
    return attrs.evolve(state, round=changed)


def views_hide_dice(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Until a call lifts the cups, each player's view (and a spectator's) holds as ``own_dice``
    the viewer's own roll if the round's sights let them see it (``RoundState.sees``; by default
    they do), as ``seen`` exactly the other rolls the sights show them, no ``revealed`` rolls,
    only the viewer's own private plugin state, and does not depend on the dice they may not see
    or anyone else's private state at all (changing them leaves the view's JSON unchanged). Dice
    put face up are in every view.

    The same holds for the event log as :func:`~liarsdice.views.public_events` gives it to each
    viewer, at every prefix of the log (see :func:`public_events_hide_dice`). And what a viewer
    gets cannot depend on the dice they may not see, however a plugin stores them: with those
    dice re-dealt and the same actions played again, every view and event the viewer is given is
    the same until the cups are lifted (:func:`redealt_rounds_look_the_same`)."""
    public_events_hide_dice(rules, steps)
    for step in timeline(steps):
        state = step.after
        assert state is not None
        round_ = state.round
        if round_ is None:
            continue
        for viewer in [*(p.name for p in state.players), None]:
            view = player_view(rules, state, viewer)
            data = json.loads(dumps(view))
            sees = round_.sees(viewer)
            own = (
                round_.rolls.get(viewer)
                if viewer is not None and (viewer in sees or round_.lifted)
                else None
            )
            if data["own_dice"] != (list(own) if own is not None else None):
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view shows own_dice={data['own_dice']}",
                    show_state(state),
                )
            shown = {seat["name"]: seat["shown"] for seat in data["seats"] if seat["shown"]}
            if shown != {name: list(dice) for name, dice in round_.shown.items() if dice}:
                raise LawViolation(
                    HIDDEN, rules, f"{viewer}'s view shows {shown} face up", show_state(state)
                )
            if round_.lifted:
                continue
            seen = {
                name: list(roll)
                for name, roll in round_.rolls.items()
                if name in sees and name != viewer
            }
            if data["seen"] != seen:
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view shows the rolls {data['seen']}, where the round's sights "
                    f"show {seen}",
                    show_state(state),
                )
            if data["revealed"] is not None:
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view reveals {data['revealed']} before a call",
                    show_state(state),
                )
            strangers = {
                player
                for players in data["private"].values()
                for player in players
                if player != viewer
            }
            if strangers:
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view carries the private state of {sorted(strangers)}",
                    show_state(state),
                )
            blind = json.loads(dumps(player_view(rules, _hide_others(state, viewer), viewer)))
            if blind != data:
                raise LawViolation(
                    HIDDEN,
                    rules,
                    f"{viewer}'s view depends on other players' hidden dice or private state: "
                    f"{first_difference(data, blind)}",
                    show_state(state),
                )

    redealt_rounds_look_the_same(rules, steps)


def re_deal(
    rolls: Mapping[str, Sequence[int]], seen: Collection[str], rng: Random
) -> dict[str, tuple[int, ...]]:
    """``rolls`` with every die the viewer may not see moved to another face drawn from ``rng``:
    the rolls of the players in ``seen`` (whose dice the viewer sees) stay as they are."""
    return {
        name: tuple(roll)
        if name in seen
        else tuple(rng.choice([face for face in FACES if face != die]) for die in roll)
        for name, roll in rolls.items()
    }


def _rounds(played: Sequence[Step]) -> Iterator[tuple[int, list[Step]]]:
    """Each round of a game's timeline: the index of its :class:`StartRound` step and the moves
    played in it."""
    for index, step in enumerate(played):
        if isinstance(step.action, StartRound):
            moves = []
            for later in played[index + 1 :]:
                if not isinstance(later.action, BidAction | CallAction | TimeoutAction):
                    break
                moves.append(later)
            yield index, moves


def _play(rules: Ruleset, state: GameState | None, step: Step, rng: Random, dice: Random) -> Any:
    """Play ``step``'s move again from ``state``: (state after, events)."""
    action = step.action
    if isinstance(action, NewGame):
        return engine.new_game(rules, action.players, rng, dice_per_player=action.dice_per_player)
    assert state is not None
    if isinstance(action, StartRound):
        return start_round(rules, state, rng, dice)
    assert isinstance(action, BidAction | CallAction | TimeoutAction)
    return engine.step(rules, state, action, rng)


def _rng_before(rules: Ruleset, played: Sequence[Step]) -> list[Any] | None:
    """The engine's RNG state before each step of the timeline, found by playing the moves again
    from the game's seed; ``None`` if that does not give the same game (the same-seed law says
    why)."""
    start = played[0].action
    if not isinstance(start, NewGame):
        return None
    rng, dice = Random(start.seed), dice_stream(start.seed)
    states: list[Any] = []
    state: GameState | None = None
    for step in played:
        states.append(rng.getstate())
        try:
            state, events = _play(rules, state, step, rng, dice)
        except Exception:
            return None
        if tuple(events) != step.events:
            return None
    return states


def _seen(rules: Ruleset, state: GameState, events: Sequence[Event], viewer: str | None) -> Any:
    """What ``viewer`` gets from a step: their view of ``state`` and their events, as data."""
    return {
        "view": to_data(player_view(rules, state, viewer)),
        "events": to_data(public_events(events, viewer), list[Event]),
    }


def redealt_rounds_look_the_same(rules: Ruleset, steps: Sequence[Step]) -> None:
    """Non-interference: for every round and every viewer (each player, and a spectator), the
    round played again from the same RNG with the dice the viewer may not see re-dealt
    (:func:`re_deal`) and the same moves gives the viewer the same view and the same events at
    every step until the cups are lifted. A re-deal under which one of the moves is refused (a
    ``pass`` needs matching dice) proves nothing and is skipped."""
    played = list(timeline(steps))
    rng_states = _rng_before(rules, played) if played else None
    if rng_states is None:
        return
    for index, moves in _rounds(played):
        start = played[index]
        before, after = start.state, start.after
        assert before is not None and after is not None and after.round is not None
        for viewer in [*(p.name for p in before.players if p.alive), None]:
            rng = Random()
            rng.setstate(rng_states[index])
            seen = after.round.sees(viewer)
            rolls = re_deal(after.round.rolls, seen, Random(f"{after.round.number}:{viewer}"))
            state, events = engine.start_round(rules, before, rng, rolls=rolls)
            for real in [start, *moves]:
                assert real.after is not None and real.after.round is not None
                if real is not start:
                    try:
                        state, events = engine.step(rules, state, real.action, rng)  # type: ignore[arg-type]
                    except IllegalAction:
                        break  # the re-deal makes this move illegal: it proves nothing
                if real.after.round.lifted:
                    break
                expected = _seen(rules, real.after, real.events, viewer)
                got = _seen(rules, state, events, viewer)
                if got != expected:
                    who = "a spectator" if viewer is None else viewer
                    raise LawViolation(
                        HIDDEN,
                        rules,
                        f"what {who} gets depends on dice they may not see: with them re-dealt "
                        f"to {rolls} and the same moves, {first_difference(expected, got)} "
                        "(as dealt != re-dealt)",
                        at_step(real),
                    )
