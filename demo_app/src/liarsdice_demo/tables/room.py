"""Room for one more table: a player's caps, their address's, the server's, and the wait.

Contract: :meth:`Room.check` refuses a player who already has ``MAX_TABLES_PER_PLAYER`` live
tables or ``MAX_HELD_TABLES_PER_PLAYER`` tables still open, or an address with
``MAX_TABLES_PER_ADDRESS`` live or ``MAX_HELD_TABLES_PER_ADDRESS`` open tables, whoever made them
(:mod:`.table_cap`; :class:`TooManyTables`), or anyone while the server holds ``MAX_TABLES``
tables (:class:`ServerFull`, with the seconds until the sweep that frees a place). The tables
counted are this process's, or with a shared store every process's (finished ones included).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask_babel import gettext

from liarsdice_demo.tables.sweep import FINISHED_SECONDS, Sweep
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.tables.table_cap import (
    MAX_HELD,
    MAX_HELD_PER_ADDRESS,
    MAX_LIVE,
    MAX_LIVE_PER_ADDRESS,
    held_tables,
    open_tables,
)
from liarsdice_demo.text.waits import wait_words

CAP_RETRY_SECONDS = 60
"""The ``Retry-After`` given to a client at its table cap (a game usually ends within minutes)."""
FULL_RETRY_SECONDS = 60
"""The ``Retry-After`` at the server's cap when no table's closing time is known (all playing)."""


class TooManyTables(RuntimeError):
    """This player (or their address) already hosts as many tables as it may; ``retry_after`` in
    seconds."""

    retry_after = CAP_RETRY_SECONDS


class ServerFull(RuntimeError):
    """The server holds ``MAX_TABLES`` tables; ``retry_after``: whole seconds until a sweep is
    due to close one, as far as this process knows (:data:`FULL_RETRY_SECONDS` if none is)."""

    def __init__(self, text: str, retry_after: int) -> None:
        super().__init__(text)
        self.retry_after = retry_after


class Room:
    """The caps of ``settings`` over ``held`` (this process's tables by code, read as they are:
    the caller holds the lock that guards them) and, with a shared store, ``shared`` (every
    process's tables, code and record); ``sweep`` says when a place frees."""

    def __init__(
        self,
        settings: Mapping[str, Any],
        held: Mapping[str, TableSession],
        shared: Callable[[], list[tuple[str, dict[str, Any]]]] | None,
        sweep: Sweep,
    ) -> None:
        self._settings = settings
        self._held = held
        self._shared = shared
        self._sweep = sweep

    def check(self, client: str | None, player: int | None = None) -> None:
        """:class:`TooManyTables` if ``player`` (a player id, ``None`` for a newcomer) or
        ``client`` (their address) is at its cap, :class:`ServerFull` if the server is; else
        nothing."""
        records = self._records()
        setting = self._settings.get
        if player is not None:
            live = int(setting("MAX_TABLES_PER_PLAYER", MAX_LIVE))
            held = int(setting("MAX_HELD_TABLES_PER_PLAYER", MAX_HELD))
            _check_caps(records, "host_player", player, live, held)
        if client is not None:
            live = int(setting("MAX_TABLES_PER_ADDRESS", MAX_LIVE_PER_ADDRESS))
            held = int(setting("MAX_HELD_TABLES_PER_ADDRESS", MAX_HELD_PER_ADDRESS))
            _check_caps(records, "client", client, live, held)
        if len(records) >= self._settings.get("MAX_TABLES", 2000):
            wait = self._wait()
            raise ServerFull(
                gettext("the server is full: try again in %(wait)s", wait=wait_words(wait)), wait
            )

    def _records(self) -> list[dict[str, Any]]:
        """The record of every table (shared store: every process's), finished ones included:
        all count toward ``MAX_TABLES``, the live ones (:mod:`.table_cap`) toward a client's cap."""
        if self._shared is not None:
            return [record for _, record in self._shared()]
        return [
            {
                "client": table.client,
                "host_player": table.seating.host_player,
                "status": table.status,
            }
            for table in self._held.values()
        ]

    def _wait(self) -> int:
        """Seconds until the first sweep due to close a table (:meth:`.Sweep.frees_in`), else
        :data:`FULL_RETRY_SECONDS`."""
        shared = self._shared() if self._shared is not None else []
        wait = self._sweep.frees_in(self._held.values(), shared)
        return FULL_RETRY_SECONDS if wait is None else wait


def _check_caps(
    records: list[dict[str, Any]], field: str, value: object, live: int, held: int
) -> None:
    """:class:`TooManyTables` if the tables of ``records`` whose ``field`` is ``value`` reach the
    ``live`` or the ``held`` cap."""
    if open_tables(records, field, value) >= live:
        raise TooManyTables(
            gettext(
                "you already have %(n)s tables open (a game going, or waiting for players): "
                "finish one, or try again later",
                n=live,
            )
            if field == "host_player"
            else gettext(
                "%(n)s tables made from your internet connection are open (a game going, or "
                "waiting for players): finish one, or try again later",
                n=live,
            )
        )
    if held_tables(records, field, value) >= held:
        raise TooManyTables(
            gettext(
                "you have %(n)s tables still open (a finished table closes %(minutes)s "
                "minutes after its game): try again later",
                n=held,
                minutes=round(FINISHED_SECONDS / 60),
            )
            if field == "host_player"
            else gettext(
                "%(n)s tables made from your internet connection are still open (a finished "
                "table closes %(minutes)s minutes after its game): try again later",
                n=held,
                minutes=round(FINISHED_SECONDS / 60),
            )
        )
