"""CFR+ on a :class:`~liarsdice.endgame.ladder.Ladder`, and best responses there, in float32.

The same CFR+ as :class:`liarsdice.endgame.cfr.Solver` (regret matching+, alternating updates,
the average weighted by ``t ** averaging``), on the ladder's levels (see
:mod:`~liarsdice.endgame.ladder` for the numbering): a pass down works out the other player's
reach at every node and adds the updating player's own reach to their strategy sums; a pass up
works out the updating player's values from the deepest level, a call's value being the other
player's reach at its leaf times the call table's payoff matrix, and updates their regrets.
Strategies are worked out of the regrets (or the sums, for the average) one level at a time,
so a solve holds, per edge and hand of its actor, only its regrets and sums (float32: 5.6 GB at
16.8 million nodes and 21 hands each) and the other player's reach at the nodes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from liarsdice.endgame.ladder import Ladder
from liarsdice.models import Action, BidAction, CallAction
from liarsdice.views import PlayerView

Floats = NDArray[np.floating]
Level = tuple[Floats, Floats]
"""One level's raise edges (rows: the nodes they lead to) and calls (kind, node), by hands."""
Strategy = Callable[[int], Level]
"""A player's strategy (or weights) at a level of theirs, from its depth."""


class Solver:
    """CFR+ on ``ladder`` with the payoffs given by :meth:`set_payoffs` (see the module), in
    ``dtype`` (float64 follows :class:`liarsdice.endgame.cfr.Solver` to rounding)."""

    def __init__(
        self, ladder: Ladder, *, averaging: float = 2.0, dtype: type[np.floating] = np.float32
    ) -> None:
        self.ladder = ladder
        self.dtype = dtype
        self._tiny = np.finfo(dtype).tiny
        """A node's total weight below this (a subnormal number) counts as 0: one over it
        would overflow."""
        self.averaging = averaging
        self.iterations = 0
        n = self.rungs = len(ladder.rungs)
        self.binomial = [[math.comb(j, d) for d in range(n + 2)] for j in range(n + 1)]
        calls = len(ladder.calls)
        self._regrets: list[Level] = []
        self._sums: list[Level] = []
        self._uniform: list[Floats] = []
        for depth in range(n + 1):
            hands = len(ladder.hands[ladder.actor(depth)])
            shape = (self.binomial[n][depth + 1], hands)
            kinds = calls if depth else 0
            calls_shape = (kinds, self.binomial[n][depth], hands)
            self._regrets.append((self._zeros(shape), self._zeros(calls_shape)))
            self._sums.append((self._zeros(shape), self._zeros(calls_shape)))
            self._uniform.append(self._spread(depth, calls))
        self._current: list[Level | None] = [None] * (n + 1)
        self._matrices = self._leaf_matrices([0.0] * len(ladder.outcomes))
        self._modes = ladder.node_modes()
        """Each node's mode by level (:meth:`~liarsdice.endgame.ladder.Ladder.node_modes`)."""

    @property
    def nbytes(self) -> int:
        """The bytes its regrets and strategy sums take (a solve's peak is two to three times that)."""
        return sum(array.nbytes for level in (*self._regrets, *self._sums) for array in level)

    def set_payoffs(self, payoffs: Sequence[float]) -> None:
        """Player 0's payoff for each of the ladder's outcomes (the regrets so far are kept)."""
        self._matrices = self._leaf_matrices(payoffs)

    def run(self, iterations: int) -> None:
        """``iterations`` more iterations: a pass for player 0, then one for player 1."""
        for _ in range(iterations):
            self.iterations += 1
            weight = float(self.iterations) ** self.averaging
            for player in (0, 1):
                self._pass(player, weight)

    def exploitability(self, payoffs: Sequence[float]) -> float:
        """NashConv / 2 of the average strategy with ``payoffs`` (player 0's, per outcome)."""
        return (self.best_response(0, payoffs) + self.best_response(1, payoffs)) / 2

    def best_response(
        self, player: int, payoffs: Sequence[float], against: Strategy | None = None
    ) -> float:
        """What a best response as ``player`` wins against the other's average strategy (or
        ``against``, at the other's levels), with ``payoffs`` (player 0's, per outcome)."""
        matrices = self._leaf_matrices(payoffs)[player]
        theirs = self.average(1 - player) if against is None else against
        other = self.reach(1 - player, theirs)
        root = self._up(player, other, None, theirs, matrices)
        return float(self.ladder.chances[player] @ root[0])

    def uniform_level(self, depth: int) -> Level:
        """Every move at ``depth`` equally likely, for each hand."""
        raises, calls = self._regrets[depth]
        return self.normalised(depth, (np.zeros_like(raises), np.zeros_like(calls)))

    def value(self, payoffs: Sequence[float]) -> float:
        """What the average strategies are worth to player 0 with ``payoffs``."""
        matrices = self._leaf_matrices(payoffs)[0]
        other = self.reach(1, self.average(1))
        root = self._up(0, other, self.average(0), self.average(1), matrices)
        return float(self.ladder.chances[0] @ root[0])

    def average(self, player: int) -> Strategy:
        """``player``'s average strategy, a level at a time (depths where they act)."""
        return lambda depth: self.normalised(depth, self._sums[depth])

    def policy(self, view: PlayerView) -> dict[Action, float]:
        """The average strategy at ``view``, a decision in this round (the players named as
        in the ladder): each legal move's chance. ``KeyError`` where ``view`` is not a
        decision of this round."""
        ladder, c = self.ladder, self.binomial
        root = ladder.root
        assert root.round is not None
        if (
            view.viewer is None
            or view.turn != view.viewer
            or view.own_dice is None
            or view.opener != root.round.opener
            or [(seat.name, seat.dice) for seat in view.seats if seat.dice]
            != [(player.name, player.dice) for player in root.alive]
        ):
            raise KeyError("not a decision of this round")
        place = {bid: rung for rung, bid in enumerate(ladder.rungs)}
        path = [place[placed.bid] for placed in view.bids]
        depth, number = ladder.node(path)
        hand = ladder.hands[ladder.players.index(view.viewer)].index(tuple(sorted(view.own_dice)))
        raises, calls = self.normalised(depth, self._sums[depth])
        found: dict[Action, float] = {}
        for rung in range(path[-1] + 1 if path else 0, self.rungs):
            if depth or ladder.opening[rung]:
                chance = raises[c[rung][depth + 1] + number, hand]
                found[BidAction(view.viewer, ladder.rungs[rung])] = float(chance)
        for k, kind in enumerate(ladder.calls if depth else ()):
            found[CallAction(view.viewer, kind)] = float(calls[k, number, hand])
        return found

    def current(self, player: int) -> Strategy:
        """``player``'s current strategy (regret matching+), a level at a time (each level's
        kept until its regrets change)."""
        return self._current_at

    def _current_at(self, depth: int) -> Level:
        found = self._current[depth]
        if found is None:
            found = self._current[depth] = self.normalised(depth, self._regrets[depth])
        return found

    def _pass(self, player: int, weight: float) -> None:
        """``player``'s update: their reach (by their strategy before it) added to the average,
        their regrets updated against the other's current strategy."""
        mine = self.current(player)
        other = self.reach(1 - player, self.current(1 - player), sums=(player, mine, weight))
        self._up(player, other, mine, self.current(1 - player), self._matrices[player], True)

    def reach(
        self,
        player: int,
        strategy: Strategy,
        sums: tuple[int, Strategy, float] | None = None,
    ) -> list[Floats]:
        """``player``'s reach at every node, level by level, by ``strategy``; with ``sums``
        (the other player, their strategy, a weight), that player's reach at their edges,
        weighted, is added to their strategy sums on the way."""
        ladder, n, c = self.ladder, self.rungs, self.binomial
        levels = [np.ones((1, len(ladder.hands[player])), dtype=self.dtype)]
        own = None if sums is None else np.ones((1, len(ladder.hands[sums[0]])), self.dtype)
        for depth in range(n + 1):
            actor = ladder.actor(depth)
            here = levels[depth]
            moves = strategy(depth) if actor == player else None
            if sums is not None and own is not None:
                own = self._add_sums(depth, own, sums)
            if depth == n:
                break
            after = np.empty((c[n][depth + 1], here.shape[1]), dtype=self.dtype)
            for j in range(depth, n):
                low, high, count = c[j][depth + 1], c[j + 1][depth + 1], c[j][depth]
                if moves is None:
                    after[low:high] = here[:count]
                else:
                    np.multiply(here[:count], moves[0][low:high], out=after[low:high])
            levels.append(after)
        return levels

    def _add_sums(
        self, depth: int, own: Floats, sums: tuple[int, Strategy, float]
    ) -> Floats | None:
        """Add the summing player's weighted reach at this level's edges to their sums (at
        their own levels), and give their reach at the next level's nodes."""
        player, strategy, weight = sums
        ladder, n, c = self.ladder, self.rungs, self.binomial
        if depth == n:
            if ladder.actor(depth) == player:
                self._sums[depth][1][...] += weight * own[None] * strategy(depth)[1]
            return None
        after = np.empty((c[n][depth + 1], own.shape[1]), dtype=self.dtype)
        if ladder.actor(depth) != player:
            for j in range(depth, n):
                after[c[j][depth + 1] : c[j + 1][depth + 1]] = own[: c[j][depth]]
            return after
        raises, calls = strategy(depth)
        for j in range(depth, n):
            low, high, count = c[j][depth + 1], c[j + 1][depth + 1], c[j][depth]
            np.multiply(own[:count], raises[low:high], out=after[low:high])
        summed_raises, summed_calls = self._sums[depth]
        summed_raises += weight * after
        if depth:
            summed_calls += weight * own[None] * calls
        return after

    def _up(
        self,
        player: int,
        other: list[Floats],
        mine: Strategy | None,
        theirs: Strategy,
        matrices: Floats,
        update: bool = False,
    ) -> Floats:
        """``player``'s values at the root from the deepest level up, the other's reach at
        the nodes being ``other``: at their own levels the expectation under ``mine``, or their
        best where ``mine`` is ``None``; with ``update``, their regrets updated on the way."""
        ladder, n, c = self.ladder, self.rungs, self.binomial
        hands = len(ladder.hands[player])
        below: Floats | None = None
        for depth in range(n, -1, -1):
            own_level = ladder.actor(depth) == player
            raises, calls = (
                (mine(depth) if mine is not None else (None, None))
                if own_level
                else (None, theirs(depth)[1])
            )
            values = self._call_values(depth, other[depth], None if own_level else calls, matrices)
            if own_level and mine is None:
                found = values.max(axis=0) if depth else np.full((1, hands), -np.inf, self.dtype)
            elif own_level:
                assert calls is not None
                found = (values * calls).sum(axis=0) if depth else self._zeros((1, hands))
            else:
                found = values.sum(axis=0) if depth else self._zeros((1, hands))
            if below is not None:
                for j in range(depth, n):
                    if depth == 0 and not ladder.opening[j]:
                        continue
                    low, high, count = c[j][depth + 1], c[j + 1][depth + 1], c[j][depth]
                    if own_level and mine is None:
                        np.maximum(found[:count], below[low:high], out=found[:count])
                    elif own_level:
                        assert raises is not None
                        found[:count] += raises[low:high] * below[low:high]
                    else:
                        found[:count] += below[low:high]
            if update and own_level:
                self._update(depth, below, values, found)
            below = found
        assert below is not None
        return below

    def _call_values(
        self, depth: int, reach: Floats, calls: Floats | None, matrices: Floats
    ) -> Floats:
        """The value of each call at each node of ``depth`` (kind, node, hand), ``reach``
        being the other player's there and ``calls`` their chances of each call where the
        call is theirs."""
        ladder, n, c = self.ladder, self.rungs, self.binomial
        kinds = len(ladder.calls) if depth else 0
        found = np.empty((kinds, c[n][depth], matrices.shape[2]), dtype=self.dtype)
        bidder = ladder.actor(depth - 1)
        for k in range(kinds):
            leaf = reach if calls is None else reach * calls[k]
            for top in range(depth - 1, n):
                low, high = c[top][depth], c[top + 1][depth]
                if self._modes is None:
                    table = ladder.table[top, bidder, k, 0]
                    if table < 0:  # no node calls there (see Ladder.table)
                        found[k, low:high] = 0.0
                    elif high > low:
                        np.einsum(
                            "lq,qp->lp", leaf[low:high], matrices[table], out=found[k, low:high]
                        )
                    continue
                found[k, low:high] = 0.0
                here = self._modes[depth][low:high]
                for mode, table in enumerate(ladder.table[top, bidder, k]):
                    rows = low + np.flatnonzero(here == mode)
                    if table >= 0 and len(rows):
                        found[k, rows] = leaf[rows] @ matrices[table]
        return found

    def _update(self, depth: int, below: Floats | None, calls: Floats, found: Floats) -> None:
        """Regret matching+'s update at ``depth``: each edge's value less its node's, floored."""
        n, c = self.rungs, self.binomial
        raises, kinds = self._regrets[depth]
        if below is not None:
            for j in range(depth, n):
                low, high, count = c[j][depth + 1], c[j + 1][depth + 1], c[j][depth]
                raises[low:high] += below[low:high] - found[:count]
            np.maximum(raises, 0.0, out=raises)
            if depth == 0:
                raises[~self.ladder.opening] = 0.0
        if depth:
            kinds += calls - found[None]
            np.maximum(kinds, 0.0, out=kinds)
        self._current[depth] = None

    def normalised(self, depth: int, weights: Level) -> Level:
        """``weights`` at ``depth`` divided by their node's total for each hand, uniform over
        the node's moves where that is 0 (under the smallest normal number)."""
        n, c = self.rungs, self.binomial
        raises, calls = weights
        totals = calls.sum(axis=0) if depth else self._zeros((1, raises.shape[1]))
        for j in range(depth, n):
            totals[: c[j][depth]] += raises[c[j][depth + 1] : c[j + 1][depth + 1]]
        positive = totals >= self._tiny
        scale = np.divide(1.0, totals, out=np.zeros_like(totals), where=positive)
        spread = np.where(positive, self.dtype(0.0), self._uniform[depth][:, None])
        found = np.empty_like(raises)
        for j in range(depth, n):
            low, high, count = c[j][depth + 1], c[j + 1][depth + 1], c[j][depth]
            np.multiply(raises[low:high], scale[:count], out=found[low:high])
            found[low:high] += spread[:count]
        if depth == 0:
            found[~self.ladder.opening] = 0.0
        return found, calls * scale[None] + spread[None]

    def _spread(self, depth: int, calls: int) -> Floats:
        """One over the number of moves at each node of ``depth``."""
        n, c = self.rungs, self.binomial
        if depth == 0:
            return np.array([1.0 / int(self.ladder.opening.sum())], dtype=self.dtype)
        found = np.empty(c[n][depth], dtype=self.dtype)
        for top in range(depth - 1, n):
            found[c[top][depth] : c[top + 1][depth]] = 1.0 / (n - 1 - top + calls)
        return found

    def _leaf_matrices(self, payoffs: Sequence[float]) -> tuple[Floats, Floats]:
        """For each player ``p``, each table's matrix ``m`` such that the other's reach ``r`` at
        a call gives ``p``'s values ``r @ m``: the other's hands' chances and the payoffs
        (player 0's) folded in."""
        first = self.ladder.chance @ np.asarray(payoffs, dtype=np.float64)
        zero, one = self.ladder.chances
        return (
            (first * one[None, None, :]).transpose(0, 2, 1).astype(self.dtype),
            (-first * zero[None, :, None]).astype(self.dtype),
        )

    def _zeros(self, shape: tuple[int, ...]) -> Floats:
        return np.zeros(shape, dtype=self.dtype)
