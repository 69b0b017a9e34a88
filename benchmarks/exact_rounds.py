"""What the exactly solved rounds of a book cost and cover: size, read time, lookups, coverage.

Usage: uv run python benchmarks/exact_rounds.py [--rules dice-loss] [--runs 5] [--games 200]

For a ruleset whose book is built with exact rounds (``liarsdice endgames build``; ``--rules``:
``wild-sixes+dice-loss``, or a name of ``bot_rulesets.py``), prints the exact rounds' nodes and
arrays (bytes in memory), the book's file size, the median over ``--runs`` of reading the book
(``liarsdice.endgame.book.load``), and, as the baseline in the same process, the median of one
read of the first exact round's endgame from the endgame store (JSON, its trees rebuilt by the
engine), where the build left it there; the median time of a policy lookup at a view
(``Book.exact_policy``) against the solved endgame's own lookup (``Endgame.policy``), over the
decisions of games between two hard bots from ``max_dice`` each, at 3 dice in play (and at 4
where the book has ladder rounds: ``--exact-dice 4``); and the coverage: of the decisions with
two players and 3 (or 4) dice in play, the share the book answers exactly (the rest are played
from the book's abstraction, e.g. where plugin state differs from the build's). Asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random

from liarsdice import Ruleset
from liarsdice.bots.mixed_bot import MixedBot
from liarsdice.endgame import Limits, Store, book, cached, default_store
from liarsdice.models import Action
from liarsdice.tournament import play_game
from liarsdice.views import PlayerView

sys.path.insert(0, str(Path(__file__).parent))
from best_response import RULES, rules_named
from endgame import median_time  # benchmarks/endgame.py


class _Recording(MixedBot):
    """A hard bot that keeps the views it decides at with two players and 3 dice in play or
    more, up to the book's exact rounds' dice."""

    def __init__(self, rules: Ruleset, rng: Random, found: book.Book, kept: list[PlayerView]):
        super().__init__(rules, rng, book=found)
        self.kept = kept
        self.dice = range(3, found.exact_dice + 1)

    def decide(self, view: PlayerView) -> Action:
        if view.dice_in_play in self.dice and sum(seat.alive for seat in view.seats) == 2:
            self.kept.append(view)
        return super().decide(view)


def _decisions(rules: Ruleset, found: book.Book, games: int) -> list[PlayerView]:
    """Every heads-up decision with the exact rounds' dice in play (3, or 3 and 4), in
    ``games`` games of two hard bots from ``found.max_dice`` each."""
    kept: list[PlayerView] = []
    rng = Random(47)
    for game in range(games):
        seating = [
            (name, _Recording(rules, Random(game * 2 + seat), found, kept))
            for seat, name in enumerate("AB")
        ]
        play_game(rules, seating, rng, dice_per_player=found.max_dice)
    return kept


def _lookups(rules: Ruleset, found: book.Book, views: list[PlayerView]) -> None:
    """Ask the book at each of ``views``."""
    for view in views:
        found.exact_policy(rules, view)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", choices=RULES, default="dice-loss")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    rules = rules_named(args.rules)
    where = book.directory()
    found = None if where is None else book.load(rules, where)
    if where is None or found is None or found.exact is None:
        print(f"no book with exact rounds for {args.rules}: `liarsdice endgames build` first")
        return
    exact = found.exact
    path = where / book.file_name(rules)
    memory = sum(array.nbytes for array in exact.arrays().values())
    print(f"{args.rules}: {len(exact):,} nodes in the rounds with 3 dice in play")
    print(f"  arrays {memory / 1e6:.1f} MB in memory", end="")
    if found.ladders is not None:
        ladders = sum(array.nbytes for array in found.ladders.arrays().values())
        print(
            f"; the rounds with 4 on their ladders: {len(found.ladders):,} (node, hand) pairs, "
            f"{ladders / 1e6:.1f} MB",
            end="",
        )
    print(f"; the book's file {path.stat().st_size / 1e6:.1f} MB")
    read = median_time(args.runs, book.load, rules, where)
    print(f"  read the book: {read:.2f} s (median of {args.runs})")
    views = _decisions(rules, found, args.games)
    lookups = {}
    for dice in range(3, found.exact_dice + 1):
        at = [view for view in views if view.dice_in_play == dice]
        hits = [view for view in at if found.exact_policy(rules, view) is not None]
        print(
            f"  coverage: {len(hits)} of {len(at)} heads-up decisions with {dice} dice in play "
            f"answered exactly ({len(hits) / max(len(at), 1):.1%}), {args.games} games"
        )
        if hits:
            lookups[dice] = (hits, median_time(args.runs, _lookups, rules, found, hits) / len(hits))
            print(f"  a lookup there: {lookups[dice][1] * 1e3:.3f} ms (median of {args.runs})")
    if 3 not in lookups:
        return
    hits, lookup = lookups[3]
    started = time.perf_counter()
    store = Store(default_store().directory)
    limits = Limits(max_dice=3, beyond="dice-share")
    solved = cached(rules, hits[0], limits=limits, store=store)
    baseline = time.perf_counter() - started
    if solved is None:
        print("  (the endgame store does not hold that round: no baseline)")
        return
    print(
        f"  baseline, the endgame read from the store (JSON, trees rebuilt): {baseline:.1f} s, "
        f"{baseline / read:.0f} x the book's read"
    )
    own = median_time(
        args.runs, lambda: [solved.policy(view) for view in hits if solved.covers(view)]
    ) / len(hits)
    print(f"  baseline, the endgame's own lookup: {own * 1e3:.3f} ms, ratio {lookup / own:.2f}")


if __name__ == "__main__":
    main()
