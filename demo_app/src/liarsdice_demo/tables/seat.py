"""A seat at a live table: who sits there (a human with secret tokens, or a bot) and its sockets.

A seat is known by its generation, never by its name: each new occupant of a table's seat (a
player sitting, a bot filling it) gets a generation no seat of that table had before, so a
namesake who sits where a removed player sat is another seat (see :meth:`.Seating.load`)."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import attrs


@attrs.define(eq=False)
class Seat:
    """A seat: a human (with a secret seat token) or a bot (with its :class:`~liarsdice.bots.Bot`)."""

    index: int
    name: str
    kind: str
    player_id: int | None
    token_hashes: list[str] = attrs.field(factory=list)
    """SHA-256 digests of the seat's tokens: the tokens themselves are never kept."""
    bot_kind: str | None = None
    bot: Any = None
    conns: dict[Any, None] = attrs.field(factory=dict)  # an ordered set: oldest first
    rematch: bool = False
    nodes: list[str] = attrs.field(factory=list)
    """The processes where this seat has sockets open (``conns`` are this process's)."""
    stand_in: bool = False
    """A bot plays this human's turns while they are away (:mod:`.stand_in`); stored."""
    forgiven: bool = False
    """This human's first timeout of the game was forgiven (:mod:`.forgiving`); stored."""
    said_at: float | None = None
    """When this seat last said a quick phrase (monotonic seconds; :mod:`.phrases`); not stored."""
    generation: int = 0
    """Tells this occupant from any other the table's seats had (:attr:`.Seating.generation`);
    stored."""

    @property
    def present(self) -> bool:
        """True while the seat's player has a socket open in any process."""
        return bool(self.conns or self.nodes)

    def to_data(self) -> dict[str, Any]:
        """What the store keeps of this seat (no bot, no connections)."""
        return {
            "index": self.index,
            "name": self.name,
            "kind": self.kind,
            "player_id": self.player_id,
            "token_hashes": list(self.token_hashes),
            "bot_kind": self.bot_kind,
            "rematch": self.rematch,
            "nodes": list(self.nodes),
            "stand_in": self.stand_in,
            "forgiven": self.forgiven,
            "generation": self.generation,
        }

    def public(self, host: bool) -> dict[str, Any]:
        return {
            "index": self.index,
            "name": self.name,
            "kind": self.kind,
            "bot_kind": self.bot_kind,
            "connected": self.kind == "bot" or self.present,
            "host": host,
            "rematch": self.rematch,
            "stand_in": self.stand_in,
            "forgiven": self.forgiven,
        }

    def holds(self, token: str) -> bool:
        """True when ``token`` is one of this seat's tokens (digests compared in constant time)."""
        given = digest(token)
        return any(hmac.compare_digest(known, given) for known in self.token_hashes)


def digest(token: str) -> str:
    """The SHA-256 hex digest of a seat token (as UTF-8, lone surrogates kept)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
