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

With ``--calls N``, also how ``N`` games of each seating of the tables go, played on this process
(``--games 0`` for these alone): per kind, the rounds it lost as bidder and as caller and when it
is knocked out; how long the rounds that end on its bid are; who calls on whose bids and how often
rightly; and, for the bids the ``bayes`` bots face, the chance their beliefs give that the bid is
true, the chance with every unseen die fair, and how often it was true. ``--bayes-tilts
open,switch,follow`` seats ``bayes`` bots with other tilts (``0,0,0``: a bayes bot that reads
nothing) in the tournaments and these games alike.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path
from random import Random

from liarsdice import engine
from liarsdice.bots import BotFactory, make_bot
from liarsdice.bots.bayes_bot import TILT_FOLLOW, TILT_OPEN, TILT_SWITCH, BayesBot
from liarsdice.events import RoundResolved
from liarsdice.game import Game
from liarsdice.parallel import game_seed
from liarsdice.tournament import run, wilson

sys.path.insert(0, str(Path(__file__).parent))
from bot_rulesets import NAMES, ruleset

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


def verdict(low: float, high: float, chance: float) -> str:
    """Where a 95% interval of a per-seat share stands against ``chance`` (1/n)."""
    if low > chance:
        return "holds"
    if high < chance:
        return "fails"
    return "open"


def row(name: str, table: str, kind: str, players: int, wins: int, trials: int) -> str:
    """One Markdown row: ``kind``'s ``wins`` over ``trials`` seat-games at a table of ``players``."""
    low, high = wilson(wins, trials)
    chance = 1 / players
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
        report = run(
            rules,
            kinds,
            games,
            args.seed,
            dice_per_player=5,
            workers=args.workers,
            factories=factories(args.bayes_tilts),
        )
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


def factories(tilts: tuple[float, float, float]) -> dict[str, BotFactory]:
    """``bayes`` with ``tilts`` (its own by default)."""
    return {"bayes": functools.partial(BayesBot, tilts=tilts)}


def kind_of(player: str) -> str:
    """The kind of a seat named ``"<seat>:<kind>"``."""
    return player.partition(":")[2]


def calls(name: str, kinds: list[str], games: int, args: argparse.Namespace) -> list[str]:
    """How ``games`` games at ``kinds`` go under ruleset ``name`` (seats rotating as in a
    tournament): per kind, the rounds lost as bidder and as caller, how often it is out first and
    in which round on average; the calls of each kind on each other's bids and how many were
    right; and how the ``bayes`` bots' beliefs compare with the truth on the bids they face."""
    rules = ruleset(name, len(kinds))
    made = factories(args.bayes_tilts)
    lost: Counter[tuple[str, str]] = Counter()
    called: Counter[tuple[str, str, str, bool]] = Counter()
    first_out: Counter[str] = Counter()
    ended: dict[str, list[tuple[int, int]]] = defaultdict(list)
    out_round: dict[str, list[int]] = defaultdict(list)
    faced: dict[str, list[tuple[float, float, bool]]] = defaultdict(list)
    n = len(kinds)
    for number in range(games):
        names = [f"{seat + 1}:{kinds[(seat + number) % n]}" for seat in range(n)]
        game = Game(rules, names, Random(game_seed(args.seed, number)))
        bots = {}
        for seat, player in enumerate(names):
            rng = Random(game_seed(args.seed, number, seat))
            factory = made.get(kind_of(player))
            bots[player] = factory(rules, rng) if factory else make_bot(kind_of(player), rules, rng)
        out: list[str] = []
        while not game.over:
            game.start_round()
            while game.state.round is not None and not game.state.round.over:
                state = game.state
                assert state.round is not None
                player = state.round.turn
                view = game.view(player)
                action = bots[player].decide(view)
                bot = bots[player]
                if isinstance(bot, BayesBot) and view.bids:
                    table, beliefs, _ = bot.choices(view)
                    bid = view.bids[-1].bid
                    if beliefs is not None:
                        seen = (
                            beliefs.at_least(bid.face, bid.quantity),
                            table.chances(bid).at_least(bid.quantity),
                            engine.bid_value(rules, state, bid) >= bid.quantity,
                        )
                        faced["every bid"].append(seen)
                        if len(view.bids) >= 10:
                            faced["the 10th bid of a round or later"].append(seen)
                alive = {seat.name for seat in state.alive}
                for event in game.act(action):
                    ruling = event.resolution if isinstance(event, RoundResolved) else None
                    if ruling is not None and ruling.bidder is not None:
                        bidder, caller = kind_of(ruling.bidder), kind_of(ruling.caller)
                        called[(caller, bidder, ruling.call, ruling.success)] += 1
                        assert ruling.bid is not None
                        ended[bidder].append((len(view.bids), ruling.bid.quantity))
                        for loser in ruling.losers:
                            how = "caller" if loser == ruling.caller else "bidder"
                            lost[(kind_of(loser), how)] += 1
                for gone in sorted(alive - {seat.name for seat in game.state.alive}):
                    out.append(gone)
                    out_round[kind_of(gone)].append(state.round.number)
        if out:
            first_out[kind_of(out[0])] += 1
    lines = []
    for kind in dict.fromkeys(kinds):
        rounds = out_round[kind]
        mean = f"{statistics.fmean(rounds):.1f}" if rounds else "-"
        lines.append(
            f"{kind}: rounds lost as bidder {lost[(kind, 'bidder')]}, as caller "
            f"{lost[(kind, 'caller')]}; out first in {first_out[kind]} of {games} games; "
            f"out in round {mean} on average"
        )
    for kind, rounds_ended in ended.items():
        length = statistics.fmean(number for number, _ in rounds_ended)
        called_dice = statistics.fmean(quantity for _, quantity in rounds_ended)
        lines.append(
            f"{len(rounds_ended)} rounds end on a call on {kind}'s bid: {length:.1f} bids in the "
            f"round, the bid called {called_dice:.1f} dice, on average"
        )
    for caller, bidder, kind in sorted({key[:3] for key in called}):
        right, wrong = called[(caller, bidder, kind, True)], called[(caller, bidder, kind, False)]
        lines.append(
            f"{caller} calls {kind} on {bidder}'s bids {right + wrong} times, right {right}"
        )
    for key, bids in faced.items():
        belief = statistics.fmean(x[0] for x in bids)
        plain = statistics.fmean(x[1] for x in bids)
        true = statistics.fmean(x[2] for x in bids)
        lines.append(
            f"bayes facing a bid ({key}, {len(bids)}): believes it true {belief:.2f}, "
            f"every unseen die fair says {plain:.2f}, true {true:.2f}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--duel-games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rulesets", default=",".join(NAMES))
    parser.add_argument("--tables", default=",".join(GATE_TABLES))
    parser.add_argument("--calls", type=int, default=0)
    parser.add_argument(
        "--bayes-tilts",
        default=f"{TILT_OPEN},{TILT_SWITCH},{TILT_FOLLOW}",
        help="open,switch,follow",
    )
    args = parser.parse_args()
    open_, switch, follow = (float(tilt) for tilt in args.bayes_tilts.split(","))
    args.bayes_tilts = (open_, switch, follow)
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
            for line in rows(name, table, seatings, games, args) if games else []:
                print(line, flush=True)
    for name in args.rulesets.split(",") if args.calls else []:
        for table in args.tables.split(","):
            for kinds in TABLES[table]:
                print(f"\n{name}, {' '.join(kinds)}: {args.calls} games, seed {args.seed}")
                for line in calls(name, kinds, args.calls, args):
                    print(f"- {line}", flush=True)


if __name__ == "__main__":
    main()
