"""The sweep's figures for strength 3 and every combination, as docs/testing.md and the README
state them (counting them takes minutes, so they are checked here, in ``tox -e props``)."""

from __future__ import annotations

import re
from pathlib import Path

from liarsdice.testing.suite import valid_combinations
from liarsdice.testing.suite.plan import Request, load_plan

ROOT = Path(__file__).resolve().parents[2]
TESTING = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
README = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


def row(cover: str) -> list[int]:
    found = re.search(rf"^\| `{cover}`[^|]*\|(.*)$", TESTING, re.M)
    assert found, f"docs/testing.md has no row for --props-cover {cover}"
    return [int(number.replace(",", "")) for number in re.findall(r"\d[\d,]*", found.group(1))]


def test_the_three_way_plan_is_as_the_docs_say(tmp_path: Path) -> None:
    three, _ = load_plan(Request("cover", 3), tmp_path)
    assert row("3") == [len(three.rows), three.covered, three.tuples]
    assert f"every triple ({len(three.rows):,} rulesets" in README


def test_every_valid_combination_is_counted_as_the_docs_say() -> None:
    count = len(valid_combinations())
    assert row("all") == [count]
    assert f"every valid combination ({count:,} of them" in README
