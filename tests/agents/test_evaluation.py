"""Evaluation: exact figures checked against OpenSpiel's own, a ladder that is the same for any
number of workers and anchored at random, an outside ONNX policy as a bot, and the command."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from random import Random

import numpy as np
import pytest
from click.testing import CliRunner

if not os.environ.get("CI"):
    for needed in ("pyspiel", "onnx", "onnxruntime", "openskill"):
        pytest.importorskip(needed, reason=f"{needed} is in the dev group")

import onnx
from onnx import TensorProto, helper, numpy_helper
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability

from liarsdice import Ruleset
from liarsdice import openspiel as bridge
from liarsdice.cli import cli
from liarsdice.evaluation import exact, ladder, parse_bot
from liarsdice.openspiel.onnx_bot import OnnxBot
from liarsdice.testing.bots import check_bot


def test_exact_figures_agree_with_play_and_with_openspiel(two_faces_rules: Ruleset) -> None:
    """On a 2 x 1 game with bids on ones and twos only (solved in seconds): the exact value of
    random against odds lies in the 95% interval of 600 games played, and OpenSpiel's uniform
    policy, exploited the same way, is no better than random's (which never calls at once)."""
    found = exact(two_faces_rules, ["random", "odds"])
    played = ladder(two_faces_rules, ["odds"], 600, seed=9, dice=1).matches[0]
    assert (played.first, played.second) == ("random", "odds")
    low, high = played.ci95
    assert low <= (1 + found.value["random"]["odds"]) / 2 <= high
    game = bridge.load(two_faces_rules, 2, 1)
    uniform = exploitability.exploitability(game, openspiel_policy.UniformRandomPolicy(game))
    assert found.exploitability["odds"] < min(uniform, found.exploitability["random"])
    assert found.value["odds"]["random"] == pytest.approx(-found.value["random"]["odds"])
    assert found.value["odds"]["random"] > 0


def test_the_ladder_is_the_same_for_any_number_of_workers_and_anchored_at_random() -> None:
    rules = Ruleset.build(preset="dudo")
    alone = ladder(rules, ["odds", "bayes"], 6, seed=3)
    pooled = ladder(rules, ["odds", "bayes"], 6, seed=3, workers=2)
    assert alone == pooled
    assert {m.first + "/" + m.second for m in alone.matches} == {
        "random/odds",
        "random/bayes",
        "odds/bayes",
    }
    random = next(r for r in alone.ratings if r.bot == "random")
    assert random.mu == 0.0
    assert alone.ratings[-1].bot == "random"  # both bots beat random over 6 games


def onnx_model(path: Path, inputs: int, actions: int, seed: int) -> Path:
    """A linear policy (random weights) as an ONNX file: observation (1, inputs) -> (1, actions)."""
    rng = np.random.default_rng(seed)
    weights = numpy_helper.from_array(rng.normal(size=(inputs, actions)).astype(np.float32), "W")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["observation", "W"], ["logits"])],
        "linear",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, [1, inputs])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, actions])],
        initializer=[weights],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)
    return path


def table_sizes(rules: Ruleset, players: int, dice: int) -> tuple[int, int]:
    game = bridge.load(rules, players, dice, max_info_states=None)
    return game.make_py_observer().tensor.size, game.num_distinct_actions()


def test_an_onnx_policy_is_a_bot_that_keeps_the_bot_contract(tmp_path: Path) -> None:
    rules = Ruleset.build(["dice-loss", "calza"])
    path = onnx_model(tmp_path / "linear.onnx", *table_sizes(rules, 3, 3), seed=1)
    checked = check_bot(lambda r, rng: OnnxBot(path, r, 3, 3, rng), rules, games=2)
    assert checked > 10


def test_an_onnx_model_for_another_table_is_refused(tmp_path: Path) -> None:
    rules = Ruleset.build(["dice-loss"])
    path = onnx_model(tmp_path / "small.onnx", 7, 13, seed=1)
    with pytest.raises(ValueError, match="the model reads 7 numbers, the observation has"):
        OnnxBot(path, rules, 2, 5, Random(0))


def test_the_ladder_rates_an_outside_policy_beside_the_bots(tmp_path: Path) -> None:
    rules = Ruleset.build(preset="dudo")
    path = onnx_model(tmp_path / "linear.onnx", *table_sizes(rules, 2, 5), seed=2)
    found = ladder(rules, ["odds", f"linear={path}"], 4, seed=1)
    assert {r.bot for r in found.ratings} == {"random", "odds", f"linear={path}"}
    assert parse_bot(f"linear={path}") == ("linear", str(path))
    with pytest.raises(ValueError, match=r"a bot is a kind or NAME=PATH\.onnx"):
        parse_bot("linear=model.bin")


def test_liarsdice_evaluate_prints_the_ladder_and_the_exact_figures() -> None:
    runner = CliRunner()
    result = runner.invoke(
        cli, ["evaluate", "-v", "dice-loss", "--bots", "odds", "--games", "4", "--dice", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "Ladder (openskill, anchored at random = 0" in result.output
    assert "random vs odds:" in result.output
    as_json = runner.invoke(
        cli, ["evaluate", "-v", "dice-loss", "--bots", "odds", "--games", "4", "--json"]
    )
    data = json.loads(as_json.output)
    assert [r["bot"] for r in data["ladder"]["ratings"]].count("random") == 1
    assert data["exact"] is None


def test_without_the_agents_extra_the_error_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for module in ("openskill", "openskill.models"):  # as if not installed
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(
        ImportError, match=r"needs openskill: pip install 'liarsdice-rules\[agents\]'"
    ):
        ladder(Ruleset.build(preset="dudo"), ["odds"], 2, seed=0)
