"""A bot standing in for an away player: when it plays, and the words the table log says.

Contract: a seated human whose sockets are all gone (``Seat.present`` false) is *away*. When
their turn comes while they are away, or they go away on their turn, the process that drives the
table plays that turn for them with a bot (:func:`liarsdice_demo.tables.bot_driver.play_turn`) after
:func:`grace` seconds (``AWAY_GRACE``); from then on ``Seat.stand_in`` is true (stored with the
seat) and the bot plays each of their turns after the usual bot delay, until a socket of theirs
opens again. Coming back during the grace plays nothing for them. The rating of such a game is
the human's (docs/protocol.md, "Away players").
"""

from __future__ import annotations

from typing import Any

from liarsdice.i18n import Catalog, Text
from liarsdice.ruleset import Ruleset
from liarsdice_demo.tables.bot_driver import new_bot
from liarsdice_demo.tables.seat import Seat

_, _n = Catalog(__name__).markers()

SETTING = "AWAY_GRACE"
DEFAULT_GRACE = 4.0
"""Seconds an away player's turn waits before a bot plays it (far below the turn timer)."""
BOT_KIND = "odds"
"""The bot that stands in at a table that has no bot kind of its own."""


def grace(settings: Any) -> float:
    """The grace before a bot first plays for an away player (``AWAY_GRACE``, else the default)."""
    return float(settings.get(SETTING, DEFAULT_GRACE))


def delay(seat: Seat, settings: Any) -> float:
    """Seconds before the bot plays ``seat``'s turn: the grace at first, the bot delay after."""
    return float(settings["BOT_DELAY"]) if seat.stand_in else grace(settings)


def take_over(seat: Seat, rules: Ruleset, kind: str | None) -> Text | None:
    """Let a bot (of ``kind``, else :data:`BOT_KIND`) play for ``seat``; the log line to add when
    it starts standing in now, ``None`` when it already was."""
    if seat.bot is None:
        seat.bot = new_bot(kind or BOT_KIND, rules)
    if seat.stand_in:
        return None
    seat.stand_in = True
    return _("{player} is away: a bot plays for them", player=seat.name)


def hand_back(seat: Seat) -> Text | None:
    """``seat``'s player is back: the log line when a bot was standing in, else ``None``."""
    if not seat.stand_in:
        return None
    seat.stand_in = False
    return _("{player} is back", player=seat.name)
