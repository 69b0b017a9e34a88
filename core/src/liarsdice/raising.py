"""What a player can bid instead of a bid that does not raise: the lowest raise there is.

Contract: :func:`lowest_raise_hint` is asked by the engine only when a move is refused in play
(never by the enumeration of legal bids, which stays cheap): the words "the lowest raise is 3
fives", with the lowest raise on the refused bid's own face when it is another ("... or 4
threes"), or ``None`` when nothing raises the bid on the table (only a call is left).
"""

from __future__ import annotations

from liarsdice.i18n import Text, _
from liarsdice.legality import lowest_raises
from liarsdice.models import Bid
from liarsdice.reducer import Draft
from liarsdice.ruleset import Ruleset


def lowest_raise_hint(rules: Ruleset, draft: Draft, player: str, refused: Bid) -> Text | None:
    """The lowest bid ``player`` may make now, for a player whose ``refused`` bid did not raise
    the bid on the table; ``None`` when none is left."""
    raises = lowest_raises(rules, draft.freeze(), player)
    if not raises:
        return None
    said = rules.bid_kind.words
    lowest = min(raises.values(), key=rules.rank)
    same = raises.get(refused.face)
    if same is None or same == lowest:
        return _("the lowest raise is {lowest}", lowest=said(lowest))
    return _(
        "the lowest raise is {lowest}, or {same} on the same face",
        lowest=said(lowest),
        same=said(same),
    )
