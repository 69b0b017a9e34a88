"""Variant ``dice-loss``: the loser of a round gives up one die; a player with no dice is out.

This is the classic economy of dudo and perudo, and the template for new variant plugins: one
module, a ``liarsdice_variant_info`` hook saying what it is, the hooks that make its rule, and its
rules text. The engine eliminates a player left with no dice; the last player with dice wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice import DiceChanged, Resolution, VariantInfo, hookimpl
from liarsdice.events import Effect

NAME = "dice-loss"


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title="Dice loss",
        summary="The loser of a round gives up one die; a player with no dice is out.",
        provides=("dice-economy",),
        economics=True,
    )


@hookimpl
def liarsdice_settle(resolution: Resolution) -> Sequence[Effect]:
    return [DiceChanged(loser, -1, "lost the round") for loser in resolution.losers]


@hookimpl
def liarsdice_describe() -> str:
    return """\
Whoever loses a round gives up one die for the rest of the game. A player who loses their last die
is out, so the table shrinks as the game goes on and every bid is over fewer dice. The last player
with dice wins."""
