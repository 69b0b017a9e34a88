"""Variant ``dice-loss``: the loser of a round gives up one die; a player with no dice is out.

This is the classic economy of dudo and perudo, and the template for new variant plugins: one
module, a ``liarsdice_variant_info`` hook saying what it is, the hooks that make its rule, and its
rules text. The engine eliminates a player left with no dice; the last player with dice wins.

Every lost round takes a die from the table and the winner keeps at least one, so a game lasts at
most ``players x dice - 1`` rounds (``liarsdice_game_limit``).
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice import DiceChanged, GameLimit, Resolution, VariantInfo, hookimpl
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text

_, _n = Catalog(__name__).markers()

NAME = "dice-loss"


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Dice loss"),
        summary=_("The loser of a round gives up one die; a player with no dice is out."),
        provides=("dice-economy",),
        economics=True,
    )


@hookimpl
def liarsdice_settle(resolution: Resolution) -> Sequence[Effect]:
    return [DiceChanged(loser, -1, _("lost the round")) for loser in resolution.losers]


@hookimpl
def liarsdice_game_limit(players: int, dice_per_player: int) -> GameLimit:
    return GameLimit(
        rounds=players * dice_per_player - 1,
        why=f"a lost round costs a die, {players * dice_per_player} dice - 1",
    )


@hookimpl
def liarsdice_describe() -> Text:
    return _(
        """\
Whoever loses a round gives up one die for the rest of the game. A player who loses their last die
is out, so the table shrinks as the game goes on and every bid is over fewer dice. The last player
with dice wins."""
    )
