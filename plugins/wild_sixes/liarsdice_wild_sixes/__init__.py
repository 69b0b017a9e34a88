"""Variant ``wild-sixes``: sixes are wild instead of ones (OpenSpiel's liar's dice, many bar tables).

Every die showing 6 counts toward a bid on any other face; a bid on sixes counts sixes alone.
``wild-sixes.bid_sixes`` says whether sixes may be bid at all while they are wild (OpenSpiel allows
it; tables that treat the wild face as the baseline treats ones do not). Ones are an ordinary face,
the lowest: the variant sets ``standard.wild_ones`` to false by default, and refuses a table that
sets it to true.
"""

from __future__ import annotations

from liarsdice import Options, VariantInfo, hookimpl
from liarsdice.i18n import Catalog, Text
from liarsdice.options import OptionRegistry
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

NO_BIDS_ON_SIXES = _("sixes are wild: no bids on sixes")

NAME = "wild-sixes"
WILD = 6
_COUNTED = {face: frozenset({face, WILD}) for face in range(1, 6)} | {WILD: frozenset({WILD})}


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Wild sixes"),
        summary=_("Sixes are wild instead of ones: every six counts toward any other face."),
        conflicts=("aces-switch", "ones-locking"),
        option_defaults={"standard.wild_ones": False},
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add("bid_sixes", True, _("sixes may be bid while they are wild (counting sixes alone)"))


@hookimpl
def liarsdice_combination_problem(options: Options) -> Text | None:
    if options["standard.wild_ones"]:
        return _(
            "wild-sixes makes sixes the wild face, so ones cannot be wild too: "
            "drop standard.wild_ones=true"
        )
    return None


@hookimpl
def liarsdice_matching_faces(face: int) -> frozenset[int]:
    return _COUNTED[face]


@hookimpl
def liarsdice_face_allowed(face: int, options: Options) -> Text | None:
    if face == WILD and not options["wild-sixes.bid_sixes"]:
        return NO_BIDS_ON_SIXES
    return None


@hookimpl
def liarsdice_describe(options: Options) -> RulesText:
    if options["wild-sixes.bid_sixes"]:
        bids = _(
            "Sixes may be bid all the same: a bid on sixes counts sixes alone. Ones are an "
            "ordinary face, the lowest."
        )
    else:
        bids = _(
            "A bid on sixes would count them twice, so nobody may bid sixes. Ones are an "
            "ordinary face, the lowest."
        )
    return RulesText(
        text=_(
            "The wild face is the six, not the one, as in OpenSpiel's liar's dice and at many bar "
            "tables. Count sixes toward every bid on another face."
        ),
        clauses={
            "wilds.which": _(
                "Sixes are wild: every die showing 6 also counts toward a bid on any other face."
            ),
            "wilds.bids": bids,
        },
    )
