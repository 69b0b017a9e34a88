"""The bots at a table: a bot for each bot seat, its move on its turn, its calls out of turn.

Contract: a bot sees only what its seat may see (``Game.view`` of its own name), like any player;
a move the engine refuses forfeits the bot's turn (a time-out) instead of stalling the table.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from liarsdice import engine
from liarsdice.bots import bot_kinds, interjection, make_bot
from liarsdice.bots.mixed_bot import MixedBot
from liarsdice.errors import IllegalAction
from liarsdice.game import Game
from liarsdice.models import Action, TimeoutAction
from liarsdice.ruleset import Ruleset
from liarsdice_demo.tables.endgames import solve_later
from liarsdice_demo.tables.seat import Seat


def new_bot(kind: str, rules: Ruleset) -> Any:
    """A bot of ``kind`` for ``rules``, with its own random stream. The hard bot plays only the
    solved endgames already kept, and has the others solved in the background
    (:mod:`liarsdice_demo.tables.endgames`), so no table waits for a solver."""
    rng = Random(secrets.randbits(64))
    if bot_kinds().get(kind) is MixedBot:
        return MixedBot(
            rules, rng, endgames="cached", on_miss=functools.partial(solve_later, rules)
        )
    return make_bot(kind, rules, rng)


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


def out_of_turn(seats: Sequence[Seat | None], game: Game) -> Action | None:
    """The call a bot makes out of turn now, if one does: the bots that may (clockwise from the
    player on turn) are asked in turn (their bot's ``interject``, from their own view); the
    first call is the one made. ``None`` when no bot calls."""
    bots = {seat.name: seat for seat in seats if seat is not None and seat.kind == "bot"}
    callers = dict.fromkeys(
        call.player for call in engine.out_of_turn_calls(game.rules, game.state)
    )
    for name in callers:
        seat = bots.get(name)
        action = interjection(seat.bot, game.view(name)) if seat is not None else None
        if action is not None:
            return action
    return None
