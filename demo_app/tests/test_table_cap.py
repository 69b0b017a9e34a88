"""The table caps count live tables only, or every open one (liarsdice_demo.tables.table_cap)."""

from __future__ import annotations

from liarsdice_demo.tables.table_cap import counts, held_tables, open_tables


def record(status: str, client: str = "a") -> dict[str, object]:
    return {"status": status, "created": 0.0, "client": client}


def test_a_playing_or_waiting_table_counts() -> None:
    assert counts(record("playing"))
    assert counts(record("waiting"))  # it closes within minutes if nobody sits at it


def test_a_finished_or_stopped_table_does_not_count() -> None:
    assert not counts(record("over"))
    assert not counts(record("stopped"))


def test_five_finished_quick_games_leave_a_solo_player_free() -> None:
    records = [record("over") for _ in range(5)] + [record("playing", client="b")]
    assert open_tables(records, "client", "a") == 0
    assert open_tables([*records, record("playing"), record("waiting")], "client", "a") == 2


def test_every_open_table_counts_toward_the_held_cap() -> None:
    records = [record("over"), record("waiting"), record("playing")]
    assert held_tables([*records, record("over", client="b")], "client", "a") == 3
