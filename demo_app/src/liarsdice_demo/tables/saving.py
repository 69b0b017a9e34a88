"""Saving a finished game to the SQL history, on a scheduler worker, again while the database refuses.

Contract: :func:`history_record` is the finished game as
:func:`liarsdice_demo.storage.history.save_game` stores it, named ``"<table uid>:<game number>"`` (so a
game saved twice is stored once): its ``winners`` (one player, or a whole team), every seat's
place (1 for each winner) and the ``sides`` the game was played in (one player each, or a team
each: ``liarsdice.engine.sides``). :class:`GameSaver` saves it off the table's lock; while the
database cannot take it, it tries again after 1, 2, 4... seconds, at most :data:`SAVE_RETRY_MAX`,
for as long as this process drives the table and the game is still the table's unsaved one. Once
saved, the table shows the game's id and the new ratings. A retry takes the table's re-entrant
lock itself (it runs on the scheduler); what a saver uses of its table is :class:`SavedTable`.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from liarsdice.engine import sides
from liarsdice_demo.tables.match import Match
from liarsdice_demo.tables.seat import Seat
from liarsdice_demo.tables.seating import Seating

T = TypeVar("T")

SAVE_RETRY_MAX = 60.0
"""Seconds between two attempts at most to save a finished game the SQL database refused."""

log = logging.getLogger(__name__)


def history_record(
    code: str, live_key: str, match: Match, seats: list[Seat | None]
) -> dict[str, Any]:
    """The finished game of ``match`` (at table ``code``) as the history stores it."""
    assert match.game is not None
    state = match.game.state
    return {
        "code": code,
        "live_key": live_key,
        "config": match.config,
        "seats": [
            {
                "seat": s.index,
                "name": s.name,
                "player_id": s.player_id,
                "bot_kind": s.bot_kind,
            }
            for s in seats
            if s is not None
        ],
        "places": match.places(state.winners),
        "winners": list(state.winners),
        "sides": [list(side) for side in sides(match.config.rules, state)],
        "events": list(match.game.events),
    }


def retry_delay(attempt: int) -> float:
    """Seconds to wait before attempt ``attempt + 1`` at saving a game."""
    return min(SAVE_RETRY_MAX, 2.0**attempt)


class Retrying(Protocol):
    """What a saver uses of the table's storage (a :class:`~.table_storage.TableStorage`)."""

    def retrying(self, work: Callable[[], T]) -> T: ...


class SavedTable(Protocol):
    """What a :class:`GameSaver` uses of its table (a ``TableSession`` is one)."""

    @property
    def code(self) -> str: ...
    @property
    def live_key(self) -> str: ...
    @property
    def lock(self) -> threading.RLock: ...
    @property
    def hub(self) -> Any:
        """Provides ``scheduler`` and ``save_game``."""

    @property
    def driving(self) -> bool: ...
    @property
    def match(self) -> Match: ...
    @property
    def seating(self) -> Seating: ...
    @property
    def storage(self) -> Retrying: ...
    def broadcast(self) -> None: ...


class GameSaver:
    """Saves the finished games of ``table``."""

    def __init__(self, table: SavedTable) -> None:
        self.table = table

    def later(self) -> None:
        """Save the table's finished game to the history, on a scheduler worker (call it under
        the table's lock)."""
        table = self.table
        record = history_record(table.code, table.live_key, table.match, table.seating.seats)
        table.hub.scheduler.submit(functools.partial(self.save, record))

    def save(self, record: dict[str, Any], attempt: int = 0) -> None:
        """Save ``record``; while the SQL database cannot take it, try again later."""
        table = self.table
        try:
            game_id, ratings = table.hub.save_game(record)
        except Exception as problem:  # the database is unreachable (any driver's error)
            delay = retry_delay(attempt)
            log.warning(
                "table %s: finished game not saved (%s); trying again in %.0f s",
                table.code,
                problem,
                delay,
            )
            table.hub.scheduler.call_later(
                delay, functools.partial(self._again, record, attempt + 1)
            )
            return

        def note() -> None:
            match = table.match
            if match.status == "over" and record["live_key"] == table.live_key:
                match.game_id, match.ratings = game_id, ratings or match.ratings
                table.broadcast()

        table.storage.retrying(note)

    def _again(self, record: dict[str, Any], attempt: int) -> None:
        table = self.table
        with table.lock:
            match = table.match
            unsaved = match.game_id is None and record["live_key"] == table.live_key
            if not (unsaved and table.driving and match.status == "over"):
                return
        self.save(record, attempt)
