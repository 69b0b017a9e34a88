"""A newcomer's grace: a bot makes the move the first time a human's clock runs out in a game.

At a table that forgives a first timeout (the lobby's quick game), that move is not ruled as a
timeout.

Contract: :func:`forgive` answers for the seat whose clock ran out: the log line to show (the
table then lets the seat's bot play the turn, :func:`liarsdice_demo.tables.bot_driver.play_turn`)
when the table's config has ``forgive_first_timeout`` and this human has not been forgiven in
this game yet; ``None`` otherwise (the timeout is ruled as the rules say). ``Seat.forgiven`` is
stored with the seat, sent in every state (``table.seats[].forgiven``: the table page warns that
player in their banner) and cleared for each new game (:meth:`.GameLoop.new_game`).
"""

from __future__ import annotations

from liarsdice.i18n import Catalog, Text
from liarsdice_demo.tables.bot_driver import new_bot
from liarsdice_demo.tables.composition import TableConfig
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.stand_in import BOT_KIND

_, _n = Catalog(__name__).markers()


def forgive(seat: Seat, config: TableConfig) -> Text | None:
    """The log line when ``seat``'s timeout is forgiven now (a bot is ready to play the turn), or
    ``None`` when it counts."""
    if not config.forgive_first_timeout or seat.kind != "human" or seat.forgiven:
        return None
    seat.forgiven = True
    if seat.bot is None:
        seat.bot = new_bot(config.bot_kind or BOT_KIND, config.rules)
    return _(
        "{player}: time ran out, and a bot made this move. Only the first time: the next "
        "timeout counts as the rules say.",
        player=seat.name,
    )
