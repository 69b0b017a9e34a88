"""Any ruleset as a Gymnasium environment for one seat, the other seats played by shipped bots.

``gymnasium.make("liarsdice/perudo-v0")`` (an id per preset, registered when this module is
imported; ``gymnasium.make("liarsdice.gym:liarsdice/perudo-v0")`` imports it) or
:class:`SeatEnv` with any ruleset. The game is the PettingZoo environment's
(:mod:`liarsdice.pettingzoo`): its observation tensor, action numbers, rewards and truncation.

- The learner sits in ``seat``; the others are bots of ``opponents`` (one kind for all, or one per
  other seat), deciding from their own views as in tournaments (a bot asked out of turn makes its
  call or waits).
- ``observation``: the learner's observation tensor; ``info["action_mask"]`` and
  :meth:`SeatEnv.action_masks` (for sb3-contrib's ``MaskablePPO``) are its legal moves.
- ``reward``: the learner's share of the result when the game ends (+1 for a lone winner, the
  losers' -1 shared); 0 before. A learner knocked out waits while the bots finish the game.
- An illegal action ends the episode with reward -1 (``info["illegal"]``), as PettingZoo's
  classic games do; the game at its move limit is truncated with reward 0.
- ``reset(seed=...)`` seeds the deal and the bots, so an episode is replayed from its seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - the dev group installs it
    raise ImportError(
        "liarsdice.gym needs Gymnasium: pip install 'liarsdice-rules[agents]'"
    ) from error

import numpy as np
import numpy.typing as npt

from liarsdice.bots import Bot, interjection, make_bot
from liarsdice.discovery import presets
from liarsdice.openspiel import Wait
from liarsdice.pettingzoo import raw_env
from liarsdice.views import player_view

Observation = npt.NDArray[np.float32]


class SeatEnv(gymnasium.Env[Observation, int]):
    """One seat of a game of a ruleset at ``players`` x ``dice`` against bots (see the module's
    text). Raises what ``Ruleset.build`` raises, and ``UnknownBot`` for an unknown kind."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 - read from the class

    def __init__(
        self,
        preset: str | None = None,
        players: int = 2,
        dice: int = 5,
        variants: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        render_mode: str | None = None,
        lang: str = "en",
    ) -> None:
        self.game = raw_env(preset, players, dice, variants, options, render_mode, lang)
        if not 0 <= seat < players:
            raise ValueError(f"seat is a number from 0 to {players - 1}, not {seat}")
        kinds = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != players - 1:
            raise ValueError(f"{players - 1} opponents sit with the learner, not {len(kinds)}")
        others = [agent for number, agent in enumerate(self.game.possible_agents) if number != seat]
        self.kinds = dict(zip(others, kinds, strict=True))
        self.bots = {
            agent: make_bot(kind, self.game.rules, Random(0)) for agent, kind in self.kinds.items()
        }
        self.learner = self.game.possible_agents[seat]
        self.render_mode = render_mode
        observed = self.game.observation_space(self.learner)
        assert isinstance(observed, spaces.Dict)
        self.observation_space = observed["observation"]
        self.action_space = self.game.action_space(self.learner)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game, dealt and played by the bots up to the learner's first decision."""
        super().reset(seed=seed)
        draws = self.np_random.integers(2**31, size=len(self.bots) + 1)
        self.game.reset(seed=int(draws[0]))
        rules = self.game.rules
        self.bots = {
            agent: make_bot(self.kinds[agent], rules, Random(int(draw)))
            for agent, draw in zip(self.bots, draws[1:], strict=True)
        }
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the bots until the learner decides or the game ends."""
        if self.action_masks()[int(action)] == 0:
            return self._observe(), -1.0, True, False, {**self._info(), "illegal": True}
        self.game.step(int(action))
        self._play_bots()
        state = self.game.state
        if not state.is_terminal():
            return self._observe(), 0.0, False, False, self._info()
        reward = state.returns()[self.game.possible_agents.index(self.learner)]
        over = state.game_state is not None and state.game_state.over
        return self._observe(), float(reward), over, not over, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal moves now (none once the game is over)."""
        return self.game.observe(self.learner)["action_mask"].astype(bool)

    def render(self) -> str | None:
        """The learner's view in words (``ansi``)."""
        return self.game.render()

    def _play_bots(self) -> None:
        game = self.game
        while not game.state.is_terminal() and game.agent_selection != self.learner:
            agent, node = game.agent_selection, game.state.node
            name = game.game.table.names[game.possible_agents.index(agent)]
            assert node.state is not None
            view = player_view(game.rules, node.state, name)
            bot: Bot = self.bots[agent]
            move = (interjection(bot, view) or Wait(name)) if node.asking else bot.decide(view)
            number = next(n for n, choice in node.choices.items() if choice == move)
            game.step(number)

    def _observe(self) -> Observation:
        return self.game.observe(self.learner)["observation"]

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.game.observe(self.learner)["action_mask"]}


def register() -> None:
    """Register ``liarsdice/<preset>-v0`` for every installed preset (heads-up at 5 dice by default;
    ``gymnasium.make`` passes other arguments on)."""
    for name in presets():
        if f"liarsdice/{name}-v0" not in gymnasium.registry:
            gymnasium.register(
                f"liarsdice/{name}-v0", entry_point="liarsdice.gym:SeatEnv", kwargs={"preset": name}
            )


register()
