"""A liarsdice ruleset at a table, as an OpenSpiel game: ``pyspiel.Game`` and ``pyspiel.State``.

The game is sequential with explicit chance (every draw is a chance node, see
:mod:`liarsdice.openspiel.play`), imperfect information, zero-sum, rewarded at the end: the
winners share +1 and the others -1 (2 players: +1 and -1, as OpenSpiel's ``liars_dice``); a game
that reaches the ruleset's move limit ends drawn, 0 for all. It is not registered with
``pyspiel.load_game`` by :mod:`liarsdice.openspiel.registry` (its parameters name the rules), or
built from a ruleset and a root state by :func:`load`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from liarsdice.bidkinds import COUNT_OF_FACE
from liarsdice.models import GameState
from liarsdice.openspiel.actions import ActionSpace, move_text
from liarsdice.openspiel.observers import Observer
from liarsdice.openspiel.play import Node, Table, choose, draw, returns, start
from liarsdice.openspiel.records import view_text
from liarsdice.openspiel.sizes import (
    MAX_INFO_STATES,
    MAX_PAYLOADS,
    chance_outcome_bound,
    check_size,
    table_name,
)
from liarsdice.ruleset import Ruleset
from liarsdice.views import player_view

MAX_PLAYERS = 32
"""The most players the game type declares (a table that large is refused by its size anyway)."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_liarsdice",
    long_name="liarsdice: a ruleset of liarsdice plugins at a table",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "dice": 1, "preset": "", "variants": "", "options": ""},
)
"""The game's type; its parameters are :mod:`liarsdice.openspiel.registry`'s."""


def parameters_of(rules: Ruleset, players: int, dice: int) -> dict[str, int | str]:
    """The registered game's parameters that name ``rules`` at ``players`` x ``dice``."""
    data = rules.to_data()
    options = ";".join(f"{name}:{value}" for name, value in sorted(data["options"].items()))
    return {
        "players": players,
        "dice": dice,
        "preset": data["preset"] or "",
        "variants": "+".join(data["variants"]),
        "options": options,
    }


def load(
    rules: Ruleset,
    players: int,
    dice: int,
    *,
    root: GameState | None = None,
    max_payloads: int = MAX_PAYLOADS,
    max_info_states: int | None = MAX_INFO_STATES,
) -> LiarsDiceGame:
    """The OpenSpiel game of ``rules`` at ``players`` x ``dice`` (each player's starting dice).

    Player ``i`` is seat ``i``: ``p0``, ``p1``... in a new game, or the players of ``root``, a
    state to start from (between rounds, whose next round is then dealt by chance, or in a round,
    with its dice as they are), which must seat ``players`` with ``dice_per_player == dice``.
    ``max_payloads`` is how many payloads one bid or call may carry in a state. Raises
    ``ValueError`` for rules whose bids are not counts of a face (:mod:`liarsdice.bidkinds`),
    :class:`~liarsdice.errors.BadTableSize` for a table the rules do not take,
    :class:`TableTooLarge` for one too large to use (more than ``max_info_states`` estimated
    information states, ``None`` for no bound; see :mod:`~liarsdice.openspiel.sizes`).
    """
    if players < 2 or dice < 1:
        raise ValueError(
            f"a table has 2 players or more with a die or more each, not {players} x {dice}"
        )
    if root is not None and (len(root.players) != players or root.dice_per_player != dice):
        raise ValueError(
            f"the root state seats {len(root.players)} players with {root.dice_per_player} dice "
            f"each, not {table_name(players, dice)}"
        )
    if rules.bid_kind is not COUNT_OF_FACE:
        raise ValueError(
            f"the OpenSpiel bridge numbers bids of a quantity and a face, as OpenSpiel's "
            f"liars_dice does; {rules!r} plays bids of kind {rules.bid_kind.name!r}"
        )
    rules.check_table(players, dice)
    names = tuple(p.name for p in root.players) if root else tuple(f"p{i}" for i in range(players))
    living = players if root is None else len(root.alive)
    space = ActionSpace(rules, living * dice, max_payloads)
    in_play = players * dice if root is None else root.dice_in_play
    table = table_name(players, dice)
    check_size(rules, table, in_play, dice, space.size, max_info_states)
    limit = rules.move_limit(players, dice).moves
    return LiarsDiceGame(
        Table(rules, names, dice, space, limit, chance_outcome_bound(players)),
        root,
        parameters_of(rules, players, dice),
    )


class LiarsDiceGame(pyspiel.Game):
    """The game of ``table``, from ``root`` (``None``: a new game, seated and dealt by chance),
    with the registered game's ``parameters`` that name it."""

    def __init__(
        self, table: Table, root: GameState | None, parameters: Mapping[str, int | str]
    ) -> None:
        players = len(table.names)
        waits = players if table.rules.out_of_turn else 1  # each move may follow a wait per seat
        info = pyspiel.GameInfo(
            num_distinct_actions=table.space.size,
            max_chance_outcomes=table.max_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=table.move_limit * waits,
        )
        super().__init__(GAME_TYPE, info, dict(parameters))
        self.table = table
        self._first = start(table, root)

    def new_initial_state(self) -> LiarsDiceState:
        """The state at the root."""
        return LiarsDiceState(self, self._first)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Observer:
        """An observer of this game (:class:`~liarsdice.openspiel.observers.Observer`)."""
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.table, kind, params)


class LiarsDiceState(pyspiel.State):
    """A state of a :class:`LiarsDiceGame`: a node of its tree. Player ``i`` sits in seat ``i``
    of the table (``game.table.names[i]``)."""

    def __init__(self, game: LiarsDiceGame, node: Node) -> None:
        super().__init__(game)
        self._table = game.table
        self._node = node

    @property
    def node(self) -> Node:
        """The node of the tree this state is at."""
        return self._node

    @property
    def table(self) -> Table:
        """What the game fixes: the rules, the seats, the action numbers."""
        return self._table

    @property
    def game_state(self) -> GameState | None:
        """The liarsdice state (before the step waiting for a draw, at a chance node); ``None``
        before the table is seated."""
        return self._node.state

    def current_player(self) -> int:
        node = self._node
        if node.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        decider = node.decider
        if decider is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._table.names.index(decider)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._node.choices)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pending = self._node.pending
        assert pending is not None, "not a chance node"
        return [(i, p) for i, p in enumerate(pending.need.probabilities) if p > 0.0]

    def _apply_action(self, action: int) -> None:
        table, node = self._table, self._node
        self._node = draw(table, node, action) if node.pending else choose(table, node, action)

    def _action_to_string(self, player: int, action: int) -> str:
        node = self._node
        if player == pyspiel.PlayerId.CHANCE and node.pending is not None:
            return f"chance: {node.pending.need.labels[action]}"
        move = node.choices.get(action)
        return move_text(move) if move is not None else self._table.space.text(action)

    def is_terminal(self) -> bool:
        return self._node.terminal

    def returns(self) -> list[float]:
        return returns(self._table, self._node)

    def __str__(self) -> str:
        state = self._node.state
        if state is None:
            return "start"
        rolls = state.round.rolls if state.round is not None else {}
        dice = " ".join(f"{name} {''.join(map(str, roll))}" for name, roll in rolls.items())
        seen = view_text(player_view(self._table.rules, state, None), bids=True)
        waiting = " (waiting for a draw)" if self._node.pending else ""
        return f"rolls {dice or '-'} | {seen}{waiting}"
