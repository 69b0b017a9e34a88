"""How fast the endgame's CFR+ runs: one iteration, an exploitability, the whole solve.

Usage: uv run python benchmarks/cfr_speed.py [--runs 5] [--baseline FILE] [--solve]

On OpenSpiel's game (wild sixes, dice loss) at 1 die v 1 (4,096 nodes) and at 2 dice v 1 (3 in
play, 262,144 nodes), with payoffs 1 and -1 for the game won and lost and 0 for a round that goes
on, prints the median over ``--runs`` of: one CFR+ iteration (both players' passes),
``Solver.exploitability`` (the average's, on the arrays), ``Solver.average`` (the nested lists)
and ``cfr.exploitability`` of those (converting them back). With ``--baseline FILE``, another
implementation of ``liarsdice/endgame/cfr.py`` (the pure-Python one before numpy: ``git show
5f54c8f:core/src/liarsdice/endgame/cfr.py > /tmp/cfr_python.py``) is loaded beside it and timed
on the same trees in the same process (its module exploitability on its own average), with the
ratio. With ``--solve``, the time of the whole 2 v 1 endgame's solve from an empty store (the 1 v
1 rounds' too; the trees' builds included, and printed apart). Asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

from liarsdice import Ruleset
from liarsdice.endgame import Limits, Store, cfr, rounds, solve
from liarsdice.endgame.rounds import RoundTree

sys.path.insert(0, str(Path(__file__).parent))
from best_response import start
from endgame import median_time  # benchmarks/endgame.py


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("baseline_cfr", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(name: str, tree: RoundTree, runs: int, baseline: ModuleType | None) -> None:
    payoffs = [tree.payoff(outcome) or 0.0 for outcome in tree.outcomes]
    solver = cfr.Solver(tree)
    solver.set_payoffs(payoffs)
    solver.run(2)
    iteration = median_time(runs, lambda: solver.run(1))
    own = median_time(runs, lambda: solver.exploitability(payoffs))
    average = median_time(runs, solver.average)
    nested = solver.average()
    module = median_time(runs, lambda: cfr.exploitability(tree, payoffs, nested))
    print(
        f"{name:<6} {len(tree.actor):>7} {iteration * 1e3:>9.1f} {own * 1e3:>9.1f} "
        f"{average * 1e3:>9.1f} {module * 1e3:>9.1f}"
    )
    if baseline is None:
        return
    old = baseline.Solver(tree)
    old.set_payoffs(payoffs)
    old.run(2)
    old_iteration = median_time(runs, lambda: old.run(1))
    old_average = median_time(runs, old.average)
    theirs = old.average()
    old_module = median_time(runs, lambda: baseline.exploitability(tree, payoffs, theirs))
    print(
        f"{'before':<6} {'':>7} {old_iteration * 1e3:>9.1f} {'':>9} {old_average * 1e3:>9.1f} "
        f"{old_module * 1e3:>9.1f}"
    )
    print(
        f"{'ratio':<6} {'':>7} {old_iteration / iteration:>9.1f} {old_module / own:>9.1f} "
        f"{old_average / average:>9.1f} {old_module / module:>9.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--solve", action="store_true")
    args = parser.parse_args()
    baseline = load(args.baseline) if args.baseline else None
    rules = Ruleset.build(["wild-sixes", "dice-loss"])
    print(f"CFR+ on OpenSpiel's game, ms (median of {args.runs})")
    print(f"{'dice':<6} {'nodes':>7} {'iteration':>9} {'expl':>9} {'average':>9} {'cfr.expl':>9}")
    print("(expl: Solver.exploitability; ratio's expl: the baseline's cfr.exploitability over it)")
    built = 0.0
    for dice in ((1, 1), (2, 1)):
        started = time.perf_counter()
        tree = rounds.build(rules, rounds.dealt_root(rules, start(dice)))
        built = time.perf_counter() - started
        measure(f"{dice[0]} v {dice[1]}", tree, args.runs, baseline)
    if args.solve:
        started = time.perf_counter()
        found = solve(rules, start((2, 1)), limits=Limits(max_dice=3), store=Store(None))
        total = time.perf_counter() - started
        first = found.rounds[found.start]
        print(
            f"\nwhole 2 v 1 solve: {total:.1f} s (the 2 v 1 tree's build alone: {built:.1f} s), "
            f"{first.iterations} iterations at 2 v 1, value {found.value('P0'):.4f}, "
            f"exploitability {found.exploitability:.4f}"
        )


if __name__ == "__main__":
    main()
