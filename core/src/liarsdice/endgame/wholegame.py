"""Exact best responses over the rest of a game against a solved endgame's policies, on its trees.

A solved endgame (:class:`~liarsdice.endgame.solution.Endgame`) holds each round's published
policy. What a best response in a seat wins against them over the whole game is, round by round,
a best response in the round whose outcomes are worth what a best response wins from the
position each leads to (the rounds are dealt afresh, and a policy there depends on that round
alone), so it is worked out from the last rounds up with
:func:`~liarsdice.endgame.cfr.evaluate` on the rounds' trees: the same figures as
:func:`liarsdice.endgame.response.measure` asking the endgame's policy, in a fraction of the
time. :func:`continuation` gives the payoffs a round's best responses meet, for rounds solved
elsewhere (:mod:`~liarsdice.endgame.ladder_cfr`).
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice.endgame.cfr import evaluate
from liarsdice.endgame.rounds import NodeKey, Outcome, Unsolvable, dealt_root, node_key
from liarsdice.endgame.solution import Endgame, playable
from liarsdice.ruleset import Ruleset

Best = tuple[float, float]
"""What a best response wins in seat 0 and in seat 1, per game."""


def best_responses(rules: Ruleset, endgame: Endgame) -> dict[NodeKey, Best]:
    """For every round of ``endgame`` (by its root's key), what a best response in each seat
    wins from its start to the end of the game against the endgame's published policies.
    :class:`~liarsdice.endgame.rounds.Unsolvable` where a round leads back to one being valued
    or to a position valued by an estimate."""
    found: dict[NodeKey, Best] = {}
    walking: set[NodeKey] = set()

    def best(key: NodeKey) -> Best:
        known = found.get(key)
        if known is not None:
            return known
        if key in walking:
            raise Unsolvable("a round leads back to one being valued")
        walking.add(key)
        solved = endgame.rounds[key]
        tree = solved.tree
        after = [best(_next(rules, outcome, endgame)) for outcome in tree.outcomes if outcome.state]
        payoffs = continuation(tree.players, tree.outcomes, after)
        plays = playable(tree, solved.policy)
        found[key] = (
            evaluate(tree, payoffs[0], plays).best[0],
            evaluate(tree, payoffs[1], plays).best[1],
        )
        walking.discard(key)
        return found[key]

    for key in endgame.rounds:
        best(key)
    return found


def continuation(
    players: tuple[str, str], outcomes: Sequence[Outcome], after: Sequence[Best]
) -> tuple[list[float], list[float]]:
    """The payoffs (player 0's, per outcome) that a best response in seat 0, and one in seat 1,
    meets in a round with ``outcomes``: a game won or lost, else what a best response in that
    seat wins from the next position (``after``: one per outcome that goes on, in order)."""
    found: tuple[list[float], list[float]] = ([], [])
    going_on = iter(after)
    for outcome in outcomes:
        if outcome.state is None:
            ending = float((players[0] in outcome.winners) - (players[1] in outcome.winners))
            found[0].append(ending)
            found[1].append(ending)
        else:
            first, second = next(going_on)
            found[0].append(first)
            found[1].append(-second)
    return found


def _next(rules: Ruleset, outcome: Outcome, endgame: Endgame) -> NodeKey:
    """The root key of the round ``outcome`` leads to, in ``endgame``."""
    assert outcome.state is not None
    if outcome.key in endgame.estimated:
        raise Unsolvable("a round leads to a position valued by an estimate")
    key = node_key(dealt_root(rules, outcome.state))
    if key not in endgame.rounds:
        raise Unsolvable("a round leads to a position the endgame does not hold")
    return key
