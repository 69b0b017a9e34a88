"""Exactly solved rounds kept compact, for a book: every node's solved policy in a few arrays.

A heads-up round with three dice in play has up to 262,144 public nodes (2^18: 18 bids, with
sixes wild and biddable; 2^15 where ones are wild and not bid alone); its solved endgame
(:class:`~liarsdice.endgame.solution.Endgame`) holds the round's tree, rebuilt by the engine when
read back from the store (tens of seconds). :class:`ExactRounds` keeps only what a player on
turn needs, so that a book (:mod:`~liarsdice.endgame.book`) can carry the rounds and read them in
a fraction of a second: for each node, a 64-bit hash of its key, the seat on turn, its moves
(coded) and the published policy for each hand of that seat (in whole parts of
:data:`~liarsdice.endgame.solution.QUANTUM`; all zero where the solved policy never leads there
with that hand).

A node is found by the two living players (renamed ``P0`` and ``P1`` in seat order, the dead
seats left out), the game's dice per player (what each started with: a book built up to 5 dice
each serves games of 5 dice each, since a rule may depend on it, calza's die won back up to the
start), the opener, the bids and the public plugin state: the
:func:`~liarsdice.endgame.rounds.node_key` of the round as a two-seat table. So the rounds of a
book built at two seats serve a table that has come down to two players, whatever their names or
the seats out of the game. Where plugin state names a player out of the game, or a name cannot be
renamed safely (:func:`~liarsdice.endgame.names.renaming`), the key differs and nothing is found.
:meth:`ExactRounds.policy` also checks that the stored moves are the engine's legal moves there.
This assumes, as the book's abstraction does, that a round between two players is ruled the same
whatever the seats out of the game: where a plugin's legal moves depend on them (calza's window
counts every seat's starting dice), the check finds it and nothing is answered; a ruling that
depended on them would be played as at two seats.
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
from liarsdice.endgame.rounds import NodeKey, dealt_root, hands, legal_moves, node_key
from liarsdice.endgame.solution import QUANTUM, SolvedRound
from liarsdice.endgame.solving import solve
from liarsdice.endgame.store import Store, default_directory
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
        rows = hand_rows(alive[seat].dice)
        row = rows.get(tuple(sorted(view.own_dice)))
        start, end = int(self.offsets[node]), int(self.offsets[node + 1])
        if row is None or (end - start) != len(actions) * len(rows):
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
        """The rounds saved as :meth:`arrays` (and ``calls``); ``ValueError`` if their sizes
        do not fit together."""
        found = cls(**{name: np.asarray(arrays[name]) for name in ARRAYS}, calls=tuple(calls))
        nodes = len(found.actor)
        if not (
            len(found.keys) == len(found.nodes) == nodes
            and len(found.edges) == len(found.offsets) == nodes + 1
            and int(found.edges[-1]) == len(found.moves)
            and int(found.offsets[-1]) == len(found.chances)
        ):
            raise ValueError("the exact rounds' arrays do not fit together")
        return found


def build(
    rules: Ruleset,
    starts: Iterable[GameState],
    dice_in_play: int,
    progress: Callable[[str], None] | None = None,
) -> ExactRounds:
    """The rounds with ``dice_in_play`` dice that the endgames from ``starts`` (states between
    rounds, two seats ``P0`` and ``P1``) reach, solved exactly (:func:`~liarsdice.endgame.solve`
    to its default target, positions with more dice valued by the dice share), compact;
    ``progress`` is told a line per start. Each endgame is kept in the endgame store's directory
    (a build stopped part way goes on from there) and let go once compact, so a build holds one
    endgame's trees at a time. :class:`~liarsdice.endgame.Unsolvable` for rules the solver does
    not take."""
    compacting = _Compacting()
    limits = Limits(max_dice=dice_in_play, beyond="dice-share")
    for state in starts:
        started = time.perf_counter()
        dice = " v ".join(str(player.dice) for player in state.players)
        if node_key(dealt_root(rules, state)) in compacting.roots:
            done = "with a position above (a round that leads back to it)"
        else:
            solved = solve(rules, state, limits=limits, store=Store(default_directory()))
            for found in solved.rounds.values():
                if found.tree.root.dice_in_play == dice_in_play:
                    compacting.add(found)
            done = (
                f"exploitability {solved.exploitability:.4f} "
                f"(in {time.perf_counter() - started:.1f} s)"
            )
            del solved  # its trees go before the next endgame's are built
        if progress is not None:
            progress(f"{dice} dice, {state.next_opener} opens: solved exactly, {done}")
    return compacting.done()


def compact(rounds: Iterable[SolvedRound]) -> ExactRounds:
    """``rounds`` (solved for two seats ``P0`` and ``P1``), compact."""
    compacting = _Compacting()
    for solved in rounds:
        compacting.add(solved)
    return compacting.done()


class _Compacting:
    """Solved rounds added one by one (:meth:`add`; a round added again is skipped), made
    compact at the end (:meth:`done`)."""

    def __init__(self) -> None:
        self.roots: set[NodeKey] = set()
        self.calls: dict[str, int] = {}
        self.hashes: list[int] = []
        self.actor: list[int] = []
        self.edges = [0]
        self.moves: list[int] = []
        self.offsets = [0]
        self.chances: list[np.ndarray] = []

    def add(self, solved: SolvedRound) -> None:
        tree = solved.tree
        if tree.key in self.roots:
            return
        self.roots.add(tree.key)
        for key, node in sorted(tree.index.items(), key=lambda item: item[1]):
            self.hashes.append(key_hash(key))
            self.actor.append(tree.actor[node])
            for action in tree.actions[node]:
                self.moves.append(_code(action, self.calls))
            self.edges.append(len(self.moves))
            width = len(tree.actions[node])
            block = np.zeros((len(tree.hands[tree.actor[node]]), width), dtype=np.uint16)
            for row, dist in enumerate(solved.policy[node]):
                if dist is not None:
                    block[row] = np.rint(np.asarray(dist) * QUANTUM)
            self.chances.append(block.ravel())
            self.offsets.append(self.offsets[-1] + block.size)

    def done(self) -> ExactRounds:
        keys = np.asarray(self.hashes, dtype=np.uint64)
        order = np.argsort(keys, kind="stable")
        if len(keys) > 1 and bool(np.any(keys[order][1:] == keys[order][:-1])):
            raise ValueError("two nodes have the same key hash")  # 2**-64 per pair of nodes
        chances = self.chances
        return ExactRounds(
            keys=keys[order],
            nodes=order.astype(np.int64),
            actor=np.asarray(self.actor, dtype=np.int8),
            edges=np.asarray(self.edges, dtype=np.int64),
            moves=np.asarray(self.moves, dtype=np.int32),
            offsets=np.asarray(self.offsets, dtype=np.int64),
            chances=np.concatenate(chances) if chances else np.zeros(0, dtype=np.uint16),
            calls=tuple(self.calls),
        )


def _code(action: Action, calls: dict[str, int]) -> int:
    if isinstance(action, BidAction):
        return action.bid.quantity * FACE_CODES + action.bid.face
    assert isinstance(action, CallAction)
    return -1 - calls.setdefault(action.kind, len(calls))


_HAND_ROWS: dict[int, dict[tuple[int, ...], int]] = {}


def hand_rows(dice: int) -> dict[tuple[int, ...], int]:
    """Each hand of ``dice`` dice by its row (in the order of
    :func:`~liarsdice.endgame.rounds.hands`)."""
    found = _HAND_ROWS.get(dice)
    if found is None:
        found = _HAND_ROWS[dice] = {hand: row for row, hand in enumerate(hands(dice)[0])}
    return found
