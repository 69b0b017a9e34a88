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


CLOCKWISE_CHEKO = """
from liarsdice import VariantInfo, hookimpl


@hookimpl
def liarsdice_variant_info():
    return VariantInfo("Clockwise cheko", "no one one against a one-die neighbour, clockwise")


@hookimpl
def liarsdice_bid_problem(state, player, bid):
    if state.round is None or state.round.bids or (bid.quantity, bid.face) != (1, 1):
        return None
    following = state.next_alive(player)  # always clockwise: the bug
    if state.player(following).dice != 1:
        return None
    return f"clockwise-cheko: {following}, next to bid, has one die"
"""


@pytest.fixture
def clockwise_cheko_source() -> str:
    """cheko as it was before ``engine.next_player``: "the next player" is the next clockwise,
    whichever way play goes. The law "a variant's next player is the player who plays next"
    fails on it."""
    return CLOCKWISE_CHEKO
