"""The rule-law suite: load the Hypothesis profile named by $HYPOTHESIS_PROFILE (default "fast"),
and the source of a deliberately broken variant that the kit's own tests write to a module."""

import pytest

from liarsdice.testing import register_profiles

register_profiles()

UNFAIR = """
from liarsdice import Resolution, VariantInfo, hookimpl


@hookimpl
def liarsdice_variant_info():
    return VariantInfo("Unfair", "the wrong player loses")


@hookimpl
def liarsdice_resolve_call(state, player, call, count):
    placed = state.round.bids[-1]
    lie = count < placed.bid.quantity
    loser, winner = (player, placed.player) if lie else (placed.player, player)
    return Resolution(call, player, placed.player, placed.bid, count, not lie, (loser,), (winner,))
"""


@pytest.fixture
def unfair_source() -> str:
    """A variant module whose challenge loses the wrong player: the law "a challenge has exactly
    one loser, and the bid stands iff count >= quantity" fails on it."""
    return UNFAIR
