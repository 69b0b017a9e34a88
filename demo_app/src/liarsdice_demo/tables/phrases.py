"""Quick phrases: a seated player says one of a few set phrases to the table (no free chat).

Contract: :data:`PHRASES` maps each phrase's id (what a ``say`` intent names) to its words, read
in each reader's language; :func:`say` adds "Iris: «Nice bid!»" to the table's log, or raises
``TableError`` for a phrase that is not one of them, or when the seat spoke less than
:data:`GAP_SECONDS` ago (so the log, which keeps the table's last lines, is not flooded). The
caller broadcasts. A phrase is not a move: it is allowed whenever a seat is held, at any point
of the game, and changes nothing else.
"""

from __future__ import annotations

import time

from liarsdice.i18n import Catalog, Text
from liarsdice_demo.tables.match import Match
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.table_errors import TableError

_, _n = Catalog(__name__).markers()

PHRASES: dict[str, Text] = {
    "hello": _("Hello!"),
    "good-luck": _("Good luck!"),
    "nice": _("Nice one!"),
    "bluff": _("I smell a bluff…"),
    "think": _("Let me think…"),
    "oops": _("Oops!"),
    "good-game": _("Good game!"),
    "rematch": _("Rematch?"),
}
"""Each phrase's id and its words."""

GAP_SECONDS = 3.0
"""A seat says at most one phrase in this many seconds."""


def say(match: Match, seat: Seat, phrase: str, now: float | None = None) -> None:
    """Log ``seat``'s ``phrase`` (an id of :data:`PHRASES`) at ``now`` (monotonic seconds), or
    raise ``TableError`` and log nothing."""
    words = PHRASES.get(phrase)
    if words is None:
        raise TableError(
            _("unknown phrase {phrase!r}: say one of {ids}", phrase=phrase, ids=", ".join(PHRASES))
        )
    now = time.monotonic() if now is None else now
    if seat.said_at is not None and now - seat.said_at < GAP_SECONDS:
        raise TableError(_("one phrase every {n} seconds: wait a moment", n=int(GAP_SECONDS)))
    seat.said_at = now
    match.log.append(_("{player}: «{phrase}»", player=seat.name, phrase=words))
