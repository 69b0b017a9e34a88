"""How long the rule laws take over recorded games, beside playing and recording those games.

For each preset, plays ``--games`` seeded games with the laws' driver (``play_game``, which freezes
every state before and after each step), then times ``check_game`` over them. Prints the median of
``--runs`` runs of each, and the ratio of the laws to the driver, timed in the same process: what
a game costs the property sweep (``tox -e props``), and which half of it.

    uv run python benchmarks/law_check.py --preset dudo --preset perudo --games 10 --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from liarsdice import Ruleset
from liarsdice.testing import PlayedGame, RandomChooser, check_game, play_game


def median_seconds(run: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``run``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(rules: Ruleset, players: int, dice: int, games: int, runs: int) -> tuple[float, float]:
    """The median seconds to record ``games`` games of ``rules``, and to check them."""
    names = [f"p{i}" for i in range(players)]

    def record() -> list[PlayedGame]:
        return [play_game(rules, names, dice, seed, RandomChooser(seed)) for seed in range(games)]

    recorded = record()

    def check() -> None:
        for game in recorded:
            check_game(rules, game.steps)

    return median_seconds(record, runs), median_seconds(check, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", help="a preset (repeatable; default dudo)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.games} games a preset (4 x 3 or the nearest table), median of {args.runs} runs")
    print(f"{'preset':12} {'driver s':>9} {'laws s':>8} {'laws/driver':>12}")
    for preset in args.preset or ["dudo"]:
        rules = Ruleset.build(preset=preset)
        assert rules.preset is not None
        players, dice = rules.preset.size.fit(4, 3)
        driver, laws = measure(rules, players, dice, args.games, args.runs)
        print(f"{preset:12} {driver:9.2f} {laws:8.2f} {laws / driver:12.1f}", flush=True)


if __name__ == "__main__":
    main()
