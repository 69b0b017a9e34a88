"""The dice-loss variant: a lost round costs the loser one die; no dice, out; last one in wins."""

from __future__ import annotations

from random import Random

import pytest

import liarsdice_dice_loss as dice_loss
from liarsdice import DiceChanged, Eliminated, Game, GameLimit, Resolution, Ruleset
from liarsdice.events import GameWon, OpenerChosen
from liarsdice.i18n import _ as core_text
from liarsdice.models import Bid
from liarsdice.ruleset import installed
from liarsdice.simulate import play_game

LOST = dice_loss._("lost the round")


def ruling(*losers: str) -> Resolution:
    return Resolution("challenge", "Ben", "Ann", Bid(3, 4), 2, True, losers, ("Ben",))


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return Ruleset.build(["dice-loss"])


def test_it_is_installed_through_its_entry_point() -> None:
    variant = installed()["dice-loss"]
    assert variant.plugin is dice_loss
    assert variant.distribution == "liarsdice-rules-dice-loss"
    assert variant.options == () and variant.calls == ()


def test_it_is_an_economics_plugin() -> None:
    info = dice_loss.liarsdice_variant_info()
    assert info.economics is True
    assert str(info.title) == "Dice loss"
    assert info.requires == () and info.conflicts == ()


def test_it_provides_the_dice_economy_and_needs_no_markers() -> None:
    assert dice_loss.liarsdice_variant_info().provides == ("dice-economy",)
    marks = dice_loss.liarsdice_settle.liarsdice_impl
    assert marks["trylast"] is False and marks["tryfirst"] is False


def test_settle_takes_one_die_from_each_loser() -> None:
    assert dice_loss.liarsdice_settle(ruling("Ann")) == [DiceChanged("Ann", -1, LOST)]
    assert dice_loss.liarsdice_settle(ruling("Ann", "Cid")) == [
        DiceChanged("Ann", -1, LOST),
        DiceChanged("Cid", -1, LOST),
    ]
    assert dice_loss.liarsdice_settle(ruling()) == []


def test_in_play_the_loser_gives_up_one_die(rules: Ruleset) -> None:
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(0), dice_per_player=3)
    game.start_round({"Ann": [2, 2, 3], "Ben": [4, 4, 5], "Cid": [6, 6, 6]})
    game.bid("Ann", 4, 6)  # three sixes
    events = game.call("Ben")
    assert DiceChanged("Ann", -1, LOST) in events
    assert [p.dice for p in game.state.players] == [2, 3, 3]


def test_no_dice_means_out_and_the_last_one_with_dice_wins(rules: Ruleset) -> None:
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [3, 3], "Ben": [4, 5]})
    game.bid("Ann", 3, 3)  # two threes: a lie
    game.call("Ben")
    assert game.state.player("Ann").dice == 1 and game.state.player("Ann").alive
    game.start_round({"Ann": [6], "Ben": [2, 2]})
    game.bid("Ann", 2, 6)  # one six: a lie
    events = game.call("Ben")
    assert events[-3:] == [
        DiceChanged("Ann", -1, LOST),
        Eliminated("Ann", core_text("lost their last die")),
        GameWon("Ben"),
    ]
    assert game.state.winner == "Ben"
    assert not any(isinstance(e, OpenerChosen) for e in events)


def test_a_timeout_costs_a_die_too(rules: Ruleset) -> None:
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [3, 3], "Ben": [4, 5]})
    events = game.timeout("Ann")
    assert DiceChanged("Ann", -1, LOST) in events


def test_its_rules_text_is_on_the_rules_page(rules: Ruleset) -> None:
    page = rules.describe()
    section = page[page.index("## Dice loss") :]
    assert "one die" in section


def test_a_game_lasts_at_most_every_die_but_one_rounds(rules: Ruleset) -> None:
    """Each lost round takes a die and the winner keeps one: players x dice - 1 rounds."""
    assert dice_loss.liarsdice_game_limit(3, 2) == GameLimit(
        rounds=5, why="a lost round costs a die, 6 dice - 1"
    )
    limit = rules.move_limit(4, 3)
    assert (limit.rounds, limit.turns) == (11, 6 * 12 + 1)
    rng = Random(4)
    longest = max(
        play_game(rules, ["a", "b", "c", "d"], rng, dice_per_player=3).rounds for _ in range(100)
    )
    assert longest == 11  # without calza or timeouts every round costs exactly one die
