"""Figures of the OpenSpiel bridge at 2 players x 1 die, on standard + wild-sixes + dice-loss.

Usage: uv run python benchmarks/openspiel_figures.py [walk] [bots] [cfr]
       [--kinds random odds bayes] [--iterations 20]

- ``walk``: the bridge's whole tree walked beside OpenSpiel's ``liars_dice`` (``numdice=1``), every
  node compared (players, legal actions, chance outcomes, terminals, returns), and timed; then the
  bridge's tree walked alone.
- ``bots``: each bot kind's exploitability (NashConv / 2) on the bridge, with OpenSpiel's Python
  best responses (``exploitability.exploitability``), and uniform random play's.
- ``cfr``: CFR+ (``cfr.CFRPlusSolver``) for ``--iterations`` on the bridge, and its exploitability;
  then the same on OpenSpiel's own game, whose tree and information sets are the same.

With no figure named, prints all three (about 25 minutes on one core). Raises if the trees differ.
"""

from __future__ import annotations

import argparse
import time
from random import Random
from typing import Any

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import cfr, exploitability

from liarsdice import openspiel as bridge
from liarsdice.bots import make_bot
from liarsdice.ruleset import Ruleset

RULES = ["wild-sixes", "dice-loss"]


def _children(state: Any) -> list[int]:
    if state.is_terminal():
        return []
    if state.is_chance_node():
        return [outcome for outcome, _ in state.chance_outcomes()]
    return list(state.legal_actions())


def walk_both(game: Any, theirs: Any) -> int:
    """Walk both trees together, comparing every node; the decision nodes seen."""
    decisions = 0
    stack = [(game.new_initial_state(), theirs.new_initial_state())]
    while stack:
        a, b = stack.pop()
        same = (a.current_player(), a.is_terminal()) == (b.current_player(), b.is_terminal())
        if a.is_terminal():
            same = same and a.returns() == b.returns()
        elif a.is_chance_node():
            same = same and a.chance_outcomes() == b.chance_outcomes()
        else:
            decisions += 1
            same = same and a.legal_actions() == b.legal_actions()
        if not same:
            raise AssertionError(f"the trees differ at {a} / {b}")
        stack += [(a.child(action), b.child(action)) for action in _children(a)]
    return decisions


def walk_alone(game: Any) -> int:
    """Walk the bridge's tree alone; the nodes seen."""
    nodes = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        nodes += 1
        stack += [state.child(action) for action in _children(state)]
    return nodes


def timed(label: str, work: Any) -> Any:
    started = time.perf_counter()
    result = work()
    print(f"{label}: {result} ({time.perf_counter() - started:.1f} s)", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("figures", nargs="*", choices=["walk", "bots", "cfr"])
    parser.add_argument("--kinds", nargs="+", default=["random", "odds", "bayes"])
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args()
    figures = args.figures or ["walk", "bots", "cfr"]
    rules = Ruleset.build(RULES)
    game = bridge.load(rules, 2, 1)
    theirs = pyspiel.load_game("liars_dice", {"numdice": 1})
    print(f"{rules!r} at 2 players x 1 die, beside OpenSpiel's liars_dice(numdice=1)")
    if "walk" in figures:
        timed(
            "decision nodes, both trees walked together and compared",
            lambda: walk_both(game, theirs),
        )
        timed("nodes of the bridge's tree, walked alone", lambda: walk_alone(game))
    if "bots" in figures:
        timed(
            "uniform random: exploitability",
            lambda: exploitability.exploitability(game, policy.UniformRandomPolicy(game)),
        )
        for kind in args.kinds:
            bots = {seat: make_bot(kind, rules, Random(seat)) for seat in range(2)}
            played = bridge.BotPolicy(game, bots)
            timed(
                f"{kind} bot: exploitability",
                lambda p=played: exploitability.exploitability(game, p),
            )
    if "cfr" in figures:
        for name, which in (("the bridge", game), ("OpenSpiel's liars_dice", theirs)):
            solver = cfr.CFRPlusSolver(which)

            def solve(solver: Any = solver, which: Any = which) -> float:
                for _ in range(args.iterations):
                    solver.evaluate_and_update_policy()
                return float(exploitability.exploitability(which, solver.average_policy()))

            timed(f"CFR+ x {args.iterations} on {name}: exploitability", solve)


if __name__ == "__main__":
    main()
