# PettingZoo's AEC environment, typed as far as liarsdice.pettingzoo uses it.
from collections.abc import Iterator
from typing import Any, Generic, TypeVar

AgentID = TypeVar("AgentID")
ObsType = TypeVar("ObsType")
ActionType = TypeVar("ActionType")

class AECEnv(Generic[AgentID, ObsType, ActionType]):
    metadata: dict[str, Any]
    possible_agents: list[AgentID]
    agents: list[AgentID]
    observation_spaces: dict[AgentID, Any]
    action_spaces: dict[AgentID, Any]
    rewards: dict[AgentID, float]
    _cumulative_rewards: dict[AgentID, float]
    terminations: dict[AgentID, bool]
    truncations: dict[AgentID, bool]
    infos: dict[AgentID, dict[str, Any]]
    agent_selection: AgentID
    def __init__(self) -> None: ...
    def _was_dead_step(self, action: ActionType | None) -> None: ...
    def _accumulate_rewards(self) -> None: ...
    def agent_iter(self, max_iter: int = ...) -> Iterator[AgentID]: ...
    def last(
        self, observe: bool = ...
    ) -> tuple[ObsType | None, float, bool, bool, dict[str, Any]]: ...
