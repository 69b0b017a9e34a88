"""The bridge against OpenSpiel's own liars_dice (1 die each): the same tree, node by node, with
the same information sets; and the random bot's exploitability there."""

from __future__ import annotations

import os
from collections.abc import Iterator
from random import Random
from typing import Any

import attrs
import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import exploitability

from liarsdice import Ruleset
from liarsdice import openspiel as bridge
from liarsdice.bots import make_bot

DECISION_NODES = 147_456  # 36 deals x 4096 rising bid sequences
INFO_STATES = 24_576  # 6 dice x 4096 sequences


@attrs.define
class Walk:
    """What walking both trees together found."""

    decisions: int = 0
    chance: int = 0
    terminals: int = 0
    ours: dict[str, str] = attrs.field(factory=dict)  # our information state -> theirs
    theirs: dict[str, str] = attrs.field(factory=dict)  # theirs -> ours
    random_bot: dict[str, dict[int, float]] = attrs.field(factory=dict)  # theirs -> policy


def _pairs(ours: Any, theirs: Any) -> Iterator[tuple[Any, Any]]:
    """Every node of both trees below ``ours`` and ``theirs``, in the same order, checked."""
    stack = [(ours, theirs)]
    while stack:
        a, b = stack.pop()
        assert a.current_player() == b.current_player(), (str(a), str(b))
        assert a.is_terminal() == b.is_terminal(), (str(a), str(b))
        yield a, b
        if a.is_terminal():
            assert a.returns() == b.returns(), (str(a), str(b))
            continue
        if a.is_chance_node():
            assert a.chance_outcomes() == b.chance_outcomes(), str(a)
            actions = [outcome for outcome, _ in a.chance_outcomes()]
        else:
            assert a.legal_actions() == b.legal_actions(), (str(a), str(b))
            actions = a.legal_actions()
        stack += [(a.child(action), b.child(action)) for action in actions]


@pytest.fixture(scope="module")
def walk(equivalent_rules: Ruleset) -> Walk:
    """Both whole trees walked together (the bridge's random bot asked at every decision)."""
    game = bridge.load(equivalent_rules, 2, 1)
    bots = {seat: make_bot("random", equivalent_rules, Random(seat)) for seat in range(2)}
    random_policy = bridge.BotPolicy(game, bots)
    theirs = pyspiel.load_game("liars_dice", {"numdice": 1})
    found = Walk()
    for a, b in _pairs(game.new_initial_state(), theirs.new_initial_state()):
        if a.is_terminal():
            found.terminals += 1
        elif a.is_chance_node():
            found.chance += 1
        else:
            found.decisions += 1
            mine, key = a.information_state_string(), b.information_state_string()
            assert found.ours.setdefault(mine, key) == key, mine
            assert found.theirs.setdefault(key, mine) == mine, key
            if key not in found.random_bot:
                found.random_bot[key] = random_policy.action_probabilities(a)
    return found


def test_the_trees_agree_node_by_node(walk: Walk) -> None:
    """Every deal as chance nodes (6 outcomes, player 0's die first), every bid sequence: the
    same players, legal actions, chance outcomes, terminals and returns (checked in the walk)."""
    assert walk.decisions == DECISION_NODES
    assert walk.chance == 1 + 6
    assert walk.terminals == DECISION_NODES - 36  # each sequence but the empty one, challenged


def test_the_information_sets_are_the_same(walk: Walk) -> None:
    """Two decision nodes share our information state exactly when they share OpenSpiel's."""
    assert len(walk.ours) == len(walk.theirs) == INFO_STATES


def test_the_random_bot_is_exploitable_as_measured(walk: Walk) -> None:
    """The random bot, read on the bridge and played in OpenSpiel's game (the same tree), is
    exploitable by about 0.775 (NashConv / 2), far from an equilibrium but better than
    uniform play (0.781)."""
    theirs = pyspiel.load_game("liars_dice", {"numdice": 1})
    played = policy.tabular_policy_from_callable(
        theirs, lambda state: walk.random_bot[state.information_state_string()]
    )
    random_bot = exploitability.exploitability(theirs, played)
    uniform = exploitability.exploitability(theirs, policy.UniformRandomPolicy(theirs))
    assert 0.7 < random_bot < uniform < 0.8
    assert random_bot == pytest.approx(0.7754, abs=1e-3)
