"""Rounds whose bids are a ladder, solved by CFR+ without building their trees.

In most rulesets a heads-up round's bids form a **ladder**: a total order in which, after any
bid, the legal raises are exactly the bids above it, and the calls are the same after every bid.
A round's public tree is then the tree of increasing sequences of rungs: a node after ``d``
bids is a ``d``-subset of the ``n`` rungs, and there are ``2 ** n`` nodes (16.8 million with 4
dice in play and every face bid on), too many to build with the engine as
:mod:`~liarsdice.endgame.rounds` does. Here the tree is never built. The nodes of depth ``d``
are the ``d``-subsets numbered in colexicographic order, in which the subsets whose top rung is
below ``j`` are the first ``C(j, d)``: raising node ``r`` of depth ``d`` to rung ``j`` leads to
node ``C(j, d + 1) + r`` of depth ``d + 1``, and the nodes whose top rung is ``i`` (whose calls
meet the same table) are ``C(i, d)`` to ``C(i + 1, d)``. A level's raise edges are numbered as
the nodes they lead to (``C(n, d + 1)`` of them) and its calls as its nodes, so CFR+ on it
(:mod:`~liarsdice.endgame.ladder_cfr`) is slices and matrix products, level by level.

:func:`climb` finds a round's ladder with the engine and checks it: every pair of hands gives
the same moves at the root and after each first bid (and the same state after it), and
:data:`SPOT_PATHS` paths drawn at random find the moves, the public plugin state and the call
tables where the ladder says. A bid may change the public plugin state if what it becomes
depends only on what it was and the bid (ones-locking: ones are locked once bid): a node's
**mode** is that state, found by a search over the rungs, the modes and the bidders, and its
call tables are the mode's. A call's outcomes come from the engine's rulings, once per rung,
bidder, kind and mode (:class:`~liarsdice.endgame.rounds.Builder`).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from random import Random

import attrs
import numpy as np
from numpy.typing import NDArray

from liarsdice.endgame.arrays import outcome_chances
from liarsdice.endgame.rounds import (
    Builder,
    Hand,
    Outcome,
    Unsolvable,
    after_bid,
    legal_moves,
    node_key,
)
from liarsdice.models import Bid, BidAction, CallAction, GameState
from liarsdice.ruleset import Ruleset

Floats = NDArray[np.float32]
SPOT_PATHS = 64
"""How many paths drawn at random :func:`climb` walks with the engine to check a ladder."""
MODES = 8
"""The most public plugin states a ladder's nodes may have (ones locked or not: 2)."""


@attrs.frozen(eq=False)
class Ladder:
    """One round as a ladder (see the module): ``players`` in seat order (0 and 1), ``opener``
    the one who bids first, ``rungs`` the bids in order, ``opening`` whether each may open,
    ``calls`` the kinds of call after any bid; ``hands[p]`` and ``chances[p]`` player ``p``'s
    hands and their chances; ``modes`` the public plugin states a node may have (the root's
    first) and ``step[m, i]`` the mode after a bid on rung ``i`` in mode ``m`` (-1 where no
    node has it); ``table[i, b, k, m]`` the call table of kind ``k`` on rung ``i`` bid by
    player ``b`` in mode ``m`` (-1 where no node has it); ``chance[c, h0, h1, o]`` the chance
    of outcome ``o`` (of ``outcomes``) at table ``c``; ``root`` the hidden state before the
    first bid."""

    players: tuple[str, str]
    opener: int
    rungs: tuple[Bid, ...]
    opening: NDArray[np.bool_]
    calls: tuple[str, ...]
    modes: tuple[str, ...]
    step: NDArray[np.int8]
    hands: tuple[tuple[Hand, ...], tuple[Hand, ...]]
    chances: tuple[NDArray[np.float64], NDArray[np.float64]]
    table: NDArray[np.intp]
    chance: NDArray[np.float64]
    outcomes: tuple[Outcome, ...]
    root: GameState

    @property
    def size(self) -> int:
        """The number of public nodes, ``2 ** len(rungs)`` (openings that are not legal
        included: nobody reaches their subtrees)."""
        return 1 << len(self.rungs)

    def actor(self, depth: int) -> int:
        """The player on turn after ``depth`` bids."""
        return self.opener if depth % 2 == 0 else 1 - self.opener

    def node(self, rungs: Sequence[int]) -> tuple[int, int]:
        """The ``(depth, number)`` of the node after bids on ``rungs`` (increasing)."""
        return len(rungs), sum(math.comb(rung, place + 1) for place, rung in enumerate(rungs))

    def node_modes(self) -> list[NDArray[np.int8]] | None:
        """Each node's mode, a level at a time (numbered as the nodes; -1 where none is), or
        ``None`` where there is one mode."""
        if len(self.modes) == 1:
            return None
        n = len(self.rungs)
        levels = [np.zeros(1, dtype=np.int8)]
        for depth in range(n):
            here, after = levels[depth], np.empty(math.comb(n, depth + 1), dtype=np.int8)
            for j in range(depth, n):
                low, high = math.comb(j, depth + 1), math.comb(j + 1, depth + 1)
                parent = here[: math.comb(j, depth)]
                after[low:high] = np.where(parent >= 0, self.step[parent, j], -1)
            levels.append(after)
        return levels


def mode_after(step: NDArray[np.int8], rungs: Sequence[int]) -> int:
    """The mode of the node after bids on ``rungs`` (increasing), by the transitions ``step``
    (:attr:`Ladder.step`); -1 where no node has them."""
    mode = 0
    for rung in rungs:
        mode = int(step[mode, rung]) if mode >= 0 else -1
    return mode


def climb(rules: Ruleset, root: GameState, *, seed: int = 0) -> Ladder:
    """The round starting at ``root`` (hidden, before any bid) as a :class:`Ladder`, checked
    with the engine (see the module); :class:`Unsolvable` where its bids are not a ladder, and
    where :func:`~liarsdice.endgame.rounds.build` would refuse the round."""
    builder = Builder(rules, root, audit=0)
    round_ = root.round
    assert round_ is not None and not round_.bids
    players = builder.players
    openings = legal_moves(rules, root, round_.turn)
    if not openings or not all(isinstance(action, BidAction) for action in openings):
        raise Unsolvable("the round does not open with bids alone")
    firsts = {_bid(action): after_bid(rules, root, action) for action in openings}
    builder.check(root, openings, [(action, firsts[_bid(action)]) for action in openings])
    moves = {bid: _moves(builder, state) for bid, state in firsts.items()}
    lowest = max(firsts, key=lambda bid: len(moves[bid][0]))
    rungs = (lowest, *moves[lowest][0])
    calls = moves[lowest][1]
    if not set(firsts) <= set(rungs):
        raise Unsolvable(
            "the bids are not a ladder: the raises depend on more than the last bid (from one "
            "opening bid another cannot be raised to, as where a palifico round fixes the face)"
        )
    opens = {place for place, bid in enumerate(rungs) if bid in firsts}
    modes, step, paths = _modes(rules, root, rungs, opens, players.index(round_.turn))
    tables = np.full((len(rungs), 2, len(calls), len(modes)), -1, dtype=np.intp)
    for (top, mode, bidder), path in paths.items():
        state = _walk(rules, root, rungs, path)
        _expect(builder, state, rungs[top + 1 :], calls, modes[mode])
        for k, kind in enumerate(calls):
            call = CallAction(players[1 - bidder], kind)
            tables[top, bidder, k, mode] = builder.table(state, call, modes[mode], full=False)
    spot = Random(seed)
    for _ in range(SPOT_PATHS):
        path = _random_path(spot, len(rungs), opens)
        state = _walk(rules, root, rungs, path)
        mode = mode_after(step, path)
        _expect(builder, state, rungs[path[-1] + 1 :], calls, modes[mode])
        bidder = 1 - players.index(_turn(state))
        for k, kind in enumerate(calls):
            call = CallAction(players[1 - bidder], kind)
            found = builder.table(state, call, modes[mode], full=True)
            if found != tables[path[-1], bidder, k, mode]:
                raise Unsolvable(
                    f"the outcome of {kind} on {rungs[path[-1]]} depends on the bids before it"
                )
    hands = (builder.hands[0][0], builder.hands[1][0])
    return Ladder(
        players=players,
        opener=players.index(round_.turn),
        rungs=rungs,
        opening=np.array([bid in firsts for bid in rungs]),
        calls=calls,
        modes=tuple(modes),
        step=step,
        hands=hands,
        chances=(np.array(builder.hands[0][1]), np.array(builder.hands[1][1])),
        table=tables,
        chance=outcome_chances(builder.tables, hands, len(builder.outcomes)),
        outcomes=tuple(builder.outcomes),
        root=root,
    )


def _bid(action: object) -> Bid:
    assert isinstance(action, BidAction)
    return action.bid


def _turn(state: GameState) -> str:
    assert state.round is not None
    return state.round.turn


def _moves(builder: Builder, state: GameState) -> tuple[tuple[Bid, ...], tuple[str, ...]]:
    """The legal raises and calls at ``state``, checked the same for every pair of hands."""
    moves = legal_moves(builder.rules, state, _turn(state))
    raises = tuple(a.bid for a in moves if isinstance(a, BidAction))
    calls = tuple(a.kind for a in moves if isinstance(a, CallAction))
    if moves[: len(raises)] != tuple(a for a in moves if isinstance(a, BidAction)):
        raise Unsolvable("the legal calls come before the raises")
    builder.check(state, moves, [])
    return raises, calls


def _expect(
    builder: Builder,
    state: GameState,
    raises: tuple[Bid, ...],
    calls: tuple[str, ...],
    plugins: str,
) -> None:
    """Refuse unless ``state`` has the moves and the public plugin state the ladder says."""
    if node_key(state)[2] != plugins:
        raise Unsolvable(
            "the bids are not a ladder: the public plugin state after a bid depends on more "
            "than the state before it and the bid"
        )
    found = _moves(builder, state)
    if found != (raises, calls):
        assert state.round is not None
        raise Unsolvable(
            f"the bids are not a ladder: after {state.round.bids[-1].bid} the legal raises "
            "are not the bids above it"
        )


def _modes(
    rules: Ruleset, root: GameState, rungs: tuple[Bid, ...], opens: set[int], opener: int
) -> tuple[list[str], NDArray[np.int8], dict[tuple[int, int, int], list[int]]]:
    """The public plugin states the ladder's nodes may have (the root's first), the mode after
    each bid in each (-1 where none is), and a shortest path of rungs to each (top rung, mode,
    bidder) found: a search over those, asking the engine once for each mode and rung.
    :class:`Unsolvable` where there are more than :data:`MODES`."""
    modes = [node_key(root)[2]]
    step = np.full((MODES, len(rungs)), -1, dtype=np.int8)
    paths: dict[tuple[int, int, int], list[int]] = {}
    pending: deque[tuple[int, int, int]] = deque()

    def reach(path: list[int], mode: int) -> None:
        rung = path[-1]
        if step[mode, rung] < 0:
            found = node_key(_walk(rules, root, rungs, path))[2]
            if found not in modes:
                if len(modes) == MODES:
                    raise Unsolvable(
                        f"the bids are not a ladder: bids lead to more than {MODES} public "
                        "plugin states"
                    )
                modes.append(found)
            step[mode, rung] = modes.index(found)
        key = (rung, int(step[mode, rung]), opener if len(path) % 2 else 1 - opener)
        if key not in paths:
            paths[key] = path
            pending.append(key)

    for rung in sorted(opens):
        reach([rung], 0)
    while pending:
        top, mode, _ = key = pending.popleft()
        for rung in range(top + 1, len(rungs)):
            reach([*paths[key], rung], mode)
    return modes, step[: len(modes)].copy(), paths


def _random_path(spot: Random, rungs: int, opens: set[int]) -> list[int]:
    """An increasing path of rung numbers drawn at random, opening on one of ``opens``."""
    path = [spot.choice(sorted(opens))]
    above = list(range(path[0] + 1, rungs))
    chosen = sorted(spot.sample(above, spot.randint(0, len(above))))
    return path + chosen


def _walk(rules: Ruleset, root: GameState, rungs: tuple[Bid, ...], path: list[int]) -> GameState:
    """The hidden state after the bids on ``path`` (rung numbers) from ``root``."""
    state = root
    for place in path:
        state = after_bid(rules, state, BidAction(_turn(state), rungs[place]))
    return state
