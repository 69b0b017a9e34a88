"""Stubs for OpenSpiel's ``pyspiel``, typed as far as liarsdice uses it."""

from collections.abc import Callable, Mapping
from enum import IntEnum
from typing import Any

class PlayerId(IntEnum):
    DEFAULT_PLAYER_ID = 0
    CHANCE = -1
    SIMULTANEOUS = -2
    INVALID = -3
    TERMINAL = -4
    MEAN_FIELD = -5

class PrivateInfoType(IntEnum):
    NONE = 0
    SINGLE_PLAYER = 1
    ALL_PLAYERS = 2

class IIGObservationType:
    public_info: bool
    perfect_recall: bool
    private_info: PrivateInfoType
    def __init__(
        self,
        public_info: bool = True,
        *,
        perfect_recall: bool,
        private_info: PrivateInfoType = ...,
    ) -> None: ...

class GameType:
    class Dynamics(IntEnum):
        SIMULTANEOUS = 0
        SEQUENTIAL = 1
        MEAN_FIELD = 2

    class ChanceMode(IntEnum):
        DETERMINISTIC = 0
        EXPLICIT_STOCHASTIC = 1
        SAMPLED_STOCHASTIC = 2

    class Information(IntEnum):
        ONE_SHOT = 0
        PERFECT_INFORMATION = 1
        IMPERFECT_INFORMATION = 2

    class Utility(IntEnum):
        ZERO_SUM = 0
        CONSTANT_SUM = 1
        GENERAL_SUM = 2
        IDENTICAL = 3

    class RewardModel(IntEnum):
        REWARDS = 0
        TERMINAL = 1

    short_name: str
    long_name: str
    def __init__(
        self,
        short_name: str,
        long_name: str,
        dynamics: GameType.Dynamics,
        chance_mode: GameType.ChanceMode,
        information: GameType.Information,
        utility: GameType.Utility,
        reward_model: GameType.RewardModel,
        max_num_players: int,
        min_num_players: int,
        provides_information_state_string: bool,
        provides_information_state_tensor: bool,
        provides_observation_string: bool,
        provides_observation_tensor: bool,
        parameter_specification: Mapping[str, Any] = ...,
    ) -> None: ...

class GameInfo:
    def __init__(
        self,
        num_distinct_actions: int,
        max_chance_outcomes: int,
        num_players: int,
        min_utility: float,
        max_utility: float,
        utility_sum: float | None = None,
        *,
        max_game_length: int,
    ) -> None: ...

class Game:
    def __init__(
        self, game_type: GameType, game_info: GameInfo, params: Mapping[str, Any]
    ) -> None: ...
    def num_distinct_actions(self) -> int: ...
    def num_players(self) -> int: ...
    def max_game_length(self) -> int: ...
    def max_chance_outcomes(self) -> int: ...
    def get_type(self) -> GameType: ...
    def new_initial_state(self) -> State: ...

class State:
    def __init__(self, game: Game) -> None: ...
    def current_player(self) -> int: ...
    def legal_actions(self, player: int = ...) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int) -> None: ...
    def action_to_string(self, player: int, action: int) -> str: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def clone(self) -> State: ...
    def child(self, action: int) -> State: ...
    def get_game(self) -> Game: ...
    def history(self) -> list[int]: ...
    def information_state_string(self, player: int = ...) -> str: ...
    def information_state_tensor(self, player: int = ...) -> list[float]: ...
    def observation_string(self, player: int = ...) -> str: ...
    def observation_tensor(self, player: int = ...) -> list[float]: ...

class SpielError(Exception): ...

def registered_names() -> list[str]: ...
def register_game(game_type: GameType, creator: Callable[[Mapping[str, Any]], Game]) -> None: ...
def load_game(name: str, params: Mapping[str, Any] = ...) -> Game: ...
