"""liarsdice.models: bids, seats, clockwise order and the state helpers."""

from __future__ import annotations

import attrs
import pytest

from liarsdice.models import (
    Bid,
    BidAction,
    CallAction,
    GameState,
    PlacedBid,
    PlayerState,
    Resolution,
    RoundState,
)


def table(*seats: tuple[str, int, bool]) -> GameState:
    return GameState(
        players=tuple(PlayerState(name, dice, alive) for name, dice, alive in seats),
        dice_per_player=5,
    )


FOUR = table(("Ann", 5, True), ("Ben", 0, False), ("Cid", 3, True), ("Dan", 2, True))


@pytest.mark.parametrize(
    ("bid", "text"),
    [
        (Bid(1, 6), "1 six"),
        (Bid(4, 5), "4 fives"),
        (Bid(2, 1), "2 ones"),
        (Bid(3, 9), "3 face-9"),
    ],
)
def test_bid_reads_as_words(bid: Bid, text: str) -> None:
    assert str(bid) == text


def test_models_are_frozen_values() -> None:
    bid = Bid(3, 4)
    assert bid == Bid(3, 4)
    assert bid != Bid(4, 3)
    assert hash(bid) == hash(Bid(3, 4))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        bid.quantity = 5  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        FOUR.winners = ("Ann",)  # type: ignore[misc]


def test_call_action_defaults_to_a_challenge() -> None:
    assert CallAction("Ann").kind == "challenge"
    assert BidAction("Ann", Bid(1, 2)).bid == Bid(1, 2)


def test_player_and_seat_lookup() -> None:
    assert FOUR.player("Cid") == PlayerState("Cid", 3, True)
    assert FOUR.seat("Ann") == 0
    assert FOUR.seat("Dan") == 3
    with pytest.raises(KeyError):
        FOUR.player("Zed")
    with pytest.raises(KeyError):
        FOUR.seat("Zed")


def test_alive_and_dice_in_play_ignore_eliminated_players() -> None:
    assert [p.name for p in FOUR.alive] == ["Ann", "Cid", "Dan"]
    assert FOUR.dice_in_play == 5 + 3 + 2
    ghost = table(("Ann", 5, True), ("Ben", 4, False))  # dice of a dead seat never count
    assert ghost.dice_in_play == 5


@pytest.mark.parametrize(
    ("start", "include_self", "expected"),
    [
        ("Ann", False, "Cid"),  # skips the eliminated Ben
        ("Ben", False, "Cid"),  # from an eliminated seat
        ("Ben", True, "Cid"),  # include_self does not pick a dead seat
        ("Dan", False, "Ann"),  # wraps around the table
        ("Cid", True, "Cid"),
        ("Cid", False, "Dan"),
    ],
)
def test_next_alive_goes_clockwise(start: str, include_self: bool, expected: str) -> None:
    assert FOUR.next_alive(start, include_self=include_self) == expected


def test_next_alive_with_a_single_survivor_is_that_survivor() -> None:
    last = table(("Ann", 0, False), ("Ben", 2, True))
    assert last.next_alive("Ben") == "Ben"
    assert last.next_alive("Ann") == "Ben"


def test_next_alive_with_nobody_alive_raises() -> None:
    with pytest.raises(ValueError, match="no living player"):
        table(("Ann", 0, False), ("Ben", 0, False)).next_alive("Ann")


def test_clockwise_from_lists_the_other_living_players_in_order() -> None:
    assert FOUR.clockwise_from("Cid") == ("Dan", "Ann")
    assert FOUR.clockwise_from("Ann") == ("Cid", "Dan")
    assert FOUR.clockwise_from("Ben") == ("Cid", "Dan", "Ann")


def test_over_and_plugin_state() -> None:
    assert not FOUR.over
    won = attrs.evolve(FOUR, winners=("Ann",), plugins={"revolver": {"bullets": {"Ann": 1}}})
    assert won.over
    assert won.plugin("revolver") == {"bullets": {"Ann": 1}}
    assert won.plugin("nobody") == {}


def test_round_current_bid_and_over() -> None:
    round_ = RoundState(1, "Ann", {"Ann": (1, 2)}, 2, turn="Ann")
    assert round_.current_bid is None
    assert not round_.over
    bids = (PlacedBid("Ann", Bid(1, 2)), PlacedBid("Ben", Bid(2, 3)))
    round_ = attrs.evolve(round_, bids=bids)
    assert round_.current_bid == Bid(2, 3)
    ruling = Resolution("challenge", "Ann", "Ben", Bid(2, 3), 1, True, ("Ben",), ("Ann",))
    assert attrs.evolve(round_, resolution=ruling).over
