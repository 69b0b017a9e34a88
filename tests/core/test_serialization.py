"""liarsdice.serialization: JSON round trips for state, events, actions and views."""

from __future__ import annotations

import json
from random import Random

import pytest

from liarsdice import Game, Ruleset
from liarsdice.events import Event, Notice, PluginStateSet, TimedOut
from liarsdice.models import Action, Bid, BidAction, CallAction, GameState, TimeoutAction
from liarsdice.reducer import apply_event, replay
from liarsdice.serialization import dumps, from_data, loads, to_data
from liarsdice.views import PlayerView


@pytest.fixture
def played(dice_loss_rules: Ruleset) -> Game:
    game = Game(dice_loss_rules, ["Ann", "Ben", "Cid"], Random(3), dice_per_player=2)
    game.start_round()
    game.bid("Ann", 1, 3)
    game.bid("Ben", 2, 4)
    game.call("Cid")
    game.start_round()
    game.timeout(game.state.round.turn)  # type: ignore[union-attr]
    return game


def test_game_state_round_trips(played: Game) -> None:
    state = apply_event(played.state, PluginStateSet("revolver", "bullets", {"Ann": 2}))
    text = dumps(state)
    assert loads(text, GameState) == state
    assert json.loads(text)["players"][0] == {"name": "Ann", "dice": 2, "alive": True}


def test_the_event_log_round_trips_tagged_by_type(played: Game) -> None:
    events = [*played.events, Notice("revolver", "click", "Ann")]
    text = dumps(events, list[Event])
    data = json.loads(text)
    assert data[0]["type"] == "GameStarted"
    timed_out = next(e for e in played.events if isinstance(e, TimedOut))
    assert {"type": "TimedOut", "player": timed_out.player} in data
    back = loads(text, list[Event])
    assert back == events
    assert replay(back[:-1]) == played.state


@pytest.mark.parametrize(
    "action",
    [
        BidAction("Ann", Bid(3, 5)),
        CallAction("Ben"),
        CallAction("Ben", "exact"),
        TimeoutAction("Cid"),
    ],
)
def test_actions_round_trip(action: Action) -> None:
    text = dumps(action, Action)
    assert json.loads(text)["type"] == type(action).__name__
    assert loads(text, Action) == action


@pytest.mark.parametrize("viewer", ["Ann", "Cid", None])
def test_player_views_round_trip(played: Game, viewer: str | None) -> None:
    view = played.view(viewer)
    assert loads(dumps(view), PlayerView) == view


def test_a_view_with_a_reveal_round_trips(dice_loss_rules: Ruleset) -> None:
    game = Game(dice_loss_rules, ["Ann", "Ben"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [1, 6], "Ben": [2, 6]})
    game.bid("Ann", 3, 6)
    game.call("Ben")
    view = game.view("Ben")
    assert view.revealed is not None
    data = to_data(view)
    assert data["revealed"] == {"Ann": [1, 6], "Ben": [2, 6]}
    assert from_data(json.loads(json.dumps(data)), PlayerView) == view
