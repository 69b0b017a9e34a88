"""Any ruleset at any table as a PettingZoo AEC environment, in PettingZoo's "classic" conventions.

``env(preset="perudo", players=4, dice=5)`` (or ``variants=``, ``options=``) plays whole games
through the OpenSpiel bridge (:mod:`liarsdice.openspiel`), so moves, action numbers and
observations are the bridge's:

- agents ``player_0`` ... ``player_{n-1}``, seat ``i`` (the bridge's ``p{i}``); a player knocked
  out stays an agent until the game ends and is never selected again;
- the action space is ``Discrete(game.num_distinct_actions())``, numbered as the bridge numbers
  moves (OpenSpiel's ``liars_dice`` bids first, then the call kinds, the wait of a player asked
  whether to call out of turn, and payload variants);
- an observation is ``{"observation": Box(0, 1), "action_mask": int8}``: the bridge's observation
  tensor for that player (their own view only) and their legal moves (all zero when not on turn);
- rewards come at the end, the bridge's returns: the winners share +1 and the others -1 (teams
  share); a game that reaches the ruleset's move limit is truncated, every reward 0;
- every random draw (deals, the revolver's chamber, a roll-off) is drawn from the environment's
  generator, seeded by ``reset(seed=...)``;
- ``render_mode="ansi"``: ``render()`` returns the view of the agent to act, in words, in ``lang``
  (``en``, ``uk``, ``ru``).

:func:`env` wraps :class:`raw_env` in PettingZoo's standard wrappers (an illegal move ends the
game with -1 for the player who made it; an out-of-range action is an error; order enforced).
Needs the ``agents`` extra (pettingzoo, gymnasium, open-spiel).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - the dev group installs them
    raise ImportError(
        "liarsdice.pettingzoo needs PettingZoo: pip install 'liarsdice-rules[agents]'"
    ) from error

import numpy as np
import numpy.typing as npt

from liarsdice import narration
from liarsdice import openspiel as bridge
from liarsdice.i18n import Text
from liarsdice.ruleset import Ruleset
from liarsdice.views import player_view

Observation = dict[str, npt.NDArray[Any]]


class raw_env(AECEnv[str, Observation, int]):
    """The game of a ruleset at ``players`` x ``dice``, unwrapped (see the module's text)."""

    metadata = {"name": "liarsdice_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        preset: str | None = None,
        players: int = 2,
        dice: int = 5,
        variants: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        lang: str = "en",
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.rules = Ruleset.build(list(variants), options, preset)
        self.game = bridge.load(self.rules, players, dice, max_info_states=None)
        self.render_mode, self.lang = render_mode, lang
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._observer = self.game.make_py_observer()
        actions = self.game.num_distinct_actions()
        observed = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self._observer.tensor.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces: dict[str, spaces.Space[Any]] = dict.fromkeys(
            self.possible_agents, observed
        )
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(actions) for agent in self.possible_agents
        }
        self._state: bridge.LiarsDiceState = self.game.new_initial_state()
        self.np_random, _ = seeding.np_random(None)

    @property
    def state(self) -> bridge.LiarsDiceState:
        """The game now, as the OpenSpiel bridge's state (its ``node`` holds the legal moves)."""
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: seated and dealt with draws from the generator ``seed`` seeds."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._state = self.game.new_initial_state()
        self._after_move()

    def step(self, action: int) -> None:
        """Play ``action`` for the agent to act (``agent_selection``)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        if int(action) not in self._state.legal_actions(seat):
            raise ValueError(f"{agent} may not play action {action} now")
        self._cumulative_rewards[agent] = 0.0
        self._state.apply_action(int(action))
        self._after_move()
        self._accumulate_rewards()

    def _after_move(self) -> None:
        """Draw every chance outcome due, then pick the next agent or end the game."""
        state = self._state
        while state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(self.np_random.choice(outcomes, p=chances)))
        if state.is_terminal():
            finished = state.game_state is not None and state.game_state.over
            for agent, value in zip(self.agents, state.returns(), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = finished
                self.truncations[agent] = not finished
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        self._observer.set_from(self._state, seat)
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not self._state.is_terminal() and self._state.current_player() == seat:
            mask[self._state.legal_actions(seat)] = 1
        return {"observation": self._observer.tensor.copy(), "action_mask": mask}

    def render(self) -> str | None:
        """The view of the agent to act, in words (``ansi``)."""
        if self.render_mode is None:
            return None
        state = self._state.game_state
        agent = self.agent_selection
        if state is None:
            return agent
        name = self.game.table.names[self.possible_agents.index(agent)]
        view = player_view(self.rules, state, name)
        lines: list[Text] = [
            narration.table_line(view),
            narration.dice_line(view.own_dice),
            narration.bids_line(view, self.rules.bid_kind),
            *narration.reveal_lines(view),
        ]
        return "\n".join([f"{agent} ({name})", *(line.render(self.lang) for line in lines)])

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """:class:`raw_env` (same arguments) in PettingZoo's standard wrappers for classic games."""
    game: Any = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


__all__ = ["env", "raw_env"]
