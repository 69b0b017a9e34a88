"""What solving a two-player endgame costs: 1 die v 1 die under each preset with dice loss.

Usage: uv run python benchmarks/endgame.py [--runs 3] [--curve 320] [--three]

Prints, per ruleset (OpenSpiel's liar's dice, i.e. wild sixes with dice loss at a one-die table,
then each preset with dice loss at a five-die table down to one die each; dudo's successful exact
call gives a die back, so its 2 v 1 positions are valued by the dice share): the median over runs
of the time to solve from nothing (``liarsdice.endgame.solve`` with an empty store, to the default
exploitability target), the tree's size, the iterations, the value to the opener and the
exploitability (NashConv / 2); the median time of one walk of the same public tree with the engine
alone (legal moves and a step at every node, no deals), and the ratio of the two. Then the
exploitability after N iterations of CFR+ on OpenSpiel's game, with the linear average of CFR+
and with the quadratic one the solver uses; the time of a store hit in this process (from a
state between rounds, and from a player's view as a bot asks), of a policy lookup, the same from
a view at another table whose players have other names (an endgame is identified up to the
players' names, so that is a hit too), and from disk (the trees rebuilt); and the size of each
solution's file, raw and gzipped. With ``--three``, the build and the solve of 2 dice v 1 under
the baseline with dice loss (3 in play, and the 1 v 1 rounds it leads to), which takes minutes.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

from liarsdice import engine
from liarsdice.endgame import Limits, Store, Unsolvable, cfr, rounds, solve, store
from liarsdice.models import Action, BidAction, CallAction, GameState, PlayerState
from liarsdice.ruleset import Ruleset
from liarsdice.views import player_view

RULESETS: list[tuple[str, Callable[[], Ruleset], int, Limits]] = [
    ("openspiel", lambda: Ruleset.build(["wild-sixes", "dice-loss"]), 1, Limits()),
    ("online", lambda: Ruleset.build(preset="online"), 5, Limits()),
    ("cheko", lambda: Ruleset.build(preset="cheko"), 5, Limits()),
    ("dudo", lambda: Ruleset.build(preset="dudo"), 5, Limits(beyond="dice-share")),
    ("perudo", lambda: Ruleset.build(preset="perudo"), 5, Limits()),
    ("perudo-box", lambda: Ruleset.build(preset="perudo-box"), 5, Limits()),
]


def between_rounds(
    dice: tuple[int, int], per_player: int, names: tuple[str, str] = ("A", "B")
) -> GameState:
    players = (PlayerState(names[0], dice[0]), PlayerState(names[1], dice[1]))
    return GameState(players, per_player, next_opener=names[0])


NAMES = ("Zed", "Amy")
"""The players of the other table (seat order is not alphabetical order)."""


def median_time(runs: int, function: Callable[..., object], *args: Any, **kwargs: Any) -> float:
    """The median time of ``function(*args, **kwargs)`` over ``runs`` calls, in seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function(*args, **kwargs)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def solve_fresh(rules: Ruleset, start: GameState, limits: Limits) -> None:
    """Solve with an empty store."""
    solve(rules, start, limits=limits, store=Store(None))


def from_disk(rules: Ruleset, start: GameState, limits: Limits, directory: Path) -> None:
    """Solve with a new store on ``directory``: read from disk, the trees rebuilt."""
    solve(rules, start, limits=limits, store=Store(directory))


def engine_walk(rules: Ruleset, root: GameState) -> int:
    """Walk the public tree from ``root`` with the engine alone: the nodes met."""
    rng = Random(0)
    nodes = 0
    pending = [root]
    while pending:
        state = pending.pop()
        nodes += 1
        assert state.round is not None
        player = state.round.turn
        moves: list[Action] = [
            BidAction(player, b) for b in engine.legal_bids(rules, state, player)
        ]
        moves += [CallAction(player, k) for k in engine.legal_calls(rules, state, player)]
        pending += [engine.step(rules, state, m, rng)[0] for m in moves if isinstance(m, BidAction)]
    return nodes


def solving(runs: int) -> None:
    print(f"1 die v 1 die, solved from nothing (median of {runs}), beside one engine walk")
    print(
        f"{'rules':<11} {'solve s':>8} {'nodes':>6} {'iter':>5} {'value':>8} {'expl':>7}"
        f" {'walk s':>7} {'ratio':>6}"
    )
    for name, build, per_player, limits in RULESETS:
        rules = build()
        start = between_rounds((1, 1), per_player)
        try:
            found = solve(rules, start, limits=limits, store=Store(None))
        except Unsolvable as error:
            print(f"{name:<11} refused: {error.reason}")
            continue
        seconds = median_time(runs, solve_fresh, rules, start, limits)
        first = found.rounds[found.start]
        root = rounds.dealt_root(rules, start)
        walk = median_time(runs, engine_walk, rules, root)
        print(
            f"{name:<11} {seconds:>8.2f} {len(first.tree.actor):>6} {first.iterations:>5} "
            f"{found.value('A'):>8.4f} {found.exploitability:>7.4f} {walk:>7.3f} "
            f"{seconds / walk:>6.0f}" + ("  (2 v 1 estimated)" if found.estimated else "")
        )


def curve(iterations: int) -> None:
    rules = Ruleset.build(["wild-sixes", "dice-loss"])
    tree = rounds.build(rules, rounds.dealt_root(rules, between_rounds((1, 1), 1)))
    payoffs = [tree.payoff(o) or 0.0 for o in tree.outcomes]
    print("\nexploitability (NashConv / 2) of the average after N iterations, OpenSpiel's game")
    print(f"{'N':>5} {'linear':>9} {'s':>6} {'quadratic':>10} {'s':>6}")
    solvers = {power: cfr.Solver(tree, averaging=power) for power in (1.0, 2.0)}
    for solver in solvers.values():
        solver.set_payoffs(payoffs)
    spent = dict.fromkeys(solvers, 0.0)
    checkpoints = [n for n in (10, 20, 40, 60, 80, 120, 160, 240, 320, 640) if n <= iterations]
    for n in checkpoints:
        row = f"{n:>5}"
        for power, solver in solvers.items():
            started = time.perf_counter()
            solver.run(n - solver.iterations)
            spent[power] += time.perf_counter() - started
            found = cfr.exploitability(tree, payoffs, solver.average())
            row += f" {found:>9.5f} {spent[power]:>6.2f}"
        print(row)


def caching(runs: int) -> None:
    print("\nstore hits (us: from a state between rounds, from a view; then Endgame.policy;")
    print("from a view at another table, whose players have other names, and its policy),")
    print("a new store reading the file (s), the file's size (KB, raw and gzipped)")
    print(
        f"{'rules':<11} {'state':>6} {'view':>6} {'policy':>6} {'other':>6} {'policy':>6}"
        f" {'disk':>6} {'KB':>6} {'gz KB':>6}"
    )
    with tempfile.TemporaryDirectory() as directory:
        for name, build, per_player, limits in RULESETS:
            rules = build()
            start = between_rounds((1, 1), per_player)
            kept = Store(Path(directory))
            try:
                found = solve(rules, start, limits=limits, store=kept)
            except Unsolvable:
                continue
            memory = median_time(runs, solve, rules, start, limits=limits, store=kept)
            state, _ = engine.start_round(rules, start, Random(1))
            view = player_view(rules, state, "A")
            seen = median_time(runs * 100, solve, rules, view, limits=limits, store=kept)
            policy = median_time(runs * 100, found.policy, view)
            other, _ = engine.start_round(
                rules, between_rounds((1, 1), per_player, NAMES), Random(1)
            )
            elsewhere = player_view(rules, other, NAMES[0])
            away = median_time(runs * 100, solve, rules, elsewhere, limits=limits, store=kept)
            away_policy = median_time(runs * 100, found.policy, elsewhere)
            disk = median_time(runs, from_disk, rules, start, limits, Path(directory))
            key = store.solution_key(rules, found.start, limits.to_data())
            path = kept.path(key)
            assert path is not None
            raw = path.read_bytes()
            print(
                f"{name:<11} {memory * 1e6:>6.0f} {seen * 1e6:>6.0f} {policy * 1e6:>6.0f} "
                f"{away * 1e6:>6.0f} {away_policy * 1e6:>6.0f} {disk:>6.3f} "
                f"{len(raw) / 1024:>6.1f} {len(gzip.compress(raw)) / 1024:>6.1f}"
            )


def three_dice() -> None:
    rules = Ruleset.build(["dice-loss"])
    start = between_rounds((2, 1), 2)
    print("\n2 dice v 1 (3 in play), the baseline with dice loss: one solve")
    started = time.perf_counter()
    tree = rounds.build(rules, rounds.dealt_root(rules, start))
    built = time.perf_counter() - started
    found = solve(rules, start, limits=Limits(max_dice=3), store=Store(None))
    total = time.perf_counter() - started
    first = found.rounds[found.start]
    print(
        f"build {built:.1f} s, {len(tree.actor)} nodes; solve {total:.1f} s, "
        f"{first.iterations} iterations, value {found.value('A'):.4f}, "
        f"exploitability {found.exploitability:.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--curve", type=int, default=320)
    parser.add_argument("--three", action="store_true")
    args = parser.parse_args()
    solving(args.runs)
    curve(args.curve)
    caching(args.runs)
    if args.three:
        three_dice()


if __name__ == "__main__":
    main()
