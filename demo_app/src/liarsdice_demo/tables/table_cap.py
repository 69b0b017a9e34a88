"""Which of a client's tables count toward its caps.

Contract: two caps per client. The live cap (``MAX_TABLES_PER_CLIENT``, 5) counts the tables
that are live for their creator (:func:`open_tables`): ``playing``, or ``waiting`` for players. A
finished or stopped table does not count (it only waits to close): a solo player who plays quick
bot games back to back is not locked out. Nor is one who opens tables and walks away for long: a
table that never started closes within minutes once nobody sits at it (:mod:`.expiry`). The held
cap (``MAX_HELD_TABLES_PER_CLIENT``, :data:`MAX_HELD`) counts every table the client made that is
still open (:func:`held_tables`), whatever its state, so one client never holds more than that
many of the server's tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

LIVE = ("waiting", "playing")
MAX_HELD = 20
"""The default held cap: a solo player finishing a game every minute holds about 10."""


def counts(record: Mapping[str, Any]) -> bool:
    """Whether a table's stored record (its ``status``) counts toward its creator's live cap."""
    return record.get("status") in LIVE


def open_tables(records: Iterable[Mapping[str, Any]], client: str) -> int:
    """How many of ``records`` (each with ``client``) count toward ``client``'s live cap."""
    return sum(1 for record in records if record.get("client") == client and counts(record))


def held_tables(records: Iterable[Mapping[str, Any]], client: str) -> int:
    """How many of ``records`` ``client`` made (every open table, finished ones included)."""
    return sum(1 for record in records if record.get("client") == client)
