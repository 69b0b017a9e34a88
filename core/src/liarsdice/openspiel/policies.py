"""Liarsdice bots as an OpenSpiel policy: a bot's ``policy(view)`` mapped to action numbers.

:class:`BotPolicy` answers, for a state of a bridged game and a player a bot plays, that bot's
:data:`~liarsdice.bots.Policy` on the player's view (``views.player_view``), each action mapped
to its number (every other legal action with probability 0). Asked out of turn, a bot without
``interject`` waits for sure; a bot with one is refused, since ``interject`` draws an answer
rather than giving its probabilities.
"""

from __future__ import annotations

from collections.abc import Mapping

import pyspiel
from open_spiel.python import policy

from liarsdice.bots import BadPolicy, Bot, checked_policy
from liarsdice.models import Action
from liarsdice.openspiel.actions import Wait
from liarsdice.openspiel.game import LiarsDiceGame, LiarsDiceState
from liarsdice.openspiel.sizes import Unsupported
from liarsdice.views import player_view


class BotPolicy(policy.Policy):
    """The policy of ``bots`` (OpenSpiel player number -> bot) in ``game``."""

    def __init__(self, game: LiarsDiceGame, bots: Mapping[int, Bot]) -> None:
        super().__init__(game, sorted(bots))
        self._bots = dict(bots)

    def action_probabilities(
        self, state: pyspiel.State, player_id: int | None = None
    ) -> dict[int, float]:
        """The probability of each legal action of ``player_id`` (by default the player
        deciding) in ``state``; :class:`~liarsdice.bots.BadPolicy` if the bot's policy is not a
        distribution over those actions."""
        if not isinstance(state, LiarsDiceState):
            raise TypeError(f"a BotPolicy plays states of a bridged game, not {state!r}")
        player = state.current_player() if player_id is None else player_id
        if player not in self._bots:
            raise ValueError(f"no bot plays player {player} here (bots play {sorted(self._bots)})")
        node, table = state.node, state.table
        name = table.names[player]
        if node.decider != name:
            raise ValueError(f"player {player} ({name}) is not deciding in this state")
        bot = self._bots[player]
        numbers: dict[Action | Wait, int] = {move: n for n, move in node.choices.items()}
        found = dict.fromkeys(numbers.values(), 0.0)
        if node.asking:
            if getattr(bot, "interject", None) is not None:
                raise Unsupported(
                    f"{table.name}: {type(bot).__name__} plays {name} and has interject, which "
                    "draws a call out of turn instead of giving its probabilities"
                )
            found[numbers[Wait(name)]] = 1.0
            return found
        assert node.state is not None
        for action, chance in checked_policy(
            bot.policy(player_view(table.rules, node.state, name))
        ).items():
            number = numbers.get(action)
            if number is None:
                raise BadPolicy(
                    f"{type(bot).__name__}'s policy for {name} under {table.name} gives "
                    f"{action!r}, which is not among the legal actions here"
                )
            found[number] = chance
        return found
