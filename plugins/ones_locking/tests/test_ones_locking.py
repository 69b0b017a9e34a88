"""Variant ``ones-locking`` (seed 001): ones are wild until anyone bids ones, then locked."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Bid, Game, Ruleset, RulesetError
from liarsdice.engine import bid_problems, count_matching, legal_bids

PLAYERS = ["Ann", "Ben", "Cid"]
# Three fives and three ones on the table: a bid on fives counts 6 while ones are wild, 3 once
# they are locked; a bid on ones counts 3 either way.
ROLLS = {"Ann": [5, 5, 1, 2, 3], "Ben": [1, 1, 4, 6, 6], "Cid": [5, 2, 3, 4, 6]}


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return Ruleset.build(["ones-locking", "dice-loss"])


@pytest.fixture(scope="module")
def high_rules() -> Ruleset:
    return Ruleset.build(["ones-locking", "dice-loss"], {"ones-locking.ones_rank": "high"})


def new_round(rules: Ruleset, rolls: dict[str, list[int]] = ROLLS) -> Game:
    game = Game(rules, PLAYERS, Random(0), first_opener="Ann")
    game.start_round(rolls)
    return game


def problems(rules: Ruleset, game: Game, quantity: int, face: int) -> list[str]:
    assert game.state.round is not None
    return bid_problems(rules, game.state, game.state.round.turn, Bid(quantity, face))


# --- wild until locked ---------------------------------------------------------------------------


def test_ones_are_wild_until_someone_bids_ones(rules: Ruleset) -> None:
    game = new_round(rules)
    assert count_matching(rules, game.state, 5) == 6
    game.bid("Ann", 4, 5)
    assert count_matching(rules, game.state, 5) == 6, "a bid on fives does not lock ones"
    game.bid("Ben", 5, 1)
    assert count_matching(rules, game.state, 5) == 3, "ones are locked once anyone bids ones"
    assert count_matching(rules, game.state, 1) == 3
    game.bid("Cid", 5, 5)
    assert count_matching(rules, game.state, 5) == 3, "locked for the rest of the round"


def test_a_challenge_after_the_lock_counts_without_wild_ones(rules: Ruleset) -> None:
    game = new_round(rules)
    game.bid("Ann", 4, 5)
    game.bid("Ben", 5, 1)
    game.bid("Cid", 5, 5)  # true with wild ones (6), false once they are locked (3)
    game.call("Ann")
    resolution = game.state.round.resolution  # type: ignore[union-attr]
    assert resolution is not None
    assert resolution.count == 3
    assert resolution.losers == ("Cid",)
    assert game.state.player("Cid").dice == 4
    assert game.state.next_opener == "Cid"


def test_without_a_ones_bid_the_challenge_counts_wild_ones(rules: Ruleset) -> None:
    game = new_round(rules)
    game.bid("Ann", 4, 5)
    game.bid("Ben", 5, 5)
    game.call("Cid")
    resolution = game.state.round.resolution  # type: ignore[union-attr]
    assert resolution is not None
    assert (resolution.count, resolution.losers) == (6, ("Cid",))


def test_the_opener_bidding_ones_locks_them(rules: Ruleset) -> None:
    game = new_round(rules)
    game.bid("Ann", 1, 1)
    assert count_matching(rules, game.state, 6) == 3  # Ben's two sixes and Cid's one


def test_ones_are_unlocked_again_next_round(rules: Ruleset) -> None:
    game = new_round(rules)
    game.bid("Ann", 2, 1)
    game.call("Ben")  # three ones: the bid stands, Ben loses and opens
    assert count_matching(rules, game.state, 5) == 3
    game.start_round({"Ann": [5, 5, 1, 2, 3], "Ben": [1, 1, 4, 6], "Cid": [5, 2, 3, 4, 6]})
    assert count_matching(rules, game.state, 5) == 6
    game.bid("Ben", 6, 5)
    game.call("Cid")
    resolution = game.state.round.resolution  # type: ignore[union-attr]
    assert resolution is not None
    assert (resolution.count, resolution.losers) == (6, ("Cid",))


# --- bids on ones and their rank -----------------------------------------------------------------


def test_ones_may_be_bid_while_wild(rules: Ruleset) -> None:
    game = new_round(rules)
    assert problems(rules, game, 2, 1) == []
    assert Bid(1, 1) in legal_bids(rules, game.state, "Ann")
    game.bid("Ann", 3, 2)
    assert problems(rules, game, 4, 1) == []


def test_ones_rank_low(rules: Ruleset) -> None:
    game = new_round(rules)
    game.bid("Ann", 5, 1)
    assert problems(rules, game, 5, 2) == [], "5 twos raises 5 ones"
    game.bid("Ben", 5, 6)
    assert problems(rules, game, 5, 1), "5 ones does not raise 5 sixes"
    assert problems(rules, game, 6, 1) == []
    assert legal_bids(rules, game.state, "Cid", limit=2) == [Bid(6, 1), Bid(6, 2)]


def test_ones_rank_high(high_rules: Ruleset) -> None:
    game = new_round(high_rules)
    game.bid("Ann", 5, 6)
    assert problems(high_rules, game, 5, 1) == [], "5 ones raises 5 sixes"
    game.bid("Ben", 5, 1)
    assert problems(high_rules, game, 5, 6), "5 sixes does not raise 5 ones"
    assert problems(high_rules, game, 5, 2)
    assert legal_bids(high_rules, game.state, "Cid", limit=1) == [Bid(6, 2)]


def test_high_ones_still_lock(high_rules: Ruleset) -> None:
    game = new_round(high_rules)
    game.bid("Ann", 4, 5)
    assert count_matching(high_rules, game.state, 5) == 6
    game.bid("Ben", 4, 1)
    assert count_matching(high_rules, game.state, 5) == 3


# --- composition ---------------------------------------------------------------------------------


def test_refused_without_wild_ones() -> None:
    with pytest.raises(RulesetError) as caught:
        Ruleset.build(["ones-locking", "dice-loss"], {"standard.wild_ones": False})
    assert "ones-locking" in str(caught.value)
    assert "standard.wild_ones" in str(caught.value)


def test_conflicts_with_aces_switch() -> None:
    with pytest.raises(RulesetError) as caught:
        Ruleset.build(["ones-locking", "aces-switch", "dice-loss"])
    assert "ones-locking" in str(caught.value)
    assert "aces-switch" in str(caught.value)


def test_online_preset_locks_ones() -> None:
    rules = Ruleset.build(preset="online")
    assert "ones-locking" in rules.names
    game = new_round(rules)
    game.bid("Ann", 4, 5)
    game.bid("Ben", 5, 1)
    assert count_matching(rules, game.state, 5) == 3
