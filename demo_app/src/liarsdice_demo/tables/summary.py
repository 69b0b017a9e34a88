"""The summary of a finished game, for the table page: places, rounds played, the best call.

Contract: :func:`summarize` reads a game's events and its places (``Match.places``) and returns
the ``table.summary`` of the protocol (docs/protocol.md): every player with their place (1 = the
winners; players out on the same call share one), the rounds played (rulings made), and the best
call, or ``None`` when no call was right. The best call is a call that was right (its caller won
the ruling: ``success``, with the cups lifted; a timeout is no call), the hardest first: an exact
call before any other, then the bid of the most dice, then the latest. Its ``text`` is the
ruling's line (``narrate.ruling``), read in each player's language. :func:`of` gives it for a
table's match once the game is over, else ``None``. Pure: it stores and sends nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from liarsdice.events import Event, RoundResolved
from liarsdice.models import Resolution
from liarsdice.serialization import to_data
from liarsdice_demo.tables.match import Match
from liarsdice_demo.text import narrate


def summarize(events: Sequence[Event], places: Mapping[str, int]) -> dict[str, Any]:
    """The summary of the game of ``events`` whose players finished at ``places``."""
    rulings = [event.resolution for event in events if isinstance(event, RoundResolved)]
    right = [
        (number, r)
        for number, r in enumerate(rulings, start=1)
        if r.success and r.count is not None and r.bid is not None and r.call != "timeout"
    ]
    best = max(right, key=lambda found: _hardness(*found), default=None)
    return {
        "places": [
            {"place": place, "name": name}
            for name, place in sorted(places.items(), key=lambda item: item[1])
        ],
        "rounds": len(rulings),
        "best_call": None if best is None else _call(*best),
    }


def _hardness(number: int, r: Resolution) -> tuple[bool, int, int]:
    """How hard a right call was: exact first, then the most dice bid, then the latest."""
    assert r.bid is not None
    return (r.call == "exact", r.bid.quantity, number)


def _call(number: int, r: Resolution) -> dict[str, Any]:
    """The best call's entry: its round, who called what on whose bid, and its ruling's line."""
    return {
        "round": number,
        "call": r.call,
        "caller": r.caller,
        "bidder": r.bidder,
        "bid": to_data(r.bid),
        "count": r.count,
        "text": narrate.ruling(r),
    }


def of(match: Match) -> dict[str, Any] | None:
    """The summary of ``match``'s game once it is over (status ``over``), else ``None``."""
    game = match.game
    if match.status != "over" or game is None:
        return None
    return summarize(game.events, match.places(game.state.winners))
