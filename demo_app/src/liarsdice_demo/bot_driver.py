"""The bots at a table: a fresh bot for each bot seat, and the move one makes on its turn.

Contract: a bot sees only what its seat may see (``Game.view`` of its own name), like any player;
a move the engine refuses forfeits the bot's turn (a time-out) instead of stalling the table.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from random import Random
from typing import Any

from liarsdice.bots import make_bot
from liarsdice.errors import IllegalAction
from liarsdice.game import Game
from liarsdice.models import Action, TimeoutAction
from liarsdice.ruleset import Ruleset
from liarsdice_demo.seat import Seat


def new_bot(kind: str, rules: Ruleset) -> Any:
    """A bot of ``kind`` for ``rules``, with its own random stream."""
    return make_bot(kind, rules, Random(secrets.randbits(64)))


def play_turn(
    seat: Seat,
    game: Game,
    apply: Callable[[Action, float | None], None],
    due: float | None = None,
) -> None:
    """Let the bot of ``seat`` (whose turn it is) decide from its own view and ``apply(move,
    due)`` it (``due``: when the move was scheduled, for latency figures); if the engine refuses
    it (``IllegalAction``), ``apply`` its time-out instead (with no due time)."""
    action = seat.bot.decide(game.view(seat.name))
    try:
        apply(action, due)
    except IllegalAction:
        apply(TimeoutAction(seat.name), None)  # a bot that breaks the rules forfeits its turn
