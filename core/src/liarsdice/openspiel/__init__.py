"""OpenSpiel bridge: any liarsdice ruleset at any table, as an OpenSpiel game (the ``openspiel`` extra).

``load(rules, players, dice)`` gives a ``pyspiel.Game`` that plays a whole game under ``rules``
until it has winners, from the seating of the table or from a given ``root`` state. Every random
draw, the engine's and the plugins', is a chance node; actions are numbered as OpenSpiel's
``liars_dice`` numbers them, then the call kinds, waiting (where calls are made out of turn) and
payload variants (:mod:`~liarsdice.openspiel.actions`); information states come from the players'
views only (:mod:`~liarsdice.openspiel.observers`). :class:`BotPolicy` plays liarsdice bots as
an OpenSpiel policy. See docs/openspiel.md.
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401 - fail here, with the way out, when OpenSpiel is missing
except ImportError as error:  # pragma: no cover - the dev group installs it
    raise ImportError(
        "liarsdice.openspiel needs OpenSpiel: pip install 'liarsdice-rules[openspiel]'"
    ) from error

from liarsdice.models import GameState
from liarsdice.openspiel.actions import ActionSpace, Wait
from liarsdice.openspiel.chance import ScriptedRandom
from liarsdice.openspiel.game import LiarsDiceGame, LiarsDiceState
from liarsdice.openspiel.play import Table
from liarsdice.openspiel.policies import BotPolicy
from liarsdice.openspiel.sizes import (
    MAX_ACTIONS,
    MAX_DRAWS,
    MAX_INFO_STATES,
    MAX_PAYLOADS,
    TableTooLarge,
    Unsupported,
    chance_outcome_bound,
    check_size,
    estimate_info_states,
    table_name,
)
from liarsdice.ruleset import Ruleset

__all__ = [
    "MAX_ACTIONS",
    "MAX_DRAWS",
    "MAX_INFO_STATES",
    "MAX_PAYLOADS",
    "BotPolicy",
    "LiarsDiceGame",
    "LiarsDiceState",
    "ScriptedRandom",
    "TableTooLarge",
    "Unsupported",
    "Wait",
    "estimate_info_states",
    "load",
]


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
    rules.check_table(players, dice)
    names = tuple(p.name for p in root.players) if root else tuple(f"p{i}" for i in range(players))
    living = players if root is None else len(root.alive)
    space = ActionSpace(rules, living * dice, max_payloads)
    in_play = players * dice if root is None else root.dice_in_play
    table = table_name(players, dice)
    check_size(rules, table, in_play, dice, space.size, max_info_states)
    limit = rules.move_limit(players, dice).moves
    return LiarsDiceGame(
        Table(rules, names, dice, space, limit, chance_outcome_bound(players)), root
    )
