"""liarsdice.draft: a draft state built alone, its reads, and its frozen snapshot kept fresh."""

from __future__ import annotations

from liarsdice.draft import DraftState
from liarsdice.models import Bid, GameState, PlacedBid, PlayerState, RoundState

SEATS = (PlayerState("Ann", 2), PlayerState("Ben", 0, False), PlayerState("Cid", 2))
ROUND = RoundState(
    1, "Ann", {"Ann": (1, 2), "Cid": (5, 6)}, 4, "Cid", (PlacedBid("Ann", Bid(2, 3)),)
)
STATE = GameState(SEATS, 2, ROUND)


def test_a_draft_unchanged_freezes_to_the_state_it_was_loaded_from() -> None:
    draft = DraftState(STATE)
    assert draft.freeze() is STATE
    assert draft.frozen is STATE
    assert DraftState(GameState(SEATS, 2)).freeze() == GameState(SEATS, 2)


def test_the_reads_see_the_round_flattened() -> None:
    draft = DraftState(STATE)
    assert (draft.number, draft.turn, draft.dice_in_play) == (1, "Cid", 4)
    assert draft.in_round and not draft.over
    assert draft.current_bid == Bid(2, 3)
    assert draft.table == (("Ann", "Ben", "Cid"), 2)
    assert draft.seat("Cid") == 2 and draft.player("Ben") == SEATS[1]
    assert draft.next_alive("Ann") == "Cid" and draft.next_alive("Cid") == "Ann"
    assert draft.next_alive("Ann", include_self=True) == "Ann"
    before = DraftState(GameState(SEATS, 2))
    assert before.number == 0 and not before.in_round and before.current_bid is None


def test_a_changed_round_is_frozen_anew() -> None:
    draft = DraftState(STATE)
    draft.turn = "Ann"
    draft._round_changed()
    assert draft.frozen is None
    frozen = draft.freeze()
    assert frozen.round is not None and frozen.round.turn == "Ann"
    assert frozen.players is STATE.players
    assert draft.freeze() is frozen


def test_a_seat_coming_back_to_life_changes_who_is_next() -> None:
    draft = DraftState(STATE)
    assert draft.next_alive("Ann") == "Cid"
    draft._seat_changed(1, PlayerState("Ben", 1))
    assert draft.next_alive("Ann") == "Ben"
    assert draft.frozen is None
    assert draft.freeze().players[1] == PlayerState("Ben", 1)
    assert draft.freeze().round is ROUND
