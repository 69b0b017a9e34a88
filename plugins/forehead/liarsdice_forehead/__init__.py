"""Variant ``forehead``: a player down to one die cannot see it, and every other player can.

The die is held to the forehead, Indian-poker style: for the round, everyone at the table but its
owner sees it, and spectators do not. Only who sees what changes (``liarsdice_dice_visible``):
the bids, calls and rulings are the other rules' own.
"""

from __future__ import annotations

from liarsdice import GameState, VariantInfo, hookimpl
from liarsdice.i18n import Catalog, Text

_, _n = Catalog(__name__).markers()

NAME = "forehead"


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Forehead"),
        summary=_("A player down to one die cannot see it; every other player can."),
    )


@hookimpl
def liarsdice_dice_visible(state: GameState, viewer: str | None, owner: str) -> bool | None:
    if state.player(owner).dice != 1:
        return None
    return viewer is not None and viewer != owner


@hookimpl
def liarsdice_describe() -> Text:
    return _(
        """\
A player down to a single die holds it to their forehead: they cannot see it, and every other
player at the table can (spectators cannot). Everything else is played as usual."""
    )
