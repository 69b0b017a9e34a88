"""Variant ``pip-sum``: bids on the total of the pips under every cup, not on a face.

A bid is a total: "a total of 23" claims that the pips of all the dice on the table add up to at
least 23. With ``n`` dice in play the bids run from ``n`` (every die a one) to ``6n``; a raise
names a higher total. A challenge lifts the cups and adds up the pips: the bid stands when the
sum reaches the total. Calza's exact call, where it plays, is right when the sum is the total.
No die is wild (``standard.wild_ones`` is off, and the variant refuses a table that turns it
on), and the variants that speak of faces (which faces may be bid, or counted) cannot be played
with it.

This is a bid kind of its own (:class:`PipTotal`, through ``liarsdice_bid_kind``): its ``Bid``
is ``Bid(total, 0)``, its words are "a total of 23", a ruling reports "23 pips", and its
distribution is exact (the sum of the unseen dice, convolved), so the odds and the bots play it
without sampling.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Sequence

from liarsdice import Bid, BidKind, Options, RankKey, VariantInfo, hookimpl
from liarsdice.i18n import Catalog, Text
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

NAME = "pip-sum"

#: The variants whose rules speak of faces: what may be bid on a face, which faces count.
FACE_VARIANTS = ("aces-switch", "bluff", "cheko", "ones-locking", "palifico", "wild-sixes")


@functools.cache
def sum_pmf(dice: int) -> tuple[float, ...]:
    """P(the pips of ``dice`` fair dice add up to s), for s = 0..6 * dice (index = sum)."""
    pmf = [1.0]
    for _die in range(dice):
        out = [0.0] * (len(pmf) + 6)
        for total, chance in enumerate(pmf):
            if chance:
                for face in range(1, 7):
                    out[total + face] += chance / 6
        pmf = out
    return tuple(pmf)


class PipTotal(BidKind):
    """ "The pips on the table add up to at least ``quantity``": ``Bid(total, 0)``, for a total
    from the dice in play to six times as many."""

    name = "pips"
    fields = ("total",)
    names_faces = False

    def bids(self, dice_in_play: int) -> Iterable[Bid]:
        return (Bid(total, 0) for total in range(dice_in_play, 6 * dice_in_play + 1))

    def shape_problem(self, bid: Bid, dice_in_play: int) -> Text | None:
        if bid.face != 0:
            return _(
                "pip-sum: a bid is a total of pips, with no face (face 0, not {face})",
                face=bid.face,
            )
        if not dice_in_play <= bid.quantity <= 6 * dice_in_play:
            return _(
                "pip-sum: with {n} dice in play a total is {low} to {high}, not {total}",
                n=dice_in_play,
                low=dice_in_play,
                high=6 * dice_in_play,
                total=bid.quantity,
            )
        return None

    def value(self, bid: Bid, dice: Iterable[int], matching: Collection[int]) -> int:
        return sum(dice)

    def words(self, bid: Bid) -> Text:
        # Translators: a bid as the object of a verb ("bids a total of 23"): accusative.
        return _("a total of {total}", total=bid.quantity)

    def value_words(self, value: int) -> Text:
        return _n("{n} pip", "{n} pips", n=value)

    def distribution(
        self, bid: Bid, known: Sequence[int], unknown: int, matching: Collection[int]
    ) -> Sequence[float]:
        seen = sum(known)
        return (0.0,) * seen + sum_pmf(unknown)


PIP_TOTAL = PipTotal()


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Sum of pips"),
        summary=_("Bids name the total of the pips under every cup, not a face."),
        conflicts=FACE_VARIANTS,
        option_defaults={"standard.wild_ones": False},
    )


@hookimpl
def liarsdice_combination_problem(options: Options) -> Text | None:
    if options["standard.wild_ones"]:
        return _("pip-sum adds up the pips, so no die can be wild: drop standard.wild_ones=true")
    return None


@hookimpl
def liarsdice_bid_kind() -> BidKind:
    return PIP_TOTAL


@hookimpl
def liarsdice_bid_rank(bid: Bid) -> RankKey:
    return (bid.quantity, 0)


@hookimpl
def liarsdice_describe() -> RulesText:
    return RulesText(
        text=_(
            "Bids name a total of pips, not a face: add up the pips of every die under every cup."
        ),
        clauses={
            "bidding.claim": _(
                'The opener bids a total: "a total of 23" claims that the pips of all the dice '
                "on the table add up to at least 23."
            ),
            "bidding.raise": _("A raise names a higher total."),
            "bidding.limit": _(
                "A total lies between the number of dice in play (every die a one) and six "
                "times as many (every die a six)."
            ),
            "wilds.which": _("No die is wild: every die counts its own pips."),
            "wilds.bids": "",
            "challenge.count": _("All cups are lifted and every die's pips added up."),
            "challenge.verdict": _(
                "If the sum reaches the total the bid stands and the challenger loses the round "
                "(an exactly true bid stands); otherwise the bidder loses. Exactly one player "
                "loses a challenge."
            ),
        },
    )
