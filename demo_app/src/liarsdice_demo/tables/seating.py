"""Who sits where at a table: its seats, their secret tokens, who may sit, and who was removed.

Contract: :class:`Seating` is plain state with the rules of seating; it takes no lock, stores
nothing and sends nothing (the table calls it under its own lock, then stores and broadcasts).
Taking a seat at a private table needs its join key (compared in constant time); a player the
host removed may not sit again; before the start the host may put a bot of any installed kind in
an empty seat and take it away, and a seated player may move to an empty seat; a seat keeps
only the digests of its newest :data:`MAX_TOKENS_PER_SEAT` tokens. Names at a table are unique,
but a seat is never found by its name: each new occupant gets a new generation
(:attr:`Seating.generation`), and a seat is found by its token or its generation, so a newcomer
under a removed player's name is another seat.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from typing import Any

from liarsdice.bots import bot_kinds, by_level
from liarsdice.i18n import Catalog, Text
from liarsdice.ruleset import Ruleset
from liarsdice_demo.tables.bot_driver import new_bot
from liarsdice_demo.tables.seat import Seat, digest
from liarsdice_demo.tables.table_errors import BANNED, PRIVATE, Forbidden, TableError
from liarsdice_demo.text import narrate
from liarsdice_demo.text.names import lookalike

BOT_NAMES = ("Ada", "Boris", "Cleo", "Dmitri", "Esme", "Felix")
MAX_TOKENS_PER_SEAT = 8
"""Seat tokens kept per seat (one is handed out per page load or seat request): the oldest go."""

_, _n = Catalog(__name__).markers()


class Seating:
    """The seats of one table (``None``: empty), its host, its join key and its removed players."""

    def __init__(self, count: int, host_player: int | None, public: bool = False) -> None:
        self.seats: list[Seat | None] = [None] * count
        self.host_player = host_player
        self.public = public
        """Listed in the lobby, and anyone with the code may sit (else only with the join key)."""
        self.join_key = secrets.token_urlsafe(12)
        """The share link's secret: needed to sit at a private table. Never sent on a socket."""
        self.banned: set[int] = set()
        """Players the host removed: they may not sit here again."""
        self.generation = 0
        """The last generation given to a new occupant of a seat (stored with the table)."""

    def new_generation(self) -> int:
        """A generation no seat of this table had before, for a new occupant."""
        self.generation += 1
        return self.generation

    def admits(self, key: object) -> bool:
        """True when ``key`` lets a newcomer sit: any key at a public table, else the join key
        (compared in constant time, as UTF-8 bytes)."""
        if self.public:
            return True
        if not isinstance(key, str):
            return False
        given = key.encode("utf-8", "surrogatepass")
        return hmac.compare_digest(self.join_key.encode("utf-8"), given)

    def refusal(self, player_id: int | None, key: object) -> Text | None:
        """Why ``player_id`` (``None``: a newcomer) with ``key`` may not sit here, or ``None``
        (the host, and a player already seated, need no key)."""
        if player_id is not None and player_id == self.host_player:
            return None
        if player_id is not None and self.seat_of(player_id) is not None:
            return None
        if player_id in self.banned:
            return BANNED
        return None if self.admits(key) else PRIVATE

    def seat_of(self, player_id: int | None) -> Seat | None:
        """The human seat held by ``player_id``, if any."""
        for seat in self.seats:
            if seat is not None and seat.kind == "human" and seat.player_id == player_id:
                return seat
        return None

    def by_token(self, token: str) -> Seat | None:
        """The seat one of whose tokens is ``token``, if any."""
        return next((seat for seat in self.seats if seat is not None and seat.holds(token)), None)

    def named(self, name: str) -> Seat | None:
        """The seat called ``name``, if any."""
        return next((seat for seat in self.seats if seat is not None and seat.name == name), None)

    def of_generation(self, generation: int) -> Seat | None:
        """The seat whose occupant has ``generation``, if it still sits here."""
        found = (s for s in self.seats if s is not None and s.generation == generation)
        return next(found, None)

    def name_refusal(self, player_id: int | None, nickname: str) -> Text | None:
        """Why ``player_id`` may not sit here as ``nickname``: it passes for the name of another
        seat (:func:`~liarsdice_demo.text.names.lookalike`); ``None`` when it does not."""
        mine = self.seat_of(player_id)
        names = [seat.name for seat in self.seats if seat is not None and seat is not mine]
        other = lookalike(nickname, names)
        if other is None:
            return None
        return _(
            "the name {name} looks like {other}, who sits at this table: choose another",
            name=nickname,
            other=other,
        )

    def take(self, player_id: int, nickname: str, key: object, waiting: bool) -> Seat:
        """Put ``player_id`` in the first free seat, under a name no other seat has.
        :class:`Forbidden` without the key of a private table or for a removed player;
        ``TableError`` once the game has started (``waiting`` false), with no free seat, or for
        a name that passes for another seat's (:meth:`name_refusal`)."""
        refused = self.refusal(player_id, key)
        if refused is not None:
            raise Forbidden(refused)
        lookalike_name = self.name_refusal(player_id, nickname)
        if lookalike_name is not None:
            raise TableError(lookalike_name)
        if not waiting:
            raise TableError(_("the game has started: you can watch, and sit at the next table"))
        free = [i for i, seat in enumerate(self.seats) if seat is None]
        if not free:
            raise TableError(_("every seat at this table is taken"))
        seat = Seat(free[0], self.unique(nickname), "human", player_id)
        seat.generation = self.new_generation()
        self.seats[seat.index] = seat
        return seat

    def renamed(self, nickname: str, seat: Seat) -> Text | None:
        """The log line for ``seat``, taken under ``nickname`` but seated under another name
        because a seat had it (:meth:`unique`); ``None`` when the name was free."""
        if seat.name == nickname:
            return None
        return _(
            "The name {name} was taken: {seated} sits at the table", name=nickname, seated=seat.name
        )

    def add_token(self, generation: int, token: str) -> None:
        """Keep the digest of ``token`` in the seat of ``generation`` (its oldest tokens beyond
        :data:`MAX_TOKENS_PER_SEAT` go); :class:`Forbidden` when that occupant no longer sits
        here (the host removed them)."""
        held = self.of_generation(generation)
        if held is None:
            raise Forbidden(BANNED)
        held.token_hashes = [*held.token_hashes[1 - MAX_TOKENS_PER_SEAT :], digest(token)]

    def unique(self, name: str) -> str:
        """``name``, or ``name 2``, ``name 3``...: the first no seat has."""
        taken = {seat.name for seat in self.seats if seat is not None}
        candidate, n = name, 2
        while candidate in taken:
            candidate, n = f"{name} {n}", n + 1
        return candidate

    def fill_with_bots(self, kind: str | None, rules: Ruleset) -> None:
        """Give each empty seat a bot of ``kind`` (``None``: drop the empty seats), then number
        the seats again from 0 (their sockets follow)."""
        for index, seat in enumerate(self.seats):
            if seat is None and kind is not None:
                self.seats[index] = self._bot_seat(index, kind, rules)
        self.seats = [seat for seat in self.seats if seat is not None]
        for index, seat in enumerate(self.seats):
            assert seat is not None
            seat.index = index
            for conn in seat.conns:
                conn.seat = index

    def _bot_seat(self, index: int, kind: str, rules: Ruleset) -> Seat:
        """A new bot of ``kind`` for seat ``index``, named after the seat ("Ada (bot)")."""
        name = self.unique(BOT_NAMES[index] + narrate.BOT_SUFFIX)
        bot = new_bot(kind, rules)
        generation = self.new_generation()
        return Seat(index, name, "bot", None, bot_kind=kind, bot=bot, generation=generation)

    def add_bot(self, host: Seat, index: int, kind: str, rules: Ruleset, waiting: bool) -> Seat:
        """The host (``host``) puts a bot of ``kind`` (an installed kind: the lobby offers them
        all) in empty seat ``index`` before the start (``waiting``). ``TableError`` for anyone
        else, after the start, for an unknown kind, a seat the table lacks or a taken one.
        Returns the bot's seat."""
        self._host_before_start(host, waiting)
        if kind not in bot_kinds():
            raise TableError(
                _(
                    "unknown bot kind {kind!r}: choose one of {kinds}",
                    kind=kind,
                    kinds=", ".join(by_level(bot_kinds())),
                )
            )
        self._free(index)
        seat = self.seats[index] = self._bot_seat(index, kind, rules)
        return seat

    def remove_bot(self, host: Seat, index: int, waiting: bool) -> Seat:
        """The host (``host``) takes the bot in seat ``index`` away before the start
        (``waiting``): the seat is empty again. ``TableError`` for anyone else, after the start,
        or for a seat that holds no bot. Returns the bot's seat."""
        self._host_before_start(host, waiting)
        target = self._at(index)
        if target is None or target.kind != "bot":
            raise TableError(_("there is no bot in that seat"))
        self.seats[index] = None
        return target

    def move(self, seat: Seat, index: int, waiting: bool) -> None:
        """``seat``'s player moves to empty seat ``index`` before the start (``waiting``); their
        sockets follow. ``TableError`` after the start, for the seat they sit in, a seat the table
        lacks or a taken one."""
        if not waiting:
            raise TableError(_("seats can only be changed before the game starts"))
        if index == seat.index:
            raise TableError(_("you already sit in that seat"))
        self._free(index)
        self.seats[seat.index], self.seats[index] = None, seat
        seat.index = index
        for conn in seat.conns:
            conn.seat = index

    def _host_before_start(self, host: Seat, waiting: bool) -> None:
        """``TableError`` unless ``host`` is the table's host and the game has not started."""
        if host.player_id != self.host_player:
            raise TableError(_("only the table's host can add or remove bots"))
        if not waiting:
            raise TableError(_("bots can only be added or removed before the game starts"))

    def _at(self, index: int) -> Seat | None:
        """The seat at ``index`` (``None``: empty); ``TableError`` when the table has no such
        seat."""
        if not 0 <= index < len(self.seats):
            raise TableError(_("there is no such seat at this table"))
        return self.seats[index]

    def _free(self, index: int) -> None:
        """``TableError`` unless seat ``index`` exists and is empty."""
        if self._at(index) is not None:
            raise TableError(_("that seat is taken"))

    def remove(self, host: Seat, index: int, waiting: bool) -> Seat:
        """The host (``host``) empties seat ``index`` before the start (``waiting``); its player
        may not sit again. ``TableError`` for anyone else, after the start, for the host's own
        seat or an empty one. Returns the removed seat."""
        if host.player_id != self.host_player:
            raise TableError(_("only the table's host can remove a player"))
        if not waiting:
            raise TableError(_("players can only be removed before the game starts"))
        if index == host.index:
            raise TableError(_("the host cannot remove their own seat"))
        target = self.seats[index] if 0 <= index < len(self.seats) else None
        if target is None:
            raise TableError(_("that seat is empty"))
        self.seats[index] = None
        if target.player_id is not None:
            self.banned.add(target.player_id)
        return target

    def all_want_rematch(self) -> bool:
        """True when every human with a socket open (every human, if none has) asked for a
        rematch."""
        humans = [s for s in self.seats if s is not None and s.kind == "human"]
        present = [s for s in humans if s.present] or humans
        return all(s.rematch for s in present)

    def mark(self, generation: int, node: str) -> None:
        """Record in the seat of ``generation`` (if it still sits here) whether process ``node``
        holds sockets of it (its ``conns`` are this process's)."""
        seat = self.of_generation(generation)
        if seat is not None and bool(seat.conns) != (node in seat.nodes):
            if seat.conns:
                seat.nodes.append(node)
            else:
                seat.nodes.remove(node)

    def keep_nodes(self, alive: Callable[[str], bool]) -> None:
        """Forget, in every seat, the processes for which ``alive(node)`` is false."""
        for seat in self.seats:
            if seat is not None:
                seat.nodes = [node for node in seat.nodes if alive(node)]

    def to_data(self) -> list[dict[str, Any] | None]:
        """The seats as the store keeps them."""
        return [seat.to_data() if seat is not None else None for seat in self.seats]

    def load(
        self, seats: list[dict[str, Any] | None], generation: int, rules: Ruleset
    ) -> list[Seat]:
        """Seats from the store, and the last ``generation`` given; each keeps the bot and
        sockets of the seat of its generation here (never of its name), a new bot seat gets a
        new bot. Returns the seats whose occupant is gone (the host removed them, whoever sits
        there now): the caller closes their sockets."""
        before = {seat.generation: seat for seat in self.seats if seat is not None}
        loaded: list[Seat | None] = []
        for data in seats:
            if data is None:
                loaded.append(None)
                continue
            # seats stored before generations: one each, the same in every process
            seat = Seat(**{"generation": -1 - data["index"], **data})
            old = before.pop(seat.generation, None)
            if old is not None:
                seat.bot, seat.conns = old.bot, old.conns
                for conn in seat.conns:
                    conn.seat = seat.index
            elif seat.bot_kind is not None:
                seat.bot = new_bot(seat.bot_kind, rules)
            loaded.append(seat)
        self.seats = loaded
        self.generation = generation
        return list(before.values())
