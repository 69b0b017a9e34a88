"""The sweep's figures that docs/testing.md and the README state are the ones the code gives: the
plans' sizes and what they cover. Strength 1 and 2 here; strength 3 and every combination, which
take minutes to count, in the sweep itself (tests/props/test_figures.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from liarsdice.testing.suite.plan import Plan, Request, load_plan

ROOT = Path(__file__).resolve().parents[2]
TESTING = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def row(cover: str) -> list[int]:
    """The numbers of the plans table's row for ``--props-cover cover``, in order."""
    found = re.search(rf"^\| `{cover}`[^|]*\|(.*)$", TESTING, re.M)
    assert found, f"docs/testing.md has no row for --props-cover {cover}"
    return [int(number.replace(",", "")) for number in re.findall(r"\d[\d,]*", found.group(1))]


@pytest.fixture
def plans(pytestconfig: pytest.Config, tmp_path: Path) -> Path:
    """Where plans are kept: pytest's cache, or a fresh folder under ``-p no:cacheprovider``."""
    cache = getattr(pytestconfig, "cache", None)
    return Path(cache.mkdir("liarsdice-props")) if cache is not None else tmp_path


def plan(strength: int, plans: Path) -> Plan:
    made, _ = load_plan(Request("cover", strength), plans)
    return made


def test_the_one_way_plan_is_as_the_docs_say(plans: Path) -> None:
    one = plan(1, plans)
    assert row("1") == [len(one.rows)]


def test_the_pairwise_plan_is_as_the_docs_and_the_readme_say(plans: Path) -> None:
    two = plan(2, plans)
    refused = two.tuples - two.covered
    assert row("2") == [len(two.rows), two.covered, two.tuples, refused]
    assert f"({len(two.rows):,} rulesets today for {two.tuples:,} pairs; {refused:,} pairs" in (
        " ".join(README.split())
    )
    assert f"{len(two.rows):,} rulesets; {two.covered:,} of {two.tuples:,} 2-tuples" in TESTING
