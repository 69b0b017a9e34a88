"""When a table that never started closes, and the wait until the sweep that frees a place
(liarsdice_demo.tables.expiry)."""

from __future__ import annotations

import pytest

from liarsdice_demo.tables.expiry import (
    ATTENDED_SECONDS,
    NEVER_STARTED_SECONDS,
    attended,
    closes_at,
    first_sweep,
)

MADE = 1_000_000.0


def test_nobody_seated_closes_five_minutes_after_it_was_made() -> None:
    assert NEVER_STARTED_SECONDS == 300
    assert closes_at("waiting", MADE, False, None) == MADE + NEVER_STARTED_SECONDS


def test_a_player_last_seen_later_gives_five_minutes_from_then() -> None:
    seen = MADE + 1000
    assert closes_at("waiting", MADE, False, seen) == seen + NEVER_STARTED_SECONDS
    # but never past the hour
    assert closes_at("waiting", MADE, False, MADE + ATTENDED_SECONDS) == MADE + ATTENDED_SECONDS


def test_a_player_seated_there_keeps_it_for_an_hour() -> None:
    assert closes_at("waiting", MADE, True, MADE) == MADE + ATTENDED_SECONDS


@pytest.mark.parametrize("status", ["playing", "over", "stopped"])
def test_a_table_whose_game_started_is_not_closed_by_this_rule(status: str) -> None:
    assert closes_at(status, MADE, False, None) is None


def test_only_a_seated_human_with_a_socket_attends() -> None:
    human = {"kind": "human", "nodes": ["host:1:ab"]}
    assert attended({"seats": [None, human]})
    assert not attended({"seats": [{**human, "nodes": []}, None]})
    assert not attended({"seats": [{"kind": "bot", "nodes": ["host:1:ab"]}]})
    assert not attended({})


@pytest.mark.parametrize(
    ("delay", "expected"),
    [(-5.0, 20), (0.0, 20), (20.0, 20), (20.5, 80), (80.0, 80), (81.0, 140), (300.0, 320)],
)
def test_the_wait_is_until_the_first_sweep_at_or_after_the_closing(
    delay: float, expected: int
) -> None:
    assert first_sweep(delay, 20.0, 60.0) == expected


def test_the_wait_is_at_least_a_second() -> None:
    assert first_sweep(-3.0, 0.2, 60.0) == 1
