"""Games and actions per second: the liarsdice engine against a plain engine, in the same process.

Usage: uv run python benchmarks/throughput.py [--games N] [--runs R] [--players P] [--dice D]
       [--variant V ...] [--preset NAME ...]

Without ``--preset`` it times the variants given (``dice-loss`` by default: the plain engine's own
rules); each ``--preset`` adds a row. Prints, per row, the median of R runs in games/s and in
actions/s (presets play games of different lengths, so actions/s is the fair comparison), and the
ratio of each to the plain engine's, timed in the same runs. Figures only: nothing here asserts
on time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from random import Random

from liarsdice.ruleset import Ruleset
from liarsdice.simulate import simulate

sys.path.insert(0, str(Path(__file__).parent))
import plain_engine


def plain_rates(players: int, dice: int, games: int, seed: int) -> tuple[float, float]:
    """The plain engine's games/s and actions/s over ``games`` games."""
    rng = Random(seed)
    actions = 0
    started = time.perf_counter()
    for _ in range(games):
        actions += plain_engine.play_game(players, dice, rng)[1]
    seconds = time.perf_counter() - started
    return games / seconds, actions / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--dice", type=int, default=5)
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument("--preset", action="append", default=[])
    args = parser.parse_args()
    rows = [(name, Ruleset.build(preset=name)) for name in args.preset]
    if args.variant or not rows:
        variants = args.variant or ["dice-loss"]
        rows.insert(0, ("+".join(variants), Ruleset.build(variants)))
    plain: list[tuple[float, float]] = []
    ours: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in rows}
    for run in range(args.runs):
        plain.append(plain_rates(args.players, args.dice, args.games, run))
        for name, rules in rows:
            report = simulate(rules, args.players, args.games, run, dice_per_player=args.dice)
            ours[name].append(
                (report.games_per_second, report.games_per_second * report.actions_per_game)
            )
    print(
        f"{args.players} players x {args.dice} dice, random policy, {args.games} games x "
        f"{args.runs} runs (medians; ratios to the plain engine)"
    )
    plain_games = statistics.median(g for g, _ in plain)
    plain_actions = statistics.median(a for _, a in plain)
    print(f"  {'engine':<16}{'games/s':>10}{'ratio':>8}{'actions/s':>12}{'ratio':>8}")
    print(f"  {'plain engine':<16}{plain_games:10.1f}{1:8.2f}{plain_actions:12.0f}{1:8.2f}")
    for name, rates in ours.items():
        games = statistics.median(g for g, _ in rates)
        actions = statistics.median(a for _, a in rates)
        print(
            f"  {name:<16}{games:10.1f}{games / plain_games:8.2f}"
            f"{actions:12.0f}{actions / plain_actions:8.2f}"
        )


if __name__ == "__main__":
    main()
