"""A table whose rules cannot finish a game stops at the ruleset's move limit, tells every seat
and spectator why, saves nothing and is no longer live."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from liarsdice.testing.plugins import Immortal, extra_variants
from liarsdice_demo.edge.protocol import Intent
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.table import TableSession

from .conftest import Conn, ManualHub


@pytest.fixture
def immortal() -> Iterator[None]:
    with extra_variants({"immortal": Immortal()}):
        yield


def test_a_table_whose_rules_cannot_finish_stops_and_tells_everyone(immortal: None) -> None:
    config = parse_config(
        {"variants": ["dice-loss", "immortal"], "seats": 2, "dice_per_player": 1, "rated": True}
    )
    hub = ManualHub()
    table = TableSession("STUK", config, hub, host_player=1)
    seat = table.sit(1, "Iris")
    human, spectator = Conn(), Conn()
    table.attach(human, table.seat_token(seat))
    table.attach(spectator, None)
    table.start_now()  # Iris and a random bot; Iris sleeps through every turn
    limit = config.rules.move_limit(2, 1)
    for _ in range(10_000):
        if not hub.scheduler.jobs:
            break
        hub.scheduler.jobs.popleft()()
    assert table.status == "stopped" and table.game is not None and not table.game.over
    assert limit.moves == 13 and table.match.moves == limit.moves
    for conn in (human, spectator):
        (stopped,) = conn.of("stopped")
        assert stopped["moves"] == 13
        assert stopped["reason"] == (
            "This table's rules could not finish the game: it was stopped with no winner after 13 "
            f"moves, the most they allow {limit.explain()}. The game is not saved or rated."
        )
        last = conn.of("state")[-1]
        assert last["table"]["status"] == "stopped"
        assert last["table"]["stopped"] == stopped["reason"]
        assert last["legal"] is None and last["table"]["remaining"] is None
        assert "The game is stopped: no winner after 13 moves." in last["log"]
    assert hub.scheduler.submitted == []  # nothing saved, nothing rated
    assert table.summary()["status"] == "stopped"
    # No longer live: no move, no rematch, and the clock and the bots do nothing.
    table.handle(human, Intent("rematch", {}))
    table.handle(human, Intent("bid", {"quantity": 1, "face": 2}))
    errors = [data["error"] for data in human.of("error")]
    assert errors == [
        "this table's rules could not finish a game: open a new table",
        "no game is being played at this table",
    ]
    moves = len(table.game.events)
    while hub.scheduler.jobs:
        hub.scheduler.jobs.popleft()()
    assert len(table.game.events) == moves


def test_a_table_whose_rules_finish_is_never_stopped() -> None:
    config = parse_config({"variants": ["dice-loss", "calza"], "seats": 3, "dice_per_player": 2})
    hub = ManualHub()
    table = TableSession("DUDO", config, hub, host_player=None)
    table.start_now()
    for _ in range(100_000):
        if not hub.scheduler.jobs or table.status != "playing":
            break
        hub.scheduler.jobs.popleft()()
    assert table.status == "over" and table.stopped is None
    assert table.match.moves <= config.rules.move_limit(3, 2).moves
