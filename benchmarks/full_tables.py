"""Hard at full tables: mixed, bayes and odds at 4 x 5 and 6 x 5, per ruleset.

Usage: uv run python benchmarks/full_tables.py [--games 2000] [--duel-games 0] [--seed 47]
       [--workers 1] [--rulesets dudo,perudo,casino,dice-loss] [--tables 4x5,6x5,6x5-alt]

Issue 47's gate: hard (``mixed``) beats ``bayes`` and ``odds`` at 4 players x 5 dice and 6 x 5 in
each ruleset: its win share per seat above 1/n, the whole 95% interval above it. Each table named
by ``--tables`` (:data:`GATE_TABLES` by default; ``6x5-alt`` interleaves the kinds) plays
``--games`` games in each of its seatings (:data:`TABLES`) under each ruleset (a preset's name at
that table, or ``dice-loss``: the baseline with dice loss alone), seats rotating
(:func:`liarsdice.tournament.run`, so the figures are the same for any ``--workers``). Prints one
Markdown table: per ruleset, table and kind, the wins over games x seats, the win share per seat
with its 95% Wilson interval, and its verdict against 1/n: "holds" (the interval's bottom above
1/n), "fails" (its top under 1/n), else "open"; for a table of several seatings each seating's
rows, then the pooled ones (the gate's). With ``--duel-games N``, also the duels of :data:`DUELS`
(mixed against one other kind, seats alternating) over ``N`` games each. Asserts nothing.
"""

from __future__ import annotations

import argparse
from collections import Counter

from liarsdice.ruleset import Ruleset
from liarsdice.tournament import run, wilson

RULESETS = ["dudo", "perudo", "casino", "dice-loss"]
#: The tables of the gate, each played in one or more seatings whose games are pooled. Seats rotate
#: in a tournament but keep their order, and at these tables who bids just before whom decides the
#: shares (docs/bots.md), so a fair table gives each kind each neighbour alike. At 4 seats one kind
#: must sit twice: ``odds`` does, between ``mixed`` and ``bayes``, so the two readers have the same
#: neighbours on both sides. At 6 seats the issue's table, each kind twice side by side, in both
#: orders of play: ``bayes`` bids just before ``odds`` in the first, ``mixed`` in the second.
TABLES = {
    "4x5": [["mixed", "odds", "bayes", "odds"]],
    "6x5": [
        ["mixed", "mixed", "bayes", "bayes", "odds", "odds"],
        ["mixed", "mixed", "odds", "odds", "bayes", "bayes"],
    ],
    #: Not played by default: the kinds interleaved, in both orders of play.
    "6x5-alt": [
        ["mixed", "bayes", "odds"] * 2,
        ["mixed", "odds", "bayes"] * 2,
    ],
}
#: The tables played unless ``--tables`` names others.
GATE_TABLES = ["4x5", "6x5"]
#: Mixed against one other kind alone, seats alternating.
DUELS = {
    "4x5 vs bayes": [["mixed", "bayes"] * 2],
    "4x5 vs odds": [["mixed", "odds"] * 2],
    "6x5 vs bayes": [["mixed", "bayes"] * 3],
    "6x5 vs odds": [["mixed", "odds"] * 3],
}


def ruleset(name: str, players: int) -> Ruleset:
    """The preset ``name`` at ``players`` x 5, or for ``dice-loss`` the baseline with dice loss
    alone."""
    if name == "dice-loss":
        return Ruleset.build(["dice-loss"])
    return Ruleset.build(preset=name, players=players, dice_per_player=5)


def verdict(low: float, high: float, chance: float) -> str:
    """Where a 95% interval of a per-seat share stands against ``chance`` (1/n)."""
    if low > chance:
        return "holds"
    if high < chance:
        return "fails"
    return "open"


def row(name: str, table: str, kind: str, seats: int, wins: int, trials: int) -> str:
    """One Markdown row: ``kind``'s ``wins`` over ``trials`` seat-games at ``seats`` seats."""
    low, high = wilson(wins, trials)
    chance = 1 / seats
    return (
        f"| {name} | {table} | {kind} | {wins}/{trials} | {wins / trials:.1%} | "
        f"{low:.1%} - {high:.1%} | {chance:.1%} | {verdict(low, high, chance)} |"
    )


def rows(
    name: str, table: str, seatings: list[list[str]], games: int, args: argparse.Namespace
) -> list[str]:
    """The rows of ``table`` under ruleset ``name``: ``games`` games in each seating, then, with
    more than one seating, the pooled shares (the gate's)."""
    found = []
    pooled: Counter[str] = Counter()
    trials: Counter[str] = Counter()
    for number, kinds in enumerate(seatings):
        rules = ruleset(name, len(kinds))
        report = run(rules, kinds, games, args.seed, dice_per_player=5, workers=args.workers)
        label = table if len(seatings) == 1 else f"{table} {'abcdefgh'[number]}"
        for result in report.results:
            seat_games = result.games * result.seats
            pooled[result.kind] += result.wins
            trials[result.kind] += seat_games
            found.append(row(name, label, result.kind, len(kinds), result.wins, seat_games))
    if len(seatings) > 1:
        for kind in pooled:
            found.append(
                row(name, f"**{table} pooled**", kind, len(seatings[0]), pooled[kind], trials[kind])
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--duel-games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--tables", default=",".join(GATE_TABLES))
    args = parser.parse_args()
    layouts = [(table, TABLES[table], args.games) for table in args.tables.split(",")]
    if args.duel_games:
        layouts += [(duel, seatings, args.duel_games) for duel, seatings in DUELS.items()]
    for table, seatings, games in layouts:
        for number, kinds in enumerate(seatings):
            label = table if len(seatings) == 1 else f"{table} {'abcdefgh'[number]}"
            print(f"- {label}: {' '.join(kinds)} (in order of play), {games} games")
    print(f"\nseed {args.seed}\n")
    print("| ruleset | table | kind | wins / seat-games | per seat | 95% interval | 1/n | gate |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.rulesets.split(","):
        for table, seatings, games in layouts:
            for line in rows(name, table, seatings, games, args):
                print(line, flush=True)


if __name__ == "__main__":
    main()
