"""The bridge by name: ``pyspiel.load_game("python_liarsdice", ...)``, game strings that load the
same game again, clear refusals of bad parameters, and shimmy's PettingZoo wrapper, which loads
games by name at every reset."""

from __future__ import annotations

import os
import warnings

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")
    pytest.importorskip("shimmy", reason="shimmy is in the dev group")

import pyspiel
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0

from liarsdice import Ruleset
from liarsdice import openspiel as bridge
from liarsdice.errors import UnknownVariant


def test_by_name_with_no_parameters_is_openspiels_liars_dice_over_a_whole_game() -> None:
    by_name = pyspiel.load_game("python_liarsdice")
    built = bridge.load(Ruleset.build(["wild-sixes", "dice-loss"]), 2, 1)
    assert str(by_name) == str(built)
    assert by_name.num_distinct_actions() == built.num_distinct_actions() == 13
    assert by_name.num_players() == 2


def test_a_game_string_loads_the_same_game_again() -> None:
    """str(game) names the rules and the table, so pyspiel.load_game(str(game)) rebuilds it."""
    game = pyspiel.load_game("python_liarsdice", {"preset": "dudo", "players": 3, "dice": 5})
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.table.rules.to_data() == Ruleset.build(preset="dudo").to_data()
    assert (again.num_players(), again.table.dice) == (3, 5)


def test_variants_and_options_are_read_from_their_parameters() -> None:
    game = pyspiel.load_game(
        "python_liarsdice(players=3,dice=2,variants=chips+calza,options=chips.start:5;calza.anyone:true)"
    )
    rules = game.table.rules
    assert set(rules.names) >= {"chips", "calza"}
    assert rules.options["chips.start"] == 5
    assert rules.options["calza.anyone"] is True


@pytest.mark.parametrize(
    ("parameters", "error", "words"),
    [
        ({"variants": "nope"}, UnknownVariant, "unknown variant 'nope'"),
        ({"options": "chips.start"}, ValueError, "option 'chips.start' is not name:value"),
        ({"players": 1}, ValueError, "not 1 x 1"),
        ({"colour": "red"}, pyspiel.SpielError, "Unknown parameter 'colour'"),
    ],
)
def test_a_bad_parameter_is_refused_by_name(
    parameters: dict[str, object], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        pyspiel.load_game("python_liarsdice", parameters)


@pytest.mark.parametrize(
    "config",
    [
        None,
        {"preset": "perudo", "players": 3, "dice": 5},
        {"variants": "dice-loss+calza", "options": "calza.anyone:true", "players": 3, "dice": 2},
        {"preset": "casino", "players": 2, "dice": 5},
    ],
    ids=["default", "perudo-3x5", "calza-anyone-3x2", "casino-2x5"],
)
def test_shimmys_pettingzoo_wrapper_passes_the_api_test(config: dict[str, object] | None) -> None:
    """shimmy reloads the game by name at each reset: before the registration it failed there
    ("Unknown game 'python_liarsdice'")."""
    env = OpenSpielCompatibilityV0(game_name="python_liarsdice", config=config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the Box's infinite bounds, shimmy's choice
        api_test(env, num_cycles=300)
