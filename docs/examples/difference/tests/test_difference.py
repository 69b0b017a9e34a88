"""The difference variant: a loser gives up as many dice as the bid was off by, at least one."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

import liarsdice_difference as difference
from liarsdice import Bid, DiceChanged, Game, Resolution, Ruleset, scenario
from liarsdice.errors import Conflict
from liarsdice.ruleset import installed

SCENARIOS = Path(__file__).parent.parent / "scenarios"


def ruling(quantity: int, count: int | None, *losers: str) -> Resolution:
    return Resolution(
        "challenge",
        "Ben",
        "Ann",
        Bid(quantity, 5),
        count,
        count is not None and count >= quantity,
        losers,
        (),
    )


@pytest.mark.parametrize(
    ("quantity", "count", "lost"),
    [(6, 4, 2), (6, 8, 2), (6, 6, 1), (3, 0, 3), (1, 9, 8)],
    ids=["bidder short by 2", "challenger over by 2", "exactly right", "none at all", "far over"],
)
def test_the_loser_loses_the_miss_and_at_least_one(quantity: int, count: int, lost: int) -> None:
    assert difference.dice_lost(ruling(quantity, count)) == lost


def test_a_timeout_costs_one_die() -> None:
    timeout = Resolution("timeout", "Ann", None, None, None, False, ("Ann",), ())
    assert difference.dice_lost(timeout) == 1


def test_the_cap_limits_a_loss() -> None:
    assert difference.dice_lost(ruling(9, 2), cap=3) == 3
    assert difference.dice_lost(ruling(9, 8), cap=3) == 1


def test_in_play_a_loss_larger_than_the_dice_held_takes_them_all() -> None:
    rules = Ruleset.build(["difference"])
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [2, 3], "Ben": [4, 4]})
    game.bid("Ann", 4, 6)  # no sixes at all: off by four
    events = game.call("Ben")
    assert DiceChanged("Ann", -2, difference._("lost the round by {lost}", lost=4)) in events
    assert game.state.winner == "Ben"


def test_it_conflicts_with_dice_loss() -> None:
    if "dice-loss" not in installed():
        pytest.skip("dice-loss is not installed")
    with pytest.raises(Conflict, match="difference conflicts with dice-loss"):
        Ruleset.build(["difference", "dice-loss"])


def test_variants_that_need_a_dice_economy_play_with_it() -> None:
    if "palifico" not in installed():
        pytest.skip("palifico is not installed")
    rules = Ruleset.build(["difference", "palifico"])  # palifico requires "dice-economy"
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=3)
    game.start_round({"Ann": [2, 3, 4], "Ben": [4, 4, 6]})
    game.bid("Ann", 5, 4)  # three fours: off by two
    game.call("Ben")
    assert game.state.player("Ann").dice == 1
    game.start_round({"Ann": [5], "Ben": [4, 1, 6]})
    assert game.state.plugin("palifico")["active"] == "Ann"  # her palifico round


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*[!t].json")), ids=lambda p: p.stem)
def test_golden_scenario(path: Path) -> None:
    expected = json.loads(path.with_suffix(".out.json").read_text())
    assert scenario.run(scenario.load(path)) == expected
