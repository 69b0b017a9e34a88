"""Which tables count toward a player's caps, and toward their address's.

Contract: the caps are counted per player (the browser's player cookie: the table's
``host_player``) and, as a ceiling for everyone behind one address, per address (the table's
``client``), so that a household or a classroom behind one router is not taken for one client:

- the live cap (``MAX_TABLES_PER_PLAYER``, :data:`MAX_LIVE`; ``MAX_TABLES_PER_ADDRESS``,
  :data:`MAX_LIVE_PER_ADDRESS`) counts the tables that are live (:func:`open_tables`):
  ``playing``, or ``waiting`` for players. A finished or stopped table does not count (it only
  waits to close): a solo player who plays quick bot games back to back is not locked out. Nor is
  one who opens tables and walks away for long: a table that never started closes within minutes
  once nobody sits at it (:mod:`.expiry`);
- the held cap (``MAX_HELD_TABLES_PER_PLAYER``, :data:`MAX_HELD`; ``MAX_HELD_TABLES_PER_ADDRESS``,
  :data:`MAX_HELD_PER_ADDRESS`) counts every table still open (:func:`held_tables`), whatever its
  state, so that nobody holds more than that many of the server's tables.

A client without a player cookie has only its address's ceiling; making a player costs one of the
address's new-player budget (``LIMIT_PLAYER_CREATION``), so new cookies do not buy new caps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

LIVE = ("waiting", "playing")
MAX_LIVE = 5
"""The default live cap per player."""
MAX_HELD = 20
"""The default held cap per player: one finishing a game every minute holds about 10."""
MAX_LIVE_PER_ADDRESS = 40
"""The default live cap per address: a classroom of 30 at tables of 4 to 6, with room to spare."""
MAX_HELD_PER_ADDRESS = 60
"""The default held cap per address (an address makes at most 60 tables an hour anyway: the
per-network limit, ``LIMIT_TABLE_CREATION_NETWORK``)."""


def counts(record: Mapping[str, Any]) -> bool:
    """Whether a table's stored record (its ``status``) counts toward a live cap."""
    return record.get("status") in LIVE


def open_tables(records: Iterable[Mapping[str, Any]], field: str, value: object) -> int:
    """How many of ``records`` whose ``field`` (``"host_player"`` or ``"client"``) is ``value``
    count toward a live cap."""
    return sum(1 for record in records if record.get(field) == value and counts(record))


def held_tables(records: Iterable[Mapping[str, Any]], field: str, value: object) -> int:
    """How many of ``records`` whose ``field`` is ``value`` are open, finished ones included."""
    return sum(1 for record in records if record.get(field) == value)
