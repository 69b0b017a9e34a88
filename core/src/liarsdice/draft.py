"""A game state held open for change: its fields, its frozen snapshot and the reads of it.

:class:`DraftState` holds what :class:`~liarsdice.reducer.Draft` folds events into: the fields of
a :class:`~liarsdice.models.GameState`, its round flattened, and the caches that make
:meth:`~DraftState.freeze` and the seat reads cheap. Changing it is the reducer's job.
"""

from __future__ import annotations

from collections.abc import Mapping

from liarsdice.models import (
    JSON,
    Bid,
    GameState,
    PlacedBid,
    PlayerState,
    Resolution,
    RoundState,
    Sight,
)

__all__ = ["DraftState"]


class DraftState:
    """The fields of a game state, open for change, and the reads of them.

    The fields mirror :class:`~liarsdice.models.GameState` and, flattened, its round (``number``
    is 0 before the first round). :meth:`freeze` gives the frozen state, rebuilding only the parts
    (seats, round, game) changed since the last freeze; a change must say which part it touched
    (:meth:`_round_changed`, :meth:`_seat_changed`, or ``_state = None`` for the game's own
    fields). Treat the fields as read only outside the subclass that folds events.
    """

    __slots__ = (
        "_players_state",
        "_ring",
        "_round_state",
        "_seats",
        "_state",
        "_table",
        "bids",
        "dice_in_play",
        "dice_per_player",
        "next_opener",
        "number",
        "opener",
        "players",
        "plugins",
        "private",
        "resolution",
        "rolls",
        "shown",
        "sights",
        "turn",
        "winners",
    )

    def __init__(self, state: GameState) -> None:
        """A draft of ``state``; freezing it unchanged gives ``state`` itself."""
        self._load(state)

    def _load(self, state: GameState) -> None:
        self.players = list(state.players)
        self.dice_per_player = state.dice_per_player
        self.next_opener = state.next_opener
        self.winners = state.winners
        self.plugins = state.plugins
        self._load_round(state.round)
        self._state: GameState | None = state
        self._players_state: tuple[PlayerState, ...] | None = state.players
        self._round_state = state.round
        self._seats: dict[str, int] | None = None
        self._ring: dict[str, str] | None = None
        self._table: tuple[tuple[str, ...], int] | None = None

    def _load_round(self, round_: RoundState | None) -> None:
        if round_ is None:
            self.number, self.opener, self.turn, self.dice_in_play = 0, "", "", 0
            self.rolls: Mapping[str, tuple[int, ...]] = {}
            self.bids: tuple[PlacedBid, ...] = ()
            self.resolution: Resolution | None = None
            self.shown: Mapping[str, tuple[int, ...]] = {}
            self.private: Mapping[str, Mapping[str, Mapping[str, JSON]]] = {}
            self.sights: tuple[Sight, ...] = ()
            return
        self.number, self.opener, self.turn = round_.number, round_.opener, round_.turn
        self.rolls, self.dice_in_play = round_.rolls, round_.dice_in_play
        self.bids, self.resolution = round_.bids, round_.resolution
        self.shown, self.private, self.sights = round_.shown, round_.private, round_.sights

    # --- reading ------------------------------------------------------------------------------

    def freeze(self) -> GameState:
        """The state as it is now (the same object until the next change)."""
        state = self._state
        if state is None:
            players = self._players_state
            if players is None:
                players = self._players_state = tuple(self.players)
            round_ = self._round_state
            if round_ is None and self.number:
                round_ = self._round_state = RoundState(
                    self.number,
                    self.opener,
                    self.rolls,
                    self.dice_in_play,
                    self.turn,
                    self.bids,
                    self.resolution,
                    self.shown,
                    self.private,
                    self.sights,
                )
            state = self._state = GameState(
                players, self.dice_per_player, round_, self.next_opener, self.winners, self.plugins
            )
        return state

    @property
    def frozen(self) -> GameState | None:
        """The state :meth:`freeze` last gave, if nothing has changed since; else ``None``."""
        return self._state

    @property
    def table(self) -> tuple[tuple[str, ...], int]:
        """The seats' names in order and the dice each started with: the same all game."""
        table = self._table
        if table is None:
            table = self._table = (tuple(p.name for p in self.players), self.dice_per_player)
        return table

    @property
    def over(self) -> bool:
        """True once the game has a winner."""
        return bool(self.winners)

    @property
    def in_round(self) -> bool:
        """True while a round is being played (started, not yet resolved)."""
        return self.number > 0 and self.resolution is None

    @property
    def current_bid(self) -> Bid | None:
        """The bid on the table, or ``None`` before the opener has bid."""
        return self.bids[-1].bid if self.bids else None

    def seat(self, name: str) -> int:
        """0-based seat index of ``name``; ``KeyError`` if nobody of that name sits here."""
        seats = self._seats
        if seats is None:
            seats = self._seats = {p.name: i for i, p in enumerate(self.players)}
        return seats[name]

    def player(self, name: str) -> PlayerState:
        """The seat of ``name``; ``KeyError`` if nobody of that name sits here."""
        return self.players[self.seat(name)]

    def next_alive(self, name: str, *, include_self: bool = False) -> str:
        """The first living player clockwise from ``name`` (``name`` itself if ``include_self``)."""
        if include_self and self.player(name).alive:
            return name
        ring = self._ring
        if ring is None:
            ring = self._ring = self._clockwise()
        return ring[name]

    def _clockwise(self) -> dict[str, str]:
        """For each seat's name, the first living player clockwise after it (its own name when
        it is the only one alive); ``ValueError`` when nobody is alive."""
        players = self.players
        count = len(players)
        ring = {}
        for start, player in enumerate(players):
            for offset in range(1, count + 1):
                candidate = players[(start + offset) % count]
                if candidate.alive:
                    ring[player.name] = candidate.name
                    break
            else:
                raise ValueError("no living player")
        return ring

    # --- bookkeeping of changes ---------------------------------------------------------------

    def _round_changed(self) -> None:
        """The round's fields changed: the frozen round and state are stale."""
        self._round_state = self._state = None

    def _seat_changed(self, seat: int, player: PlayerState) -> None:
        """Seat ``seat`` now holds ``player``: the frozen seats and state are stale, and so is
        the ring of living players if ``player`` came in or went out."""
        if self.players[seat].alive != player.alive:
            self._ring = None
        self.players[seat] = player
        self._players_state = self._state = None
