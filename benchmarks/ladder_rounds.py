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
"""

from __future__ import annotations

import argparse
import resource
import time

from liarsdice.endgame import Limits, book, ladder_cfr, solve
from liarsdice.endgame.exact import key_hash
from liarsdice.endgame.ladder import Ladder, climb
from liarsdice.endgame.ladder_cfr import Strategy
from liarsdice.endgame.ladder_policy import LadderRounds, publish
from liarsdice.endgame.ladders import solve_round
from liarsdice.endgame.rounds import dealt_root, node_key
from liarsdice.endgame.wholegame import best_responses, continuation
from liarsdice.models import GameState
from liarsdice.ruleset import Ruleset

TABLES = {"2x2": (2, 2), "3v1": (3, 1), "1v3": (1, 3), "2v1": (2, 1), "1v2": (1, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="wild-sixes+dice-loss")
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
    _report("CFR+ (the average strategy)", solved.best)
    started = time.perf_counter()
    kept = publish([solved.solver])
    print(f"  published in {time.perf_counter() - started:.1f} s: {_size(kept)}", flush=True)
    payoffs = _continuation(rules, solved.ladder, limits)
    _report(
        "published (as a book keeps it)",
        _best(solved.solver, payoffs, kept.strategy(0, solved.solver)),
    )


def measure_book(rules: Ruleset, first: int, second: int) -> None:
    """Measure the round the ruleset's book keeps for the table (hard's policy there)."""
    found = book.find(rules)
    if found is None or found.ladders is None:
        raise SystemExit("no book with ladder rounds: liarsdice endgames build --exact-dice 4")
    state: GameState = book.start(first, second, 0, found.max_dice)
    ladder = climb(rules, dealt_root(rules, state))
    roots = [int(root) for root in found.ladders.roots]
    index = roots.index(key_hash(node_key(ladder.root)))
    print(f"  the book's round {index} of {len(roots)}: {_size(found.ladders)} in the book")
    solver = ladder_cfr.Solver(ladder)
    payoffs = _continuation(rules, ladder, Limits(max_dice=first + second - 1, beyond="dice-share"))
    _report("the book (hard)", _best(solver, payoffs, found.ladders.strategy(index, solver)))


def _continuation(
    rules: Ruleset, ladder: Ladder, limits: Limits
) -> tuple[list[float], list[float]]:
    """The payoffs best responses in seat 0 and seat 1 meet: the next positions valued by a
    best response there against their endgames."""
    after = []
    for outcome in ladder.outcomes:
        if outcome.state is not None:
            endgame = solve(rules, outcome.state, limits=limits)
            after.append(best_responses(rules, endgame)[endgame.start])
    return continuation(ladder.players, ladder.outcomes, after)


def _best(
    solver: ladder_cfr.Solver, payoffs: tuple[list[float], list[float]], against: Strategy
) -> tuple[float, float]:
    return (
        solver.best_response(0, payoffs[0], against=against),
        solver.best_response(1, payoffs[1], against=against),
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
