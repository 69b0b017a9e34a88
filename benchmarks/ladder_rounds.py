"""Rounds of four dice in play solved on their ladders, measured exactly over the whole game.

Each table is a two-player game of ``--rules`` from the first player's dice against the
second's, the first opening: its first round is solved by CFR+ on its ladder
(``liarsdice.endgame.ladders.solve_round``), the rounds after it as endgames of at most 3 dice
in play. Prints the time of each part, the peak memory, the round's own exploitability and the
whole game's (what a best response in each seat wins, exactly).

    uv run python benchmarks/ladder_rounds.py --rules wild-sixes+dice-loss --tables 2x2
"""

from __future__ import annotations

import argparse
import resource

from liarsdice.endgame import Limits
from liarsdice.endgame.book import start
from liarsdice.endgame.ladders import solve_round
from liarsdice.ruleset import Ruleset

TABLES = {"2x2": (2, 2), "3v1": (3, 1), "1v3": (1, 3), "2v1": (2, 1), "1v2": (1, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="wild-sixes+dice-loss")
    parser.add_argument("--tables", nargs="+", default=["2x2"], choices=sorted(TABLES))
    parser.add_argument("--target", type=float, default=0.01)
    args = parser.parse_args()
    rules = Ruleset.build(args.rules.split("+"))
    for table in args.tables:
        first, second = TABLES[table]
        print(f"{args.rules} {table}:", flush=True)
        solved = solve_round(
            rules,
            start(first, second, 0, max(first, second)),
            limits=Limits(max_dice=first + second - 1, beyond="dice-share"),
            target=args.target,
            progress=lambda line: print("  " + line, flush=True),
        )
        climb, below, rounds = solved.seconds
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        print(
            f"  round exploitability {solved.exploitability:.4f} after "
            f"{solved.solver.iterations} iterations; value to seat 1 {solved.value:+.4f}\n"
            f"  whole game: best response seat 1 {solved.best[0]:+.4f}, seat 2 "
            f"{solved.best[1]:+.4f}, exploitability {solved.whole_game_exploitability:.4f}\n"
            f"  seconds: climb {climb:.1f}, the positions after {below:.1f}, the round "
            f"{rounds:.1f}; peak memory {peak:.2f} GB",
            flush=True,
        )


if __name__ == "__main__":
    main()
