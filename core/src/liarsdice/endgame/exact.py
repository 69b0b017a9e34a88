"""Exactly solved rounds kept compact, for a book: every node's solved policy in a few arrays.

A heads-up round with three dice in play has 262,144 public nodes; its solved endgame
(:class:`~liarsdice.endgame.solution.Endgame`) holds the round's tree, rebuilt by the engine when
read back from the store (tens of seconds). :class:`ExactRounds` keeps only what a player on
turn needs, so that a book (:mod:`~liarsdice.endgame.book`) can carry the rounds and read them in
a fraction of a second: for each node, a 64-bit hash of its key, the seat on turn, its moves
(coded) and the published policy for each hand of that seat (in whole parts of
:data:`~liarsdice.endgame.solution.QUANTUM`; all zero where the solved policy never leads there
with that hand).

A node is found by the two living players (renamed ``P0`` and ``P1`` in seat order, the dead
seats left out), the dice per player, the opener, the bids and the public plugin state: the
:func:`~liarsdice.endgame.rounds.node_key` of the round as a two-seat table. So the rounds of a
book built at two seats serve a table that has come down to two players, whatever their names or
the seats out of the game. Where plugin state names a player out of the game, or a name cannot be
renamed safely (:func:`~liarsdice.endgame.names.renaming`), the key differs and nothing is found.
:meth:`ExactRounds.policy` also checks that the stored moves are the engine's legal moves there.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Mapping

import attrs
import numpy as np

from liarsdice.endgame.graph import Limits
from liarsdice.endgame.names import renaming
from liarsdice.endgame.rounds import NodeKey, hands, legal_moves
from liarsdice.endgame.solution import QUANTUM, SolvedRound
from liarsdice.endgame.solving import default_store, solve
from liarsdice.models import Action, Bid, BidAction, CallAction, GameState
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, view_state

FACE_CODES = 8
"""A bid is coded ``quantity * FACE_CODES + face``; a call ``-1 - `` its kind's place in
:attr:`ExactRounds.calls`."""
ARRAYS = ("keys", "nodes", "actor", "edges", "moves", "offsets", "chances")
"""The arrays an :class:`ExactRounds` is saved as (:meth:`ExactRounds.arrays`)."""


def key_hash(key: NodeKey) -> int:
    """A 64-bit hash of a node key (see the module)."""
    seats, bids, plugins = key
    text = json.dumps([seats, [list(bid) for bid in bids], plugins], separators=(",", ":"))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def heads_up_key(state: GameState) -> NodeKey:
    """The key ``state`` (in a round, two players alive) is found by (see the module)."""
    two = attrs.evolve(state, players=state.alive)
    return renaming(two).node_key(two)


@attrs.frozen(eq=False)
class ExactRounds:
    """Solved rounds, compact (see the module): ``keys`` (sorted hashes) and ``nodes`` (the
    node each is), per node the ``actor`` seat, its moves ``moves[edges[n]:edges[n + 1]]``
    and its policy, hand-major, at ``chances[offsets[n]:offsets[n + 1]]``; ``calls`` the call
    kinds the codes name."""

    keys: np.ndarray
    nodes: np.ndarray
    actor: np.ndarray
    edges: np.ndarray
    moves: np.ndarray
    offsets: np.ndarray
    chances: np.ndarray
    calls: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.actor)

    def policy(self, rules: Ruleset, view: PlayerView) -> dict[Action, float] | None:
        """The solved policy at ``view`` (the viewer on turn), in the viewer's name; ``None``
        where no round here has that node, the solved policy never leads there with the
        viewer's hand, or the stored moves are not the legal ones."""
        state = view_state(view)
        round_ = state.round
        alive = state.alive
        if round_ is None or len(alive) != 2 or view.own_dice is None or view.viewer is None:
            return None
        node = self._node(key_hash(heads_up_key(state)))
        seat = [player.name for player in alive].index(view.viewer)
        if node is None or int(self.actor[node]) != seat or view.turn != view.viewer:
            return None
        actions = [self._action(view.viewer, int(code)) for code in self._moves(node)]
        if actions != list(legal_moves(rules, state, view.viewer)):
            return None
        row = _rows(alive[seat].dice).get(tuple(sorted(view.own_dice)))
        start, end = int(self.offsets[node]), int(self.offsets[node + 1])
        if row is None or (end - start) != len(actions) * len(_rows(alive[seat].dice)):
            return None
        parts = self.chances[start + row * len(actions) : start + (row + 1) * len(actions)]
        total = int(parts.sum())
        if total == 0:
            return None
        return {a: int(p) / total for a, p in zip(actions, parts, strict=True) if p > 0}

    def _node(self, found: int) -> int | None:
        place = int(np.searchsorted(self.keys, np.uint64(found)))
        if place == len(self.keys) or int(self.keys[place]) != found:
            return None
        return int(self.nodes[place])

    def _moves(self, node: int) -> np.ndarray:
        moves: np.ndarray = self.moves[int(self.edges[node]) : int(self.edges[node + 1])]
        return moves

    def _action(self, player: str, code: int) -> Action:
        if code < 0:
            return CallAction(player, self.calls[-1 - code])
        return BidAction(player, Bid(code // FACE_CODES, code % FACE_CODES))

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays to save (:data:`ARRAYS`); :attr:`calls` goes in the book's header."""
        return {name: getattr(self, name) for name in ARRAYS}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], calls: Iterable[str]) -> ExactRounds:
        """The rounds saved as :meth:`arrays` (and ``calls``)."""
        found = {name: np.asarray(arrays[name]) for name in ARRAYS}
        return cls(**found, calls=tuple(calls))


def build(
    rules: Ruleset,
    starts: Iterable[GameState],
    dice_in_play: int,
    progress: Callable[[str], None] | None = None,
) -> ExactRounds:
    """The rounds with ``dice_in_play`` dice that the endgames from ``starts`` (states between
    rounds, two seats ``P0`` and ``P1``) reach, solved exactly (:func:`~liarsdice.endgame.solve`
    to its default target, positions with more dice valued by the dice share, the endgames kept
    in the process's store: a build stopped part way goes on from there), compact;
    ``progress`` is told a line per start. :class:`~liarsdice.endgame.Unsolvable` for rules
    the solver does not take."""
    kept: dict[NodeKey, SolvedRound] = {}
    limits = Limits(max_dice=dice_in_play, beyond="dice-share")
    for state in starts:
        started = time.perf_counter()
        solved = solve(rules, state, limits=limits, store=default_store())
        earlier = solved.start in kept
        for found in solved.rounds.values():
            if found.tree.root.dice_in_play == dice_in_play:
                kept.setdefault(found.tree.key, found)
        if progress is not None:
            dice = " v ".join(str(player.dice) for player in state.players)
            done = (
                "with a position above (a round that leads back to it)"
                if earlier
                else f"exploitability {solved.exploitability:.4f} "
                f"(in {time.perf_counter() - started:.1f} s)"
            )
            progress(f"{dice} dice, {state.next_opener} opens: solved exactly, {done}")
    return compact(kept.values())


def compact(rounds: Iterable[SolvedRound]) -> ExactRounds:
    """``rounds`` (solved for two seats ``P0`` and ``P1``), compact."""
    calls: dict[str, int] = {}
    hashes: list[int] = []
    actor: list[int] = []
    edges = [0]
    moves: list[int] = []
    offsets = [0]
    chances: list[np.ndarray] = []
    for solved in rounds:
        tree = solved.tree
        nodes = sorted(tree.index.items(), key=lambda item: item[1])
        for key, node in nodes:
            hashes.append(key_hash(key))
            actor.append(tree.actor[node])
            for action in tree.actions[node]:
                moves.append(_code(action, calls))
            edges.append(len(moves))
            width = len(tree.actions[node])
            block = np.zeros((len(tree.hands[tree.actor[node]]), width), dtype=np.uint16)
            for row, dist in enumerate(solved.policy[node]):
                if dist is not None:
                    block[row] = np.rint(np.asarray(dist) * QUANTUM)
            chances.append(block.ravel())
            offsets.append(offsets[-1] + block.size)
    keys = np.asarray(hashes, dtype=np.uint64)
    order = np.argsort(keys, kind="stable")
    if len(keys) > 1 and bool(np.any(keys[order][1:] == keys[order][:-1])):
        raise ValueError("two nodes have the same key hash")  # 2**-64 per pair of nodes
    return ExactRounds(
        keys=keys[order],
        nodes=order.astype(np.int64),
        actor=np.asarray(actor, dtype=np.int8),
        edges=np.asarray(edges, dtype=np.int64),
        moves=np.asarray(moves, dtype=np.int32),
        offsets=np.asarray(offsets, dtype=np.int64),
        chances=np.concatenate(chances) if chances else np.zeros(0, dtype=np.uint16),
        calls=tuple(calls),
    )


def _code(action: Action, calls: dict[str, int]) -> int:
    if isinstance(action, BidAction):
        return action.bid.quantity * FACE_CODES + action.bid.face
    assert isinstance(action, CallAction)
    return -1 - calls.setdefault(action.kind, len(calls))


_ROWS: dict[int, dict[tuple[int, ...], int]] = {}


def _rows(dice: int) -> dict[tuple[int, ...], int]:
    """Each hand of ``dice`` dice by its row (the order of :func:`~liarsdice.endgame.rounds.hands`)."""
    found = _ROWS.get(dice)
    if found is None:
        found = _ROWS[dice] = {hand: row for row, hand in enumerate(hands(dice)[0])}
    return found
