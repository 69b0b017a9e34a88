"""OpenSpiel's algorithms on bridged games: CFR+ solves a small game, outcome-sampling MCCFR runs
through the revolver's chance, and a bot's exploitability is measured on the bridge."""

from __future__ import annotations

import os
from collections.abc import Callable
from random import Random

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")

from open_spiel.python import policy
from open_spiel.python.algorithms import (
    cfr,
    exploitability,
    outcome_sampling_mccfr,
)

from liarsdice import Ruleset
from liarsdice import openspiel as bridge
from liarsdice.bots import make_bot
from liarsdice.models import Bid, BidAction, CallAction


def test_cfr_plus_solves_a_small_game_in_seconds(two_faces_rules: Ruleset) -> None:
    game = bridge.load(two_faces_rules, 2, 1)
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    solved = exploitability.nash_conv(game, solver.average_policy())
    assert uniform > 1.0
    assert solved < 0.02


def test_a_bot_is_exploitable_on_the_bridge_more_than_cfr(two_faces_rules: Ruleset) -> None:
    game = bridge.load(two_faces_rules, 2, 1)
    bots = {seat: make_bot("random", two_faces_rules, Random(seat)) for seat in range(2)}
    random_bot = exploitability.exploitability(game, bridge.BotPolicy(game, bots))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    assert 0.1 < random_bot < 1.0
    assert random_bot > 10 * exploitability.exploitability(game, solver.average_policy())


def test_outcome_sampling_mccfr_runs_through_the_revolver(
    rules_of_preset: Callable[[str], Ruleset],
) -> None:
    """The casino's revolver spins its cylinder inside the settle hook: a chance node of 6."""
    rules = rules_of_preset("casino")
    game = bridge.load(rules, 2, 1)
    state = game.new_initial_state()
    state.apply_action(0)  # p0 rolls a one
    state.apply_action(1)  # p1 a two
    state.apply_action(game.table.space.number(BidAction("p0", Bid(1, 5))))
    state.apply_action(game.table.space.number(CallAction("p1", "challenge")))
    assert state.is_chance_node()  # p0 loaded a bullet: the pull
    assert dict(state.chance_outcomes()) == pytest.approx(dict.fromkeys(range(6), 1 / 6))
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(300):
        solver.iteration()
    average = solver.average_policy()
    rng = Random(7)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            else:
                outcomes, chances = zip(*average.action_probabilities(state).items(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        assert sum(state.returns()) == 0.0
        assert sorted(state.returns()) == [-1.0, 1.0]
