"""Carrying out a connection's intents at a table: each is routed to the part whose job it is.

Contract: :func:`carry_out` runs under the table's lock (inside ``TableSession.handle``, which
answers every refusal with an ``error`` message). ``ping`` is answered with ``pong``; a second
``hello`` and any intent from a spectator are refused (``TableError``); ``start``, ``rematch``,
``bid`` and ``call`` go to the turn cycle (:class:`~liarsdice_demo.tables.game_loop.GameLoop`);
``kick`` (:func:`kick`) empties the seat (the seating), closes its tabs (the fan-out), logs it
(the match) and broadcasts; ``add_bot``, ``remove_bot`` and ``move_seat`` change the seats
before the start (:func:`add_bot`, :func:`remove_bot`, :func:`move_seat`: the seating's rules,
a log line, a broadcast); ``say`` logs a quick phrase (:mod:`.phrases`) and broadcasts;
nothing else changes the table. What they use of the table is
:class:`ActedTable`.
"""

from __future__ import annotations

from typing import Any, Protocol

from liarsdice.i18n import Catalog, Text
from liarsdice.models import NO_PAYLOAD, Action, Bid, BidAction, CallAction
from liarsdice_demo.edge.protocol import Intent, message
from liarsdice_demo.tables import phrases
from liarsdice_demo.tables.composition import TableConfig
from liarsdice_demo.tables.match import Match
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.seating import Seating
from liarsdice_demo.tables.table_errors import REMOVED, TableError
from liarsdice_demo.text import narrate

_, _n = Catalog(__name__).markers()


class Turns(Protocol):
    """What intents use of the table's turn cycle (a :class:`~.game_loop.GameLoop` is one)."""

    def host_start(self, seat: Seat) -> None: ...
    def rematch(self, seat: Seat) -> None: ...
    def act(self, action: Action) -> None: ...


class Dismissing(Protocol):
    """What intents use of the table's fan-out (a :class:`~.fanout.Fanout` is one)."""

    def dismiss(self, seat: Seat, reason: str | Text) -> None: ...


class ActedTable(Protocol):
    """What :func:`carry_out` uses of its table (a ``TableSession`` is one)."""

    @property
    def seating(self) -> Seating: ...
    @property
    def config(self) -> TableConfig: ...
    @property
    def match(self) -> Match: ...
    @property
    def loop(self) -> Turns: ...
    @property
    def fanout(self) -> Dismissing: ...
    def broadcast(self) -> None: ...


def carry_out(table: ActedTable, conn: Any, intent: Intent) -> None:
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
    elif intent.type == "add_bot":
        add_bot(table, seat, fields["seat"], fields["kind"])
    elif intent.type == "remove_bot":
        remove_bot(table, seat, fields["seat"])
    elif intent.type == "move_seat":
        move_seat(table, seat, fields["seat"])
    elif intent.type == "say":
        phrases.say(table.match, seat, fields["phrase"])
        table.broadcast()
    elif intent.type == "bid":
        bid = Bid(fields["quantity"], fields["face"])
        table.loop.act(BidAction(seat.name, bid, fields.get("payload") or NO_PAYLOAD))
    elif intent.type == "call":
        kind = fields["kind"]
        table.loop.act(CallAction(seat.name, kind, fields.get("payload") or NO_PAYLOAD))


def kick(table: ActedTable, host: Seat, index: int) -> None:
    """The host (``host``) empties seat ``index`` before the start: its tabs are told and closed,
    the log says so, and its player may not sit again."""
    target = table.seating.remove(host, index, table.match.status == "waiting")
    table.fanout.dismiss(target, REMOVED)
    table.match.log.append(_("The host removed {player}.", player=narrate.listing([target.name])))
    table.broadcast()


def add_bot(table: ActedTable, host: Seat, index: int, kind: str) -> None:
    """The host (``host``) puts a bot of ``kind`` in empty seat ``index`` before the start; the
    log says so."""
    waiting = table.match.status == "waiting"
    bot = table.seating.add_bot(host, index, kind, table.config.rules, waiting)
    table.match.log.append(_("The host added a bot: {player}.", player=narrate.listing([bot.name])))
    table.broadcast()


def remove_bot(table: ActedTable, host: Seat, index: int) -> None:
    """The host (``host``) takes the bot in seat ``index`` away before the start; the log says
    so."""
    bot = table.seating.remove_bot(host, index, table.match.status == "waiting")
    line = _("The host took a bot away: {player}.", player=narrate.listing([bot.name]))
    table.match.log.append(line)
    table.broadcast()


def move_seat(table: ActedTable, seat: Seat, index: int) -> None:
    """``seat``'s player moves to empty seat ``index`` before the start; the log says so."""
    table.seating.move(seat, index, table.match.status == "waiting")
    table.match.log.append(
        _("{player} moved to seat {number}.", player=seat.name, number=index + 1)
    )
    table.broadcast()
