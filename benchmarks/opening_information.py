"""The opening bid's mutual information with the hand: exact, per bot kind, ruleset and table size.

Usage: uv run python benchmarks/opening_information.py [--kinds mixed,bayes,odds]
       [--rulesets dudo,perudo] [--players 2,4,6] [--seed 0] [--disguise 0.25,0.5,0.75]

Issue 47's gate: hard's (``mixed``'s) opening bid tells under 0.05 bits about the opener's hand,
in dudo and perudo. For each ruleset (a preset's name, at ``--players`` seats of 5 dice), each
table size and each bot kind, the opener of a first round is dealt every hand of 5 dice in turn
(252 multisets, each at its multinomial chance: :mod:`liarsdice.bots.information`), and the bot's
policy on that view (made with ``Random(--seed)``; the policies are drawn from, not sampled) gives
the chance of each opening bid. Prints a Markdown table per ruleset of the exact mutual
information I(bid; hand) in bits, the entropy H(bid) of the opening bids over every hand, and the
verdict against the gate ("holds": under it). For scale, "best face" is a policy that always
opens with the lowest bid on the face its hand counts most of (the higher face of equals): it
tells all it bids, so its I equals its H. ``--disguise`` adds rows of ``mixed`` with
:data:`~liarsdice.bots.mixed_bot.DISGUISE` set to each value (patched in this process only).
Asserts nothing; the figures are exact, so one run is enough.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from random import Random
from unittest import mock

from liarsdice.bots import Policy, make_bot, mixed_bot
from liarsdice.bots.information import entropy, marginal, mutual_information, opening_views
from liarsdice.legality import lowest_raises
from liarsdice.models import BidAction
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, view_state

RULESETS = ["dudo", "perudo"]
KINDS = ["mixed", "bayes", "odds"]
PLAYERS = [2, 4, 6]
DICE = 5
#: The most the hard bot's opening bid may tell about its hand, in bits (issue 47).
GATE = 0.05


def best_face(rules: Ruleset) -> Callable[[PlayerView], Policy]:
    """The calibration policy: the lowest opening bid on the face most of the hand counts
    toward (the ``matching_faces`` hook: ones count for every face where they are wild)."""

    def policy(view: PlayerView) -> Policy:
        assert view.viewer is not None
        state = view_state(view)
        hand = view.own_dice or ()
        lowest = lowest_raises(rules, state, view.viewer)
        counts = {
            face: sum(die in rules.hooks.matching_faces(state, face) for die in hand)
            for face in lowest
        }
        face = max(lowest, key=lambda face: (counts[face], face))
        return {BidAction(view.viewer, lowest[face]): 1.0}

    return policy


def row(
    rules: Ruleset, players: int, name: str, policy: Callable[[PlayerView], Policy], gated: bool
) -> str:
    """One table row: the information in ``policy``'s opening bids at ``players`` seats."""
    rows = [(chance, policy(view)) for _, chance, view in opening_views(rules, players, DICE)]
    bits = mutual_information(rows)
    spread = entropy(marginal(rows))
    verdict = ("holds" if bits < GATE else "breaks") if gated else "(scale)"
    return f"| {players} x {DICE} | {name} | {bits:.4f} | {spread:.3f} | {verdict} |"


def kind_policy(kind: str, rules: Ruleset, seed: int) -> Callable[[PlayerView], Policy]:
    """The policy of a new bot of ``kind`` made with ``Random(seed)``."""
    return make_bot(kind, rules, Random(seed)).policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--players", default=",".join(map(str, PLAYERS)))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--disguise", default="", help="DISGUISE values to try on mixed")
    args = parser.parse_args()
    disguises = [float(value) for value in args.disguise.split(",") if value]
    for name in args.rulesets.split(","):
        print(f"\n{name}: the first round's opening bid, every hand of {DICE} dice\n")
        print(f"| table | bot | I(bid; hand), bits | H(bid), bits | gate < {GATE} |")
        print("|---|---|---|---|---|")
        for players in map(int, args.players.split(",")):
            rules = Ruleset.build(preset=name, players=players, dice_per_player=DICE)
            for kind in args.kinds.split(","):
                print(row(rules, players, kind, kind_policy(kind, rules, args.seed), True))
            for value in disguises:
                with mock.patch.object(mixed_bot, "DISGUISE", value):
                    policy = kind_policy("mixed", rules, args.seed)
                    print(row(rules, players, f"mixed, DISGUISE {value:g}", policy, True))
            print(row(rules, players, "best face", best_face(rules), False), flush=True)


if __name__ == "__main__":
    main()
