"""The law that a player's view hides other players' hidden dice and private state until the cups lift.

:func:`views_hide_dice` also runs :func:`~liarsdice.testing.laws.public_log.public_events_hide_dice`,
the same law for the event log as each viewer is sent it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import attrs

from liarsdice.models import GameState
from liarsdice.ruleset import Ruleset
from liarsdice.serialization import dumps
from liarsdice.testing.driver import Step, show_state, timeline
from liarsdice.testing.laws._common import HIDDEN, LawViolation, first_difference
from liarsdice.testing.laws.public_log import public_events_hide_dice
from liarsdice.views import player_view


def _hide_others(state: GameState, viewer: str | None) -> GameState:
    """``state`` with every other player's hidden dice changed (each die moved to another face;
    dice shown face up stay) and every other player's private state replaced."""
    round_ = state.round
    assert round_ is not None
    rolls = {
        name: roll
        if name == viewer
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
    """Until a call lifts the cups, each player's view (and a spectator's) holds only the viewer's
    own roll as ``own_dice``, no ``revealed`` rolls, only the viewer's own private plugin state,
    and does not depend on anyone else's hidden dice or private state at all (changing them leaves
    the view's JSON unchanged). Dice put face up are in every view.

    The same holds for the event log as :func:`~liarsdice.views.public_events` gives it to each
    viewer, at every prefix of the log (see :func:`public_events_hide_dice`)."""
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
            own = round_.rolls.get(viewer) if viewer is not None else None
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
