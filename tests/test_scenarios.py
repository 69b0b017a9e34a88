"""Golden scenarios: every tests/scenarios/NNN_*.json with a sibling .out.json is played and its
ruling document must equal the .out.json exactly (like chess perft files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from liarsdice import scenario

HERE = Path(__file__).parent / "scenarios"
GOLDEN = sorted(
    path
    for path in HERE.glob("*.json")
    if not path.name.endswith(".out.json") and path.with_suffix(".out.json").exists()
)


def test_there_are_golden_scenarios() -> None:
    assert len(GOLDEN) >= 6


@pytest.mark.parametrize("path", GOLDEN, ids=[path.name for path in GOLDEN])
def test_golden_scenario(path: Path) -> None:
    expected = json.loads(path.with_suffix(".out.json").read_text(encoding="utf-8"))
    assert scenario.run(scenario.load(path)) == expected
