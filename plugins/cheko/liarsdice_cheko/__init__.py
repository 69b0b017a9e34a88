"""Variant ``cheko`` (seed 002): no opening with "one one" against a player with one die.

If the player who bids after the opener has a single die left, the opener may not open the round
with a bid of one one: it would leave that player almost no way to raise. "After" is in the order
of play (:func:`liarsdice.engine.next_player`): clockwise, unless a variant plays the other way.
"""

from __future__ import annotations

from liarsdice import Bid, GameState, Ruleset, VariantInfo, engine, hookimpl
from liarsdice.i18n import Catalog, Text

_, _n = Catalog(__name__).markers()

NAME = "cheko"


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Cheko house rule"),
        summary=_('No opening with "one one" when the next player has one die.'),
    )


@hookimpl
def liarsdice_bid_problem(rules: Ruleset, state: GameState, player: str, bid: Bid) -> Text | None:
    if state.round is None or state.round.bids or (bid.quantity, bid.face) != (1, 1):
        return None
    following = engine.next_player(rules, state, player)
    if state.player(following).dice != 1:
        return None
    return _(
        'cheko: the opener may not open with "one one" when {player}, next to bid, has one die',
        player=following,
    )


@hookimpl
def liarsdice_describe() -> Text:
    return _(
        """\
If the player after the opener has a single die left, the opener may not open the round with "one
one": a bid that low on ones would leave that player almost no way to raise."""
    )
