"""liarsdice.views: the one place hidden information is filtered."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Game, Ruleset, hookimpl
from liarsdice.models import Bid, PlacedBid
from liarsdice.views import SeatView, player_view, public_facts

ROLLS = {"Ann": [6, 6, 6], "Ben": [2, 3, 4], "Cid": [1, 5, 5]}


@pytest.fixture
def game(dice_loss_rules: Ruleset) -> Game:
    game = Game(dice_loss_rules, list(ROLLS), Random(0), dice_per_player=3)
    game.start_round(ROLLS)
    game.bid("Ann", 2, 5)
    return game


@pytest.mark.parametrize("viewer", list(ROLLS))
def test_before_a_call_a_player_sees_only_their_own_dice(game: Game, viewer: str) -> None:
    view = game.view(viewer)
    assert view.viewer == viewer
    assert view.own_dice == tuple(ROLLS[viewer])
    assert view.revealed is None
    assert view.resolution is None
    # Nothing else in the view carries a roll: only counts are public.
    assert view.seats == tuple(SeatView(name, 3, True, {}) for name in ROLLS)


def test_public_parts_of_the_view(game: Game) -> None:
    view = game.view("Ben")
    assert view.dice_per_player == 3
    assert view.dice_in_play == 9
    assert view.round == 1
    assert view.opener == "Ann"
    assert view.turn == "Ben"
    assert view.bids == (PlacedBid("Ann", Bid(2, 5)),)
    assert view.next_opener is None and view.winner is None


def test_a_spectator_sees_no_dice(game: Game) -> None:
    view = game.view(None)
    assert view.viewer is None
    assert view.own_dice is None
    assert view.revealed is None
    assert view.turn == "Ben"


def test_after_a_challenge_every_roll_is_revealed(game: Game) -> None:
    game.call("Ben")  # fives: 2, ones: 1 -> 3 >= 2, Ben loses
    for viewer in [*ROLLS, None]:
        view = game.view(viewer)
        assert view.revealed == {name: tuple(roll) for name, roll in ROLLS.items()}
        assert view.resolution is not None and view.resolution.count == 3
        assert view.turn is None
        assert view.next_opener == "Ben"
    assert game.view("Ben").seats[1] == SeatView("Ben", 2, True, {})
    assert game.view("Ben").own_dice == (2, 3, 4)  # the dice Ben played this round with


def test_a_timeout_reveals_nothing(game: Game) -> None:
    game.timeout("Ben")
    for viewer in [*ROLLS, None]:
        assert game.view(viewer).revealed is None
    assert game.view("Cid").own_dice == (1, 5, 5)
    assert game.view(None).own_dice is None


def test_the_next_round_hides_the_dice_again(game: Game) -> None:
    game.call("Ben")
    game.start_round({"Ann": [1, 1, 1], "Ben": [2, 2], "Cid": [3, 3, 3]})
    view = game.view("Cid")
    assert view.revealed is None and view.resolution is None
    assert view.own_dice == (3, 3, 3)
    assert view.round == 2 and view.opener == "Ben" and view.bids == ()


def test_view_before_the_first_round(dice_loss_rules: Ruleset) -> None:
    game = Game(dice_loss_rules, ["Ann", "Ben"], Random(0))
    view = game.view("Ann")
    assert view.round == 0
    assert view.own_dice is None and view.revealed is None
    assert view.turn is None and view.opener is None
    assert view.next_opener == "Ann"


def test_a_player_who_is_out_has_no_dice_of_their_own(dice_loss_rules: Ruleset) -> None:
    game = Game(dice_loss_rules, ["Ann", "Ben", "Cid"], Random(0), dice_per_player=1)
    game.start_round({"Ann": [2], "Ben": [3], "Cid": [4]})
    game.bid("Ann", 3, 2)
    game.call("Ben")  # Ann is out
    game.start_round({"Ben": [5], "Cid": [6]})
    view = game.view("Ann")
    assert view.own_dice is None and view.revealed is None
    assert view.seats[0] == SeatView("Ann", 0, False, {})
    assert view.dice_in_play == 2


def test_the_winner_is_shown_and_nobody_is_on_turn(dice_loss_rules: Ruleset) -> None:
    game = Game(dice_loss_rules, ["Ann", "Ben"], Random(0), dice_per_player=1)
    game.start_round({"Ann": [2], "Ben": [3]})
    game.bid("Ann", 2, 2)
    game.call("Ben")
    view = game.view(None)
    assert view.winner == "Ben" and view.turn is None
    assert view.revealed == {"Ann": (2,), "Ben": (3,)}


def test_plugins_public_facts_reach_the_seats(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_player_public(player):
        return {"initial": player[0]}

    @hookimpl
    def liarsdice_settle(resolution):
        return None

    install_plugins({"badges": plugin_factory("badges", liarsdice_player_public, liarsdice_settle)})
    rules = Ruleset.build(["badges", "dice-loss"])
    game = Game(rules, ["Ann", "Ben"], Random(0))
    assert public_facts(rules, game.state, "Ben") == {"initial": "B"}
    view = player_view(rules, game.state, "Ann")
    assert [seat.public for seat in view.seats] == [{"initial": "A"}, {"initial": "B"}]
