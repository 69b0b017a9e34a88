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

from liarsdice.openspiel.actions import Wait
from liarsdice.openspiel.chance import ScriptedRandom
from liarsdice.openspiel.game import LiarsDiceGame, LiarsDiceState, load
from liarsdice.openspiel.policies import BotPolicy
from liarsdice.openspiel.registry import register
from liarsdice.openspiel.sizes import (
    MAX_ACTIONS,
    MAX_DRAWS,
    MAX_INFO_STATES,
    MAX_PAYLOADS,
    TableTooLarge,
    Unsupported,
    estimate_info_states,
)

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


register()
