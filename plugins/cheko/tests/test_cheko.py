"""Variant ``cheko`` (seed 002): no opening with "one one" when the next player has one die."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Bid, Game, Ruleset
from liarsdice.engine import bid_problems, legal_bids

ONE_ONE = Bid(1, 1)


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return Ruleset.build(preset="cheko")


def new_game(rules: Ruleset, dice: int, players: tuple[str, ...] = ("Ann", "Ben", "Cid")) -> Game:
    return Game(rules, list(players), Random(0), dice_per_player=dice, first_opener=players[0])


def test_the_preset_allows_opening_on_ones(rules: Ruleset) -> None:
    assert "cheko" in rules.names
    assert rules.options["aces-switch.open_on_ones"] is True


def test_one_one_is_refused_when_the_next_player_has_one_die(rules: Ruleset) -> None:
    game = new_game(rules, dice=1)
    game.start_round({"Ann": [2], "Ben": [3], "Cid": [4]})
    reasons = bid_problems(rules, game.state, "Ann", ONE_ONE)
    assert len(reasons) == 1
    assert "one one" in str(reasons[0]) and "Ben" in str(reasons[0])
    assert ONE_ONE not in legal_bids(rules, game.state, "Ann")
    assert bid_problems(rules, game.state, "Ann", Bid(2, 1)) == [], "only one one is refused"
    assert bid_problems(rules, game.state, "Ann", Bid(1, 2)) == []


def test_one_one_is_allowed_when_the_next_player_has_more_dice(rules: Ruleset) -> None:
    game = new_game(rules, dice=2)
    game.start_round({"Ann": [2, 2], "Ben": [3, 3], "Cid": [4, 4]})
    assert bid_problems(rules, game.state, "Ann", ONE_ONE) == []
    assert ONE_ONE in legal_bids(rules, game.state, "Ann")


def test_only_the_next_player_matters(rules: Ruleset) -> None:
    game = new_game(rules, dice=2)
    game.start_round({"Ann": [2, 2], "Ben": [3, 3], "Cid": [4, 4]})
    game.bid("Ann", 1, 2)
    game.call("Ben")  # two twos on the table: the bid stands, Ben loses (his dice changed last)
    assert game.state.player("Ben").dice == 1
    assert game.state.next_opener == "Ben"
    game.start_round({"Ann": [2, 2], "Ben": [3], "Cid": [4, 4]})
    assert bid_problems(rules, game.state, "Ben", ONE_ONE) == [], "Cid, next to Ben, has two dice"


def test_a_later_bid_of_one_one_is_unaffected(rules: Ruleset) -> None:
    game = new_game(rules, dice=1, players=("Ann", "Ben", "Cid", "Dee"))
    game.start_round({"Ann": [2], "Ben": [3], "Cid": [4], "Dee": [5]})
    game.bid("Ann", 1, 2)
    assert bid_problems(rules, game.state, "Ben", ONE_ONE) == [], (
        "Cid has one die, but Ben does not open"
    )
    game.bid("Ben", 1, 1)
    assert game.state.round.current_bid == ONE_ONE  # type: ignore[union-attr]


def test_the_next_living_player_counts(rules: Ruleset) -> None:
    game = new_game(rules, dice=1)
    game.start_round({"Ann": [2], "Ben": [3], "Cid": [4]})
    game.bid("Ann", 1, 2)
    game.call("Ben")  # one two stands: Ben is out, and the next living player, Cid, opens
    assert not game.state.player("Ben").alive
    assert game.state.next_opener == "Cid"
    game.start_round({"Ann": [2], "Cid": [4]})
    reasons = bid_problems(rules, game.state, "Cid", ONE_ONE)
    assert len(reasons) == 1 and "Ann" in str(reasons[0])


def test_without_the_variant_one_one_may_open() -> None:
    rules = Ruleset.build(["aces-switch", "dice-loss"])
    game = new_game(rules, dice=1)
    game.start_round({"Ann": [2], "Ben": [3], "Cid": [4]})
    assert bid_problems(rules, game.state, "Ann", ONE_ONE) == []


def test_a_player_who_is_out_is_skipped() -> None:
    rules = Ruleset.build(["aces-switch", "dice-loss", "cheko", "winner-opens"])
    game = new_game(rules, dice=1)
    game.start_round({"Ann": [2], "Ben": [3], "Cid": [4]})
    game.bid("Ann", 1, 2)
    game.call("Ben")  # one two stands: Ben is out and Ann, who won the call, opens again
    assert game.state.next_opener == "Ann"
    game.start_round({"Ann": [2], "Cid": [4]})
    reasons = bid_problems(rules, game.state, "Ann", ONE_ONE)
    assert len(reasons) == 1 and "Cid" in str(reasons[0])
