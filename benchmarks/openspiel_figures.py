"""Figures of the OpenSpiel bridge at 2 players x 1 die, on standard + wild-sixes + dice-loss.

Usage: uv run python benchmarks/openspiel_figures.py [walk] [bots] [cfr] [ev]
       [--kinds random odds bayes] [--iterations 20] [--anchor-iterations 1500]

- ``walk``: the bridge's whole tree walked beside OpenSpiel's ``liars_dice`` (``numdice=1``), every
  node compared (players, legal actions, chance outcomes, terminals, returns), and timed; then the
  bridge's tree walked alone.
- ``bots``: each bot kind's exploitability (NashConv / 2) on the bridge, with OpenSpiel's Python
  best responses (``exploitability.exploitability``), and uniform random play's.
- ``cfr``: CFR+ (``cfr.CFRPlusSolver``) for ``--iterations`` on the bridge, and its exploitability;
  then the same on OpenSpiel's own game, whose tree and information sets are the same.
- ``ev``: each level's policy, and ``mixed``'s heuristic alone (``endgames="off"``), read on the
  bridge at every information state and played in OpenSpiel's own game (the same tree): its
  exploitability, and its EV per game against a CFR policy (OpenSpiel's C++ CFR+ for
  ``--anchor-iterations``), averaged over both seats, computed exactly
  (``pyspiel.expected_returns``).

With no figure named, prints the first three (about 25 minutes on one core). Raises if the trees
differ.
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
from liarsdice.bots import Bot, make_bot
from liarsdice.bots.mixed_bot import MixedBot
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


def _players(kind: str, rules: Ruleset) -> dict[int, Bot]:
    """A bot of ``kind`` for both players; ``mixed-heuristic`` is ``mixed`` without endgames."""
    if kind == "mixed-heuristic":
        return {seat: MixedBot(rules, Random(seat), endgames="off") for seat in range(2)}
    return {seat: make_bot(kind, rules, Random(seat)) for seat in range(2)}


def read_on_theirs(game: Any, theirs: Any, kinds: list[str], rules: Ruleset) -> dict[str, Any]:
    """Each kind's policy read on the bridge at every decision, as a tabular policy of OpenSpiel's
    own game (keyed by its information states: the walk checks they are the same sets)."""
    played = {kind: bridge.BotPolicy(game, _players(kind, rules)) for kind in kinds}
    tables: dict[str, dict[str, list[tuple[int, float]]]] = {kind: {} for kind in kinds}
    stack = [(game.new_initial_state(), theirs.new_initial_state())]
    while stack:
        a, b = stack.pop()
        if a.is_terminal():
            continue
        if not a.is_chance_node():
            key = b.information_state_string()
            for kind in kinds:
                if key not in tables[kind]:
                    probabilities = played[kind].action_probabilities(a)
                    tables[kind][key] = sorted(probabilities.items())
        stack += [(a.child(action), b.child(action)) for action in _children(a)]
    return {kind: pyspiel.TabularPolicy(table) for kind, table in tables.items()}


def ev_against(theirs: Any, mine: Any, anchor: Any) -> float:
    """The EV per game of ``mine`` against ``anchor``, averaged over both seats."""
    root = theirs.new_initial_state()
    first = pyspiel.expected_returns(root, [mine, anchor], -1, True)[0]
    second = pyspiel.expected_returns(root, [anchor, mine], -1, True)[1]
    return float(first + second) / 2


def ev_figures(game: Any, theirs: Any, rules: Ruleset, iterations: int) -> None:
    """Each level's exploitability and EV against CFR+, printed."""
    started = time.perf_counter()
    solver = _solved(theirs, iterations)
    anchor = solver.average_policy()  # a view into the solver: it must outlive ``anchor``
    print(
        f"OpenSpiel's C++ CFR+ x {iterations}: exploitability "
        f"{pyspiel.exploitability(theirs, anchor):.5f} ({time.perf_counter() - started:.1f} s)",
        flush=True,
    )
    kinds = ["random", "odds", "bayes", "mixed", "mixed-heuristic"]
    started = time.perf_counter()
    policies = read_on_theirs(game, theirs, kinds, rules)
    print(
        f"every bot's policy read at every information state ({time.perf_counter() - started:.1f} s)"
    )
    for kind, played in policies.items():
        print(
            f"{kind}: exploitability {pyspiel.exploitability(theirs, played):.4f}, "
            f"EV against CFR+ {ev_against(theirs, played, anchor):+.4f} per game",
            flush=True,
        )


def _solved(theirs: Any, iterations: int) -> Any:
    solver = pyspiel.CFRPlusSolver(theirs)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("figures", nargs="*", choices=["walk", "bots", "cfr", "ev"])
    parser.add_argument("--kinds", nargs="+", default=["random", "odds", "bayes"])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--anchor-iterations", type=int, default=1500)
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
    if "ev" in figures:
        ev_figures(game, theirs, rules, args.anchor_iterations)


if __name__ == "__main__":
    main()
