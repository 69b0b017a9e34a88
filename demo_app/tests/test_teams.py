"""Games with several winners: the ``teams`` variant (two teams in alternate seats, the last team
standing wins, all its players) played to the end, saved, rated as teams, replayed, narrated and
shown; and a table for teams that cannot split into two teams is refused."""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import select

from liarsdice.events import GameWon
from liarsdice_demo.edge.protocol import encode
from liarsdice_demo.storage import db, history
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.match import Match
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.tables.table_errors import TableError
from liarsdice_demo.text import narrate

from .conftest import ManualHub
from .replays import at_last_step, steps

TEAMS = {"variants": ["teams", "dice-loss"], "seats": 4, "dice_per_player": 1}
ODD = "teams: two teams sit in alternate seats, so the table needs an even number of players"
NEW = (25.0, 25.0 / 3)
"""A new player's (mu, sigma)."""


def finished(table: TableSession, seconds: float = 30) -> int:
    """Wait for ``table``'s game to be saved; its id."""
    deadline = time.monotonic() + seconds
    while table.game_id is None:
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.02)
    return table.game_id


def test_a_team_wins_together_saved_rated_replayed_and_shown(sql_app: Any) -> None:
    hub, client = sql_app.extensions["liarsdice_hub"], sql_app.test_client()
    table = hub.create(parse_config({**TEAMS, "rated": True}), start=True)
    game_id = finished(table)
    seats = [seat.name for seat in table.seating.seats if seat is not None]
    winners = list(table.game.state.winners)  # type: ignore[union-attr]
    assert winners in (seats[0::2], seats[1::2])  # a whole team: seats 1 and 3, or 2 and 4
    losers = [name for name in seats if name not in winners]
    said = f"{winners[0]} and {winners[1]}"

    # The history: both winners, each at place 1, and the team rated as a team.
    with db.engine_for(sql_app.config["DATABASE_URL"]).connect() as conn:
        stored = history.game(conn, game_id)
        seated = {p["name"]: p for p in history.game_players(conn, game_id)}
        rows = conn.execute(select(db.players.c.nickname, db.players.c.mu)).all()
    assert stored is not None and stored["winners"] == winners
    assert stored["winner"] == f"{winners[0]}, {winners[1]}"
    assert [seated[name]["place"] for name in winners] == [1, 1]
    assert all(seated[name]["place"] >= 3 for name in losers)
    assert all(seated[name]["rating_after"] > seated[name]["rating_before"] for name in winners)
    mu = dict(rows)
    assert mu[winners[0]] == mu[winners[1]] > NEW[0]  # team-mates move together, a loser's
    assert mu[losers[0]] == mu[losers[1]] < NEW[0]  # place (3 or 4) aside

    # The state message, and its log, name both winners; there is no one winner.
    state = json.loads(encode(table.fanout.state_for(None), "en"))
    assert (state["view"]["winners"], state["view"]["winner"]) == (winners, None)
    assert state["log"][-1] == f"{said} win the game!"

    # The replay, the lobby's recent games and a player's page.
    replay = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"Won by <b>{said}</b>" in replay
    assert steps(client, game_id)[-1]["text"] == f"{said} win the game!"
    assert f"won by {said}" in client.get("/").get_data(as_text=True)
    player = client.get("/players/1").get_data(as_text=True)
    assert f"<td>{said}</td>" in player
    uk = client.get(f"/games/{game_id}?lang=uk").get_data(as_text=True)
    assert "Переможці: <b>" in uk


def test_the_game_won_line_names_every_winner_in_each_language() -> None:
    both = narrate.line(GameWon(("Ann", "Cid (bot)")))
    assert both is not None and both.render("en") == "Ann and Cid (bot) win the game!"
    assert both.render("uk") == "Ann і Cid (бот) виграють гру!"
    assert both.render("ru") == "Ann и Cid (бот) выигрывают игру!"
    one = narrate.line(GameWon("Ann"))
    assert one is not None and one.render("en") == "Ann wins the game!"


def test_every_winner_is_placed_first_even_out_already() -> None:
    match = Match(parse_config(TEAMS))
    match.eliminated = [("Ann", 1), ("Ben", 3), ("Dan", 5)]
    assert match.places(["Ann", "Cid"]) == {"Ann": 1, "Cid": 1, "Dan": 3, "Ben": 4}


def _rated(url: str, sides: list[list[str]]) -> dict[str, tuple[float, float]]:
    """The new (mu, sigma) of four new players after one rated game played in ``sides``: Ann and
    Cid win, Dan is out last, Ben first."""
    config = SimpleNamespace(
        title="teams",
        variants=(),
        rules=SimpleNamespace(options={}),
        preset=None,
        rated=True,
        dice_per_player=1,
    )
    names = ["Ann", "Ben", "Cid", "Dan"]
    history.save_game(
        url,
        {
            "code": "TEAM",
            "config": config,
            "seats": [
                {"seat": seat, "name": name, "player_id": None, "bot_kind": "bot"}
                for seat, name in enumerate(names)
            ],
            "places": {"Ann": 1, "Cid": 1, "Dan": 3, "Ben": 4},
            "winners": ["Ann", "Cid"],
            "sides": sides,
            "events": [],
        },
    )
    with db.engine_for(url).connect() as conn:
        rows = conn.execute(select(db.players.c.nickname, db.players.c.mu, db.players.c.sigma))
        return {row.nickname: (row.mu, row.sigma) for row in rows}


def test_teams_are_rated_as_teams_and_players_alone_by_place(database_url: str) -> None:
    db.init_schema(db.engine_for(database_url))
    teams = _rated(database_url, [["Ann", "Cid"], ["Ben", "Dan"]])
    assert teams["Ann"] == teams["Cid"] and teams["Ann"][0] > NEW[0]
    assert teams["Ben"] == teams["Dan"] and teams["Ben"][0] < NEW[0]


def test_players_alone_are_rated_by_place(tmp_path: Path) -> None:
    url = db.sqlite_url(tmp_path / "alone.sqlite")
    db.init_schema(db.engine_for(url))
    alone = _rated(url, [["Ann"], ["Ben"], ["Cid"], ["Dan"]])
    assert alone["Ann"] == alone["Cid"]  # a tie for first
    assert alone["Dan"][0] > alone["Ben"][0]  # out later, placed higher


def test_a_table_for_teams_needs_an_even_number_of_players(client: Any) -> None:
    odd = {**TEAMS, "seats": 5}
    refused = client.post("/api/validate", json=odd)
    assert refused.status_code == 422 and f"{ODD}, not 5" in refused.json["error"]
    made = client.post("/api/tables", json={**odd, "nickname": "Iris"})
    assert made.status_code == 422 and f"{ODD}, not 5" in made.json["error"]
    assert client.post("/api/validate", json=TEAMS).status_code == 200
    # Without bots, the empty seats are dropped at the start: three players cannot start.
    table = TableSession("TEAM", parse_config({**TEAMS, "bot_kind": "none"}), ManualHub(), 1)
    for player_id, name in enumerate(["Iris", "Knox", "Lu"], 1):
        table.sit(player_id, name, table.join_key)
    with pytest.raises(TableError) as refusal:
        table.start_now()
    assert f"{ODD}, not 3: wait for more players, or add bots" in str(refusal.value)


def test_the_table_and_replay_pages_show_every_winner(
    app: Any, live_server: str, browser: Any
) -> None:
    table = app.extensions["liarsdice_hub"].create(parse_config(TEAMS), public=True)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{live_server}/t/{table.code}")  # a spectator
    page.wait_for_selector(".seat")
    table.start_now()  # bots only
    page.wait_for_selector("#winner", timeout=30_000)
    first, second = table.game.state.winners  # type: ignore[union-attr]
    assert page.inner_text("#winner") == f"★ {first} and {second} win the game!"
    assert page.locator(".seat.winner").count() == 2
    assert "team 1" in page.inner_text("#seats") and "team 2" in page.inner_text("#seats")
    game_id = finished(table)
    page.goto(f"http://{live_server}/games/{game_id}")
    page.click("#last")
    at_last_step(page)
    assert page.locator(".seat.winner").count() == 2
    assert not errors, errors
