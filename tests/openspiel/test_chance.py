"""Randomness made explicit: the scripted Random, and chance nodes made from plugins' draws."""

from __future__ import annotations

import os
import types
from collections.abc import Callable
from random import Random
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")

from liarsdice import Ruleset, hookimpl
from liarsdice import openspiel as bridge
from liarsdice.chance import rigged
from liarsdice.models import Bid, BidAction, CallAction
from liarsdice.openspiel.chance import (
    ChanceNeeded,
    DrawRefused,
    ScriptedRandom,
)
from liarsdice.testing.plugins import extra_variants


def scripted(*script: int) -> ScriptedRandom:
    return ScriptedRandom(script, max_outcomes=12, max_draws=8)


def needed(draw: Callable[[Random], Any]) -> ChanceNeeded:
    with pytest.raises(ChanceNeeded) as raised:
        draw(scripted())
    return raised.value


def test_each_draw_is_the_next_outcome_of_the_script() -> None:
    rng = scripted(3, 0, 5, 1, 2, 4, 0)
    assert rng.randrange(10) == 3
    assert rng.randint(1, 6) == 1
    assert rng.choice("abcdef") == "f"
    assert rng.choices([1, 2, 3, 4, 5, 6], k=3) == [2, 3, 5]
    assert rng.randrange(2, 12, 3) == 2
    assert rng.drawn == 7


@pytest.mark.parametrize(
    ("draw", "labels"),
    [
        (lambda rng: rng.randrange(6), ("0", "1", "2", "3", "4", "5")),
        (lambda rng: rng.randint(1, 3), ("1", "2", "3")),
        (lambda rng: rng.choice(["Ann", "Ben"]), ("Ann", "Ben")),
        (lambda rng: rng.choices("xy", k=2), ("x", "y")),
        (lambda rng: rng.shuffle([1, 2, 3]), ("0", "1", "2")),
        (lambda rng: rng.getrandbits(2), ("0", "1", "2", "3")),
    ],
)
def test_past_the_script_a_draw_names_its_outcomes(
    draw: Callable[[Random], Any], labels: tuple[str, ...]
) -> None:
    need = needed(draw)
    assert need.labels == labels
    assert need.probabilities == pytest.approx([1 / len(labels)] * len(labels))


def test_weighted_choices_give_their_probabilities() -> None:
    assert needed(lambda rng: rng.choices("ab", [1, 3])).probabilities == (0.25, 0.75)
    assert needed(lambda rng: rng.choices("ab", cum_weights=[1, 4])).probabilities == (0.25, 0.75)


def test_a_draw_of_one_outcome_is_no_draw() -> None:
    rng = scripted()
    assert rng.randrange(1) == 0
    assert rng.choice(["only"]) == "only"
    assert rng.drawn == 0


def test_continuous_and_oversized_draws_are_refused() -> None:
    with pytest.raises(DrawRefused, match="random\\(\\) draws from infinitely many outcomes"):
        scripted().random()
    with pytest.raises(DrawRefused, match="infinitely many"):
        scripted().uniform(0, 1)
    with pytest.raises(DrawRefused, match="a draw of 13 outcomes, more than the 12"):
        scripted().randrange(13)
    with pytest.raises(DrawRefused, match="more than 8 draws in one step"):
        scripted(*[0] * 8).choices(range(6), k=9)


def test_rigged_draws_are_not_rigged() -> None:
    assert rigged(scripted(), "trigger") is None


def test_the_deal_is_a_chance_node_per_die_in_seat_order(equivalent_rules: Ruleset) -> None:
    state = bridge.load(equivalent_rules, 3, 2, max_info_states=None).new_initial_state()
    for die in range(6):
        assert state.is_chance_node()
        assert dict(state.chance_outcomes()) == pytest.approx(dict.fromkeys(range(6), 1 / 6))
        state.apply_action(die)
    assert state.game_state is not None and state.game_state.round is not None
    assert state.game_state.round.rolls == {"p0": (1, 2), "p1": (3, 4), "p2": (5, 6)}
    assert state.current_player() == 0


def test_a_random_first_opener_is_a_chance_node() -> None:
    rules = Ruleset.build(["dice-loss", "random-opener"])
    state = bridge.load(rules, 3, 1).new_initial_state()
    assert state.action_to_string(-1, 2).startswith("chance: PlayerState(name='p2'")
    state.apply_action(2)
    for die in range(3):
        state.apply_action(die)
    assert state.current_player() == 2


def test_a_random_draw_in_a_hook_is_refused_naming_the_plugin(
    plugin_factory: Callable[..., types.ModuleType],
) -> None:
    @hookimpl
    def liarsdice_settle(rng: Random) -> list[Any]:
        rng.random()
        return []

    with extra_variants({"spinner": plugin_factory("spinner", liarsdice_settle)}):
        rules = Ruleset.build(["dice-loss", "spinner"])
    game = bridge.load(rules, 2, 1)
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(0)
    state.apply_action(game.table.space.number(BidAction("p0", Bid(1, 2))))
    with pytest.raises(bridge.Unsupported) as refused:
        state.apply_action(game.table.space.number(CallAction("p1", "challenge")))
    message = str(refused.value)
    assert "Ruleset(['dice-loss', 'spinner']" in message and "2 players x 1 die" in message
    assert "random() draws from infinitely many outcomes" in message
    assert "drawn by spinner's liarsdice_settle" in message
