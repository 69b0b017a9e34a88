"""Heads-up rounds solved on the last bid: CFR+ with every hand pair at once, in numpy.

The abstraction: a player decides from their hand and the bid on the table (with who made it),
not from the bids before it. Then the round is a small graph: a node is the opening (no bid yet)
or a bid with its bidder, and every way of reaching a bid leads to the same node, so a round of
5 dice each has 121 nodes where its full public tree (:mod:`~liarsdice.endgame.rounds`) has 2^60.
An information set is a (node, hand) pair; a strategy in the abstraction is a full strategy of
the real round that ignores the earlier bids, and is measured in the real game by
:mod:`~liarsdice.endgame.response` (its exploitability there is what counts).

:func:`build` walks the graph with the engine (the legal moves at each node, and the state after
a bid, from one path there), and rules each call once per total count toward the bid on the table,
for a pair of hands with that total (:func:`~liarsdice.endgame.rounds.settlements`: every settling
draw with its chance), valued by ``value`` (player 0's worth of the state after the round). A
second pair with the same total, where there is one, must get the same value: else
:class:`~liarsdice.endgame.rounds.Unsolvable` (the outcome depends on more than the count).
Bids must be counts of a face (the baseline's kind).

:func:`solve` runs CFR+ (regret matching+, alternating updates, the average weighted by ``t ** 2``)
where a pass is a sweep over the nodes in bid order: each player's chance of reaching a node,
summed over the ways there, forward; each node's value for every pair of hands (a matrix),
backward. A node's counterfactual values are that matrix against the other player's reach,
exact for the abstraction because what follows a node does not depend on the way to it. (The
abstraction forgets: a player does not recall their own earlier bids either, so CFR+ has no
guarantee of converging here, and what a best response gains is measured in the real game.)

With ``blind_opening`` the opening is one information set for every hand of the opener: its
regrets are summed over the hands (each weighted by its chance) and one policy is played
whatever the hand, so the opening bid tells nothing of it, and the rest of the round is solved
against that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from liarsdice import engine
from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.endgame.rounds import (
    Hand,
    Unsolvable,
    after_bid,
    hands,
    legal_moves,
    settlements,
    with_hands,
)
from liarsdice.models import Action, Bid, BidAction, CallAction, GameState
from liarsdice.ruleset import Ruleset

Matrix = npt.NDArray[np.floating]
FAST = np.float32
"""What CFR+ computes in (half the memory traffic of float64; values are exact in
:func:`game_value`)."""
NodeId = tuple[str, int, int, int] | tuple[str, int, int, int, int, int] | None
"""A node: ``(bidder, quantity, face, bids)`` of the bid on the table and the number of bids made
(counted up to the graph's ``depth``), with the quantity and face of the bid before it
(``0, 0`` for none) where the graph remembers two bids (``memory`` 2), or ``None`` for the
opening."""


@attrs.frozen(eq=False)
class Graph:
    """A round's last-bid graph: ``nodes`` in bid order (the opening first), each decided by
    player ``actor[n]`` among ``actions[n]``; ``kids[n][a]`` is the node an action leads to, or
    ``~m`` for the call whose payoffs to player 0 are ``leaves[m]`` (hands of player 0 by rows).
    ``hands[p]`` and ``chances[p]`` are player ``p``'s hands and their chances."""

    players: tuple[str, str]
    hands: tuple[tuple[Hand, ...], tuple[Hand, ...]]
    chances: tuple[Matrix, Matrix]
    nodes: tuple[NodeId, ...]
    actor: tuple[int, ...]
    actions: tuple[tuple[Action, ...], ...]
    kids: tuple[tuple[int, ...], ...]
    leaves: tuple[Matrix, ...]

    @property
    def index(self) -> dict[NodeId, int]:
        """Each node's number."""
        return {node: number for number, node in enumerate(self.nodes)}


def node_id(state: GameState, depth: int = 1, memory: int = 1) -> NodeId:
    """The node of ``state`` (a round being played): its last bid and bidder, the number of
    bids made up to ``depth`` and, with ``memory`` 2, the bid before the last; or the opening."""
    assert state.round is not None
    bids = state.round.bids
    if not bids:
        return None
    before = bids[-2].bid if len(bids) > 1 else None
    return _node(bids[-1].player, bids[-1].bid, min(len(bids), depth), before, memory)


def _node(player: str, bid: Bid, made: int, before: Bid | None, memory: int) -> NodeId:
    """The node of ``bid`` by ``player`` as the ``made``-th bid counted, after ``before``."""
    if memory == 1:
        return player, bid.quantity, bid.face, made
    return (
        player,
        bid.quantity,
        bid.face,
        made,
        0 if before is None else before.quantity,
        0 if before is None else before.face,
    )


def _kid(state: GameState, action: BidAction, depth: int, memory: int) -> NodeId:
    """The node ``action`` (a raise) leads to from ``state``."""
    assert state.round is not None
    bids = state.round.bids
    before = bids[-1].bid if bids else None
    return _node(action.player, action.bid, min(len(bids) + 1, depth), before, memory)


def build(
    rules: Ruleset,
    root: GameState,
    value: Callable[[GameState], float],
    depth: int = 1,
    memory: int = 1,
) -> Graph:
    """The last-bid graph of the round at ``root`` (hidden, before any bid), each call valued by
    ``value`` of the state after it (player 0's worth), its nodes as :func:`node_id` makes them
    with ``depth`` and ``memory``. See the module for what it refuses."""
    if memory not in (1, 2):
        raise ValueError(f"a graph remembers the last bid or the last two, not {memory}")
    if rules.bid_kind is not COUNT_OF_FACE:
        raise Unsolvable("the last-bid solver takes bids on a count of a face only")
    first, second = root.alive
    players = (first.name, second.name)
    dealt = (hands(first.dice), hands(second.dice))
    rank = rules.hooks.bid_rank
    states: dict[NodeId, GameState] = {None: root}
    pending: list[NodeId] = [None]
    while pending:
        state = states[pending.pop()]
        assert state.round is not None
        for action in legal_moves(rules, state, state.round.turn):
            if isinstance(action, BidAction):
                kid = _kid(state, action, depth, memory)
                if kid not in states:
                    states[kid] = after_bid(rules, state, action)
                    pending.append(kid)
    order = sorted(states, key=lambda node: _sort_key(rank, node))
    number = {node: n for n, node in enumerate(order)}
    rulings = _Rulings(rules, players, dealt, value)
    actor, actions, kids = [], [], []
    for node in order:
        state = states[node]
        assert state.round is not None
        moves = legal_moves(rules, state, state.round.turn)
        actor.append(players.index(state.round.turn))
        actions.append(moves)
        found: list[int] = []
        for move in moves:
            if isinstance(move, BidAction):
                child = number[_kid(state, move, depth, memory)]
                if child <= number[node]:
                    raise Unsolvable(f"a raise to {move.bid} does not rank above the bid it raises")
                found.append(child)
            else:
                assert isinstance(move, CallAction)
                found.append(~rulings.leaf(state, move))
        kids.append(tuple(found))
    return Graph(
        players=players,
        hands=(dealt[0][0], dealt[1][0]),
        chances=(np.array(dealt[0][1]), np.array(dealt[1][1])),
        nodes=tuple(order),
        actor=tuple(actor),
        actions=tuple(actions),
        kids=tuple(kids),
        leaves=tuple(rulings.leaves),
    )


def _sort_key(rank: Callable[[Bid], object], node: NodeId) -> tuple[object, ...]:
    """Where a node comes in bid order: the opening, then by its bid's rank, the bids counted
    and the bid before it (none first)."""
    if node is None:
        return (-1,)
    before = node[4:]
    earlier = (1, rank(Bid(before[0], before[1]))) if len(before) == 2 and before[0] else (0,)
    return (0, rank(Bid(node[1], node[2])), node[3], earlier)


class _Rulings:
    """Each call's payoff matrix, ruled by the engine once per total count (see the module)."""

    def __init__(
        self,
        rules: Ruleset,
        players: tuple[str, str],
        dealt: tuple[tuple[tuple[Hand, ...], tuple[float, ...]], ...],
        value: Callable[[GameState], float],
    ) -> None:
        self.rules = rules
        self.players = players
        self.hands = (dealt[0][0], dealt[1][0])
        self.value = value
        self.leaves: list[Matrix] = []
        self.memo: dict[tuple[object, ...], int] = {}

    def leaf(self, state: GameState, call: CallAction) -> int:
        assert state.round is not None
        placed = state.round.bids[-1]
        memo = (placed.player, placed.bid, call.player, call.kind, repr(state.plugins))
        known = self.memo.get(memo)
        if known is not None:
            return known
        faces = engine.counted_faces(self.rules, state, placed.bid)
        counts = [np.array([sum(d in faces for d in h) for h in side]) for side in self.hands]
        totals = counts[0][:, None] + counts[1][None, :]
        payoff = np.zeros(totals.shape, FAST)
        for total in np.unique(totals):
            pairs = np.argwhere(totals == total)
            ends = [pairs[0]] if len(pairs) == 1 else [pairs[0], pairs[-1]]
            values = {self._ruled(state, call, pair) for pair in ends}
            if max(values) - min(values) > 1e-9:
                raise Unsolvable(
                    f"the outcome of {call.kind} on {placed.bid} depends on more than the count"
                )
            payoff[totals == total] = values.pop()
        self.memo[memo] = len(self.leaves)
        self.leaves.append(payoff)
        return len(self.leaves) - 1

    def _ruled(self, state: GameState, call: CallAction, pair: Sequence[int]) -> float:
        dealt = (self.hands[0][pair[0]], self.hands[1][pair[1]])
        real = with_hands(state, self.players, dealt)
        return round(
            sum(
                chance * self.value(after) for after, chance in settlements(self.rules, real, call)
            ),
            12,
        )


Strategy = list[Matrix]
"""``strategy[n][hand, action]``: the chance the actor at node ``n`` with ``hand`` plays
``action``."""


class Solver:
    """CFR+ on a last-bid :class:`Graph` (see the module)."""

    def __init__(self, graph: Graph, *, blind_opening: bool = False) -> None:
        self.graph = graph
        self.blind_opening = blind_opening
        self.iterations = 0
        sizes = (len(graph.hands[0]), len(graph.hands[1]))
        shapes = [(sizes[a], len(k)) for a, k in zip(graph.actor, graph.kids, strict=True)]
        self._regrets = [np.zeros(shape) for shape in shapes]
        self._sums = [np.zeros(shape) for shape in shapes]
        self._current = [np.full(shape, 1.0 / shape[1], FAST) for shape in shapes]

    def run(self, iterations: int) -> None:
        """``iterations`` more iterations: a pass for player 0, then one for player 1."""
        for _ in range(iterations):
            self.iterations += 1
            weight = float(self.iterations) ** 2
            for player in (0, 1):
                self._pass(player, weight)

    def average(self) -> Strategy:
        """The average strategy (uniform where a hand never reached the node)."""
        found = []
        for sums in self._sums:
            totals = sums.sum(axis=1, keepdims=True)
            uniform = np.full(sums.shape, 1.0 / sums.shape[1])
            found.append(np.where(totals > 0.0, sums / np.where(totals > 0, totals, 1.0), uniform))
        return found

    def _pass(self, player: int, weight: float) -> None:
        graph, current = self.graph, self._current
        reach = _reach(graph, current)
        values = _values(graph, current, FAST)
        for node, kids in enumerate(graph.kids):
            if graph.actor[node] != player:
                continue
            q = _action_values(graph, node, player, reach[node][1 - player], values)
            if node == 0 and self.blind_opening:
                q = np.broadcast_to(q.sum(axis=0, keepdims=True), q.shape)
            strategy = current[node]
            expected = (strategy * q).sum(axis=1, keepdims=True)
            regrets = np.maximum(self._regrets[node] + q - expected, 0.0)
            self._regrets[node] = regrets
            self._sums[node] += weight * reach[node][player][:, None] * strategy
            totals = regrets.sum(axis=1, keepdims=True)
            current[node] = np.where(
                totals > 0.0, regrets / np.where(totals > 0.0, totals, 1.0), 1.0 / len(kids)
            ).astype(FAST)


def _reach(graph: Graph, strategy: Strategy) -> list[list[Matrix]]:
    """For every node, each player's chance of reaching it by their own moves, per hand, summed
    over the ways there."""
    found: list[list[Matrix]] = [
        [np.zeros(len(graph.hands[0])), np.zeros(len(graph.hands[1]))] for _ in graph.nodes
    ]
    found[0] = [np.ones(len(graph.hands[0])), np.ones(len(graph.hands[1]))]
    for node, kids in enumerate(graph.kids):
        mover = graph.actor[node]
        own, other = found[node][mover], found[node][1 - mover]
        if not (own.any() and other.any()):
            continue
        for action, kid in enumerate(kids):
            if kid >= 0:
                found[kid][mover] += own * strategy[node][:, action]
                found[kid][1 - mover] += other
    return found


def _values(graph: Graph, strategy: Strategy, dtype: type[np.floating]) -> list[Matrix]:
    """Every node's value to player 0 for each pair of hands (player 0's by rows) when both play
    ``strategy``, computed in ``dtype``."""
    values: list[Matrix] = [np.zeros(0, dtype)] * len(graph.nodes)
    for node in range(len(graph.nodes) - 1, -1, -1):
        kids, mover = graph.kids[node], graph.actor[node]
        children = [values[k] if k >= 0 else graph.leaves[~k].astype(dtype) for k in kids]
        picks = strategy[node].astype(dtype, copy=False)
        total = np.zeros((len(graph.hands[0]), len(graph.hands[1])), dtype)
        scratch = np.empty_like(total)
        for action, child in enumerate(children):
            weights = picks[:, action, None] if mover == 0 else picks[None, :, action]
            np.multiply(child, weights, out=scratch)
            total += scratch
        values[node] = total
    return values


def _action_values(
    graph: Graph, node: int, player: int, other: Matrix, values: Sequence[Matrix]
) -> Matrix:
    """``player``'s counterfactual value of each action at ``node`` for each hand, by rows,
    against the other player's reach ``other``."""
    p0, p1 = graph.chances
    columns = []
    against = (p1 * other if player == 0 else p0 * other).astype(FAST)
    for kid in graph.kids[node]:
        matrix = values[kid] if kid >= 0 else graph.leaves[~kid]
        columns.append(matrix @ against if player == 0 else matrix.T @ against)
    own = p0 if player == 0 else -p1
    return own[:, None] * np.stack(columns, axis=1)


def game_value(graph: Graph, strategy: Strategy) -> float:
    """What ``strategy`` (both players') is worth to player 0 in the round."""
    p0, p1 = graph.chances
    return float(p0 @ _values(graph, strategy, np.float64)[0] @ p1)


def solve(graph: Graph, iterations: int, *, blind_opening: bool = False) -> tuple[Strategy, Solver]:
    """The average strategy after ``iterations`` of CFR+ on ``graph`` (the opening played blind
    with ``blind_opening``: see the module), and the solver."""
    solver = Solver(graph, blind_opening=blind_opening)
    solver.run(iterations)
    return solver.average(), solver
