"""Median decision time of each bot kind at a full table of 30 dice (6 players x 5 dice).

Usage: uv run python benchmarks/bot_decisions.py [--preset dudo | --variants dice-loss] [--games 40]
[--runs 5] [--budget]

Each run is a tournament (`liarsdice.tournament.run`) between two ``mixed``, two ``bayes`` and two
``odds`` bots, and a second one between six ``random`` bots as the baseline of the same run;
prints, per kind, the median over runs of the median decision time with every die in play, and its
ratio to the random bot's.
Then the cost of a bot's move in the demo app, per kind: what the demo's bot driver does before it
applies the move (``Game.view`` of the bot's seat, then ``decide``), timed over the moves of whole
6 x 5 games with that kind in every seat; median over runs, and the ratio to the random bot's.
With ``--budget``, instead: hard's median and 99th-percentile decision time at 2 x 5 (against
odds, playing the ruleset's book where one is built) and at 6 x 5, median over runs, beside odds.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random

from liarsdice.bots import make_bot
from liarsdice.endgame import book
from liarsdice.game import Game
from liarsdice.ruleset import Ruleset
from liarsdice.tournament import run

KINDS = ["mixed", "mixed", "bayes", "bayes", "odds", "odds"]
BASELINE = ["random"] * 6


def demo_move_ms(rules: Ruleset, kind: str, games: int, seed: int) -> float:
    """The median time of the demo driver's work for one bot move (view, then decide), in ms."""
    times: list[float] = []
    names = [f"p{i}" for i in range(6)]
    for game_number in range(games):
        game = Game(rules, names, Random(seed * 1000 + game_number), dice_per_player=5)
        bots = {name: make_bot(kind, rules, Random(i)) for i, name in enumerate(names)}
        while not game.state.over:
            game.start_round()
            while game.state.round is not None and not game.state.round.over:
                player = game.state.round.turn
                started = time.perf_counter()
                action = bots[player].decide(game.view(player))
                times.append(time.perf_counter() - started)
                game.act(action)
    return statistics.median(times) * 1000


def decision_ms(rules: Ruleset, kinds: list[str], games: int, seed: int) -> dict[str, list[float]]:
    """Every decision's time in ms per kind, over ``games`` games of ``kinds`` at 5 dice each."""
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    names = [f"p{i}" for i in range(len(kinds))]
    for game_number in range(games):
        game = Game(rules, names, Random(seed * 1000 + game_number), dice_per_player=5)
        seated = kinds[game_number % len(kinds) :] + kinds[: game_number % len(kinds)]
        bots = {
            name: make_bot(kind, rules, Random(i))
            for i, (name, kind) in enumerate(zip(names, seated, strict=True))
        }
        kind_of = dict(zip(names, seated, strict=True))
        while not game.state.over:
            game.start_round()
            while game.state.round is not None and not game.state.round.over:
                player = game.state.round.turn
                view = game.view(player)
                started = time.perf_counter()
                action = bots[player].decide(view)
                times[kind_of[player]].append((time.perf_counter() - started) * 1000)
                game.act(action)
    return times


def budget(rules: Ruleset, games: int, runs: int) -> None:
    """Issue 47's budget for hard: its median and 99th-percentile decision at 2 x 5 (against
    ``odds``; with the ruleset's book where one is built) and at 6 x 5 (two of each kind), the
    median over ``runs`` runs of each, beside ``odds``'s in the same games."""
    built = "with its book" if book.find(rules) else "no book built"
    for label, kinds in (("2 x 5", ["mixed", "odds"]), ("6 x 5", KINDS)):
        found: dict[str, list[tuple[float, float]]] = {"mixed": [], "odds": []}
        for seed in range(runs):
            for kind, times in decision_ms(rules, kinds, games, seed).items():
                if kind not in found:
                    continue
                cuts = statistics.quantiles(times, n=100)
                found[kind].append((statistics.median(times), cuts[98]))
        line = []
        for kind, pairs in found.items():
            median = statistics.median(p[0] for p in pairs)
            p99 = statistics.median(p[1] for p in pairs)
            line.append(f"{kind} median {median:.3f} ms, p99 {p99:.3f} ms")
        ratio = statistics.median(p[0] for p in found["mixed"]) / statistics.median(
            p[0] for p in found["odds"]
        )
        print(f"{label} ({built}): " + "; ".join(line) + f"; mixed/odds median x{ratio:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="dudo")
    parser.add_argument("--variants", help="variants instead of a preset, e.g. dice-loss")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", action="store_true", help="hard's median and p99 only")
    args = parser.parse_args()
    rules = (
        Ruleset.build(args.variants.split(","))
        if args.variants
        else Ruleset.build(preset=args.preset)
    )
    if args.budget:
        budget(rules, args.games, args.runs)
        return
    full: dict[str, list[float]] = {kind: [] for kind in [*KINDS, *BASELINE]}
    for seed in range(args.runs):
        for kinds in (KINDS, BASELINE):
            for result in run(rules, kinds, args.games, seed).results:
                full[result.kind].append(result.full_table_median_ms)
    baseline = statistics.median(full["random"])
    print(f"preset {args.preset}, {args.games} games x {args.runs} runs, 6 players x 5 dice")
    print(f"{'bot':>8}  {'median ms at 30 dice':>20}  {'x random':>9}")
    for kind in ("mixed", "bayes", "odds", "random"):
        median = statistics.median(full[kind])
        print(f"{kind:>8}  {median:20.4f}  {median / baseline:9.1f}")
    moves: dict[str, list[float]] = {kind: [] for kind in ("mixed", "bayes", "odds", "random")}
    for seed in range(args.runs):
        for kind in moves:
            moves[kind].append(demo_move_ms(rules, kind, max(1, args.games // 8), seed))
    baseline = statistics.median(moves["random"])
    print(f"\nthe demo's work for one bot move (view + decide), {max(1, args.games // 8)} games")
    print(f"{'bot':>8}  {'median ms per move':>20}  {'x random':>9}")
    for kind, found in moves.items():
        median = statistics.median(found)
        print(f"{kind:>8}  {median:20.4f}  {median / baseline:9.1f}")


if __name__ == "__main__":
    main()
