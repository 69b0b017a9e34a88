"""A round's public tree compiled into numpy arrays, and the vectorised passes down and up it.

These passes are what CFR+ and the exact evaluations of :mod:`~liarsdice.endgame.cfr` are made
of. :func:`compiled` compiles a :class:`~liarsdice.endgame.rounds.RoundTree` once (kept while the
tree lives). Its nodes are renumbered level by level (a level: the nodes of one depth decided by
one player), each level's nodes in the order of the edges that lead to them, and its edges (a
node's actions, in order) numbered per player: player ``p``'s edges are the rows of a player's
per-edge arrays, ``edges x hands[p]`` (strategies, regrets, reaches), and one level's edges are
one slice of them. A call is a leaf; leaves are numbered by call table, so each table's are one
slice, and a table is a payoff matrix over pairs of hands for each player.

A pass down (:meth:`Compiled.reach`) gives, from one player's strategy, the chance that their
moves reach every node, edge and leaf; a pass up gives one player's values at every node from
the values at the leaves, summing the other player's edges and taking their own's expectation
under a strategy (:meth:`Compiled.expected`) or their best (:meth:`Compiled.best`).
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import weakref
from collections.abc import Iterator, Sequence

import attrs
import numpy as np
from numpy.typing import NDArray

from liarsdice.endgame.rounds import CallTable, Hand, RoundTree

Floats = NDArray[np.float64]
Ints = NDArray[np.intp]
Run = tuple[int, int, int, int]
"""``(edge, node, count, actions)``: ``count`` nodes from ``node`` with ``actions`` edges each,
from ``edge``: a level's nodes are in order of their number of actions, so that summing a node's
edges is summing a block's middle axis."""
Strategy = Sequence[Sequence[Sequence[float]]]
"""``strategy[node][hand][action]``: the chance the actor at ``node`` holding ``hand`` plays
``action``."""


@attrs.frozen(eq=False)
class Level:
    """The nodes of one depth decided by ``actor``: ``nodes`` (new numbers), their edges
    ``edges`` (the actor's edge numbers), its runs of nodes (``runs``, see :data:`Run`; from
    the level's first node and edge), each node's number of actions (``actions``), the row of
    each edge's value in a pass up (``source``: its child, or the number of nodes plus its
    leaf), and the edges (``inner``, from the level's first) to children (``kids``) and to
    leaves (``outer``, ``leaves``)."""

    actor: int
    nodes: slice
    edges: slice
    runs: tuple[Run, ...]
    actions: Ints
    source: Ints
    inner: Ints
    kids: Ints
    outer: Ints
    leaves: Ints


@attrs.frozen(eq=False)
class Compiled:
    """A :class:`RoundTree` as arrays (see the module), holding no reference to it (it is kept
    per tree in a weak dictionary): ``order[new]`` is a node's number in the tree;
    ``chances[p]`` player ``p``'s hands' chances; per player ``p``: the number of their edges
    (``sizes[p]``), each edge's node (new number, ``parents[p]``; among ``p``'s nodes,
    ``owner[p]``), ``p``'s runs of nodes (``runs[p]``, see :data:`Run`) and one over each one's
    number of actions (``uniform[p]``); ``tables[c]`` is table ``c``'s leaves;
    ``outcomes[c, h0, h1, o]`` the chance of outcome ``o`` at table ``c`` with hands ``h0`` and
    ``h1``; ``groups`` the nodes decided by one player with one number of actions, as
    ``(player, tree nodes, their edges)``."""

    order: Ints
    chances: tuple[Floats, Floats]
    levels: tuple[Level, ...]
    sizes: tuple[int, int]
    parents: tuple[Ints, Ints]
    owner: tuple[Ints, Ints]
    runs: tuple[tuple[Run, ...], tuple[Run, ...]]
    uniform: tuple[Floats, Floats]
    leaf_count: int
    tables: tuple[slice, ...]
    outcomes: Floats
    groups: tuple[tuple[int, Ints, Ints], ...]

    def leaf_matrices(self, payoffs: Sequence[float]) -> tuple[Floats, Floats]:
        """For each player ``p``, each table's matrix ``m`` such that the other player's reach
        ``r`` at a leaf (their moves' chance only) gives ``p``'s values ``r @ m[c]`` (the other's
        hands' chances and the payoffs, player 0's in ``payoffs``, folded in)."""
        first = self.outcomes @ np.asarray(payoffs, dtype=np.float64)
        zero, one = self.chances
        return (
            (first * one[None, None, :]).transpose(0, 2, 1),
            -first * zero[None, :, None],
        )

    def leaf_values(self, matrices: Floats, other: Floats) -> Floats:
        """Each leaf's values to a player with ``matrices`` (from :meth:`leaf_matrices`), the
        other player's reach at the leaves being ``other``; the rows after the nodes', as a pass
        up wants them."""
        nodes = len(self.order)
        found = np.empty((nodes + self.leaf_count, matrices.shape[2]))
        for table, leaves in enumerate(self.tables):
            part = found[nodes + leaves.start : nodes + leaves.stop]
            # einsum's own loop: BLAS's threads cost more than these thin products.
            np.einsum("lq,qp->lp", other[leaves], matrices[table], out=part)
        return found

    def reach(self, player: int, strategy: Floats) -> tuple[Floats, Floats, Floats]:
        """The chance that ``player``'s moves by ``strategy`` (their edges x hands) reach each
        node (new numbers), each of their edges (the edge taken) and each leaf."""
        hands = strategy.shape[1]
        nodes = np.empty((len(self.order), hands))
        nodes[0] = 1.0
        edges = np.empty_like(strategy)
        leaves = np.empty((self.leaf_count, hands))
        for level in self.levels:
            found = np.repeat(nodes[level.nodes], level.actions, axis=0)
            if level.actor == player:
                found = np.multiply(found, strategy[level.edges], out=edges[level.edges])
            nodes[level.kids] = found[level.inner]
            leaves[level.leaves] = found[level.outer]
        return nodes, edges, leaves

    def expected(self, player: int, found: Floats, strategy: Floats) -> Floats:
        """A pass up for ``player`` playing ``strategy`` (their edges x hands), ``found`` holding
        the leaves' values (from :meth:`leaf_values`): fills in each node's value (the root's is
        row 0), the expectation at their own nodes, and returns each of their edges' values."""
        by_edge = np.empty_like(strategy)
        for level in reversed(self.levels):
            here = found[level.source]
            if level.actor == player:
                by_edge[level.edges] = here
                here *= strategy[level.edges]
            _reduce(np.add, here, level.runs, found[level.nodes])
        return by_edge

    def best(self, player: int, found: Floats) -> None:
        """:meth:`expected` with ``player`` taking their best action everywhere."""
        for level in reversed(self.levels):
            ufunc = np.maximum if level.actor == player else np.add
            _reduce(ufunc, found[level.source], level.runs, found[level.nodes])

    def normalised(self, player: int, weights: Floats) -> Floats:
        """``weights`` (``player``'s edges x hands) divided by their node's total for each hand,
        uniform where that is 0."""
        totals = np.empty((len(self.uniform[player]), weights.shape[1]))
        _reduce(np.add, weights, self.runs[player], totals)
        positive = totals > 0.0
        scale = np.divide(1.0, totals, out=np.zeros_like(totals), where=positive)
        spread = np.where(positive, 0.0, self.uniform[player][:, None])
        found = weights * scale[self.owner[player]]
        found += spread[self.owner[player]]
        return found

    def edge_arrays(self, strategy: Strategy) -> tuple[Floats, Floats]:
        """A hand-major ``strategy`` (tree nodes) as each player's edges x hands."""
        found = (
            np.empty((self.sizes[0], len(self.chances[0]))),
            np.empty((self.sizes[1], len(self.chances[1]))),
        )
        for player, nodes, edges in self.groups:
            block = np.array([strategy[n] for n in nodes.tolist()], dtype=np.float64)
            found[player][edges] = block.transpose(0, 2, 1).reshape(len(edges), -1)
        return found

    def nested(self, arrays: tuple[Floats, Floats]) -> list[list[list[float]]]:
        """Each player's edges x hands as a hand-major strategy over the tree's nodes."""
        found: list[list[list[float]]] = [[]] * len(self.order)  # each replaced below
        with uncollected():
            for player, nodes, edges in self.groups:
                hands = arrays[player].shape[1]
                block = arrays[player][edges].reshape(len(nodes), -1, hands).transpose(0, 2, 1)
                for node, rows in zip(nodes.tolist(), block.tolist(), strict=True):
                    found[node] = rows
        return found


@contextlib.contextmanager
def uncollected() -> Iterator[None]:
    """No cyclic garbage collection inside: for building millions of lists or tuples of floats,
    none in a cycle, which the collector would only walk again and again."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


_COMPILED: weakref.WeakKeyDictionary[RoundTree, Compiled] = weakref.WeakKeyDictionary()


def compiled(tree: RoundTree) -> Compiled:
    """``tree`` compiled, once while it lives."""
    found = _COMPILED.get(tree)
    if found is None:
        found = _COMPILED[tree] = _compile(tree)
    return found


def _compile(tree: RoundTree) -> Compiled:
    """``tree`` as :class:`Compiled` (the numbering: see the module); every node has an action."""
    actor, kids = tree.actor, tree.kids
    order: list[int] = []
    spans: list[tuple[int, list[int]]] = []
    frontier = [0]
    while frontier:
        level = [
            (p, sorted((n for n in frontier if actor[n] == p), key=lambda n: len(kids[n])))
            for p in (0, 1)
        ]
        level = [(p, members) for p, members in level if members]
        spans += level
        order += [n for _, members in level for n in members]
        frontier = [k for _, members in level for n in members for k in kids[n] if k >= 0]
    new = [0] * len(order)
    for number, node in enumerate(order):
        new[node] = number
    leaf_tables = [~k for n in order for k in kids[n] if k < 0]
    ranks = np.empty(len(leaf_tables), dtype=np.intp)
    ranks[np.argsort(leaf_tables, kind="stable")] = np.arange(len(leaf_tables))
    levels: list[Level] = []
    counts = [0, 0]
    leaf = 0
    first = 0
    parents: tuple[list[int], list[int]] = ([], [])
    owner: tuple[list[int], list[int]] = ([], [])
    runs: tuple[list[Run], list[Run]] = ([], [])
    before = [0, 0]
    uniform: tuple[list[float], list[float]] = ([], [])
    groups: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
    for player, members in spans:
        local: list[Run] = []
        parent: list[int] = []
        source: list[int] = []
        inner: list[int] = []
        children: list[int] = []
        outer: list[int] = []
        leaves: list[int] = []
        base = counts[player]
        for node in members:
            edges = kids[node]
            if local and local[-1][3] == len(edges):
                edge, at, count, _ = local[-1]
                local[-1] = (edge, at, count + 1, len(edges))
            else:
                local.append((len(parent), len(uniform[player]) - before[player], 1, len(edges)))
            uniform[player].append(1.0 / len(edges))
            group = groups.setdefault((player, len(edges)), ([], []))
            group[0].append(node)
            group[1].extend(range(base + len(parent), base + len(parent) + len(edges)))
            for kid in edges:
                owner[player].append(len(uniform[player]) - 1)
                if kid >= 0:
                    inner.append(len(parent))
                    children.append(new[kid])
                    source.append(new[kid])
                else:
                    outer.append(len(parent))
                    leaves.append(int(ranks[leaf]))
                    source.append(len(order) + int(ranks[leaf]))
                    leaf += 1
                parent.append(new[node])
        counts[player] += len(parent)
        parents[player].extend(parent)
        runs[player].extend((e + base, n + before[player], c, d) for e, n, c, d in local)
        before[player] = len(uniform[player])
        levels.append(
            Level(
                player,
                slice(first, first + len(members)),
                slice(base, counts[player]),
                tuple(local),
                _ints([len(kids[n]) for n in members]),
                _ints(source),
                _ints(inner),
                _ints(children),
                _ints(outer),
                _ints(leaves),
            )
        )
        first += len(members)
    bounds = np.searchsorted(np.sort(leaf_tables), np.arange(len(tree.tables) + 1))
    return Compiled(
        _ints(order),
        (np.array(tree.chances[0]), np.array(tree.chances[1])),
        tuple(levels),
        (counts[0], counts[1]),
        (_ints(parents[0]), _ints(parents[1])),
        (_ints(owner[0]), _ints(owner[1])),
        (tuple(runs[0]), tuple(runs[1])),
        (np.array(uniform[0]), np.array(uniform[1])),
        len(leaf_tables),
        tuple(slice(int(a), int(b)) for a, b in itertools.pairwise(bounds)),
        outcome_chances(tree.tables, tree.hands, len(tree.outcomes)),
        tuple((p, _ints(nodes), _ints(edges)) for (p, _), (nodes, edges) in groups.items()),
    )


def _reduce(ufunc: np.ufunc, edges: Floats, runs: Sequence[Run], nodes: Floats) -> None:
    """``ufunc`` over each node's rows of ``edges`` (edges x hands) into its row of ``nodes``."""
    for edge, node, count, actions in runs:
        block = edges[edge : edge + count * actions].reshape(count, actions, edges.shape[1])
        ufunc.reduce(block, axis=1, out=nodes[node : node + count])


def _ints(values: Sequence[int]) -> Ints:
    return np.array(values, dtype=np.intp)


def outcome_chances(
    tables: Sequence[CallTable], hands: tuple[Sequence[Hand], Sequence[Hand]], outcomes: int
) -> Floats:
    """``[c, h0, h1, o]``: the chance of outcome ``o`` at table ``c`` with hands ``h0``, ``h1``
    (every pair of ``hands``; ``outcomes`` of them)."""
    found = np.zeros((len(tables), len(hands[0]), len(hands[1]), outcomes))
    for c, table in enumerate(tables):
        cells = np.zeros((len(table.cells), len(table.cells[0]), outcomes))
        for g0, row in enumerate(table.cells):
            for g1, dist in enumerate(row):
                for outcome, chance in dist:
                    cells[g0, g1, outcome] += chance
        found[c] = cells[np.array(table.rows)][:, np.array(table.cols)]
    return found
