"""CFR+ on one round's public tree, and what a strategy there is worth: its value and best responses.

An information set is a (node, hand) pair of the public tree
(:class:`~liarsdice.endgame.rounds.RoundTree`). Every pass is vectorised with numpy over the
tree compiled into arrays (:mod:`~liarsdice.endgame.arrays`, once per tree): down the tree, level
by level, the chance that one player's moves reach each node, for each of their hands; up it,
one player's values, each level's nodes at once. A call's payoff is a matrix over pairs of hands
(:class:`~liarsdice.endgame.rounds.CallTable`), applied to the other player's reach at all of
that table's calls at once. The engine is never called here.

:class:`Solver` is CFR+ (Tammelin 2014): regret matching+ (regrets floored at 0), alternating
updates (player 0's pass, then player 1's, each seeing the other's current strategy), and the
average strategy weighted by ``t ** averaging`` at iteration ``t``. 1 is the linear average of
CFR+; 2, the default, reaches an exploitability of 0.01 or 0.005 in 15 to 20% fewer iterations
on OpenSpiel's one-die game (``benchmarks/endgame.py``). Every node is visited on every pass: a
subtree that a player's moves do not reach adds 0 to the other's values and average.

A strategy is hand-major: ``strategy[node][hand][action]``, for the player who acts at that node.
Payoffs are player 0's; the game is zero-sum, so player 1's are their negatives.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from liarsdice.endgame.arrays import Compiled, Floats, Strategy, compiled, uncollected
from liarsdice.endgame.rounds import RoundTree


class Solver:
    """CFR+ on ``tree`` with the payoffs given by :meth:`set_payoffs` (see the module)."""

    def __init__(self, tree: RoundTree, *, averaging: float = 2.0) -> None:
        self.tree = tree
        self.averaging = averaging
        self.iterations = 0
        self._arrays = found = compiled(tree)
        shapes = [(found.sizes[p], len(tree.hands[p])) for p in (0, 1)]
        self._regrets = [np.zeros(shape) for shape in shapes]
        self._sums = [np.zeros(shape) for shape in shapes]
        self._current = [found.normalised(p, np.zeros(shape)) for p, shape in enumerate(shapes)]
        self._matrices = found.leaf_matrices([0.0] * len(tree.outcomes))
        # Each player's reach at their edges and at the leaves, by their current strategy.
        self._reach = [found.reach(p, self._current[p])[1:] for p in (0, 1)]

    def set_payoffs(self, payoffs: Sequence[float]) -> None:
        """Player 0's payoff for each of the tree's outcomes (the regrets so far are kept)."""
        self._matrices = self._arrays.leaf_matrices(payoffs)

    def run(self, iterations: int) -> None:
        """``iterations`` more iterations: a pass for player 0, then one for player 1."""
        for _ in range(iterations):
            self.iterations += 1
            weight = float(self.iterations) ** self.averaging
            for player in (0, 1):
                self._pass(player, weight)

    def average(self) -> list[list[list[float]]]:
        """The average strategy, hand-major (uniform where a hand never reached the node)."""
        return self._arrays.nested(self._average())

    def exploitability(self, payoffs: Sequence[float]) -> float:
        """:func:`exploitability` of :meth:`average` with ``payoffs``, without building it."""
        return _exploitability(self._arrays, payoffs, self._average())

    def _average(self) -> tuple[Floats, Floats]:
        found = self._arrays
        return found.normalised(0, self._sums[0]), found.normalised(1, self._sums[1])

    def _pass(self, player: int, weight: float) -> None:
        """``player``'s update: their reach (by their strategy before it) added to the average,
        their regrets and strategy updated against the other's current strategy."""
        found = self._arrays
        edges, _ = self._reach[player]
        self._sums[player] += weight * edges
        values = found.leaf_values(self._matrices[player], self._reach[1 - player][1])
        by_edge = found.expected(player, values, self._current[player])
        regrets = self._regrets[player]
        regrets += by_edge
        regrets -= values[found.parents[player]]
        np.maximum(regrets, 0.0, out=regrets)
        self._current[player] = found.normalised(player, regrets)
        self._reach[player] = found.reach(player, self._current[player])[1:]


@attrs.frozen
class Evaluation:
    """What a strategy pair is worth in one round: ``value`` to player 0, each player's best
    response value against the other's strategy (``best[p]``, to player ``p``), and the chance
    of each of the tree's outcomes (``reach``)."""

    value: float
    best: tuple[float, float]
    reach: tuple[float, ...]

    @property
    def exploitability(self) -> float:
        """NashConv / 2: how much each player could gain, on average, by best responding."""
        return (self.best[0] + self.best[1]) / 2


def outcome_reach(tree: RoundTree, strategy: Strategy) -> list[float]:
    """The chance of each outcome of ``tree`` when both players play ``strategy``."""
    found = compiled(tree)
    return _outcome_reach(found, _leaf_reach(found, found.edge_arrays(strategy)))


def evaluate(tree: RoundTree, payoffs: Sequence[float], strategy: Strategy) -> Evaluation:
    """``strategy`` (both players', hand-major) in ``tree`` with player 0's ``payoffs`` for the
    outcomes: its value, exact best responses (both players) and outcome chances."""
    found = compiled(tree)
    leaves = _leaf_reach(found, found.edge_arrays(strategy))
    matrices = found.leaf_matrices(payoffs)
    best = (
        _best_response(found, matrices[0], leaves[1], 0),
        _best_response(found, matrices[1], leaves[0], 1),
    )
    reach = _outcome_reach(found, leaves)
    value = sum(r * p for r, p in zip(reach, payoffs, strict=True))
    return Evaluation(value, best, tuple(reach))


def exploitability(tree: RoundTree, payoffs: Sequence[float], strategy: Strategy) -> float:
    """:attr:`Evaluation.exploitability` of ``strategy``, without the rest of :func:`evaluate`."""
    found = compiled(tree)
    return _exploitability(found, payoffs, found.edge_arrays(strategy))


def _exploitability(
    found: Compiled, payoffs: Sequence[float], edges: tuple[Floats, Floats]
) -> float:
    leaves = _leaf_reach(found, edges)
    matrices = found.leaf_matrices(payoffs)
    return (
        _best_response(found, matrices[0], leaves[1], 0)
        + _best_response(found, matrices[1], leaves[0], 1)
    ) / 2


def _leaf_reach(found: Compiled, edges: tuple[Floats, Floats]) -> tuple[Floats, Floats]:
    """The chance that each player's moves by a strategy (each player's edges x hands) reach
    each leaf, for each hand."""
    return found.reach(0, edges[0])[2], found.reach(1, edges[1])[2]


def _best_response(found: Compiled, matrices: Floats, other: Floats, player: int) -> float:
    """``player``'s best response value, the other's reach at the leaves being ``other`` (and
    ``player``'s leaf matrices ``matrices``)."""
    values = found.leaf_values(matrices, other)
    found.best(player, values)
    return float(found.chances[player] @ values[0])


def _outcome_reach(found: Compiled, leaves: tuple[Floats, Floats]) -> list[float]:
    """:func:`outcome_reach` from both players' reach at the leaves."""
    zero, one = found.chances
    first, second = leaves[0] * zero, leaves[1] * one
    mass = np.stack([np.einsum("li,lj->ij", first[t], second[t]) for t in found.tables])
    reach: list[float] = np.einsum("tij,tijo->o", mass, found.outcomes).tolist()
    return reach


def own_reach(tree: RoundTree, strategy: Strategy) -> list[list[float]]:
    """For every node, the chance that its actor's own moves (``strategy``, hand-major) lead
    there, for each of the actor's hands (zeros where no hand of theirs gets there)."""
    found = compiled(tree)
    edges = found.edge_arrays(strategy)
    actors = np.array(tree.actor, dtype=np.intp)[found.order]
    reach: list[list[float]] = [[]] * len(tree.actor)  # each replaced below
    for player in (0, 1):
        mine = np.flatnonzero(actors == player)
        nodes = found.reach(player, edges[player])[0][mine]
        with uncollected():
            for node, row in zip(found.order[mine].tolist(), nodes.tolist(), strict=True):
                reach[node] = row
    return reach
