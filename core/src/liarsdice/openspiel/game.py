"""A liarsdice ruleset at a table, as an OpenSpiel game: ``pyspiel.Game`` and ``pyspiel.State``.

The game is sequential with explicit chance (every draw is a chance node, see
:mod:`liarsdice.openspiel.play`), imperfect information, zero-sum, rewarded at the end: the
winners share +1 and the others -1 (2 players: +1 and -1, as OpenSpiel's ``liars_dice``); a game
that reaches the ruleset's move limit ends drawn, 0 for all. It is not registered with
``pyspiel.load_game``: build it with :func:`liarsdice.openspiel.load`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from liarsdice.models import GameState
from liarsdice.openspiel.actions import move_text
from liarsdice.openspiel.observers import Observer
from liarsdice.openspiel.play import Node, Table, choose, draw, returns, start
from liarsdice.openspiel.records import view_text
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
    parameter_specification={"players": 2, "dice": 1},
)


class LiarsDiceGame(pyspiel.Game):
    """The game of ``table``, from ``root`` (``None``: a new game, seated and dealt by chance)."""

    def __init__(self, table: Table, root: GameState | None) -> None:
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
        super().__init__(GAME_TYPE, info, {"players": players, "dice": table.dice})
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
