"""What a book holds (positions on the last bid, exact and ladder rounds) and its lookups.

:mod:`~liarsdice.endgame.book` builds, saves and finds books; :class:`Book` gives the solved
policy at a player's view."""

from __future__ import annotations

import attrs
import numpy as np

from liarsdice.endgame import exact, ladder_policy, lastbid
from liarsdice.endgame.rounds import Hand, legal_moves
from liarsdice.models import Action, Bid, BidAction, CallAction
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, view_state

PLAYERS = ("P0", "P1")
"""The names a book's positions are solved under, by seat."""
PositionKey = tuple[int, int, int]
"""``(d0, d1, opener)``: the two living players' dice in seat order and which of them opens."""
Move = tuple[str, int, int] | tuple[str, str]
"""A move as stored: ``("bid", quantity, face)`` or ``("call", kind)``."""


@attrs.frozen
class Position:
    """One solved position: each node's moves and its policy per hand of the player on turn
    (``policy[node][hand, move]``), the players' hands, and its value to player 0."""

    nodes: dict[lastbid.NodeId, int]
    moves: tuple[tuple[Move, ...], ...]
    policy: tuple[np.ndarray, ...]
    hands: tuple[dict[Hand, int], dict[Hand, int]]
    actor: tuple[int, ...]
    value: float


@attrs.frozen
class Book:
    """The solved positions of one ruleset (``rules``: its
    :func:`~liarsdice.endgame.store.rules_key`), by :data:`PositionKey`, and how they were
    solved: ``iterations`` of CFR+ each, up to ``max_dice`` each, nodes that count the bids made
    up to ``depth`` (1: the last bid alone; :func:`liarsdice.endgame.lastbid.node_id`),
    remembering the last bid or the last two (``memory``), with a ``blind_opening`` (one opening
    policy whatever the opener's hand) or not; ``exact`` the rounds with three dice in play
    solved exactly and ``ladders`` those with four, or ``None``; ``exact_dice`` the most dice in
    play solved exactly (0: none)."""

    rules: str
    positions: dict[PositionKey, Position]
    iterations: int
    max_dice: int
    depth: int = 1
    blind_opening: bool = False
    memory: int = 1
    exact: exact.ExactRounds | None = None
    exact_dice: int = 0
    ladders: ladder_policy.LadderRounds | None = None

    def exact_policy(self, rules: Ruleset, view: PlayerView) -> dict[Action, float] | None:
        """The exactly solved policy at ``view``, in the viewer's name; ``None`` where the book
        holds no exact round with that node
        (:meth:`~liarsdice.endgame.exact.ExactRounds.policy`,
        :meth:`~liarsdice.endgame.ladder_policy.LadderRounds.policy`)."""
        found = None if self.exact is None else self.exact.policy(rules, view)
        if found is None and self.ladders is not None:
            found = self.ladders.policy(rules, view)
        return found

    def policy(self, rules: Ruleset, view: PlayerView) -> dict[Action, float] | None:
        """The solved policy at ``view``, in the viewer's name; ``None`` if the book has no such
        position, or its moves there are not the legal ones."""
        state = view_state(view)
        round_ = state.round
        alive = state.alive
        if round_ is None or len(alive) != 2 or view.own_dice is None or view.viewer is None:
            return None
        seat = {player.name: index for index, player in enumerate(alive)}
        position = self.positions.get((alive[0].dice, alive[1].dice, seat[round_.opener]))
        if position is None:
            return None
        found = lastbid.node_id(state, self.depth, self.memory)
        node = position.nodes.get(None if found is None else (PLAYERS[seat[found[0]]], *found[1:]))
        me = seat[view.viewer]
        row = position.hands[me].get(tuple(sorted(view.own_dice)))
        if node is None or row is None or position.actor[node] != me:
            return None
        actions = [stored_action(view.viewer, move) for move in position.moves[node]]
        if set(actions) != set(legal_moves(rules, state, view.viewer)):
            return None
        chances = position.policy[node][row]
        return {action: float(p) for action, p in zip(actions, chances, strict=True) if p > 0.0}


def stored_action(player: str, move: Move) -> Action:
    if move[0] == "bid":
        assert len(move) == 3
        return BidAction(player, Bid(int(move[1]), int(move[2])))
    return CallAction(player, str(move[1]))


def stored_move(action: Action) -> Move:
    if isinstance(action, BidAction):
        return "bid", action.bid.quantity, action.bid.face
    assert isinstance(action, CallAction)
    return "call", action.kind
