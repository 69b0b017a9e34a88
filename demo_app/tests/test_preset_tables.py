"""Tables and the sizes their presets take: a preset for three or more players never starts with
two, one the demo cannot seat is offered but not chosen, and a combination is checked before its
table is."""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

import pytest

from liarsdice import VariantInfo, hookimpl
from liarsdice.presets import PresetRegistry
from liarsdice.testing.plugins import extra_variants
from liarsdice_demo.tables.composition import parse_config
from liarsdice_demo.tables.table import TableSession
from liarsdice_demo.tables.table_errors import TableError

from .conftest import ManualHub


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo("Club presets", "presets only")


@hookimpl
def liarsdice_register_presets(presets: PresetRegistry) -> None:
    common = {"source": "our club", "summary": "Dice loss.", "variants": ("dice-loss",)}
    presets.add("trio", title="Three or more", players=(3, 6), **common)
    presets.add("crowd", title="A crowd", players=(8, 10), **common)
    presets.add("threes", title="Three dice", dice=(3, 3), **common)


CLUB = types.ModuleType("club")
CLUB.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
CLUB.liarsdice_register_presets = liarsdice_register_presets  # type: ignore[attr-defined]


@pytest.fixture
def club() -> Iterator[None]:
    with extra_variants({"club": CLUB}):
        yield


def test_a_preset_for_three_does_not_start_with_two_and_keeps_its_seats(club: None) -> None:
    config = parse_config({"preset": "trio", "seats": 4, "bot_kind": "none"})
    table = TableSession("TRIO", config, ManualHub(), host_player=1)
    table.sit(1, "Iris")
    table.sit(2, "Knox", table.join_key)
    with pytest.raises(TableError) as refused:
        table.start_now()
    assert str(refused.value) == (
        "the trio preset is for 3 to 6 players, not 2: wait for more players, or add bots"
    )
    assert table.status == "waiting" and len(table.seating.seats) == 4  # no seat was dropped
    table.sit(3, "Lee", table.join_key)
    table.start_now()
    assert table.status == "playing" and len(table.game.state.players) == 3


def test_with_bots_the_empty_seats_count(club: None) -> None:
    config = parse_config({"preset": "trio", "seats": 3, "bot_kind": "random"})
    table = TableSession("BOTS", config, ManualHub(), host_player=1)
    table.sit(1, "Iris")
    table.start_now()
    assert len(table.game.state.players) == 3


def test_a_preset_the_demo_cannot_seat_is_shown_but_not_chosen(club: None, client: Any) -> None:
    presets = {p["name"]: p for p in client.get("/api/catalog").json["presets"]}
    assert presets["crowd"]["fits_demo"] is False and presets["trio"]["fits_demo"] is True
    assert presets["crowd"]["table_line"] == "Table: 8 to 10 players."
    page = client.get("/").get_data(as_text=True)
    assert '<option value="crowd" title="crowd" disabled>A crowd — 8 to 10 players</option>' in page
    assert '<option value="trio" title="trio">Three or more</option>' in page


def test_a_combination_is_checked_before_its_table(club: None, client: Any) -> None:
    assert client.post("/api/validate", json={"preset": "threes"}).json["ok"]
    answer = client.post("/api/validate", json={"preset": "threes", "dice_per_player": 5})
    assert answer.json["error"] == "the threes preset is for 3 dice each, not 5"
    answer = client.post("/api/validate", json={"preset": "threes", "dice_per_player": ""})
    assert answer.json["ok"]  # an emptied input is not a table yet
    made = client.post("/api/tables", json={"nickname": "Iris", "preset": "threes"})
    assert made.status_code == 422  # a table is made at 5 dice each unless told
    made = client.post(
        "/api/tables", json={"nickname": "Iris", "preset": "threes", "dice_per_player": 3}
    )
    assert made.json["ok"]
