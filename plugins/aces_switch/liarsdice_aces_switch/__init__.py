"""Variant ``aces-switch`` (seeds 002, 004): bids on ones are allowed and ones count double.

The raise order is a total order given by a key: ``(q, face)`` for faces 2-6 and, for q ones,
``(2q, 6.5)`` with ``aces-switch.back=double-plus-one`` (in from q of a face needs ceil(q/2) ones;
back from q ones needs 2q+1 of a face) or ``(2q - 1, 6.5)`` with ``back=double`` (back needs 2q, so
the way in needs more than half, floor(q/2)+1 — seed 003's "half up, then double" would loop).
``aces-switch.open_on_ones`` says whether a round may open on ones.
"""

from __future__ import annotations

from liarsdice import Bid, GameState, Options, RankKey, VariantInfo, hookimpl, reads
from liarsdice.i18n import Catalog, Text
from liarsdice.options import OptionRegistry
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

NO_OPENING_ON_ONES = _("aces-switch: a round may not open on ones")

NAME = "aces-switch"


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Aces switch"),
        summary=_(
            "Bids on ones count double: half the quantity to switch in, double plus one back."
        ),
        conflicts=("ones-locking",),
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add(
        "back",
        "double-plus-one",
        _("back from ones: what a bid on another face needs after a bid on ones"),
        choices={
            "double-plus-one": _("twice the ones plus one (to ones: half, rounded up)"),
            "double": _("twice the ones (to ones: more than half)"),
        },
    )
    options.add("open_on_ones", True, _("may a round open with a bid on ones"))


@hookimpl
def liarsdice_combination_problem(options: Options) -> Text | None:
    if not options["standard.wild_ones"]:
        return _(
            "aces-switch needs standard.wild_ones=true: ones count double because they are wild"
        )
    return None


@hookimpl
def liarsdice_bid_rank(bid: Bid, options: Options) -> RankKey | None:
    if bid.face != 1:
        return None
    doubled = 2 * bid.quantity
    return (doubled if options["aces-switch.back"] == "double-plus-one" else doubled - 1, 6.5)


@hookimpl
@reads("opening")
def liarsdice_face_allowed(state: GameState, face: int, options: Options) -> bool | Text | None:
    if face != 1:
        return None
    opening = state.round is None or not state.round.bids
    if opening and not options["aces-switch.open_on_ones"]:
        return NO_OPENING_ON_ONES
    return True


@hookimpl
def liarsdice_describe(options: Options) -> RulesText:
    if options["aces-switch.back"] == "double-plus-one":
        switch = _(
            "To switch from a face to ones, bid at least half the quantity, rounded up: after six "
            "fives, three ones. To switch back, bid at least twice the ones plus one: after three "
            "ones, seven of a face."
        )
    else:
        switch = _(
            "To switch from a face to ones, bid more than half the quantity: after six fives, four "
            "ones. To switch back, bid at least twice the ones: after three ones, six of a face."
        )
    opening = (
        _("A round may open on ones.")
        if options["aces-switch.open_on_ones"]
        else _("A round may not open on ones.")
    )
    own = _(
        """\
Bids on ones (aces) are allowed, and because ones are wild they count double. A bid on ones counts
only the ones on the table. {switch} From ones to ones, raise the quantity. Among faces 2 to 6 the
usual raises apply. {opening}""",
        switch=switch,
        opening=opening,
    )
    bids = _("Bids on ones are allowed all the same, and count double; see Aces switch.")
    return RulesText(text=own, clauses={"wilds.bids": bids})
