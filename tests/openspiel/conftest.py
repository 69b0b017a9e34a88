"""Rulesets for the tests of the OpenSpiel bridge (the test modules skip without OpenSpiel, unless
CI is set: then a missing OpenSpiel fails them)."""

from __future__ import annotations

import types

import pytest

from liarsdice import Ruleset, VariantInfo, hookimpl
from liarsdice.testing.plugins import extra_variants


@pytest.fixture(scope="session")
def equivalent_rules() -> Ruleset:
    """OpenSpiel's ``liars_dice``: wild sixes (which may be bid), a lost challenge is the game."""
    return Ruleset.build(["wild-sixes", "dice-loss"])


def two_faces_plugin() -> types.ModuleType:
    """A variant under which only ones and twos may be bid: a game small enough to solve."""
    plugin = types.ModuleType("two_faces")

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo(title="Two faces", summary="Only ones and twos may be bid.")

    @hookimpl
    def liarsdice_face_allowed(face: int) -> str | None:
        return None if face <= 2 else "only ones and twos may be bid"

    plugin.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    plugin.liarsdice_face_allowed = liarsdice_face_allowed  # type: ignore[attr-defined]
    return plugin


@pytest.fixture(scope="session")
def two_faces_rules() -> Ruleset:
    """Dice loss with no wild face, bids on ones and twos only: 4 rungs at 2 x 1."""
    with extra_variants({"two-faces": two_faces_plugin()}):
        return Ruleset.build(["two-faces", "dice-loss"], {"standard.wild_ones": False})
