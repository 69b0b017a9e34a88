"""Carrying out a connection's intents at a table: each is routed to the part whose job it is.

Contract: :func:`carry_out` runs under the table's lock (inside ``TableSession.handle``, which
answers every refusal with an ``error`` message). ``ping`` is answered with ``pong``; a second
``hello`` and any intent from a spectator are refused (``TableError``); ``start``, ``rematch``,
``bid`` and ``call`` go to the turn cycle (:class:`~liarsdice_demo.game_loop.GameLoop`), ``kick``
to the seating; nothing else changes the table.
"""

from __future__ import annotations

from typing import Any

from liarsdice.i18n import Catalog
from liarsdice.models import NO_PAYLOAD, Bid, BidAction, CallAction
from liarsdice_demo.protocol import Intent, message
from liarsdice_demo.seat import Seat
from liarsdice_demo.table_errors import TableError

_, _n = Catalog(__name__).markers()


def carry_out(table: Any, conn: Any, intent: Intent) -> None:
    """Do what ``intent`` from ``conn`` asks at ``table`` (a ``TableSession``), or raise
    ``TableError`` (or the engine's ``IllegalAction``) and change nothing."""
    if intent.type == "ping":
        conn.send(message("pong", id=intent.id))
        return
    if intent.type == "hello":
        raise TableError(_("already greeted: one hello per connection"))
    seat = table.seating.seats[conn.seat] if conn.seat is not None else None
    if seat is None:
        raise TableError(_("spectators cannot act: take a seat first"))
    fields = intent.fields
    if intent.type == "start":
        table.loop.host_start(seat)
    elif intent.type == "rematch":
        table.loop.rematch(seat)
    elif intent.type == "kick":
        kick(table, seat, fields["seat"])
    elif intent.type == "bid":
        bid = Bid(fields["quantity"], fields["face"])
        table.loop.act(BidAction(seat.name, bid, fields.get("payload") or NO_PAYLOAD))
    elif intent.type == "call":
        kind = fields["kind"]
        table.loop.act(CallAction(seat.name, kind, fields.get("payload") or NO_PAYLOAD))


def kick(table: Any, host: Seat, index: int) -> None:
    """The host (``host``) empties seat ``index`` before the start: its tabs are told and closed,
    the log says so, and its player may not sit again."""
    target = table.seating.remove(host, index, table.match.status == "waiting")
    table.fanout.dismiss(target, _("the host removed you from this table"))
    table.match.log.append(_("The host removed {player}.", player=target.name))
    table._broadcast()
