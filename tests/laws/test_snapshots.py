"""The rules-text snapshot (liarsdice.testing.snapshots): a variant's own text and a fingerprint of
its play at each option value, compared with a golden file; a change of behaviour without a change
of text, or the reverse, shows as a diff of that file."""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from liarsdice import Bid, VariantInfo, hookimpl
from liarsdice.options import OptionRegistry
from liarsdice.rulestext import RulesText
from liarsdice.testing import LawViolation
from liarsdice.testing.plugins import extra_variants
from liarsdice.testing.snapshots import check, path_for, snapshot


def toy(refused_face: int = 6, text: str = "Nobody may bid sixes.") -> types.ModuleType:
    """A variant with one option: at level 1 or more, bids on ``refused_face`` are refused."""
    module = types.ModuleType("toy_snapshot")

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo("Toy", "a toy for snapshots")

    @hookimpl
    def liarsdice_register_options(options: OptionRegistry) -> None:
        options.add("level", 0, "how strict the toy is", minimum=0, maximum=2)

    @hookimpl
    def liarsdice_bid_problem(bid: Bid, options: Any) -> str | None:
        if options["toy.level"] >= 1 and bid.face == refused_face:
            return "the toy refuses it"
        return None

    @hookimpl
    def liarsdice_describe(options: Any) -> RulesText:
        level = options["toy.level"]
        return RulesText(text=text if level else "", clauses={"bidding.toy": f"Level {level}."})

    for function in (
        liarsdice_variant_info,
        liarsdice_register_options,
        liarsdice_bid_problem,
        liarsdice_describe,
    ):
        setattr(module, function.__name__, function)
    return module


@pytest.fixture
def installed_toy() -> Iterator[None]:
    with extra_variants({"toy": toy()}):
        yield


def test_the_snapshot_has_each_option_value_its_text_in_every_language_and_a_fingerprint(
    installed_toy: None,
) -> None:
    text = snapshot("toy")
    for heading in ("## defaults", "## toy.level = 1", "## toy.level = 2"):
        assert heading in text
    assert "en: Nobody may bid sixes." in text and "uk [bidding.toy]: Level 2." in text
    assert text.count("behaviour: 12 seeded games at 3 players x 2 dice") == 3


def test_no_golden_file_yet_then_accepted_then_matching(
    installed_toy: None, tmp_path: Path
) -> None:
    path = path_for(tmp_path, "toy")
    assert check("toy", path) == ""  # nothing to compare with: the case is skipped
    assert check("toy", path, accept=True) == f"wrote {path}"
    assert check("toy", path) == f"matches {path}"


def test_a_change_of_behaviour_without_a_change_of_text_shows(tmp_path: Path) -> None:
    path = path_for(tmp_path, "toy")
    with extra_variants({"toy": toy()}):
        check("toy", path, accept=True)
    with extra_variants({"toy": toy(refused_face=5)}), pytest.raises(LawViolation) as caught:
        check("toy", path)
    changed = [line for line in str(caught.value).splitlines() if line[:1] in "+-"]
    changed = [line for line in changed if not line.startswith(("---", "+++"))]
    assert changed and all("behaviour:" in line for line in changed), changed
    assert "pytest --accept-rules-text" in str(caught.value)


def test_a_change_of_text_without_a_change_of_behaviour_shows(tmp_path: Path) -> None:
    path = path_for(tmp_path, "toy")
    with extra_variants({"toy": toy()}):
        check("toy", path, accept=True)
    with extra_variants({"toy": toy(text="Sixes are out.")}), pytest.raises(LawViolation) as caught:
        check("toy", path)
    changed = [line for line in str(caught.value).splitlines() if line[:1] in "+-"]
    changed = [line for line in changed if not line.startswith(("---", "+++"))]
    assert changed and not any("behaviour:" in line for line in changed), changed
    assert any("Sixes are out." in line for line in changed)
