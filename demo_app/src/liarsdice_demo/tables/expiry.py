"""When a table that never started closes, and how long a refused newcomer waits for room.

Contract: a table still ``waiting`` (no game was ever dealt: a rematch goes from ``over`` straight
to ``playing``) closes :data:`NEVER_STARTED_SECONDS` after it was made or after a seated human
player was last seen with a socket open at it (:func:`attended`), whichever is later, and
:data:`ATTENDED_SECONDS` after it was made in any case. So a host waiting at their table for
friends keeps it for up to an hour, a host who reloads the page or loses the network for a moment
keeps it, and a table nobody sits at frees its place in the server's cap within minutes, whoever
made it and however many of them were made. The times are wall-clock seconds (the table's
``created``, which the store keeps), so a restart does not lengthen them. The hub applies the rule
when it sweeps (:func:`first_sweep` gives the wait until the sweep that frees a place).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

NEVER_STARTED_SECONDS = 300.0
"""How long a table that never started stays open with nobody seated at it."""
ATTENDED_SECONDS = 3600.0
"""How long a table that never started stays open at most, counted from when it was made."""


def attended(record: Mapping[str, Any]) -> bool:
    """Whether a human seated at the table of the stored ``record`` has a socket open in any
    process."""
    return any(
        seat is not None and seat.get("kind") == "human" and seat.get("nodes")
        for seat in record.get("seats") or ()
    )


def closes_at(status: str, created: float, present: bool, seen: float | None) -> float | None:
    """When (epoch seconds) a table made at ``created`` closes for never having started, while a
    seated human is ``present`` at it or not, and last was at ``seen`` (``None``: not since it
    was made, as far as this process knows); ``None`` once its game has started (``status`` is
    not ``waiting``: other rules close it)."""
    if status != "waiting":
        return None
    latest = created + ATTENDED_SECONDS
    if present:
        return latest
    return min(max(created, seen or created) + NEVER_STARTED_SECONDS, latest)


def first_sweep(delay: float, next_sweep: float, period: float) -> int:
    """Whole seconds (at least 1) until the first sweep at or after ``delay`` seconds from now,
    for sweeps ``next_sweep`` seconds from now and every ``period`` seconds after that."""
    if delay <= next_sweep:
        wait = next_sweep
    else:
        wait = next_sweep + math.ceil((delay - next_sweep) / period) * period
    return max(1, math.ceil(wait))
