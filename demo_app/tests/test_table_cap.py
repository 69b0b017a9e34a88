"""The per-client table cap counts live tables only (liarsdice_demo.table_cap)."""

from __future__ import annotations

from liarsdice_demo.table_cap import WAITING_SECONDS, counts, held_tables, open_tables

NOW = 1_000_000.0


def record(status: str, age: float = 0.0, client: str = "a") -> dict[str, object]:
    return {"status": status, "created": NOW - age, "client": client}


def test_a_playing_table_counts_however_old() -> None:
    assert counts(record("playing", age=10 * WAITING_SECONDS), NOW)


def test_a_finished_or_stopped_table_does_not_count() -> None:
    assert not counts(record("over"), NOW)
    assert not counts(record("stopped"), NOW)


def test_a_waiting_table_counts_until_it_is_abandoned() -> None:
    assert counts(record("waiting", age=WAITING_SECONDS - 1), NOW)
    assert not counts(record("waiting", age=WAITING_SECONDS + 1), NOW)


def test_five_finished_quick_games_leave_a_solo_player_free() -> None:
    records = [record("over") for _ in range(5)] + [record("playing", client="b")]
    assert open_tables(records, "a", NOW) == 0
    assert open_tables([*records, record("playing")], "a", NOW) == 1


def test_every_open_table_counts_toward_the_held_cap() -> None:
    records = [record("over"), record("waiting", age=10 * WAITING_SECONDS), record("playing")]
    assert held_tables([*records, record("over", client="b")], "a") == 3
