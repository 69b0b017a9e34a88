"""A solved endgame: each round's policy, what it is worth, and the policy a view asks for.

The policy kept is the solver's average strategy *published*: each distribution rounded to
multiples of 1/:data:`QUANTUM` (the largest remainders rounded up, so that it sums to 1), and
left out (``None``) at every information set its own player's policy never reaches. What a
player does where they never go changes nobody's best response, so this costs no
exploitability; the value and exploitability kept are those of the published policy.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

import attrs
import numpy as np

from liarsdice.endgame.arrays import Floats, compiled, uncollected
from liarsdice.endgame.cfr import own_reach
from liarsdice.endgame.names import Renaming, renaming
from liarsdice.endgame.rounds import Hand, NodeKey, RoundTree, node_key
from liarsdice.models import Action
from liarsdice.views import PlayerView, view_state

QUANTUM = 10_000
"""Published chances are multiples of 1/QUANTUM."""

TABLES = 256
"""The most tables an endgame keeps itself named for (:meth:`Endgame.named`), so that asking
again from a table gives the same object; beyond, it starts again."""

ACTIONS = 65_536
"""The most nodes an endgame keeps the actions of in a real player's names (:meth:`Endgame.policy`);
beyond, it starts again."""

Distribution = tuple[float, ...]
Policy = tuple[tuple[Distribution | None, ...], ...]
"""``policy[node][hand]``: the chance of each of the node's actions for its actor holding
``hand``, or ``None`` where that actor's own policy never leads with that hand."""


def quantized(chances: Sequence[float]) -> tuple[int, ...]:
    """``chances`` (summing to 1) as whole parts of :data:`QUANTUM` that sum to it exactly."""
    total = sum(chances)
    scaled = [QUANTUM * chance / total for chance in chances]
    parts = [int(x) for x in scaled]
    by_remainder = sorted(range(len(parts)), key=lambda a: parts[a] - scaled[a])
    for action in by_remainder[: QUANTUM - sum(parts)]:
        parts[action] += 1
    return tuple(parts)


def published(tree: RoundTree, strategy: Sequence[Sequence[Sequence[float]]]) -> Policy:
    """``strategy`` (hand-major) rounded and cut to where its players go (see the module)."""
    found = compiled(tree)
    edges = found.edge_arrays(strategy)
    for player, nodes, rows in found.groups:
        block = edges[player][rows].reshape(len(nodes), -1, edges[player].shape[1])
        edges[player][rows] = _rounded(block).reshape(len(rows), -1)
    rounded = found.nested(edges)
    reach = own_reach(tree, rounded)
    with uncollected():
        return tuple(
            tuple(
                tuple(dist) if r > 0.0 else None for dist, r in zip(node, node_reach, strict=True)
            )
            for node, node_reach in zip(rounded, reach, strict=True)
        )


def _rounded(block: Floats) -> Floats:
    """:func:`quantized` (as chances) of each distribution along the middle axis of ``block``,
    with the same arithmetic (the total summed in order, ties broken by the action)."""
    total = block[:, 0]
    for action in range(1, block.shape[1]):
        total = total + block[:, action]
    scaled = QUANTUM * block / total[:, None]
    parts = np.floor(scaled)
    order = np.argsort(parts - scaled, axis=1, kind="stable")
    ranks = np.argsort(order, axis=1, kind="stable")
    parts += ranks < QUANTUM - parts.sum(axis=1, keepdims=True)
    found: Floats = parts / QUANTUM
    return found


def playable(tree: RoundTree, policy: Policy) -> list[list[Distribution]]:
    """``policy`` with the left-out information sets played uniformly (any play there is worth
    the same), for evaluating it."""
    return [
        [dist if dist is not None else (1.0 / len(kids),) * len(kids) for dist in node]
        for node, kids in zip(policy, tree.kids, strict=True)
    ]


@attrs.frozen(eq=False)
class SolvedRound:
    """One round solved: its tree, the published ``policy``, its ``value`` to the tree's
    player 0 and its ``exploitability`` (NashConv / 2, with the next rounds' values as the
    payoffs), after ``iterations`` of CFR+."""

    tree: RoundTree
    policy: Policy
    value: float
    exploitability: float
    iterations: int


class Endgame:
    """A solved two-player endgame: the round it starts with (``start``) and every round the
    game can reach from there (``rounds``, by their roots' :func:`node_key`).

    An endgame is identified up to the players' names: it is solved with the players renamed
    ``P0``, ``P1``, ... by seat (:func:`~liarsdice.endgame.names.renaming`; under their own
    names where plugin state holds one that cannot be renamed), and ``start``, ``rounds`` and
    ``estimated`` speak those names. :meth:`policy` and :meth:`covers` take a view of any table
    that plays it, with that table's names, and answer in them; :attr:`players` and
    :meth:`value` speak the names of the table it was asked for (:meth:`named`).

    ``estimated`` names the positions beyond the solver's limits that were valued by an estimate
    instead of solved (empty: the solution is exact up to the exploitability). ``target`` is the
    exploitability it was solved for.
    """

    def __init__(
        self,
        start: NodeKey,
        rounds: Mapping[NodeKey, SolvedRound],
        *,
        estimated: Sequence[str] = (),
        target: float,
    ) -> None:
        self.start = start
        self.rounds = rounds
        self.estimated = tuple(estimated)
        self.target = target
        self._index = {
            key: (solved, node)
            for solved in rounds.values()
            for key, node in solved.tree.index.items()
        }
        self._hands = {
            id(solved): [{hand: i for i, hand in enumerate(h)} for h in solved.tree.hands]
            for solved in rounds.values()
        }
        self._names: Renaming | None = None
        self._tables: dict[tuple[str, ...], Endgame] = {}
        self._actions: dict[tuple[int, int, str | None], tuple[Action, ...]] = {}
        """Each node's actions in the real names of a player on turn there (:meth:`policy`)."""
        """This endgame as each table met speaks of it (:meth:`named`), shared by them all."""

    def named(self, names: Renaming) -> Endgame:
        """This endgame as the table whose players ``names`` renames speaks of it (its
        :attr:`players`, :meth:`value`): the same solution, shared, not copied."""
        if names.identity:
            return self
        found = self._tables.get(names.names)
        if found is None:
            if len(self._tables) >= TABLES:
                self._tables.clear()
            found = self._tables[names.names] = copy.copy(self)
            found._names = names
        return found

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` (a :func:`node_key`, in the names solved under) is a node of one of
        the endgame's rounds."""
        return key in self._index

    @property
    def players(self) -> tuple[str, str]:
        """The two players, in seat order (in the names of the table it was asked for)."""
        first, second = self.rounds[self.start].tree.players
        names = self._names
        return (first, second) if names is None else (names.real(first), names.real(second))

    def value(self, player: str) -> float:
        """What the game is worth to ``player`` (one of :attr:`players`) from the start round,
        from -1 (lost for sure) to 1 (won)."""
        value = self.rounds[self.start].value
        return value if self.players.index(player) == 0 else -value

    @property
    def exploitability(self) -> float:
        """The most exploitable round's NashConv / 2."""
        return max(solved.exploitability for solved in self.rounds.values())

    def covers(self, view: PlayerView) -> bool:
        """Whether :meth:`policy` has an answer for ``view``."""
        try:
            self._distribution(view)
        except KeyError:
            return False
        return True

    def policy(self, view: PlayerView) -> dict[Action, float]:
        """The chance of each legal action for ``view.viewer``, on turn in a round of this
        endgame, holding ``view.own_dice``: every legal action is a key, some with chance 0.
        The view may be of any table that plays this endgame, with its own names: the actions
        are that table's. ``KeyError`` when the view is not a decision of this endgame or when
        the solved policy never leads the viewer there (it is played from the start of each
        round)."""
        solved, node, dist, names = self._distribution(view)
        actions = solved.tree.actions[node]
        if not names.identity:
            memo = (id(solved), node, view.viewer)
            named = self._actions.get(memo)
            if named is None:
                if len(self._actions) >= ACTIONS:
                    self._actions.clear()
                named = self._actions[memo] = tuple(names.action(a) for a in actions)
            actions = named
        return dict(zip(actions, dist, strict=True))

    def _distribution(self, view: PlayerView) -> tuple[SolvedRound, int, Distribution, Renaming]:
        if view.viewer is None or view.own_dice is None:
            raise KeyError("this view is not a decision of this endgame")
        state = view_state(view)
        names = renaming(state)
        found = self._index.get(names.node_key(state))
        if found is None and not names.identity:  # solved under the real names
            names = Renaming(names.names, names.names)
            found = self._index.get(node_key(state))
        if found is None:
            raise KeyError("this view is not a decision of this endgame")
        solved, node = found
        tree = solved.tree
        viewer = names.name(view.viewer) if view.viewer in names.names else None
        seat = tree.players.index(viewer) if viewer in tree.players else -1
        if seat != tree.actor[node] or view.turn != view.viewer:
            raise KeyError(f"{view.viewer} is not on turn here")
        hand: Hand = tuple(sorted(view.own_dice))
        dist = solved.policy[node][self._hands[id(solved)][seat][hand]]
        if dist is None:
            raise KeyError("the solved policy never leads here with this hand")
        return solved, node, dist, names
