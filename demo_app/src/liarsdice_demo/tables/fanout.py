"""Who gets which message at a table: each seat its own state, spectators the public one.

Contract (privacy): :meth:`Fanout.state_for` is the only way a table's state reaches a
connection. It holds the engine's view for that seat (``Game.view``: no dice but the seat's own
and the dice put face up, no private plugin state but its own); a spectator gets the public
view. Legal moves, and the payloads a seat may send with them, are offered only to the seat whose
turn it is. Besides states, connections get only the announcements queued in
:attr:`Fanout.announce` (the reveal after a call, which is public by the rules, and a ``stopped``
notice). Every message is encoded once per language its readers use (:func:`send_each`). This
module takes no lock and stores nothing: the table calls it under its lock, after storing.
"""

from __future__ import annotations

import time
from typing import Any

from liarsdice import engine
from liarsdice.i18n import Catalog, Text
from liarsdice.models import Bid, BidAction, CallAction, GameState
from liarsdice.serialization import to_data
from liarsdice_demo.edge.protocol import encode, message
from liarsdice_demo.tables.clock import TurnClock
from liarsdice_demo.tables.composition import TableConfig
from liarsdice_demo.tables.match import Match
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.seating import Seating
from liarsdice_demo.tables.summary import of as summary_of
from liarsdice_demo.tables.table_errors import KICKED, REPLACED, TableError

MAX_SPECTATORS = 200
MAX_CONNS_PER_SEAT = 3
WATCHERS_NAMED = 20
"""The most watchers a state names (all are counted)."""

_, _n = Catalog(__name__).markers()


class Fanout:
    """The connections of one table (seats' tabs and spectators) and what each is sent."""

    def __init__(
        self,
        code: str,
        config: TableConfig,
        seating: Seating,
        match: Match,
        clock: TurnClock,
        hub: Any,
    ) -> None:
        self.code = code
        self.config = config
        self.seating = seating
        self.match = match
        self.clock = clock
        """The turn's clock: its ``remaining()`` seconds are in every state."""
        self.hub = hub
        """Provides ``record_latency``."""
        self.spectators: set[Any] = set()
        self.announce: list[dict[str, Any]] = []
        """Messages for every connection, sent (after the store's commit) by the next broadcast."""
        self.timing: list[float] = []
        """Stamps of actions (monotonic) waiting for their broadcast: for the load benchmark."""

    # --- connections -----------------------------------------------------------------------------

    def join(self, conn: Any, seat: Seat | None) -> None:
        """Add ``conn`` to ``seat``'s tabs (its oldest tab is closed, code :data:`REPLACED`, when
        it has :data:`MAX_CONNS_PER_SEAT`) or, for ``None``, to the spectators (``TableError``
        when there are :data:`MAX_SPECTATORS`)."""
        if seat is None:
            if len(self.spectators) >= MAX_SPECTATORS:
                raise TableError(_("this table has as many spectators as it can take"))
            self.spectators.add(conn)
        else:
            if len(seat.conns) >= MAX_CONNS_PER_SEAT:
                oldest = next(iter(seat.conns))
                del seat.conns[oldest]
                oldest.abandon(REPLACED, "this seat is open in another tab: this one was closed")
            seat.conns[conn] = None
        conn.seat = seat.index if seat else None

    def welcome(self, conn: Any, seat: Seat | None) -> None:
        """Send ``conn`` its ``welcome`` (the table's code, its seat and name, the rules)."""
        conn.send(
            message(
                "welcome",
                code=self.code,
                seat=conn.seat,
                name=seat.name if seat else None,
                config=self.config.summary(conn.locale),
            )
        )

    def leave(self, conn: Any) -> Seat | None:
        """Forget ``conn``; the seat it was a tab of, if any."""
        self.spectators.discard(conn)
        for seat in self.seating.seats:
            if seat is not None and conn in seat.conns:
                del seat.conns[conn]
                return seat
        return None

    def connections(self) -> list[Any]:
        """Every connection: the seats' tabs, then the spectators."""
        seated = [conn for seat in self.seating.seats if seat is not None for conn in seat.conns]
        return [*seated, *self.spectators]

    def count(self) -> int:
        """How many connections the table has."""
        seated = sum(len(seat.conns) for seat in self.seating.seats if seat is not None)
        return seated + len(self.spectators)

    def watchers(self) -> dict[str, Any]:
        """The spectators of this process's sockets, as ``table.watchers`` shows them: how many,
        and the nicknames of those the server knows (one name however many tabs, sorted, at most
        :data:`WATCHERS_NAMED`); a seated player's own spectator tab is not a watcher."""
        seated = {seat.name for seat in self.seating.seats if seat is not None}
        known = [getattr(conn, "nickname", None) for conn in self.spectators]
        names = sorted({name for name in known if name} - seated, key=str.casefold)
        guests = known.count(None)
        return {"count": len(names) + guests, "names": names[:WATCHERS_NAMED]}

    def close_all(self, code: int, reason: str) -> None:
        """Close every connection with ``code``."""
        for conn in self.connections():
            conn.abandon(code, reason)

    def dismiss(self, seat: Seat, reason: str | Text) -> None:
        """Tell the tabs of a removed ``seat`` (``kicked``) and close them (:data:`KICKED`)."""
        for conn in list(seat.conns):
            conn.send(message("kicked", seat=seat.index, reason=reason))
            conn.seat = None
            said = reason.render(conn.locale) if isinstance(reason, Text) else reason
            conn.abandon(KICKED, said)

    # --- messages --------------------------------------------------------------------------------

    def broadcast(self) -> None:
        """Send every connection the announcements waiting (a reveal, a stop) and its own state;
        the caller has stored the table first."""
        announce, self.announce = self.announce, []
        seats, spectators = self.seating.seats, self.spectators
        everyone = [conn for seat in seats if seat is not None for conn in seat.conns]
        for data in announce:
            send_each(data, [*everyone, *spectators])
        for seat in seats:
            if seat is not None and seat.conns:
                send_each(self.state_for(seat), list(seat.conns))  # once for the seat's tabs
        if spectators:
            send_each(self.state_for(None), list(spectators))
        if self.timing:
            self.hub.record_latency([time.monotonic() - stamp for stamp in self.timing])
            self.timing.clear()

    def table_data(self) -> dict[str, Any]:
        """The public ``table`` part of every state."""
        match, host = self.match, self.seating.host_player
        return {
            "code": self.code,
            "status": match.status,
            "seats": [
                seat.public(seat.kind == "human" and seat.player_id == host)
                if seat is not None
                else None
                for seat in self.seating.seats
            ],
            "turn_seconds": self.config.turn_seconds,
            "remaining": self.clock.remaining(),
            "game_id": match.game_id,
            "ratings": match.ratings,
            "stopped": match.stopped,
            "summary": summary_of(match),
            "watchers": self.watchers(),
        }

    def state_for(self, seat: Seat | None) -> dict[str, Any]:
        """The state message for ``seat`` (``None``: a spectator): its own view only."""
        match = self.match
        game = match.game
        view = legal = None
        if game is not None:
            name = seat.name if seat is not None else None
            view = to_data(game.view(name))
            state = game.state
            if (
                name is not None
                and match.status == "playing"
                and state.round is not None
                and state.round.turn == name
                and not state.round.over
            ):
                rules = self.config.rules
                bids = engine.legal_bids(rules, state, name)
                calls = engine.legal_calls(rules, state, name)
                legal = {
                    "bids": [[b.quantity, b.face] for b in bids],
                    "calls": calls,
                    "payloads": self.payloads(state, name, bids, calls),
                }
            elif name is not None and match.status == "playing":
                legal = self.out_of_turn(state, name)
        return message(
            "state",
            table=self.table_data(),
            seat=seat.index if seat is not None else None,
            view=view,
            legal=legal,
            reveal=match.reveal,
            log=match.log,
            log_dropped=match.log.dropped,
        )

    def out_of_turn(self, state: GameState, name: str) -> dict[str, Any] | None:
        """What ``name``, not on turn, may do now: the calls the rules let be made out of turn
        (``calza.anyone``'s exact), with ``"out_of_turn": true``; ``None`` when there are none."""
        rules = self.config.rules
        if not rules.out_of_turn:
            return None
        calls = [
            call.kind for call in engine.out_of_turn_calls(rules, state) if call.player == name
        ]
        if not calls:
            return None
        return {
            "bids": [],
            "calls": calls,
            "payloads": self.payloads(state, name, [], calls),
            "out_of_turn": True,
        }

    def payloads(
        self, state: GameState, name: str, bids: list[Bid], calls: list[str]
    ) -> dict[str, dict[str, list[Any]]]:
        """The payloads on offer to ``name`` on their turn: for ``"bid"`` and each legal call
        kind that some plugin reads a payload of, ``{plugin: [values it would accept now]}``
        (``engine.payload_choices``). Bid payloads are asked for the lowest legal bid; the engine
        re-checks the payload with the bid actually sent."""
        rules = self.config.rules
        actions: list[BidAction | CallAction] = [CallAction(name, kind) for kind in calls]
        if bids:
            actions.insert(0, BidAction(name, bids[0]))
        offered: dict[str, dict[str, list[Any]]] = {}
        for action in actions:
            key = "bid" if isinstance(action, BidAction) else action.kind
            if not rules.payload_readers.get(key):
                continue
            choices = engine.payload_choices(rules, state, action)
            if choices:
                offered[key] = choices
        return offered


def send_each(data: dict[str, Any], conns: list[Any]) -> None:
    """Send ``data`` to each of ``conns``, encoded once per language they read."""
    encoded: dict[str, str] = {}
    for conn in conns:
        text = encoded.get(conn.locale)
        if text is None:
            text = encoded[conn.locale] = encode(data, conn.locale)
        conn.send(text)
