"""liarsdice.ladder: the bid ladder built alone, from a rank function, and its move limits."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from liarsdice import Ruleset
from liarsdice.ladder import BidLadder
from liarsdice.models import Bid
from liarsdice.ruleset import BASELINE


def _face_first(asked: list[Bid]) -> BidLadder:
    """A ladder ranking by face, then quantity, that records every rank it is asked for."""

    def bid_rank(bid: Bid) -> tuple[int, int]:
        asked.append(bid)
        return (bid.face, bid.quantity)

    return BidLadder(SimpleNamespace(bid_rank=bid_rank), None, {}, ())  # type: ignore[arg-type]


def test_the_ladder_holds_every_bid_sorted_by_rank_with_its_keys() -> None:
    keys, bids = _face_first([]).ladder(2)
    assert bids[:4] == [Bid(1, 1), Bid(2, 1), Bid(1, 2), Bid(2, 2)]
    assert len(bids) == 12 and bids[-1] == Bid(2, 6)
    assert keys == [(bid.face, bid.quantity) for bid in bids]


def test_refused_faces_are_left_off_the_ladder() -> None:
    _, bids = _face_first([]).ladder(2, frozenset({1, 6}))
    assert {bid.face for bid in bids} == {2, 3, 4, 5}


def test_each_bid_is_ranked_once_and_each_ladder_sorted_once() -> None:
    asked: list[Bid] = []
    ladder = _face_first(asked)
    first = ladder.ladder(3)
    assert ladder.ladder(3) is first
    assert ladder.rank(Bid(2, 4)) == (4, 2)
    ladder.ladder(2, frozenset({1}))
    assert len(asked) == len(set(asked)) == 18


def test_bids_above_are_the_rest_of_the_ladder() -> None:
    ladder = _face_first([])
    assert ladder.bids_above(None, 2) == ladder.ladder(2)[1]
    assert ladder.bids_above(Bid(2, 5), 2) == [Bid(1, 6), Bid(2, 6)]
    assert ladder.bids_above(Bid(2, 6), 2) == []


def test_the_move_limit_follows_from_the_plugins_asked() -> None:
    rules = Ruleset.build(["dice-loss"])
    ladder = BidLadder(rules.hooks, rules.pm, rules.options, (*rules.order, BASELINE))
    limit = ladder.move_limit(3, 2)
    assert limit == rules.move_limit(3, 2)
    assert limit.rounds == 3 * 2 - 1
    assert ladder.move_limit(3, 2) is limit
    baseline_only = BidLadder(rules.hooks, rules.pm, rules.options, (BASELINE,))
    assert baseline_only.move_limit(3, 2).rounds != limit.rounds
    with pytest.raises(ValueError, match="no table of 0 players"):
        ladder.move_limit(0, 2)


def test_the_ruleset_hands_out_the_ladders_own_methods() -> None:
    """``rules.rank`` is the ladder's bound method, not a wrapper: no extra call per bid."""
    rules = Ruleset.build(["dice-loss"])
    assert rules.rank.__self__ is rules.bid_ladder  # type: ignore[attr-defined]
    assert rules.rank.__func__ is BidLadder.rank  # type: ignore[attr-defined]
    assert rules.bids_above(Bid(1, 2), 1) == rules.bid_ladder.bids_above(Bid(1, 2), 1)
