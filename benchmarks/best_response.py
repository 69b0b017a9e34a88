"""Exact whole-game exploitability of the bots and of CFR+ at two players, wild-sixes + dice-loss.

Usage: uv run python benchmarks/best_response.py [--tables 1v1 2v1 1v2 2x2]
       [--policies odds bayes mixed cfr] [--openspiel] [--iterations 200] [--memory 1]
       [--rules wild-sixes+dice-loss]

``--rules`` plays another ruleset: ``dice-loss`` (the baseline, ones wild, with dice loss), or a
preset of ``bot_rulesets.py`` (``dudo``, ``perudo``) at two players.

For each table (the first player's dice v the second's; the first opens) and each policy (a bot
kind in both seats, ``mixed-heuristic`` for ``mixed`` without its endgames, ``uniform`` for every
legal action alike, ``cfr``: the CFR+ endgame of the whole game, every round solved by
``liarsdice.endgame.solve`` with ``Limits(max_dice=...)`` to the default target, or ``book``: the
book of heads-up positions solved on the last bid, ``liarsdice.endgame.book.build`` up to the
table's dice, ``--iterations`` a position (200), as the hard bot plays it beyond its exact endgames;
``book@D`` with nodes that count the bids made up to ``D``; ``book-by-hand`` with the opener's
moves from the plain solve, not the blind one; each remembering ``--memory`` bids), prints the
exploitability (the mean over both seats of what a best response wins per game, NashConv / 2:
``liarsdice.endgame.response.measure``), each seat's best response and what each seat's policy
wins against the other, and the time the measure took (a CFR+ solve is timed apart; it is kept
in the endgame store, so a second run only reads it). ``cfr`` at 2x2 is left out: its rounds with
4 dice in play have 2^24 public nodes each, beyond the solver.

With ``--openspiel``: uniform play's exploitability on OpenSpiel's own ``liars_dice(numdice=1)``
(C++) beside the calculator at 1v1, then on the bridge (``python_liarsdice``, OpenSpiel's Python
``exploitability``) at 2 dice v 1 with bids on ones only, a game of two rounds (about 3 minutes).
"""

from __future__ import annotations

import argparse
import sys
import time
import types
from collections.abc import Mapping
from pathlib import Path
from random import Random

from liarsdice import Ruleset, VariantInfo, hookimpl
from liarsdice.bots import make_bot
from liarsdice.bots.mixed_bot import MixedBot
from liarsdice.endgame import Limits, Unsolvable, book, solve
from liarsdice.endgame.response import Policy, measure, uniform
from liarsdice.models import Action, GameState, PlayerState
from liarsdice.testing.plugins import extra_variants
from liarsdice.views import PlayerView

sys.path.insert(0, str(Path(__file__).parent))
from bot_rulesets import ruleset

TABLES = {"1v1": (1, 1), "2v1": (2, 1), "1v2": (1, 2), "2x2": (2, 2)}
NAMES = ("P0", "P1")


def start(dice: tuple[int, int]) -> GameState:
    players = (PlayerState(NAMES[0], dice[0]), PlayerState(NAMES[1], dice[1]))
    return GameState(players, max(dice), next_opener=NAMES[0])


def policies(
    kind: str, rules: Ruleset, at: GameState, iterations: int = book.ITERATIONS, memory: int = 1
) -> Mapping[str, Policy]:
    """Both seats' policies: a bot of ``kind`` each (``mixed-heuristic``: ``mixed`` without its
    endgames), uniform play, the CFR+ endgame's, or a book's (``book``, ``book@D``,
    ``book-by-hand``: see the module)."""
    if kind == "cfr":
        started = time.perf_counter()
        solved = solve(rules, at, limits=Limits(max_dice=at.dice_in_play))
        print(
            f"  cfr: solved (or read) in {time.perf_counter() - started:.1f} s, "
            f"worst round's exploitability {solved.exploitability:.4f}",
            flush=True,
        )
        return dict.fromkeys(NAMES, solved.policy)
    name, _, depth = kind.partition("@")
    if name in ("book", "book-by-hand"):
        started = time.perf_counter()
        dice = (at.players[0].dice, at.players[1].dice)
        solved = book.build(
            rules,
            max(dice),
            iterations,
            depth=int(depth or 1),
            starts=[(*dice, 0)],
            blind_opening=name != "book-by-hand",
            memory=memory,
        )
        print(f"  book: built in {time.perf_counter() - started:.1f} s", flush=True)

        def played(view: PlayerView) -> Mapping[Action, float]:
            found = solved.policy(rules, view)
            assert found is not None, "the book holds every position of the game"
            return found

        return dict.fromkeys(NAMES, played)
    if kind == "uniform":
        return dict.fromkeys(NAMES, uniform(rules))
    if kind == "mixed-heuristic":
        bots = [MixedBot(rules, Random(seat), endgames="off") for seat in range(2)]
    else:
        bots = [make_bot(kind, rules, Random(seat)) for seat in range(2)]
    return {name: bot.policy for name, bot in zip(NAMES, bots, strict=True)}


RULES = ("wild-sixes+dice-loss", "dice-loss", "dudo", "perudo")


def rules_named(name: str) -> Ruleset:
    """The ruleset ``name`` of :data:`RULES`."""
    if name == "wild-sixes+dice-loss":
        return Ruleset.build(["wild-sixes", "dice-loss"])
    return ruleset(name)


def figures(
    rules: Ruleset, tables: list[str], kinds: list[str], iterations: int, memory: int
) -> None:
    print(f"{rules!r}, two players: exploitability = mean over seats of best response per game")
    print(
        f"{'table':<6} {'policy':<15} {'expl':>7} {'br P0':>8} {'br P1':>8} {'P0 own':>8} {'s':>7}"
    )
    for table in tables:
        at = start(TABLES[table])
        for kind in kinds:
            if kind == "cfr" and at.dice_in_play > 3:
                print(f"{table:<6} {kind:<15} left out: 4 dice in play are beyond the solver")
                continue
            try:
                played = policies(kind, rules, at, iterations, memory)
            except Unsolvable as error:
                print(f"{table:<6} {kind:<15} left out: {error.reason}")
                continue
            started = time.perf_counter()
            found = measure(rules, at, played)
            print(
                f"{table:<6} {kind:<15} {found.exploitability:>7.4f} {found.best[0]:>+8.4f} "
                f"{found.best[1]:>+8.4f} {found.value[0]:>+8.4f} "
                f"{time.perf_counter() - started:>7.1f}",
                flush=True,
            )


def ones_only() -> Ruleset:
    """Dice loss, no wild face, bids on ones only: 2 v 1 is a game of two rounds."""
    plugin = types.ModuleType("ones_only")

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo(title="Ones only", summary="Only ones may be bid.")

    @hookimpl
    def liarsdice_face_allowed(face: int) -> str | None:
        return None if face == 1 else "only ones may be bid"

    plugin.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    plugin.liarsdice_face_allowed = liarsdice_face_allowed  # type: ignore[attr-defined]
    with extra_variants({"ones-only": plugin}):
        return Ruleset.build(["ones-only", "dice-loss"], {"standard.wild_ones": False})


def against_openspiel() -> None:
    import pyspiel
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    from liarsdice import openspiel as bridge

    rules = Ruleset.build(["wild-sixes", "dice-loss"])
    at = start((1, 1))
    started = time.perf_counter()
    mine = measure(rules, at, dict.fromkeys(NAMES, uniform(rules))).exploitability
    print(f"uniform play, 1v1: calculator {mine!r} ({time.perf_counter() - started:.1f} s)")
    game = pyspiel.load_game("liars_dice", {"numdice": 1})
    started = time.perf_counter()
    theirs = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    print(f"  OpenSpiel's liars_dice (C++): {theirs!r} ({time.perf_counter() - started:.1f} s)")
    print(f"  difference {abs(mine - theirs):.1e}")
    rules = ones_only()
    at = start((2, 1))
    started = time.perf_counter()
    mine = measure(rules, at, dict.fromkeys(NAMES, uniform(rules))).exploitability
    print(
        f"uniform play, 2v1, ones only: calculator {mine!r} ({time.perf_counter() - started:.1f} s)"
    )
    bridged = bridge.load(rules, 2, 2, root=at)
    started = time.perf_counter()
    theirs = exploitability.exploitability(bridged, policy.UniformRandomPolicy(bridged))
    print(f"  OpenSpiel on the bridge: {theirs!r} ({time.perf_counter() - started:.1f} s)")
    print(f"  difference {abs(mine - theirs):.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", nargs="+", choices=list(TABLES), default=list(TABLES))
    parser.add_argument(
        "--policies", nargs="+", default=["odds", "bayes", "mixed", "cfr"], metavar="KIND"
    )
    parser.add_argument("--openspiel", action="store_true")
    parser.add_argument(
        "--iterations", type=int, default=book.ITERATIONS, help="CFR+ iterations a book position"
    )
    parser.add_argument("--memory", type=int, default=1, help="bids a book remembers (1 or 2)")
    parser.add_argument("--rules", choices=RULES, default=RULES[0], help="the ruleset played")
    args = parser.parse_args()
    if args.openspiel:
        against_openspiel()
    figures(rules_named(args.rules), args.tables, args.policies, args.iterations, args.memory)


if __name__ == "__main__":
    main()
