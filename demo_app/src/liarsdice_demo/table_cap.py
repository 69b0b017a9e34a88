"""Which of a client's tables count toward its caps.

Contract: two caps per client. The live cap (``MAX_TABLES_PER_CLIENT``, 5) counts the tables
that are live for their creator (:func:`open_tables`): ``playing``, or ``waiting`` for at most
:data:`WAITING_SECONDS` since it was created. A finished or stopped table does not count (it only
waits to close), nor does a table left waiting longer (an abandoned one): a solo player who plays
quick bot games back to back, or opens a table and walks away, is not locked out. The held cap
(``MAX_HELD_TABLES_PER_CLIENT``, :data:`MAX_HELD`) counts every table the client made that is
still open (:func:`held_tables`), whatever its state: a table kept open by reconnecting to it
still counts there, so one client never holds more than that many of the server's tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

WAITING_SECONDS = 600.0
"""How long a never-started table counts toward its creator's live cap."""
MAX_HELD = 20
"""The default held cap: a solo player finishing a game every minute holds about 10."""


def counts(record: Mapping[str, Any], now: float) -> bool:
    """Whether a table's stored record (``status``, ``created`` in epoch seconds) counts."""
    status = record.get("status")
    if status == "playing":
        return True
    return status == "waiting" and now - float(record.get("created", now)) <= WAITING_SECONDS


def open_tables(records: Iterable[Mapping[str, Any]], client: str, now: float) -> int:
    """How many of ``records`` (each with ``client``) count toward ``client``'s cap."""
    return sum(1 for record in records if record.get("client") == client and counts(record, now))


def held_tables(records: Iterable[Mapping[str, Any]], client: str) -> int:
    """How many of ``records`` ``client`` made (every open table, finished ones included)."""
    return sum(1 for record in records if record.get("client") == client)
