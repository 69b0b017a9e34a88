"""Information states say only what a player may see: deal them different dice they may not see,
make the same moves, and their strings and tensors stay the same."""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")

from liarsdice import Ruleset
from liarsdice import openspiel as bridge
from liarsdice.models import Bid, BidAction


def seen(
    game: bridge.LiarsDiceGame, steps: Sequence[int], player: int
) -> list[tuple[str, tuple[float, ...], str]]:
    """``player``'s information-state string and tensor, and observation string, after each of
    ``steps`` (chance outcomes and actions)."""
    state = game.new_initial_state()
    found = []
    for step in steps:
        state.apply_action(step)
        found.append(
            (
                state.information_state_string(player),
                tuple(state.information_state_tensor(player)),
                state.observation_string(player),
            )
        )
    return found


def bids(game: bridge.LiarsDiceGame, *made: tuple[str, int, int]) -> list[int]:
    return [game.table.space.number(BidAction(p, Bid(q, f))) for p, q, f in made]


def test_other_players_dice_are_not_seen(equivalent_rules: Ruleset) -> None:
    game = bridge.load(equivalent_rules, 3, 1)
    moves = bids(game, ("p0", 1, 3), ("p1", 2, 4), ("p2", 3, 2))
    for_p0 = {
        str(seen(game, [2, *others, *moves], 0)) for others in itertools.product(range(6), repeat=2)
    }
    assert len(for_p0) == 1
    for_p1 = {str(seen(game, [2, own, 0, *moves], 1)) for own in range(6)}
    assert len(for_p1) == 6  # their own die they do see


def test_a_forehead_die_is_seen_by_all_but_its_owner() -> None:
    rules = Ruleset.build(["dice-loss", "forehead"])
    game = bridge.load(rules, 2, 1)
    moves = bids(game, ("p0", 1, 3), ("p1", 1, 5))
    assert len({str(seen(game, [own, 4, *moves], 0)) for own in range(6)}) == 1
    assert len({str(seen(game, [0, other, *moves], 0)) for other in range(6)}) == 6
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(4)
    assert "own ?; sees p1 5" in state.information_state_string(0)


def test_a_bluff_reroll_is_seen_by_the_bidder_alone() -> None:
    rules = Ruleset.build(["dice-loss", "bluff"])
    game = bridge.load(rules, 2, 2)
    show_four = game.table.space.number(BidAction("p0", Bid(1, 2)), 1)
    deal = [0, 3, 4, 4]
    assert len({str(seen(game, [*deal, show_four, face], 1)) for face in range(6)}) == 1
    assert len({str(seen(game, [*deal, show_four, face], 0)) for face in range(6)}) == 6
