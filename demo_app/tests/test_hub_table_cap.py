"""The hub's per-client cap counts live tables only; a second cap bounds every table a client
still holds."""

from __future__ import annotations

from typing import Any

import pytest

from liarsdice_demo.composition import parse_config
from liarsdice_demo.hub import TooManyTables


def test_finished_and_abandoned_tables_leave_the_cap(app: Any, monkeypatch: Any) -> None:
    hub = app.extensions["liarsdice_hub"]
    config = parse_config({"preset": "casino", "seats": 2, "bot_kind": "random"})
    with app.test_request_context("/"):
        tables = [hub.create(config, client="1.2.3.4") for _ in range(5)]
        with pytest.raises(TooManyTables):
            hub.create(config, client="1.2.3.4")
        tables[0].match.status = "over"  # a finished game: no longer counts
        hub.create(config, client="1.2.3.4")
        with pytest.raises(TooManyTables):
            hub.create(config, client="1.2.3.4")
        tables[1].created -= 601  # never started, left for over 10 minutes: abandoned
        hub.create(config, client="1.2.3.4")
        hub.create(config, client="5.6.7.8")  # another client is not affected


def test_a_client_holds_at_most_the_held_cap_of_open_tables(app: Any) -> None:
    hub = app.extensions["liarsdice_hub"]
    app.extensions["liarsdice_hub"].settings["MAX_HELD_TABLES_PER_CLIENT"] = 3
    config = parse_config({"preset": "casino", "seats": 2, "bot_kind": "random"})
    with app.test_request_context("/"):
        for _ in range(3):
            hub.create(config, client="1.2.3.4").match.status = "over"
        with pytest.raises(TooManyTables, match="3 tables still open"):
            hub.create(config, client="1.2.3.4")
