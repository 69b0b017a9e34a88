"""Finished games: storing them with their event log and ratings, and reading them back.

Contract: :func:`save_game` writes one finished game (one transaction: the game, its players,
and for a rated table the new ratings) and returns its id with the rating changes by seat name.
The transaction is a :func:`~liarsdice_demo.storage.db.writing` one and reads the seats' current ratings
``FOR UPDATE`` (on SQLite the whole transaction holds the write lock from its start), so the
ratings it reads are the ones it updates: concurrent saves sharing a player (threads, processes
or hosts) are serialized, none overwrites another's update, and their game ids follow commit
order. A game is saved once: saving a record whose ``live_key`` is already stored (a restart, or
another process, saving a game again) changes nothing and returns the stored game's id, with no
rating changes; the unique index on ``live_key`` makes it so even for two saves at once.
Bots are stored as players too. The event log is ``liarsdice.serialization`` data, so
:func:`load_events` (or :func:`event_batches`, a batch at a time) gives back the exact events and
``liarsdice.reducer.replay`` rebuilds the game.
A game may have several winners (a team): the ``winner`` column holds their seat names joined by
:data:`WINNERS_JOINED` (one winner's name alone, as in rows saved before), and every game read
back here carries them as the list ``winners``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any

from sqlalchemy import Connection, RowMapping, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from liarsdice.bots import bot_level
from liarsdice.events import Event
from liarsdice.serialization import from_data, to_data
from liarsdice_demo.storage import db, ratings
from liarsdice_demo.storage.players import bot_player, display_name

Changes = dict[str, dict[str, float]]
"""Rating changes by seat name: ``before``, ``after`` and ``delta`` (leaderboard figures)."""
WINNERS_JOINED = ", "
"""What joins several winners in the ``winner`` column: no seat name holds a comma (a nickname
may not: ``players.NICKNAME``; nor does a bot's)."""


def _with_winners(row: RowMapping) -> dict[str, Any]:
    """A stored game's ``row`` with its ``winners``, the list of seat names."""
    return {**row, "winners": row["winner"].split(WINNERS_JOINED)}


def save_game(url: str, record: dict[str, Any]) -> tuple[int, Changes | None]:
    """Store ``record`` (from :class:`~liarsdice_demo.tables.table.TableSession`) in the database at
    ``url``; (game id, changes)."""
    engine = db.engine_for(url)
    try:
        with engine.connect() as conn, db.writing(conn):
            return _save(conn, record)
    except IntegrityError:  # the same game, saved by another process since this one looked
        with engine.connect() as conn:
            saved = _saved(conn, record.get("live_key"))
        if saved is None:
            raise
        return saved, None


def _saved(conn: Connection, live_key: str | None) -> int | None:
    """The id of the stored game with ``live_key``, if there is one."""
    if live_key is None:
        return None
    found = conn.execute(select(db.games.c.id).where(db.games.c.live_key == live_key)).scalar()
    return None if found is None else int(found)


def _save(conn: Connection, record: dict[str, Any]) -> tuple[int, Changes | None]:
    """:func:`save_game` inside its write transaction."""
    bots = sorted(
        {(s["name"], s["bot_kind"] or "bot") for s in record["seats"] if s["player_id"] is None}
    )
    bot_ids = {bot: bot_player(conn, *bot) for bot in bots}  # in one order: savers never deadlock
    seats = [
        {**seat, "player_id": bot_ids[(seat["name"], seat["bot_kind"] or "bot")]}
        if seat["player_id"] is None
        else dict(seat)
        for seat in record["seats"]
    ]
    # Locked in id order till the commit (SQLite has no FOR UPDATE: its write lock covers all).
    locked = conn.execute(
        select(db.players.c.id, db.players.c.mu, db.players.c.sigma)
        .where(db.players.c.id.in_([seat["player_id"] for seat in seats]))
        .order_by(db.players.c.id)
        .with_for_update()
    ).all()
    current = {row.id: (row.mu, row.sigma) for row in locked}
    saved = _saved(conn, record.get("live_key"))  # after the lock: a concurrent save is done
    if saved is not None:
        return saved, None
    for seat in seats:
        seat["mu"], seat["sigma"] = current[seat["player_id"]]
    config = record["config"]
    made = conn.execute(
        insert(db.games),
        {
            "table_code": record["code"],
            "title": config.title,
            "variants": json.dumps(list(config.variants)),
            "options": json.dumps(dict(config.rules.options)),
            "preset": config.preset,
            "rated": int(config.rated),
            "dice_per_player": config.dice_per_player,
            "winner": WINNERS_JOINED.join(record["winners"]),
            "events": json.dumps(to_data(record["events"], list[Event])),
            "live_key": record.get("live_key"),
        },
    )
    assert made.inserted_primary_key is not None
    game_id = int(made.inserted_primary_key[0])
    places = record["places"]
    changes: Changes | None = None
    after: list[tuple[float, float] | None] = [None] * len(seats)
    sides = record["sides"]
    if config.rated and len(sides) >= 2:
        named = {seat["name"]: seat for seat in seats}
        new = ratings.rate(
            [[(named[name]["mu"], named[name]["sigma"]) for name in side] for side in sides],
            [min(places[name] for name in side) for side in sides],  # its best player's
        )
        by_name = dict(zip(chain.from_iterable(sides), chain.from_iterable(new), strict=True))
        changes = {}
        for index, seat in enumerate(seats):
            mu, sigma = by_name[seat["name"]]
            before = ratings.display(seat["mu"], seat["sigma"])
            now = ratings.display(mu, sigma)
            changes[seat["name"]] = {
                "before": before,
                "after": now,
                "delta": round(now - before, 1),
            }
            after[index] = (mu, sigma)
            conn.execute(
                update(db.players)
                .where(db.players.c.id == seat["player_id"])
                .values(mu=mu, sigma=sigma, rated_games=db.players.c.rated_games + 1)
            )
    conn.execute(
        insert(db.game_players),
        [
            {
                "game_id": game_id,
                "player_id": seat["player_id"],
                "seat": seat["seat"],
                "name": seat["name"],
                "place": places[seat["name"]],
                "rating_before": ratings.display(seat["mu"], seat["sigma"]) if changes else None,
                "rating_after": ratings.display(*rated) if rated else None,
            }
            for seat, rated in zip(seats, after, strict=True)
        ],
    )
    return game_id, changes


def load_events(events_json: str) -> list[Event]:
    """The event log stored by :func:`save_game`."""
    return from_data(json.loads(events_json), list[Event])


_DECODER = json.JSONDecoder()
_BETWEEN = re.compile(r"[\s,]*")
"""What separates two events of a stored log (a JSON array)."""


def event_batches(
    events_json: str, size: int, position: int = 0
) -> Iterator[tuple[list[Event], int]]:
    """The event log stored by :func:`save_game`, parsed ``size`` events at a time from
    ``position`` in ``events_json`` (0: its start), each batch with the position after its last
    event: a caller can stop, let other work run, or later read on from there, between two
    batches (a long log is never parsed at once)."""
    position = position or events_json.index("[") + 1
    batch: list[Any] = []
    while True:
        position = _BETWEEN.match(events_json, position).end()  # type: ignore[union-attr]
        if events_json[position] == "]":
            break
        item, position = _DECODER.raw_decode(events_json, position)
        batch.append(item)
        if len(batch) == size:
            yield from_data(batch, list[Event]), position
            batch = []
    if batch:
        yield from_data(batch, list[Event]), position


def leaderboard(conn: Connection, limit: int = 100, locale: str = "en") -> list[dict[str, Any]]:
    """Players with rated games, best first, with their rank (ties of the rating shown share a
    rank) and ``name``: the nickname as players read it in ``locale``, a bot's with its kind's
    title ("Boris (hard bot)"), since a bot name is one player per bot kind."""
    p = db.players
    rows = conn.execute(
        select(p.c.id, p.c.nickname, p.c.bot_kind, p.c.mu, p.c.sigma, p.c.rated_games).where(
            p.c.rated_games > 0
        )
    ).mappings()
    ordered = sorted(rows, key=lambda row: -ratings.conservative(row["mu"], row["sigma"]))
    board = [
        {
            "id": row["id"],
            "nickname": row["nickname"],
            "bot_kind": row["bot_kind"],
            "bot_level": bot_level(row["bot_kind"]) if row["bot_kind"] else None,
            "name": display_name(row["nickname"], row["bot_kind"], locale),
            "rating": ratings.display(row["mu"], row["sigma"]),
            "mu": round(row["mu"], 2),
            "sigma": round(row["sigma"], 2),
            "games": row["rated_games"],
        }
        for row in ordered[:limit]
    ]
    rank = 0
    for position, entry in enumerate(board, start=1):
        if position == 1 or entry["rating"] != board[position - 2]["rating"]:
            rank = position
        entry["rank"] = rank
    return board


def player_games(conn: Connection, player_id: int, limit: int = 50) -> list[dict[str, Any]]:
    """The player's most recent games with their place in each (and ``players``: how many)."""
    g, gp, other = db.games, db.game_players, db.game_players.alias("other")
    seated = select(func.count()).select_from(other).where(other.c.game_id == g.c.id)
    query = (
        select(
            g.c.id,
            g.c.title,
            *_title_columns(),
            g.c.rated,
            g.c.winner,
            g.c.finished_at,
            gp.c.place,
            gp.c.name,
            gp.c.rating_before,
            gp.c.rating_after,
            seated.scalar_subquery().label("players"),
        )
        .join_from(gp, g, g.c.id == gp.c.game_id)
        .where(gp.c.player_id == player_id)
        .order_by(g.c.id.desc())
        .limit(limit)
    )
    return [_with_winners(row) for row in conn.execute(query).mappings()]


def _title_columns() -> tuple[Any, ...]:
    """What a game's title is rebuilt from in another language (:mod:`liarsdice_demo.tables.titles`)."""
    g = db.games
    return (g.c.preset, g.c.variants, g.c.options, g.c.dice_per_player)


def recent_games(conn: Connection, limit: int = 20) -> list[dict[str, Any]]:
    """The most recently finished games."""
    g = db.games
    query = select(
        g.c.id, g.c.table_code, g.c.title, *_title_columns(), g.c.rated, g.c.winner, g.c.finished_at
    )
    rows = conn.execute(query.order_by(g.c.id.desc()).limit(limit)).mappings()
    return [_with_winners(row) for row in rows]


def game(conn: Connection, game_id: int, events: bool = True) -> dict[str, Any] | None:
    """One stored game, or ``None``; without its event log unless ``events``."""
    columns = [column for column in db.games.c if events or column.name != "events"]
    row = conn.execute(select(*columns).where(db.games.c.id == game_id)).mappings().first()
    return None if row is None else _with_winners(row)


def game_events(conn: Connection, game_id: int) -> str:
    """The event log of the stored game ``game_id``, as stored (:func:`event_batches` reads it)."""
    return str(conn.execute(select(db.games.c.events).where(db.games.c.id == game_id)).scalar_one())


def game_players(conn: Connection, game_id: int) -> Sequence[RowMapping]:
    """The seats of a stored game, in seat order (with each player's ``bot_kind``)."""
    gp, p = db.game_players, db.players
    query = (
        select(gp, p.c.bot_kind)
        .join_from(gp, p, p.c.id == gp.c.player_id)
        .where(gp.c.game_id == game_id)
        .order_by(gp.c.seat)
    )
    return conn.execute(query).mappings().all()
