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
tables where the ladder says. A call's outcomes come from the engine's rulings, once per rung,
bidder and kind (:class:`~liarsdice.endgame.rounds.Builder`).
"""

from __future__ import annotations

import math
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


@attrs.frozen(eq=False)
class Ladder:
    """One round as a ladder (see the module): ``players`` in seat order (0 and 1), ``opener``
    the one who bids first, ``rungs`` the bids in order, ``opening`` whether each may open,
    ``calls`` the kinds of call after any bid; ``hands[p]`` and ``chances[p]`` player ``p``'s
    hands and their chances; ``table[i, b, k]`` the call table of kind ``k`` on rung ``i`` bid
    by player ``b`` (-1 where no node has it); ``chance[c, h0, h1, o]`` the chance of outcome
    ``o`` (of ``outcomes``) at table ``c``; ``root`` the hidden state before the first bid."""

    players: tuple[str, str]
    opener: int
    rungs: tuple[Bid, ...]
    opening: NDArray[np.bool_]
    calls: tuple[str, ...]
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
    plugins = node_key(root)[2]
    opens = {place for place, bid in enumerate(rungs) if bid in firsts}
    tables = np.full((len(rungs), 2, len(calls)), -1, dtype=np.intp)
    for place in range(len(rungs)):
        for path in _paths_to(place, opens):
            state = _walk(rules, root, rungs, path)
            _expect(builder, state, rungs[place + 1 :], calls, plugins)
            caller = players.index(_turn(state))
            for k, kind in enumerate(calls):
                call = CallAction(players[caller], kind)
                tables[place, 1 - caller, k] = builder.table(state, call, plugins, full=False)
    spot = Random(seed)
    for _ in range(SPOT_PATHS):
        path = _random_path(spot, len(rungs), opens)
        state = _walk(rules, root, rungs, path)
        _expect(builder, state, rungs[path[-1] + 1 :], calls, plugins)
        caller = players.index(_turn(state))
        for k, kind in enumerate(calls):
            found = builder.table(state, CallAction(players[caller], kind), plugins, full=True)
            if found != tables[path[-1], 1 - caller, k]:
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
        raise Unsolvable("the bids are not a ladder: a bid changes the public plugin state")
    found = _moves(builder, state)
    if found != (raises, calls):
        assert state.round is not None
        raise Unsolvable(
            f"the bids are not a ladder: after {state.round.bids[-1].bid} the legal raises "
            "are not the bids above it"
        )


def _paths_to(place: int, opens: set[int]) -> list[list[int]]:
    """The shortest paths (rung numbers) on which rung ``place`` is bid by the opener, and by
    the other player, where there are any (``opens``: the rungs that may open)."""
    below = sorted(i for i in opens if i < place)
    found: list[list[int]] = []
    if place in opens:
        found.append([place])
    elif below and place - below[0] >= 2:
        found.append([below[0], below[0] + 1, place])
    if below:
        found.append([below[0], place])
    return found


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
