"""Variant ``ones-locking`` (seed 001): ones are wild until anyone bids ones, then locked.

Bids on ones are allowed. While nobody has bid ones this round, ones count toward every other face;
once anyone bids any quantity of ones, ones count only as ones until the round ends.
``ones-locking.ones_rank`` places ones below twos (``low``, the default) or above sixes (``high``,
as Big Talk Dice is often played) in the raise order.

Plugin state: ``{"locked": bool}``, set to false in every round's first state.
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice import (
    Bid,
    GameState,
    Notice,
    Options,
    PluginStateSet,
    RankKey,
    VariantInfo,
    hookimpl,
    reads,
)
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text
from liarsdice.options import OptionRegistry
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

NAME = "ones-locking"


def locked(state: GameState) -> bool:
    """True once ones have been bid this round."""
    return bool(state.plugin(NAME).get("locked", False))


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Ones locking"),
        summary=_("Ones are wild until someone bids ones; then they are locked for the round."),
        conflicts=("aces-switch",),
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add(
        "ones_rank",
        "low",
        _("where ones rank among the faces"),
        choices={"low": _("lowest"), "high": _("highest")},
    )


@hookimpl
def liarsdice_combination_problem(options: Options) -> Text | None:
    if not options["standard.wild_ones"]:
        return _(
            "ones-locking needs standard.wild_ones=true: ones must start out wild to be locked"
        )
    return None


@hookimpl
def liarsdice_bid_rank(bid: Bid, options: Options) -> RankKey | None:
    if bid.face == 1 and options["ones-locking.ones_rank"] == "high":
        return (bid.quantity, 7)
    return None


@hookimpl
def liarsdice_face_allowed(face: int) -> bool | None:
    return True if face == 1 else None


@hookimpl
@reads("plugin:ones-locking")
def liarsdice_matching_faces(state: GameState, face: int) -> frozenset[int] | None:
    return frozenset({face}) if locked(state) else None


@hookimpl
def liarsdice_round_started(state: GameState) -> Sequence[Effect]:
    # Set, not left unset, in every round's first state: a round starts in one public state
    # whatever came before (solved rounds are found by it).
    unset = state.plugin(NAME).get("locked") is not False
    return [PluginStateSet(NAME, "locked", False)] if unset else []


@hookimpl
def liarsdice_bid_made(state: GameState, player: str, bid: Bid) -> Sequence[Effect]:
    if bid.face != 1 or locked(state):
        return []
    return [
        PluginStateSet(NAME, "locked", True),
        Notice(
            NAME,
            _("{player} bid ones: ones are locked for the rest of the round", player=player),
            player,
        ),
    ]


@hookimpl
def liarsdice_describe(options: Options) -> RulesText:
    rank = (
        _("Ones rank above sixes: after five sixes, five ones is a raise.")
        if options["ones-locking.ones_rank"] == "high"
        else _("Ones rank below twos: after five ones, five twos is a raise.")
    )
    ones = _("Anyone may bid ones, which locks them for the rest of the round; see Ones locking.")
    own = _(
        """\
Bids on ones are allowed. At the start of every round ones are wild. As soon as anyone bids any
quantity of ones, ones are **locked** for the rest of the round: they count only as ones, not
toward other faces. Bidding ones both attacks and defends: it switches off the table's wild dice.
{rank}""",
        rank=rank,
    )
    return RulesText(text=own, clauses={"wilds.bids": ones})
