"""Exact best responses over whole two-player games: what a player wins against fixed policies.

Two players play a whole game from a position between rounds: round after round, each dealt
afresh, the dice changing with each ruling, until one has won. Each plays a :data:`Policy`: the
chance of each legal action from their :class:`~liarsdice.views.PlayerView`, as a bot's
``policy`` answers. :func:`measure` gives, for each seat, what a best response there wins against
the other seat's policy (:func:`best_response`) and what the seat's own policy wins
(:func:`policy_value`); :attr:`Measure.exploitability` is the mean of the best responses over
both seats (NashConv / 2, OpenSpiel's ``exploitability``). Results are per game: +1 won, -1 lost.

A policy is asked as it plays: at each decision, with the round's public history and its hand.
A view holds only the round being played, so what a position between rounds is worth (to a best
responder, or to a policy) depends on that position alone, and is computed once
(:func:`~liarsdice.endgame.rounds.position_key`). Each round is walked over its public tree with
the engine (:mod:`~liarsdice.endgame.rounds`: the legal moves on the hidden dice, a call's
outcomes for every pair of hands with every settling draw) carrying, for every hand of the
opponent, the chance that their moves lead there, as :func:`~liarsdice.endgame.cfr.evaluate`
does on a built tree; a move no hand of the opponent makes is never walked, so a policy that
commits to few moves is walked much faster than uniform play. At the responder's own nodes each
hand takes the best of its moves' values (a best response), or their mean under its policy.

The assumptions are :mod:`~liarsdice.endgame.rounds`' (the legal moves and the public state after
a bid do not depend on the dice, a call's outcomes depend on the history only through the bid on
the table, nothing on the order of a hand's dice or the round's number), taken unchecked here,
and that no round leads back to a position being valued (:class:`Unsolvable` when one does:
calza's die regained, say).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from operator import add, mul

import attrs

from liarsdice.endgame.rounds import (
    Hand,
    Unsolvable,
    after_bid,
    dealt_root,
    hands,
    legal_moves,
    node_key,
    position_key,
    settlements,
    with_hands,
)
from liarsdice.models import Action, BidAction, CallAction, GameState
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView, player_view, view_state

Policy = Callable[[PlayerView], Mapping[Action, float]]
"""A player's play: the chance of each legal action, from the player's view on turn (a bot's
``policy``). Actions left out have chance 0; the chances are taken relative to their sum."""

Vector = list[float]
"""One number per hand of a player."""


class PolicyError(ValueError):
    """A policy answered something that is not a distribution over the legal actions."""


@attrs.frozen
class Measure:
    """Whole-game figures of two seats' policies from one start, per game (+1 won, -1 lost):
    ``best[p]``, what a best response in seat ``p`` wins against the other seat's policy;
    ``value[p]``, what seat ``p``'s own policy wins there (``value[0] == -value[1]``)."""

    players: tuple[str, str]
    best: tuple[float, float]
    value: tuple[float, float]

    @property
    def exploitability(self) -> float:
        """The mean over both seats of what a best response wins (NashConv / 2)."""
        return (self.best[0] + self.best[1]) / 2


def measure(rules: Ruleset, start: GameState, policies: Mapping[str, Policy]) -> Measure:
    """Both seats' best responses and policy values from ``start`` (a state between rounds with
    two living players, each of whom ``policies`` names)."""
    first, second = _players(start)
    return Measure(
        (first, second),
        (
            best_response(rules, start, policies, first),
            best_response(rules, start, policies, second),
        ),
        (
            policy_value(rules, start, policies, first),
            policy_value(rules, start, policies, second),
        ),
    )


def best_response(
    rules: Ruleset, start: GameState, policies: Mapping[str, Policy], player: str
) -> float:
    """What a best response for ``player`` wins per game from ``start`` against the other
    player's policy (``player``'s own is not asked)."""
    return _Walk(rules, policies, player, best=True).position(start)


def policy_value(
    rules: Ruleset, start: GameState, policies: Mapping[str, Policy], player: str
) -> float:
    """What ``player`` wins per game from ``start`` when both players play their policies."""
    return _Walk(rules, policies, player, best=False).position(start)


def uniform(rules: Ruleset) -> Policy:
    """Uniform play: every legal action alike (OpenSpiel's ``UniformRandomPolicy``)."""

    def policy(view: PlayerView) -> dict[Action, float]:
        assert view.viewer is not None
        moves = legal_moves(rules, view_state(view), view.viewer)
        return dict.fromkeys(moves, 1.0 / len(moves))

    return policy


def _players(start: GameState) -> tuple[str, str]:
    alive = [player.name for player in start.alive]
    if start.over or len(alive) != 2 or (start.round is not None and not start.round.over):
        raise Unsolvable("a whole game is measured from between rounds, with two players left")
    return alive[0], alive[1]


@attrs.frozen
class _Round:
    """A round walked: its two players in seat order, the responder's seat among them, and the
    hands of the responder (``hands[0]``) and of the opponent (``hands[1]``)."""

    players: tuple[str, str]
    mine: int
    hands: tuple[tuple[Hand, ...], tuple[Hand, ...]]


class _Walk:
    """The value of positions to ``player``, who best responds (``best``) or plays their policy,
    against the other's policy; a node's value is, for each of the player's hands, the sum over
    the opponent's hands of their reach times the expected result."""

    def __init__(
        self, rules: Ruleset, policies: Mapping[str, Policy], player: str, *, best: bool
    ) -> None:
        self.rules = rules
        self.policies = policies
        self.player = player
        self.best = best
        self.values: dict[str, float] = {}
        self.open: set[str] = set()
        self.tables: dict[tuple[object, ...], list[Vector]] = {}

    def position(self, state: GameState) -> float:
        """What ``state`` (between rounds, or the game over) is worth to the player."""
        if state.over:
            return float(self.player in state.winners) - float(
                any(name != self.player for name in state.winners)
            )
        key = position_key(state)
        known = self.values.get(key)
        if known is not None:
            return known
        if key in self.open:
            raise Unsolvable("a round can lead back to a position being valued")
        self.open.add(key)
        root = dealt_root(self.rules, state)
        players = _players(state)
        if self.player not in players:
            raise Unsolvable(f"{self.player} is not one of the two players left")
        mine = players.index(self.player)
        own, own_chances = hands(root.player(self.player).dice)
        other, other_chances = hands(root.player(players[1 - mine]).dice)
        walked = self._node(
            _Round(players, mine, (own, other)), root, [1.0] * len(own), [*other_chances]
        )
        value = math.fsum(map(mul, own_chances, walked))
        self.open.discard(key)
        self.values[key] = value
        return value

    def _node(self, round_: _Round, state: GameState, own: Vector, other: Vector) -> Vector:
        assert state.round is not None
        turn = state.round.turn
        moves = legal_moves(self.rules, state, turn)
        mine = turn == self.player
        if mine and self.best:
            found: Vector | None = None
            for action in moves:
                value = self._child(round_, state, action, own, other)
                found = value if found is None else list(map(max, found, value))
            assert found is not None
            return found
        columns = self._ask(round_, state, turn, moves, own if mine else other)
        total = [0.0] * len(own)
        for action, column in zip(moves, columns, strict=True):
            if mine:
                reach = list(map(mul, own, column))
                if any(reach):
                    value = self._child(round_, state, action, reach, other)
                    total = list(map(add, total, map(mul, column, value)))
            else:
                reach = list(map(mul, other, column))
                if any(reach):
                    total = list(map(add, total, self._child(round_, state, action, own, reach)))
        return total

    def _child(
        self, round_: _Round, state: GameState, action: Action, own: Vector, other: Vector
    ) -> Vector:
        if isinstance(action, BidAction):
            return self._node(round_, after_bid(self.rules, state, action), own, other)
        assert isinstance(action, CallAction)
        return [sum(map(mul, row, other)) for row in self._table(round_, state, action)]

    def _ask(
        self, round_: _Round, state: GameState, player: str, moves: Sequence[Action], reach: Vector
    ) -> list[Vector]:
        """``player``'s policy at ``state`` for each of their hands that ``reach`` gets there,
        action-major (0 for the others)."""
        policy = self.policies[player]
        view = player_view(self.rules, state, player)
        index = {action: number for number, action in enumerate(moves)}
        columns = [[0.0] * len(reach) for _ in moves]
        for number, (hand, chance) in enumerate(
            zip(round_.hands[player != self.player], reach, strict=True)
        ):
            if chance <= 0.0:
                continue
            answer = policy(attrs.evolve(view, own_dice=hand))
            total = sum(answer.values())
            if not (math.isfinite(total) and total > 0.0) or min(answer.values()) < 0.0:
                raise PolicyError(f"{player}'s policy is not a distribution: {answer!r}")
            for action, weight in answer.items():
                if weight > 0.0:
                    if action not in index:
                        raise PolicyError(f"{player}'s policy plays {action!r}, which is not legal")
                    columns[index[action]][number] = weight / total
        return columns

    def _table(self, round_: _Round, state: GameState, call: CallAction) -> list[Vector]:
        """What ``call`` at ``state`` is worth to the player, for each pair of hands (the
        player's rows, the opponent's columns): memoised by the bid on the table, the caller,
        the kind and the public state (see the module)."""
        assert state.round is not None
        head, bids, plugins = node_key(state)
        memo = (head, plugins, bids[-1] if bids else None, call.player, call.kind)
        found = self.tables.get(memo)
        if found is None:
            found = self.tables[memo] = [
                [self._settled(round_, state, call, own, other) for other in round_.hands[1]]
                for own in round_.hands[0]
            ]
        return found

    def _settled(
        self, round_: _Round, state: GameState, call: CallAction, own: Hand, other: Hand
    ) -> float:
        dealt = (own, other) if round_.mine == 0 else (other, own)
        real = with_hands(state, round_.players, dealt)
        return math.fsum(
            chance * self.position(after) for after, chance in settlements(self.rules, real, call)
        )
