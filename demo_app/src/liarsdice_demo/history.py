"""Finished games: storing them with their event log and ratings, and reading them back.

Contract: :func:`save_game` writes one finished game (one transaction: the game, its players,
and for a rated table the new ratings) and returns its id with the rating changes by seat name.
The transaction is a write transaction from its start (``BEGIN IMMEDIATE``), so the current
ratings it reads are the ones it updates: concurrent saves (threads or processes) are serialized,
none overwrites another's update, and game ids follow commit order. A game is saved once: saving a
record whose ``live_key`` is already stored (a restart saving a game again) changes nothing and
returns the stored game's id, with no rating changes.
Bots are stored as players too. The event log is ``liarsdice.serialization`` data, so
:func:`load_events` gives back the exact events and ``liarsdice.reducer.replay`` rebuilds the game.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from liarsdice.events import Event
from liarsdice.serialization import from_data, to_data
from liarsdice_demo import ratings
from liarsdice_demo.db import connect, write_transaction
from liarsdice_demo.players import bot_player


def save_game(
    path: str | Path, record: dict[str, Any]
) -> tuple[int, dict[str, dict[str, float]] | None]:
    """Store ``record`` (from :class:`~liarsdice_demo.table.TableSession`); (game id, changes)."""
    config = record["config"]
    conn = connect(path)
    try:
        with write_transaction(conn):  # the reads below and the writes: one serialized unit
            saved = conn.execute(
                "SELECT id FROM games WHERE live_key = ?", (record.get("live_key"),)
            ).fetchone()
            if saved is not None:
                return int(saved["id"]), None
            seats = []
            for seat in record["seats"]:
                player_id = seat["player_id"]
                if player_id is None:
                    player_id = bot_player(conn, seat["name"], seat["bot_kind"] or "bot")
                row = conn.execute(
                    "SELECT mu, sigma FROM players WHERE id = ?", (player_id,)
                ).fetchone()
                seats.append(
                    {**seat, "player_id": player_id, "mu": row["mu"], "sigma": row["sigma"]}
                )
            cursor = conn.execute(
                "INSERT INTO games (table_code, title, variants, options, preset, rated,"
                " dice_per_player, winner, events, live_key)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record["code"],
                    config.title,
                    json.dumps(list(config.variants)),
                    json.dumps(dict(config.rules.options)),
                    config.preset,
                    int(config.rated),
                    config.dice_per_player,
                    record["winner"],
                    json.dumps(to_data(record["events"], list[Event])),
                    record.get("live_key"),
                ),
            )
            game_id = int(cursor.lastrowid or 0)
            places = record["places"]
            changes: dict[str, dict[str, float]] | None = None
            after: list[tuple[float, float] | None] = [None] * len(seats)
            if config.rated and len(seats) >= 2:
                new = ratings.rate([(s["mu"], s["sigma"], places[s["name"]]) for s in seats])
                changes = {}
                for index, (seat, (mu, sigma)) in enumerate(zip(seats, new, strict=True)):
                    before = ratings.display(seat["mu"], seat["sigma"])
                    now = ratings.display(mu, sigma)
                    changes[seat["name"]] = {
                        "before": before,
                        "after": now,
                        "delta": round(now - before, 1),
                    }
                    after[index] = (mu, sigma)
                    conn.execute(
                        "UPDATE players SET mu = ?, sigma = ?, rated_games = rated_games + 1"
                        " WHERE id = ?",
                        (mu, sigma, seat["player_id"]),
                    )
            for index, seat in enumerate(seats):
                conn.execute(
                    "INSERT INTO game_players (game_id, player_id, seat, name, place,"
                    " rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        seat["player_id"],
                        seat["seat"],
                        seat["name"],
                        places[seat["name"]],
                        ratings.display(seat["mu"], seat["sigma"]) if changes else None,
                        ratings.display(*after[index]) if after[index] else None,
                    ),
                )
        return game_id, changes
    finally:
        conn.close()


def load_events(events_json: str) -> list[Event]:
    """The event log stored by :func:`save_game`."""
    return from_data(json.loads(events_json), list[Event])


def leaderboard(db: sqlite3.Connection, limit: int = 100) -> list[dict[str, Any]]:
    """Players with rated games, best first, with their rank (ties share a rank)."""
    rows = db.execute(
        "SELECT id, nickname, bot_kind, mu, sigma, rated_games FROM players WHERE rated_games > 0"
    ).fetchall()
    board = sorted(
        (
            {
                "id": row["id"],
                "nickname": row["nickname"],
                "bot_kind": row["bot_kind"],
                "rating": ratings.display(row["mu"], row["sigma"]),
                "mu": round(row["mu"], 2),
                "sigma": round(row["sigma"], 2),
                "games": row["rated_games"],
            }
            for row in rows
        ),
        key=lambda entry: -entry["rating"],
    )[:limit]
    rank = 0
    for position, entry in enumerate(board, start=1):
        if position == 1 or entry["rating"] != board[position - 2]["rating"]:
            rank = position
        entry["rank"] = rank
    return board


def player_games(db: sqlite3.Connection, player_id: int, limit: int = 50) -> list[sqlite3.Row]:
    """The player's most recent games with their place in each."""
    return db.execute(
        "SELECT g.id, g.title, g.rated, g.winner, g.finished_at, gp.place, gp.name,"
        " gp.rating_before, gp.rating_after,"
        " (SELECT COUNT(*) FROM game_players x WHERE x.game_id = g.id) AS players"
        " FROM game_players gp JOIN games g ON g.id = gp.game_id"
        " WHERE gp.player_id = ? ORDER BY g.id DESC LIMIT ?",
        (player_id, limit),
    ).fetchall()


def recent_games(db: sqlite3.Connection, limit: int = 20) -> list[sqlite3.Row]:
    """The most recently finished games."""
    return db.execute(
        "SELECT id, table_code, title, rated, winner, finished_at FROM games"
        " ORDER BY id DESC LIMIT ?",
        (limit,),
    ).fetchall()


def game(db: sqlite3.Connection, game_id: int) -> sqlite3.Row | None:
    """One stored game, or ``None``."""
    return db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()


def game_players(db: sqlite3.Connection, game_id: int) -> list[sqlite3.Row]:
    """The seats of a stored game, in seat order."""
    return db.execute(
        "SELECT gp.*, p.bot_kind FROM game_players gp JOIN players p ON p.id = gp.player_id"
        " WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ).fetchall()
