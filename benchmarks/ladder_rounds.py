"""Rounds of four dice in play solved on their bid ladders, measured exactly over the whole game.

Each table is a two-player game of ``--rules`` from the first player's dice against the
second's, the first opening. By default its first round is solved by CFR+ on its ladder
(``liarsdice.endgame.ladders.solve_round``), the rounds after it as endgames, and the solver's
average strategy is measured, then the same published as a book keeps it (``ladder_policy``:
chances under 1% dropped, kept where its player goes). With ``--book``, nothing is solved:
the policy measured is the one the ruleset's book (``liarsdice endgames build --exact-dice 4``)
keeps for that round, which hard plays. Prints the time of each part, the peak memory, the
round's own exploitability, the whole game's (what a best response in each seat wins,
exactly: the rounds after the first against their endgames' policies) and the size kept.

    uv run python benchmarks/ladder_rounds.py --rules wild-sixes+dice-loss --tables 2x2
    uv run python benchmarks/ladder_rounds.py --rules dice-loss --tables 2x2 --book

(``--rules`` defaults to dice-loss: its 2x2 round takes about 40 s and 1 GB; wild sixes',
with 24 rungs, about 17 minutes and 11 GB.)
"""

from __future__ import annotations

import argparse
import resource
import time

from liarsdice.endgame import Limits, book, ladder_cfr
from liarsdice.endgame.exact import key_hash
from liarsdice.endgame.ladder import climb
from liarsdice.endgame.ladder_policy import LadderRounds, publish
from liarsdice.endgame.ladders import solve_round, whole_game
from liarsdice.endgame.rounds import dealt_root, node_key
from liarsdice.models import GameState
from liarsdice.ruleset import Ruleset

TABLES = {"2x2": (2, 2), "3v1": (3, 1), "1v3": (1, 3), "2v1": (2, 1), "1v2": (1, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="dice-loss")
    parser.add_argument("--tables", nargs="+", default=["2x2"], choices=sorted(TABLES))
    parser.add_argument("--target", type=float, default=0.01)
    parser.add_argument("--book", action="store_true", help="measure the book's rounds")
    args = parser.parse_args()
    rules = Ruleset.build(args.rules.split("+"))
    for table in args.tables:
        first, second = TABLES[table]
        print(f"{args.rules} {table}:", flush=True)
        if args.book:
            measure_book(rules, first, second)
        else:
            measure_solve(rules, first, second, args.target)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        print(f"  peak memory {peak:.2f} GB", flush=True)


def measure_solve(rules: Ruleset, first: int, second: int, target: float) -> None:
    """Solve the table's first round on its ladder and measure it, then its publication."""
    limits = Limits(max_dice=first + second - 1, beyond="dice-share")
    solved = solve_round(
        rules,
        book.start(first, second, 0, max(first, second)),
        limits=limits,
        target=target,
        progress=lambda line: print("  " + line, flush=True),
    )
    climb_time, below, rounds = solved.seconds
    print(
        f"  round exploitability {solved.exploitability:.4f} after "
        f"{solved.solver.iterations} iterations; value to seat 1 {solved.value:+.4f}\n"
        f"  seconds: climb {climb_time:.1f}, the positions after {below:.1f}, the round "
        f"{rounds:.1f}",
        flush=True,
    )
    _report("CFR+ (the average strategy)", whole_game(rules, solved.solver, limits))
    started = time.perf_counter()
    kept = publish([solved.solver])
    print(f"  published in {time.perf_counter() - started:.1f} s: {_size(kept)}", flush=True)
    stored = kept.strategy(0, solved.solver)
    _report("published (as a book keeps it)", whole_game(rules, solved.solver, limits, stored))


def measure_book(rules: Ruleset, first: int, second: int) -> None:
    """Measure the round the ruleset's book keeps for the table (hard's policy there)."""
    found = book.find(rules)
    if found is None or found.ladders is None:
        raise SystemExit("no book with ladder rounds: liarsdice endgames build --exact-dice 4")
    state: GameState = book.start(first, second, 0, found.max_dice)
    ladder = climb(rules, dealt_root(rules, state))
    roots = [int(root) for root in found.ladders.roots]
    root = key_hash(node_key(ladder.root))
    if root not in roots:
        print(f"  not in the book ({len(roots)} ladder rounds there)")
        return
    index = roots.index(root)
    print(f"  the book's ladder round {index + 1} of {len(roots)} ({_size(found.ladders)} in all)")
    solver = ladder_cfr.Solver(ladder)
    limits = Limits(max_dice=first + second - 1, beyond="dice-share")
    _report(
        "the book (hard)", whole_game(rules, solver, limits, found.ladders.strategy(index, solver))
    )


def _report(what: str, best: tuple[float, float]) -> None:
    print(
        f"  {what}, whole game: best response seat 1 {best[0]:+.4f}, seat 2 {best[1]:+.4f}, "
        f"exploitability {(best[0] + best[1]) / 2:.4f}",
        flush=True,
    )


def _size(kept: LadderRounds) -> str:
    size = sum(array.nbytes for array in kept.arrays().values())
    return f"{len(kept):,} (node, hand) pairs, {len(kept.moves):,} moves, {size / 2**20:.1f} MB"


if __name__ == "__main__":
    main()
