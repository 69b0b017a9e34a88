"""liarsdice.reducer: folding events into state, refusing events that do not fit, replay."""

from __future__ import annotations

import pytest

from liarsdice.events import (
    BidMade,
    CallMade,
    DiceChanged,
    Eliminated,
    Event,
    GameStarted,
    GameWon,
    Notice,
    OpenerChosen,
    PluginStateSet,
    RoundResolved,
    RoundStarted,
    TimedOut,
)
from liarsdice.models import Bid, PlacedBid, PlayerState, Resolution
from liarsdice.reducer import InvalidEvent, apply_event, replay

START = [GameStarted(("Ann", "Ben", "Cid"), 2), OpenerChosen("Ann")]
ROLLS = {"Ann": (1, 2), "Ben": (3, 4), "Cid": (5, 6)}
RULING = Resolution("challenge", "Ben", "Ann", Bid(2, 2), 2, False, ("Ben",), ("Ann",))


def fold(*events: Event):
    return replay([*START, *events])


def test_game_started_seats_everyone_with_full_dice() -> None:
    state = apply_event(None, GameStarted(("Ann", "Ben"), 3))
    assert state.players == (PlayerState("Ann", 3), PlayerState("Ben", 3))
    assert state.dice_per_player == 3
    assert state.round is None and state.winner is None and state.next_opener is None


def test_a_game_must_start_with_game_started() -> None:
    with pytest.raises(InvalidEvent, match="must start with GameStarted"):
        apply_event(None, OpenerChosen("Ann"))
    with pytest.raises(InvalidEvent, match="empty event log"):
        replay([])


def test_round_started_opens_the_round_and_uses_up_the_opener() -> None:
    state = fold(RoundStarted(1, "Ann", ROLLS))
    assert state.round is not None
    assert state.round.number == 1
    assert state.round.turn == state.round.opener == "Ann"
    assert state.round.dice_in_play == 6
    assert state.round.bids == () and state.round.resolution is None
    assert state.next_opener is None


@pytest.mark.parametrize(
    ("rolls", "message"),
    [
        ({"Ann": (1, 2), "Ben": (3, 4)}, "Cid must roll 2 dice"),
        ({"Ann": (1, 2), "Ben": (3,), "Cid": (5, 6)}, "Ben must roll 2 dice"),
        ({"Ann": (1, 2), "Ben": (3, 4), "Cid": (5, 0)}, "face outside 1-6"),
        ({"Ann": (1, 2), "Ben": (3, 4), "Cid": (5, 7)}, "face outside 1-6"),
    ],
)
def test_round_started_checks_the_rolls(rolls, message) -> None:
    with pytest.raises(InvalidEvent, match=message):
        fold(RoundStarted(1, "Ann", rolls))


def test_a_player_who_is_out_must_not_roll() -> None:
    with pytest.raises(InvalidEvent, match="Cid must roll 0 dice"):
        fold(Eliminated("Cid", "x"), RoundStarted(1, "Ann", ROLLS))
    state = fold(Eliminated("Cid", "x"), RoundStarted(1, "Ann", {"Ann": (1, 2), "Ben": (3, 4)}))
    assert state.round is not None and state.round.dice_in_play == 4


def test_bid_made_records_the_bid_and_passes_the_turn_clockwise() -> None:
    state = fold(RoundStarted(1, "Ann", ROLLS), BidMade("Ann", Bid(1, 2)))
    assert state.round is not None
    assert state.round.bids == (PlacedBid("Ann", Bid(1, 2)),)
    assert state.round.turn == "Ben"
    state = fold(
        RoundStarted(1, "Ann", ROLLS),
        BidMade("Ann", Bid(1, 2)),
        BidMade("Ben", Bid(2, 2)),
        BidMade("Cid", Bid(3, 2)),
    )
    assert state.round is not None and state.round.turn == "Ann"
    assert state.round.current_bid == Bid(3, 2)


def test_bid_needs_a_round_in_play() -> None:
    with pytest.raises(InvalidEvent, match="no round is being played"):
        fold(BidMade("Ann", Bid(1, 2)))
    with pytest.raises(InvalidEvent, match="no round is being played"):
        fold(RoundStarted(1, "Ann", ROLLS), RoundResolved(RULING), BidMade("Cid", Bid(3, 2)))


def test_round_resolved_ends_the_round() -> None:
    state = fold(RoundStarted(1, "Ann", ROLLS), BidMade("Ann", Bid(2, 2)), RoundResolved(RULING))
    assert state.round is not None and state.round.over
    assert state.round.resolution == RULING
    assert state.round.bids == (PlacedBid("Ann", Bid(2, 2)),)
    with pytest.raises(InvalidEvent):
        apply_event(state, RoundResolved(RULING))


def test_announcements_change_nothing() -> None:
    state = fold(RoundStarted(1, "Ann", ROLLS), BidMade("Ann", Bid(2, 2)))
    for event in (
        CallMade("Ben", "challenge"),
        TimedOut("Ben"),
        Notice("revolver", "click", "Ben"),
    ):
        assert apply_event(state, event) == state


def test_dice_changed_moves_dice_within_zero_and_the_starting_count() -> None:
    state = fold(DiceChanged("Ben", -1, "lost"))
    assert state.player("Ben").dice == 1
    assert apply_event(state, DiceChanged("Ben", 1, "regained")).player("Ben").dice == 2
    assert apply_event(state, DiceChanged("Ben", -1, "lost")).player("Ben") == PlayerState(
        "Ben", 0, True
    )
    with pytest.raises(InvalidEvent, match="cannot go from 2 to 3 dice"):
        fold(DiceChanged("Ann", 1, "too many"))
    with pytest.raises(InvalidEvent, match="cannot go from 1 to -1 dice"):
        apply_event(state, DiceChanged("Ben", -2, "too few"))


def test_dice_of_a_player_who_is_out_cannot_change() -> None:
    with pytest.raises(InvalidEvent, match="alive=False"):
        fold(Eliminated("Ben", "x"), DiceChanged("Ben", 1, "zombie"))


def test_eliminated_takes_the_dice_and_happens_once() -> None:
    state = fold(Eliminated("Ben", "shot"))
    assert state.player("Ben") == PlayerState("Ben", 0, False)
    assert state.dice_in_play == 4
    with pytest.raises(InvalidEvent, match="Ben is already out"):
        apply_event(state, Eliminated("Ben", "again"))


def test_plugin_state_merges_keys_per_plugin() -> None:
    state = fold(
        PluginStateSet("revolver", "bullets", {"Ann": 1}),
        PluginStateSet("revolver", "spins", 2),
        PluginStateSet("ones-locking", "locked", True),
        PluginStateSet("revolver", "bullets", {"Ann": 2}),
    )
    assert state.plugins == {
        "revolver": {"bullets": {"Ann": 2}, "spins": 2},
        "ones-locking": {"locked": True},
    }


def test_opener_must_be_alive() -> None:
    with pytest.raises(InvalidEvent, match="Ben is out and cannot open"):
        fold(Eliminated("Ben", "x"), OpenerChosen("Ben"))
    assert fold(OpenerChosen("Cid")).next_opener == "Cid"


def test_game_won_records_the_winner_and_clears_the_opener() -> None:
    state = fold(GameWon("Ann"))
    assert state.winner == "Ann" and state.over
    assert state.next_opener is None


def test_apply_event_does_not_touch_its_input() -> None:
    before = fold(RoundStarted(1, "Ann", ROLLS))
    snapshot = replay([*START, RoundStarted(1, "Ann", ROLLS)])
    apply_event(before, BidMade("Ann", Bid(1, 2)))
    apply_event(before, PluginStateSet("p", "k", 1))
    assert before == snapshot
