"""The hub's per-player cap counts live tables only; a second cap bounds every table a player
still holds (the same two, larger, bound an address); a table that never started closes within
minutes unless someone sits at it, and a newcomer at the server's cap is told to come back when
the sweep frees a place."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from liarsdice_demo import create_app
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.expiry import ATTENDED_SECONDS, NEVER_STARTED_SECONDS
from liarsdice_demo.tables.hub import ServerFull, TooManyTables
from liarsdice_demo.tables.room import FULL_RETRY_SECONDS
from liarsdice_demo.tables.sweep import SWEEP_SECONDS

from .conftest import SETTINGS, Tab

CONFIG = {"preset": "casino", "seats": 2, "bot_kind": "random"}


def hosted(app: Any, address: str = "1.2.3.4") -> tuple[Any, str]:
    """A table made by the API from ``address`` (its host seated, no socket), and the host's
    seat token."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    made = client.post("/api/tables", json={"nickname": "Iris", **CONFIG}).json
    assert made["ok"], made
    return app.extensions["liarsdice_hub"].get(made["code"]), made["seat_token"]


IRIS = (7, "Iris")


def test_finished_and_never_started_tables_leave_the_cap(app: Any) -> None:
    hub = app.extensions["liarsdice_hub"]
    config = parse_config(CONFIG)
    with app.test_request_context("/"):
        tables = [hub.create(config, IRIS, client="1.2.3.4") for _ in range(5)]
        with pytest.raises(TooManyTables):
            hub.create(config, IRIS, client="1.2.3.4")
        tables[0].match.status = "over"  # a finished game: no longer counts
        hub.create(config, IRIS, client="1.2.3.4")
        with pytest.raises(TooManyTables):
            hub.create(config, IRIS, client="1.2.3.4")
        tables[1].created -= NEVER_STARTED_SECONDS + 1  # never started, nobody there: it closes
        hub.sweep.run()
        assert hub.get(tables[1].code) is None
        assert hub.get(tables[2].code) is tables[2]  # the younger ones stay
        hub.create(config, IRIS, client="1.2.3.4")
        hub.create(config, (8, "Knox"), client="1.2.3.4")  # her brother, on the same router
        hub.create(config, client="5.6.7.8")  # another client is not affected


def test_a_player_holds_at_most_the_held_cap_of_open_tables(app: Any) -> None:
    hub = app.extensions["liarsdice_hub"]
    hub.settings["MAX_HELD_TABLES_PER_PLAYER"] = 3
    hub.settings["MAX_HELD_TABLES_PER_ADDRESS"] = 5
    config = parse_config(CONFIG)
    with app.test_request_context("/"):
        for _ in range(3):
            hub.create(config, IRIS, client="1.2.3.4").match.status = "over"
        with pytest.raises(TooManyTables, match="you have 3 tables still open"):
            hub.create(config, IRIS, client="1.2.3.4")
        for _ in range(2):
            hub.create(config, (8, "Knox"), client="1.2.3.4").match.status = "over"
        with pytest.raises(TooManyTables, match="5 tables made from your internet connection"):
            hub.create(config, (9, "Lu"), client="1.2.3.4")


def test_a_started_table_is_not_closed_for_its_age(app: Any) -> None:
    hub = app.extensions["liarsdice_hub"]
    with app.test_request_context("/"):
        table = hub.create(parse_config(CONFIG), start=True)
    table.created -= ATTENDED_SECONDS + 1
    hub.sweep.run()
    assert hub.get(table.code) is table


def test_a_host_at_the_table_keeps_it_waiting_for_up_to_an_hour(app: Any) -> None:
    hub = app.extensions["liarsdice_hub"]
    table, token = hosted(app)
    tab = Tab()
    table.attach(tab, token)  # the host has the table open
    table.created -= NEVER_STARTED_SECONDS + 60
    hub.sweep.run()
    assert hub.get(table.code) is table
    # The host's page reloads, or the phone loses the network: the table waits for them.
    table.detach(tab)
    hub.sweep.run()
    assert hub.get(table.code) is table
    hub.sweep.seen[table.code] -= NEVER_STARTED_SECONDS + 1  # ... but not for more than 5 minutes
    hub.sweep.run()
    assert hub.get(table.code) is None
    # However long the host stays, a table that never started closes an hour after it was made.
    again, token = hosted(app)
    again.attach(Tab(), token)
    again.created -= ATTENDED_SECONDS - 30
    hub.sweep.run()
    assert hub.get(again.code) is again
    again.created -= 31
    hub.sweep.run()
    assert hub.get(again.code) is None


def test_a_never_started_table_closes_after_a_restart_too(tmp_path: Path) -> None:
    settings = {**SETTINGS, "DATABASE": str(tmp_path / "demo.sqlite")}
    first = create_app(settings)
    try:
        table, _ = hosted(first)
        with table.lock:  # made 5 minutes ago, as the store keeps it
            table.created -= NEVER_STARTED_SECONDS + 1
            table.storage.persist()
    finally:
        first.extensions["liarsdice_hub"].shutdown()
    second = create_app(settings)
    try:
        hub = second.extensions["liarsdice_hub"]
        assert hub.get(table.code) is not None  # restored...
        hub.sweep.run()
        assert hub.get(table.code) is None  # ... and closed at the first sweep
    finally:
        hub.shutdown()


def test_a_newcomer_at_the_server_cap_waits_for_the_sweep_that_frees_a_place(app: Any) -> None:
    hub = app.extensions["liarsdice_hub"]
    hub.settings["MAX_TABLES"] = 3
    tables = [hosted(app, f"10.0.{n}.1")[0] for n in range(3)]
    with app.test_request_context("/"), pytest.raises(ServerFull) as full:
        hub.check_room("10.0.9.1")
    # All three were just made: the first closes 5 minutes from now, at the sweep after that.
    assert NEVER_STARTED_SECONDS <= full.value.retry_after <= NEVER_STARTED_SECONDS + SWEEP_SECONDS
    assert f"try again in {math.ceil(full.value.retry_after / 60)} minutes" in str(full.value)
    newcomer = app.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = "10.0.9.1"
    answer = newcomer.post("/api/tables", json={"nickname": "Knox", **CONFIG})
    assert answer.status_code == 503 and answer.json["ok"] is False
    assert answer.headers["Retry-After"] == str(answer.json["retry_after"])
    minutes = math.ceil(int(answer.headers["Retry-After"]) / 60)
    assert f"try again in {minutes} minutes" in answer.json["error"]
    tables[1].created -= NEVER_STARTED_SECONDS - 10  # this one closes in 10 s: at the next sweep
    with app.test_request_context("/"), pytest.raises(ServerFull) as full:
        hub.check_room("10.0.9.1")
    assert 10 <= full.value.retry_after <= SWEEP_SECONDS
    hub.sweep.next_at -= SWEEP_SECONDS  # the sweep is due: it frees the place
    tables[1].created -= 10
    hub.sweep.run()
    with app.test_request_context("/"):
        hub.check_room("10.0.9.1")


def test_a_full_server_of_games_being_played_says_a_minute(app: Any) -> None:
    hub = app.extensions["liarsdice_hub"]
    hub.settings["MAX_TABLES"] = 2
    hub.settings["BOT_DELAY"] = 600  # the bots' games stay in play (at once, one could end first)
    with app.test_request_context("/"):
        for _ in range(2):
            hub.create(parse_config(CONFIG), start=True)
        with pytest.raises(ServerFull) as full:
            hub.check_room(None)
    # When a game ends is not known: the newcomer asks again in a minute.
    assert full.value.retry_after == FULL_RETRY_SECONDS
