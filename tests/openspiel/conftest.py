"""Rulesets for the tests of the OpenSpiel bridge (the test modules skip without OpenSpiel, unless
CI is set: then a missing OpenSpiel fails them)."""

from __future__ import annotations

import pytest

from liarsdice import Ruleset


@pytest.fixture(scope="session")
def equivalent_rules() -> Ruleset:
    """OpenSpiel's ``liars_dice``: wild sixes (which may be bid), a lost challenge is the game."""
    return Ruleset.build(["wild-sixes", "dice-loss"])
