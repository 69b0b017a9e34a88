"""Variant ``difference``: the loser of a challenge loses as many dice as the bid was off by.

As some dudo tables play. When the cups are lifted, the loser gives up one die for every die the
bid was off by — ``|count - quantity|`` — and at least one: a bidder caught short by three loses
three; a challenger who called a bid that held with two to spare loses two; calling a bid that
was exactly right costs one. A timeout costs one die. ``difference.cap`` limits a single loss
(0: no limit). A loss larger than the dice held takes what is there: the engine clamps it.
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice import (
    DiceChanged,
    GameLimit,
    OptionRegistry,
    Options,
    Resolution,
    VariantInfo,
    hookimpl,
)
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text

_, _n = Catalog(__name__).markers()

NAME = "difference"


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Difference"),
        summary=_("The loser of a challenge loses as many dice as the bid was off by."),
        conflicts=("dice-loss",),
        provides=("dice-economy",),
        economics=True,
        example=True,  # this tutorial's example: the demo's lobby does not offer it (drop it)
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add(
        "cap", 0, _("the most dice one lost round can cost (0: no limit)"), minimum=0, maximum=5
    )


def dice_lost(resolution: Resolution, cap: int = 0) -> int:
    """How many dice each loser of ``resolution`` gives up: the miss, at least one, and at most
    ``cap`` when ``cap`` is not 0."""
    if resolution.count is None or resolution.bid is None:  # a timeout: nothing was counted
        miss = 1
    else:
        miss = max(1, abs(resolution.count - resolution.bid.quantity))
    return min(miss, cap) if cap else miss


@hookimpl
def liarsdice_settle(resolution: Resolution, options: Options) -> Sequence[Effect]:
    lost = dice_lost(resolution, options["difference.cap"])
    reason = _("lost the round by {lost}", lost=lost)
    return [DiceChanged(loser, -lost, reason) for loser in resolution.losers]


@hookimpl
def liarsdice_game_limit(players: int, dice_per_player: int) -> GameLimit:
    return GameLimit(
        rounds=players * dice_per_player - 1,
        why=f"a lost round costs at least a die, {players * dice_per_player} dice - 1",
    )


@hookimpl
def liarsdice_describe(options: Options) -> Text:
    cap = options["difference.cap"]
    limit = (
        _n(
            " No single round costs more than {n} die.",
            " No single round costs more than {n} dice.",
            n=cap,
        )
        if cap
        else ""
    )
    return _(
        """\
When a bid is challenged, the loser gives up one die for every die the bid was off by, and at
least one. If the bid was "six fives" and there are four, the bidder loses two dice; if there are
eight, the challenger loses two; if there are exactly six, the challenger loses one. A player who
runs out of time loses one die.{limit} A loss larger than the dice you hold takes what you have, and
a player with no dice is out. The last player with dice wins.""",
        limit=limit,
    )
