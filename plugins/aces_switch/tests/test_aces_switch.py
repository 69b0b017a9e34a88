"""Variant ``aces-switch`` (seeds 002, 004): bids on ones count double.

The raise ladder of seed 002 and the worked example of seed 004, the ``back`` and ``open_on_ones``
options, counting, and the law that the rank is a strict total order.
"""

from __future__ import annotations

import itertools
from random import Random

import pytest

from liarsdice import Bid, Game, Ruleset
from liarsdice.engine import bid_problems, count_matching, legal_bids

NAMES = ["P1", "P2", "P3", "P4", "P5"]  # 25 dice: room for every bid below
FACES_2_TO_6 = range(2, 7)


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    """The default: in from q of a face needs ceil(q/2) ones, back from q ones needs 2q+1."""
    return Ruleset.build(["aces-switch", "dice-loss"])


@pytest.fixture(scope="module")
def double() -> Ruleset:
    """``back=double``: back needs 2q, so the way in needs more than half, floor(q/2)+1."""
    return Ruleset.build(["aces-switch", "dice-loss"], {"aces-switch.back": "double"})


def table(rules: Ruleset, *bids: tuple[int, int], players: int = 5) -> Game:
    """A round with ``bids`` made in turn from P1 (each must be legal)."""
    names = NAMES[:players]
    game = Game(rules, names, Random(0), first_opener="P1")
    game.start_round({name: [1, 2, 3, 5, 5] for name in names})
    for quantity, face in bids:
        assert game.state.round is not None
        game.bid(game.state.round.turn, quantity, face)
    return game


def legal(rules: Ruleset, game: Game, quantity: int, face: int) -> bool:
    assert game.state.round is not None
    return bid_problems(rules, game.state, game.state.round.turn, Bid(quantity, face)) == []


def next_bids(rules: Ruleset, game: Game) -> list[Bid]:
    assert game.state.round is not None
    return legal_bids(rules, game.state, game.state.round.turn)


def lowest_ones_after(rules: Ruleset, quantity: int, face: int) -> int:
    game = table(rules, (quantity, face))
    return min(bid.quantity for bid in next_bids(rules, game) if bid.face == 1)


def lowest_face_after_ones(rules: Ruleset, ones: int) -> int:
    game = table(rules, (ones, 2), (ones, 1)) if ones > 1 else table(rules, (1, 1))
    return min(bid.quantity for bid in next_bids(rules, game) if bid.face != 1)


# --- seed 002's ladder ---------------------------------------------------------------------------


def test_002_after_five_threes(rules: Ruleset) -> None:
    game = table(rules, (5, 3))
    assert legal(rules, game, 6, 2)
    assert legal(rules, game, 5, 6)
    assert legal(rules, game, 3, 1)
    assert not legal(rules, game, 2, 1)


def test_002_after_six_threes_and_three_ones(rules: Ruleset) -> None:
    game = table(rules, (6, 3))
    assert legal(rules, game, 3, 1)
    game.bid("P2", 3, 1)
    expected = {Bid(q, f) for q in range(7, 26) for f in FACES_2_TO_6}
    expected |= {Bid(q, 1) for q in range(4, 26)}
    assert set(next_bids(rules, game)) == expected


# --- seed 004's worked example -------------------------------------------------------------------


def test_004_three_ones_is_the_least_raise_to_ones_after_six_fives(rules: Ruleset) -> None:
    game = table(rules, (6, 5), players=4)
    assert game.state.round is not None and game.state.round.dice_in_play == 20
    assert legal(rules, game, 3, 1)
    assert not legal(rules, game, 2, 1)
    assert next_bids(rules, game)[:2] == [Bid(6, 6), Bid(3, 1)]


def test_004_seven_of_a_face_is_the_least_raise_from_three_ones(rules: Ruleset) -> None:
    game = table(rules, (6, 5), (3, 1), players=4)
    assert all(not legal(rules, game, 6, face) for face in FACES_2_TO_6)
    assert all(legal(rules, game, 7, face) for face in FACES_2_TO_6)
    assert next_bids(rules, game)[:5] == [Bid(7, face) for face in FACES_2_TO_6]
    assert legal(rules, game, 4, 1)
    assert not legal(rules, game, 3, 1)


@pytest.mark.parametrize("quantity", range(1, 13))
def test_in_needs_half_rounded_up(rules: Ruleset, quantity: int) -> None:
    assert lowest_ones_after(rules, quantity, 4) == (quantity + 1) // 2


@pytest.mark.parametrize("ones", range(1, 8))
def test_back_needs_double_plus_one(rules: Ruleset, ones: int) -> None:
    assert lowest_face_after_ones(rules, ones) == 2 * ones + 1


# --- back=double ---------------------------------------------------------------------------------


def test_double_after_three_ones(double: Ruleset) -> None:
    game = table(double, (5, 5), (3, 1), players=4)
    assert legal(double, game, 6, 2)
    assert not legal(double, game, 5, 6)


def test_double_in_from_six_fives_needs_four_ones(double: Ruleset) -> None:
    game = table(double, (6, 5), players=4)
    assert not legal(double, game, 3, 1)
    assert legal(double, game, 4, 1)


@pytest.mark.parametrize("quantity", range(1, 13))
def test_double_in_needs_more_than_half(double: Ruleset, quantity: int) -> None:
    assert lowest_ones_after(double, quantity, 4) == quantity // 2 + 1


@pytest.mark.parametrize("ones", range(1, 8))
def test_double_back_needs_double(double: Ruleset, ones: int) -> None:
    assert lowest_face_after_ones(double, ones) == 2 * ones


@pytest.mark.parametrize("back", ["double-plus-one", "double"])
def test_no_loop_six_fives_three_ones_six_fives(back: str) -> None:
    rules = Ruleset.build(["aces-switch", "dice-loss"], {"aces-switch.back": back})
    game = table(rules, (6, 5), players=4)
    if legal(rules, game, 3, 1):
        game.bid("P2", 3, 1)
        assert not legal(rules, game, 6, 5), "6 fives -> 3 ones -> 6 fives would loop"
    else:
        game = table(rules, (3, 1), players=4)
        assert legal(rules, game, 6, 5)


# --- faces 2-6, ones to ones ---------------------------------------------------------------------


def test_same_quantity_higher_face_raises_among_two_to_six(rules: Ruleset) -> None:
    game = table(rules, (3, 2))
    assert all(legal(rules, game, 3, face) for face in range(3, 7))
    game = table(rules, (3, 5))
    assert not legal(rules, game, 3, 4)


def test_ones_are_not_the_face_below_twos(rules: Ruleset) -> None:
    game = table(rules, (3, 2), (3, 1))
    assert all(not legal(rules, game, 3, face) for face in FACES_2_TO_6)
    game = table(rules, (2, 1))
    assert all(not legal(rules, game, 2, face) for face in FACES_2_TO_6)


@pytest.mark.parametrize("fixture", ["rules", "double"])
def test_ones_to_ones_needs_a_higher_quantity(fixture: str, request: pytest.FixtureRequest) -> None:
    rules: Ruleset = request.getfixturevalue(fixture)
    game = table(rules, (6, 5), (4, 1))
    assert not legal(rules, game, 3, 1)
    assert not legal(rules, game, 4, 1)
    assert legal(rules, game, 5, 1)


# --- opening on ones -----------------------------------------------------------------------------


def test_open_on_ones_false_refuses_an_opening_bid_on_ones() -> None:
    rules = Ruleset.build(["aces-switch", "dice-loss"], {"aces-switch.open_on_ones": False})
    game = table(rules)
    reasons = bid_problems(rules, game.state, "P1", Bid(2, 1))
    assert reasons and "ones" in str(reasons[0])
    assert all(bid.face != 1 for bid in next_bids(rules, game))
    game.bid("P1", 2, 3)
    assert legal(rules, game, 2, 1), "after the opening bid ones may be bid"


def test_open_on_ones_true_allows_it(rules: Ruleset) -> None:
    assert rules.options["aces-switch.open_on_ones"] is True
    game = table(rules)
    assert legal(rules, game, 1, 1)
    assert next_bids(rules, game)[0] == Bid(1, 2)
    assert Bid(1, 1) in next_bids(rules, game)


# --- counting ------------------------------------------------------------------------------------


def test_a_bid_on_ones_counts_only_ones(rules: Ruleset) -> None:
    game = Game(rules, ["Ann", "Ben"], Random(0), first_opener="Ann")
    game.start_round({"Ann": [1, 1, 5, 5, 5], "Ben": [1, 5, 2, 3, 4]})
    assert count_matching(rules, game.state, 1) == 3
    assert count_matching(rules, game.state, 5) == 7
    game.bid("Ann", 4, 1)
    game.call("Ben")
    resolution = game.state.round.resolution  # type: ignore[union-attr]
    assert resolution is not None
    assert (resolution.count, resolution.losers) == (3, ("Ann",))


# --- the rank is a strict total order ------------------------------------------------------------


@pytest.mark.parametrize("fixture", ["rules", "double"])
def test_rank_is_a_strict_total_order(fixture: str, request: pytest.FixtureRequest) -> None:
    rules: Ruleset = request.getfixturevalue(fixture)
    rank = rules.hooks.bid_rank
    bids = [Bid(q, f) for q in range(1, 21) for f in range(1, 7)]
    keys = [rank(bid) for bid in bids]
    assert len(set(keys)) == len(bids), "distinct bids have distinct keys"
    ladder_keys, ladder = rules.ladder(20)
    assert sorted(ladder, key=rank) == ladder
    assert set(ladder) == set(bids)
    for lower, higher in itertools.pairwise(ladder_keys):
        assert lower < higher and not higher < lower
    for a, b in itertools.combinations(bids, 2):
        ka, kb = rank(a), rank(b)
        assert (ka < kb) != (kb < ka), f"{a} and {b} must compare one way"
