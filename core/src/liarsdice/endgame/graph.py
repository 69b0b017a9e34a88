"""The rounds an endgame can reach, what each outcome is worth, and the order to solve them in.

From the first round, :func:`explore` builds the public tree of every round the game can reach
(:mod:`liarsdice.endgame.rounds`): a round's outcomes name the positions the next round starts
from, and each of those is dealt and built in turn, until every outcome is a won game. A finished
round is worth +1 or -1 to player 0 when it ends the game, and otherwise the value of the next
round. :class:`Limits` keep it small: at most ``max_dice`` dice in play in any round solved, at
most ``max_rounds`` rounds. A round that can lead to more dice than that is refused, or, with
``beyond="dice-share"``, such a position is valued by an estimate instead: ``(d0 - d1) / (d0 +
d1)`` to player 0, with ``d0`` and ``d1`` their dice. :func:`components` orders the rounds so
that every round comes after those it leads to, rounds that lead back to each other together.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from liarsdice.endgame.rounds import (
    NodeKey,
    Outcome,
    RoundTree,
    Unsolvable,
    build,
    dealt_root,
    node_key,
)
from liarsdice.models import JSON, GameState
from liarsdice.ruleset import Ruleset

BEYOND = ("refuse", "dice-share")


@attrs.frozen
class Limits:
    """How far the solver goes: at most ``max_dice`` dice in play in a round it solves, at most
    ``max_rounds`` rounds, and what it does with a position beyond them (``beyond``: refuse the
    endgame, or value the position by the dice share)."""

    max_dice: int = 2
    max_rounds: int = 32
    beyond: str = attrs.field(default="refuse", validator=attrs.validators.in_(BEYOND))

    def to_data(self) -> JSON:
        """The limits as JSON (part of a solution's key)."""
        return [self.max_dice, self.max_rounds, self.beyond]


DEFAULT_LIMITS = Limits()
"""Two dice in play at most, 32 rounds, refuse what goes beyond."""


@attrs.define
class Graph:
    """The rounds an endgame can reach: each tree by its root's key, the round each position
    (between rounds) deals, and the estimates of positions beyond the limits."""

    trees: dict[NodeKey, RoundTree] = attrs.field(factory=dict)
    entries: dict[str, NodeKey] = attrs.field(factory=dict)
    estimates: dict[str, float] = attrs.field(factory=dict)

    def successors(self, key: NodeKey) -> set[NodeKey]:
        """The rounds the round ``key`` can lead to."""
        return {self.entries[o.key] for o in self.trees[key].outcomes if o.key in self.entries}

    def payoff(self, tree: RoundTree, outcome: Outcome, values: Mapping[NodeKey, float]) -> float:
        """What ``outcome`` is worth to player 0, with the rounds' ``values`` so far."""
        ending = tree.payoff(outcome)
        if ending is not None:
            return ending
        if outcome.key in self.estimates:
            return self.estimates[outcome.key]
        return values[self.entries[outcome.key]]

    def payoffs(self, key: NodeKey, values: Mapping[NodeKey, float]) -> list[float]:
        """What each outcome of the round ``key`` is worth to player 0 (see :meth:`payoff`)."""
        tree = self.trees[key]
        return [self.payoff(tree, outcome, values) for outcome in tree.outcomes]


def explore(rules: Ruleset, root: GameState, limits: Limits) -> Graph:
    """Every round the game can reach from the one starting at ``root`` (hidden), within
    ``limits``; :class:`Unsolvable` for a round the walk refuses or beyond the limits."""
    graph = Graph()
    pending = [root]
    while pending:
        state = pending.pop()
        if node_key(state) in graph.trees:
            continue
        if len(graph.trees) >= limits.max_rounds:
            raise Unsolvable(
                f"the endgame has more than {limits.max_rounds} different rounds "
                "(Limits.max_rounds)"
            )
        tree = build(rules, state)
        graph.trees[tree.key] = tree
        for outcome in tree.outcomes:
            after = outcome.state
            if after is None or outcome.key in graph.entries or outcome.key in graph.estimates:
                continue
            if after.dice_in_play > limits.max_dice:
                graph.estimates[outcome.key] = estimate(after, tree.players, limits)
                continue
            following = dealt_root(rules, after)
            graph.entries[outcome.key] = node_key(following)
            pending.append(following)
    return graph


def estimate(state: GameState, players: tuple[str, str], limits: Limits) -> float:
    """The estimate of ``state`` (beyond the limits) to player 0, or :class:`Unsolvable`."""
    first, second = (state.player(name).dice for name in players)
    if limits.beyond == "refuse":
        raise Unsolvable(
            f"a round can end with {players[0]} holding {first} dice and {players[1]} {second}, "
            f"more than the {limits.max_dice} the solver takes: raise Limits.max_dice, or "
            "value such positions with Limits(beyond='dice-share')"
        )
    return (first - second) / (first + second)


def components(graph: Graph) -> list[list[NodeKey]]:
    """The rounds in groups that lead back to each other, every group after those it leads to
    (Tarjan's algorithm gives them in that order)."""
    order: dict[NodeKey, int] = {}
    low: dict[NodeKey, int] = {}
    stack: list[NodeKey] = []
    found: list[list[NodeKey]] = []

    def visit(key: NodeKey) -> None:
        order[key] = low[key] = len(order)
        stack.append(key)
        for after in graph.successors(key):
            if after not in order:
                visit(after)
                low[key] = min(low[key], low[after])
            elif after in stack:
                low[key] = min(low[key], order[after])
        if low[key] == order[key]:
            group: list[NodeKey] = []
            while not group or group[-1] != key:
                group.append(stack.pop())
            found.append(group)

    for key in graph.trees:
        if key not in order:
            visit(key)
    return found
