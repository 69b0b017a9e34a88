"""How much a bot's opening bid tells about its hand: exact mutual information over every hand.

A hand of ``n`` fair dice is taken as a multiset (the order of the dice says nothing): 252 hands
for 5 dice, each with its multinomial chance (:func:`hands`). :func:`opening_views` deals each
one to the opener of a new game's first round and gives the opener's view; a bot's ``policy`` on
each view is its channel from hand to opening bid. :func:`mutual_information` is then exact:
``I(bid; hand) = sum_h p(h) sum_b pi(b|h) log2(pi(b|h) / pi(b))``, in bits, with ``pi(b)`` the
bid's chance over every hand (:func:`marginal`); it is 0 for a policy that ignores the hand, and
at most :func:`entropy` of the bids. A measuring tool (``benchmarks/opening_information.py``),
never used in play.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from random import Random
from typing import TypeVar

from liarsdice import engine
from liarsdice.endgame import rounds
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, player_view

K = TypeVar("K", bound=Hashable)

#: One hand's row of a channel: the hand's chance, and the chance of each outcome given the hand.
Row = tuple[float, Mapping[K, float]]


def hands(dice: int) -> list[tuple[tuple[int, ...], float]]:
    """Every hand of ``dice`` fair dice as a sorted tuple, with its chance (they sum to 1)."""
    found, chances = rounds.hands(dice)
    return list(zip(found, chances, strict=True))


def marginal(rows: Iterable[Row[K]]) -> dict[K, float]:
    """The chance of each outcome over every hand: ``sum_h p(h) pi(b|h)``."""
    found: dict[K, float] = {}
    for chance, policy in rows:
        for outcome, p in policy.items():
            found[outcome] = found.get(outcome, 0.0) + chance * p
    return found


def entropy(distribution: Mapping[K, float]) -> float:
    """The entropy of ``distribution`` in bits."""
    return -math.fsum(p * math.log2(p) for p in distribution.values() if p > 0.0)


def mutual_information(rows: Sequence[Row[K]]) -> float:
    """The mutual information in bits between the hand and the outcome of the channel ``rows``
    (one row per hand; the hands' chances sum to 1, as each policy's do)."""
    overall = marginal(rows)
    return max(
        0.0,
        math.fsum(
            chance * p * math.log2(p / overall[outcome])
            for chance, policy in rows
            for outcome, p in policy.items()
            if p > 0.0
        ),
    )


def opening_views(
    rules: Ruleset, players: int, dice: int = 5
) -> Iterator[tuple[tuple[int, ...], float, PlayerView]]:
    """Each hand of :func:`hands` with its chance and the view of the opener holding it: the
    first round of a new game of ``players`` seats with ``dice`` dice each (the other hands are
    one fixed deal the view hides); :class:`ValueError` if the rules give that round's first
    turn to another seat."""
    names = [f"P{seat + 1}" for seat in range(players)]
    opener = names[0]
    state, _ = engine.new_game(rules, names, Random(0), dice_per_player=dice, first_opener=opener)
    others = engine.deal(Random(0), state.players)
    for hand, chance in hands(dice):
        opened, _ = engine.start_round(rules, state, Random(0), rolls={**others, opener: hand})
        if opened.round is None or opened.round.turn != opener:
            raise ValueError(f"the first round does not open with {opener}'s turn")
        yield hand, chance, player_view(rules, opened, opener)
