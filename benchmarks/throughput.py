"""Games per second: the liarsdice engine against a plain engine, in the same process.

Usage: uv run python benchmarks/throughput.py [--games N] [--runs R] [--players P] [--variant V ...]

Prints the median of R runs for each, and the ratio liarsdice / plain. Figures only: nothing here
asserts on time.
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


def plain_games_per_second(players: int, dice: int, games: int, seed: int) -> float:
    rng = Random(seed)
    started = time.perf_counter()
    for _ in range(games):
        plain_engine.play_game(players, dice, rng)
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--dice", type=int, default=5)
    parser.add_argument("--variant", action="append", default=None)
    args = parser.parse_args()
    rules = Ruleset.build(args.variant or ["dice-loss"])
    ours, plain = [], []
    for run in range(args.runs):
        plain.append(plain_games_per_second(args.players, args.dice, args.games, run))
        report = simulate(rules, args.players, args.games, run, dice_per_player=args.dice)
        ours.append(report.games_per_second)
    ours_median, plain_median = statistics.median(ours), statistics.median(plain)
    print(
        f"{args.players} players x {args.dice} dice, {rules!r}, random policy, "
        f"{args.games} games x {args.runs} runs"
    )
    print(f"  plain engine : {plain_median:8.1f} games/s (median)")
    print(f"  liarsdice    : {ours_median:8.1f} games/s (median)")
    print(f"  ratio        : {ours_median / plain_median:8.2f} (liarsdice / plain)")


if __name__ == "__main__":
    main()
