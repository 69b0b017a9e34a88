"""Median decision time of each bot kind at a full table of 30 dice (6 players x 5 dice).

Usage: uv run python benchmarks/bot_decisions.py [--preset dudo] [--games 40] [--runs 5]

Each run is a tournament (`liarsdice.tournament.run`) between three ``bayes`` and three ``odds``
bots, the random bot beside them as the baseline of the same run; prints, per kind, the median
over runs of the median decision time with every die in play, and its ratio to the random bot's.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics

from liarsdice.ruleset import Ruleset
from liarsdice.tournament import run

KINDS = ["bayes", "bayes", "odds", "odds", "random", "random"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="dudo")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rules = Ruleset.build(preset=args.preset)
    full: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for seed in range(args.runs):
        report = run(rules, KINDS, args.games, seed)
        for result in report.results:
            full[result.kind].append(result.full_table_median_ms)
    baseline = statistics.median(full["random"])
    print(f"preset {args.preset}, {args.games} games x {args.runs} runs, 6 players x 5 dice")
    print(f"{'bot':>8}  {'median ms at 30 dice':>20}  {'x random':>9}")
    for kind in ("bayes", "odds", "random"):
        median = statistics.median(full[kind])
        print(f"{kind:>8}  {median:20.4f}  {median / baseline:9.1f}")


if __name__ == "__main__":
    main()
