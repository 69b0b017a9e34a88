"""One round of a two-player endgame as a public tree, built from the rules by the engine.

A node is a state of the round as both players see it: the dice under the cups hidden (0s, as
:func:`liarsdice.views.view_state` hides them). Its moves are the engine's legal bids and calls
for the player on turn, and a bid's child is the engine's step. What a player knows besides is
their hand, a multiset of faces with its chance; a pair of hands is dealt by putting their faces
under the cups of a node's state. A call ends the round: its outcome for every pair of hands is
the engine's step on the state with those hands, each settling draw enumerated with its chance
(:mod:`liarsdice.endgame.draws`): the game won, or the state the next round starts from.

Assumptions. The public tree is computed once, on the hidden dice, and the outcomes of a call
once per bid on the table, bidder, caller, kind and public plugin state (and pair of hands). So:

- the legal moves, and the public state after a bid, do not depend on the dice: checked for
  every pair of hands at the root (the moves, and the state after each bid), and at its
  children and every :data:`SPOT_CHECK`-th node (the moves, and the state after the lowest bid);
- a call's outcome depends on the history only through that bid, those players, the kind and the
  public plugin state;
- nothing depends on the order of the dice in a hand, or on the round's number.

:func:`build` with ``audit=1`` checks the first two at every node and every call.

The players' names are renamed by seat before a round is keyed and solved
(:mod:`liarsdice.endgame.names`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import TypeVar

import attrs

from liarsdice import engine
from liarsdice.endgame.draws import Drawn, Scripted, drawn_cause, every_draw
from liarsdice.errors import PluginError
from liarsdice.models import (
    JSON,
    Action,
    BidAction,
    CallAction,
    GameState,
)
from liarsdice.ruleset import FACES, Ruleset

Hand = tuple[int, ...]
"""A hand: a player's faces, sorted."""
NodeKey = tuple[str, tuple[tuple[str, int, int], ...], str]
"""What identifies a node among every round's: the seats, dice and opener (JSON), the bids
``(player, quantity, face)`` and the public plugin state (JSON)."""
Dist = tuple[tuple[int, float], ...]
"""A call's outcomes for one pair of hands: ``(outcome index, chance)`` pairs."""

SPOT_CHECK = 61
"""Every this many nodes (besides the root and its children) a build checks that the legal moves
are the same with every pair of hands as with the dice hidden."""
DRAW_LIMIT = 4096
"""The most sequences of draws a settlement may take before the solver refuses it."""

_Result = TypeVar("_Result")


class Unsolvable(Exception):
    """The endgame solver cannot solve this; ``reason`` says why, in a sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@attrs.frozen
class Outcome:
    """How a round can end: ``winners`` when the game is over, else ``state``, where the next
    round starts (``key`` is its :func:`position_key`)."""

    key: str
    winners: tuple[str, ...] = ()
    state: GameState | None = None


@attrs.frozen
class CallTable:
    """The outcomes of one kind of call after one bid, for every pair of hands, grouped: the
    hands of the first player that have the same outcomes against every hand of the second are
    one group (``rows``: each hand's group), and the same for the second (``cols``);
    ``cells[g0][g1]`` are the outcomes of groups ``g0`` and ``g1``."""

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    cells: tuple[tuple[Dist, ...], ...]


@attrs.frozen(eq=False)
class RoundTree:
    """One round's public tree, in flat lists over nodes numbered depth first (0 is the root).

    ``players`` are the two living players in seat order, called 0 and 1 below; ``hands[p]``
    their possible hands and ``chances[p]`` each hand's chance. Node ``n`` is decided by player
    ``actor[n]``, who chooses among ``actions[n]``; ``kids[n][a]`` is the node that action leads
    to, or, for a call, ``~c`` for :class:`CallTable` ``tables[c]``, whose outcomes index
    ``outcomes``. ``index`` finds a node by its :func:`node_key`. ``root`` is the hidden state
    at the root, ``key`` its node key; ``digest`` a hash of the tree's shape and moves.
    """

    players: tuple[str, str]
    hands: tuple[tuple[Hand, ...], tuple[Hand, ...]]
    chances: tuple[tuple[float, ...], tuple[float, ...]]
    actor: tuple[int, ...]
    actions: tuple[tuple[Action, ...], ...]
    kids: tuple[tuple[int, ...], ...]
    tables: tuple[CallTable, ...]
    outcomes: tuple[Outcome, ...]
    index: dict[NodeKey, int]
    root: GameState
    key: NodeKey
    digest: str

    def payoff(self, outcome: Outcome) -> float | None:
        """What ``outcome`` is worth to player 0 when it ends the game (1 won, -1 lost), or
        ``None`` when the game goes on."""
        if outcome.state is not None:
            return None
        first, second = self.players
        return float((first in outcome.winners) - (second in outcome.winners))


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
"""What ``json.dumps(value, sort_keys=True, separators=(",", ":"))`` uses, made once (a key is
made on every lookup)."""


def _json(value: JSON) -> str:
    return _ENCODER.encode(value)


def _seats(state: GameState) -> JSON:
    return [[p.name, p.dice, p.alive] for p in state.players]


def position_key(state: GameState) -> str:
    """What the next round of ``state`` (between rounds) depends on, as JSON: the seats and
    their dice, who opens, the public plugin state."""
    return _json([_seats(state), state.dice_per_player, state.next_opener, state.plugins])


def node_key(state: GameState) -> NodeKey:
    """The public facts of ``state``, in a round, that place it in a round's tree."""
    round_ = state.round
    assert round_ is not None
    bids = tuple((placed.player, placed.bid.quantity, placed.bid.face) for placed in round_.bids)
    return key_of(_seats(state), state.dice_per_player, round_.opener, bids, state.plugins)


def key_of(
    seats: JSON,
    dice_per_player: int,
    opener: str,
    bids: tuple[tuple[str, int, int], ...],
    plugins: JSON,
) -> NodeKey:
    """The :func:`node_key` of a state in a round with these ``seats`` (``[name, dice, alive]``
    each), dice per player, opener, bids (``(player, quantity, face)``) and public plugin state,
    without building the state."""
    return _json([seats, dice_per_player, opener]), bids, _json(plugins)


def hands(dice: int) -> tuple[tuple[Hand, ...], tuple[float, ...]]:
    """Every hand of ``dice`` dice (sorted faces, in order) and the chance of rolling each."""
    found = tuple(itertools.combinations_with_replacement(FACES, dice))
    orders = [math.factorial(dice) for _ in found]
    for index, hand in enumerate(found):
        for face in set(hand):
            orders[index] //= math.factorial(hand.count(face))
    return found, tuple(order / 6**dice for order in orders)


def with_hands(state: GameState, players: Sequence[str], dealt: Sequence[Hand]) -> GameState:
    """``state`` with ``dealt[i]`` under the cup of ``players[i]``."""
    round_ = state.round
    assert round_ is not None
    rolls = dict(zip(players, dealt, strict=True))
    return attrs.evolve(state, round=attrs.evolve(round_, rolls=rolls))


def hidden(state: GameState) -> GameState:
    """``state`` with every die under a cup shown as 0 (what both players see of it)."""
    round_ = state.round
    assert round_ is not None
    rolls = {name: (0,) * len(roll) for name, roll in round_.rolls.items()}
    return attrs.evolve(state, round=attrs.evolve(round_, rolls=rolls))


_REFUSING = Scripted(strict=True)
"""The RNG of every move in a round: it refuses every draw, so it never changes."""


def _without_draws(run: Callable[[Random], _Result], when: str) -> _Result:
    """``run`` with an RNG that refuses every draw; a draw is :class:`Unsolvable`."""
    try:
        return run(_REFUSING)
    except (Drawn, PluginError) as error:
        _refuse_draw(error, when)
        raise


def _refuse_draw(error: Exception, when: str) -> None:
    """Raise :class:`Unsolvable` if ``error`` is a draw the solver refused."""
    drawn = drawn_cause(error)
    if drawn is None:
        return
    who = (
        f"{error.plugin}'s {error.hook}"
        if isinstance(error, PluginError) and error.plugin and error.hook
        else "a plugin"
    )
    raise Unsolvable(f"{who} draws {drawn} {when}, which the endgame solver cannot follow")


def _deals(state: GameState) -> Iterator[tuple[Hand, Hand]]:
    first, second = state.alive
    return itertools.product(hands(first.dice)[0], hands(second.dice)[0])


def legal_moves(rules: Ruleset, state: GameState, player: str) -> tuple[Action, ...]:
    """``player``'s legal bids, then calls, in ``state`` (a round being played)."""
    bids = engine.legal_bids(rules, state, player)
    calls = engine.legal_calls(rules, state, player)
    return (*(BidAction(player, bid) for bid in bids), *(CallAction(player, k) for k in calls))


def after_bid(rules: Ruleset, state: GameState, action: Action) -> GameState:
    """The engine's step for the bid ``action`` on ``state``; :class:`Unsolvable` when it draws
    at random, shows dice or sets private state."""
    after = _without_draws(
        lambda rng: engine.step(rules, state, action, rng)[0], "when a bid is made"
    )
    assert after.round is not None
    if after.round.shown or after.round.private:
        raise Unsolvable("dice are shown or private state is set when a bid is made")
    return after


def settlements(
    rules: Ruleset, state: GameState, call: CallAction
) -> list[tuple[GameState, float]]:
    """The engine's step for ``call`` on ``state`` (its dice dealt) for every sequence of draws
    that settles it, with its chance; :class:`Unsolvable` for a draw the solver cannot follow
    (:data:`DRAW_LIMIT`)."""
    try:
        return every_draw(lambda rng: engine.step(rules, state, call, rng)[0], DRAW_LIMIT)
    except (Drawn, PluginError) as error:
        _refuse_draw(error, "as the round is settled")
        raise


def _dealer(
    rules: Ruleset, state: GameState, rolls: dict[str, Hand]
) -> Callable[[Random], GameState]:
    def deal(rng: Random) -> GameState:
        return engine.start_round(rules, state, rng, rolls=rolls)[0]

    return deal


def dealt_root(rules: Ruleset, state: GameState) -> GameState:
    """The hidden state at the start of the round ``state`` (between rounds) is about to deal,
    by the engine's ``start_round`` with every pair of hands. :class:`Unsolvable` when that start
    draws at random, shows dice, sets private state, changes who sees which dice, or is not the
    same for every pair of hands."""
    names = [player.name for player in state.alive]
    root: GameState | None = None
    for dealt in _deals(state):
        started = _without_draws(
            _dealer(rules, state, dict(zip(names, dealt, strict=True))), "as the round starts"
        )
        round_ = started.round
        assert round_ is not None
        if round_.sights:
            raise Unsolvable(
                "the rules change who sees which dice, which the solver does not model"
            )
        if round_.shown or round_.private:
            raise Unsolvable("dice are shown or private state is set as the round starts")
        if root is None:
            root = hidden(started)
        elif node_key(hidden(started)) != node_key(root):
            raise Unsolvable("the public start of the round depends on the dice dealt")
    assert root is not None
    return root


def build(rules: Ruleset, root: GameState, *, audit: int = 0) -> RoundTree:
    """The public tree of the round that starts at ``root`` (a hidden state in a round, before
    any bid). :class:`Unsolvable` if a move draws at random, a settlement draws a real number or
    too many integers, or a check finds the legal moves, the public state or a call's outcome
    depending on what the module assumes they do not. With ``audit`` n, every n-th node is
    checked in full: its moves, the state after each bid and the outcomes of each call, for
    every pair of hands (1: every node)."""
    return Builder(rules, root, audit).tree()


class Builder:
    """The walk of one round's public tree with the engine (see :func:`build`); its checks
    (:meth:`check`) and call tables (:meth:`table`) also serve :mod:`~liarsdice.endgame.ladder`."""

    def __init__(self, rules: Ruleset, root: GameState, audit: int) -> None:
        self.rules = rules
        self.root = root
        self.audit = audit
        first, second = root.alive
        self.players = (first.name, second.name)
        self.hands = (hands(first.dice), hands(second.dice))
        self.deals = list(itertools.product(self.hands[0][0], self.hands[1][0]))
        self.actor: list[int] = []
        self.actions: list[tuple[Action, ...]] = []
        self.kids: list[tuple[int, ...]] = []
        self.index: dict[NodeKey, int] = {}
        self.tables: list[CallTable] = []
        self.table_ids: dict[tuple[JSON, ...], int] = {}
        self.outcomes: list[Outcome] = []
        self.outcome_ids: dict[str, int] = {}

    def tree(self) -> RoundTree:
        round_ = self.root.round
        assert round_ is not None and not round_.bids
        key = node_key(self.root)
        self._node(self.root, key, spot=True)
        digest = hashlib.sha256(repr((self.actor, self.actions, self.kids)).encode()).hexdigest()
        return RoundTree(
            players=self.players,
            hands=(self.hands[0][0], self.hands[1][0]),
            chances=(self.hands[0][1], self.hands[1][1]),
            actor=tuple(self.actor),
            actions=tuple(self.actions),
            kids=tuple(self.kids),
            tables=tuple(self.tables),
            outcomes=tuple(self.outcomes),
            index=self.index,
            root=self.root,
            key=key,
            digest=digest,
        )

    def _node(self, state: GameState, key: NodeKey, *, spot: bool) -> int:
        round_ = state.round
        assert round_ is not None
        player = round_.turn
        number = len(self.actor)
        self.actor.append(self.players.index(player))
        self.actions.append(())
        self.kids.append(())
        self.index[key] = number
        moves = legal_moves(self.rules, state, player)
        if not moves:
            raise Unsolvable(f"{player} has no legal move after {len(round_.bids)} bids")
        children: list[tuple[Action, GameState | None]] = []
        for action in moves:
            if isinstance(action, BidAction):
                children.append((action, after_bid(self.rules, state, action)))
            else:
                children.append((action, None))
        full = self.audit > 0 and number % self.audit == 0
        if number == 0 or full:
            self.check(state, moves, children)
        elif spot or number % SPOT_CHECK == 0:
            self.check(state, moves, children[:1])
        head, bids, plugins = key
        kids: list[int] = []
        for action, child in children:
            if child is None:
                assert isinstance(action, CallAction)
                kids.append(~self.table(state, action, plugins, full=full))
                continue
            assert isinstance(action, BidAction)
            placed = (player, action.bid.quantity, action.bid.face)
            child_plugins = plugins if child.plugins is state.plugins else _json(child.plugins)
            kids.append(self._node(child, (head, (*bids, placed), child_plugins), spot=number == 0))
        self.actions[number] = moves
        self.kids[number] = tuple(kids)
        return number

    def check(
        self,
        state: GameState,
        moves: tuple[Action, ...],
        children: list[tuple[Action, GameState | None]],
    ) -> None:
        """Refuse unless every pair of hands gives ``state`` the same legal moves, and each bid of
        ``children`` the same public state after it, as the hidden dice do."""
        for dealt in self.deals:
            real = with_hands(state, self.players, dealt)
            assert real.round is not None
            if legal_moves(self.rules, real, real.round.turn) != moves:
                raise Unsolvable(
                    f"the legal moves after {len(real.round.bids)} bids depend on the dice "
                    f"({dealt[0]} against {dealt[1]})"
                )
            for action, child in children:
                if child is not None and node_key(after_bid(self.rules, real, action)) != node_key(
                    child
                ):
                    raise Unsolvable("the public state after a bid depends on the dice")

    def table(self, state: GameState, call: CallAction, plugins: str, *, full: bool) -> int:
        round_ = state.round
        assert round_ is not None
        placed = round_.bids[-1]
        memo = (
            placed.player,
            placed.bid.quantity,
            placed.bid.face,
            call.player,
            call.kind,
            plugins,
        )
        known = self.table_ids.get(memo)
        if known is not None and not full:
            return known
        cells = [self._ruling(state, call, dealt) for dealt in self.deals]
        table = _grouped(cells, len(self.hands[1][0]))
        if known is not None:
            if table != self.tables[known]:
                raise Unsolvable(
                    f"the outcome of {call.kind} on {placed.bid} depends on more of the history "
                    "than the bid on the table, the players and the public plugin state"
                )
            return known
        self.table_ids[memo] = len(self.tables)
        self.tables.append(table)
        return len(self.tables) - 1

    def _ruling(self, state: GameState, call: CallAction, dealt: tuple[Hand, Hand]) -> Dist:
        """The outcomes of ``call`` on ``state`` with ``dealt`` under the cups, with chances."""
        real = with_hands(state, self.players, dealt)
        chances: dict[int, float] = {}
        for after, chance in settlements(self.rules, real, call):
            outcome = self._outcome(after)
            chances[outcome] = chances.get(outcome, 0.0) + chance
        return tuple(sorted(chances.items()))

    def _outcome(self, after: GameState) -> int:
        if after.over:
            outcome = Outcome(key="over:" + _json(list(after.winners)), winners=after.winners)
        else:
            outcome = Outcome(key=position_key(after), state=after)
        known = self.outcome_ids.get(outcome.key)
        if known is None:
            known = self.outcome_ids[outcome.key] = len(self.outcomes)
            self.outcomes.append(outcome)
        return known


def _grouped(cells: Sequence[Dist], columns: int) -> CallTable:
    """The outcomes of every pair of hands (row-major: ``cells[h0 * columns + h1]``), grouped."""
    grid = [tuple(cells[start : start + columns]) for start in range(0, len(cells), columns)]
    row_groups: dict[tuple[Dist, ...], int] = {}
    rows = tuple(row_groups.setdefault(row, len(row_groups)) for row in grid)
    col_groups: dict[tuple[Dist, ...], int] = {}
    cols = tuple(col_groups.setdefault(col, len(col_groups)) for col in zip(*grid, strict=True))
    row_of = {group: index for index, group in reversed(list(enumerate(rows)))}
    col_of = {group: index for index, group in reversed(list(enumerate(cols)))}
    table = tuple(
        tuple(grid[row_of[g0]][col_of[g1]] for g1 in range(len(col_groups)))
        for g0 in range(len(row_groups))
    )
    return CallTable(rows, cols, table)
