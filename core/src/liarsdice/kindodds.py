"""The odds page of a table whose bids are not counts of a face (:mod:`liarsdice.bidkinds`).

:func:`kind_odds` lists every bid of the ruleset's kind with ``dice_in_play`` dice on the table:
the chance it is true (its value reaches its quantity) and exactly right, for a player holding
``hand`` (known) with the rest unseen, from :func:`liarsdice.odds.bid_chances`; ``method`` says
how they were found: ``"exact"`` (the kind's distribution) or ``"sampled"`` (seeded deals of the
unseen dice, :data:`liarsdice.odds.SAMPLES` of them). ``liarsdice odds`` prints it and the demo
app shows it; the page of a count of a face is :mod:`liarsdice.oddspage`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from liarsdice import odds
from liarsdice.i18n import Text
from liarsdice.models import Bid, opening_state
from liarsdice.ruleset import Ruleset


@attrs.frozen
class BidChance:
    """One bid, as players say it, and its chances of being true and exactly right."""

    bid: Bid
    words: Text
    at_least: float
    exactly: float


@attrs.frozen
class KindOdds:
    """Every bid of the ruleset's kind with ``dice_in_play`` dice, for a player holding ``hand``;
    ``method`` is ``"exact"`` or ``"sampled"``."""

    kind: str
    dice_in_play: int
    hand: tuple[int, ...]
    unknown: int
    method: str
    rows: tuple[BidChance, ...]

    def as_dict(self) -> dict[str, Any]:
        """Plain data, ready for ``json.dumps`` (bids as ``[quantity, face]``, words in English)."""
        return {
            "kind": self.kind,
            "dice_in_play": self.dice_in_play,
            "hand": list(self.hand),
            "unknown": self.unknown,
            "method": self.method,
            "rows": [
                {
                    "bid": [row.bid.quantity, row.bid.face],
                    "words": row.words.render("en"),
                    "at_least": row.at_least,
                    "exactly": row.exactly,
                }
                for row in self.rows
            ],
        }


def kind_odds(rules: Ruleset, dice_in_play: int, hand: Iterable[int] | None = None) -> KindOdds:
    """The chances of every bid of ``rules``'s kind with ``dice_in_play`` dice on the table, for
    a player holding ``hand``. Raises ``ValueError`` for a die outside 1-6, fewer than 1 die in
    play, or a hand larger than the dice in play."""
    hand = odds.seen_hand(dice_in_play, hand)
    kind = rules.bid_kind
    state = opening_state(dice_in_play, hand)
    unknown = dice_in_play - len(hand)
    rows = []
    method = "exact"
    for bid in sorted(kind.bids(dice_in_play), key=rules.rank):
        chances = odds.bid_chances(rules, state, bid, hand, unknown)
        if isinstance(chances, odds.ValueOutlook) and chances.method != "exact":
            method = chances.method
        rows.append(
            BidChance(
                bid, kind.words(bid), chances.at_least(bid.quantity), chances.exactly(bid.quantity)
            )
        )
    return KindOdds(kind.name, dice_in_play, hand, unknown, method, tuple(rows))
