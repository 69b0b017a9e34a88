"""Variant ``teams``: two teams in alternate seats; the last team standing wins.

The players split into two teams by seat: the first, third, fifth... against the second, fourth,
sixth... (so an even number of players: ``liarsdice_table_problem`` refuses an odd one). A team is
out when all its players are; the game ends when one team is left, and all its players win, the
out ones included (``liarsdice_game_winners``). Team-mates are partners (``liarsdice_partners``):
the bots play for their team. Nobody sees a team-mate's dice; what a lost round costs is the other
rules' own (dice-loss, the revolver, chips...).

Plugin state: none; a player's team is public, as ``{"team": 1}`` or ``{"team": 2}``.
"""

from __future__ import annotations

from collections.abc import Mapping

from liarsdice import GameState, VariantInfo, hookimpl
from liarsdice.i18n import Catalog, Text
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

NAME = "teams"


def team_of(state: GameState, player: str) -> int:
    """``player``'s team: 1 for the first, third, fifth... seat, 2 for the others."""
    return state.seat(player) % 2 + 1


def team(state: GameState, number: int) -> tuple[str, ...]:
    """The players of team ``number`` (1 or 2), in seat order."""
    return tuple(p.name for i, p in enumerate(state.players) if i % 2 + 1 == number)


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Teams"),
        summary=_("Two teams in alternate seats; the last team standing wins."),
        before=("revolver",),  # its "last player alive wins" gives way to the last team's
    )


@hookimpl
def liarsdice_table_problem(players: int | None) -> Text | None:
    if players is None or players % 2 == 0:
        return None
    return _(
        "two teams sit in alternate seats, so the table needs an even number of players, "
        "not {players}",
        players=players,
    )


@hookimpl
def liarsdice_partners(state: GameState, player: str) -> tuple[str, ...]:
    return tuple(name for name in team(state, team_of(state, player)) if name != player)


@hookimpl
def liarsdice_game_winners(state: GameState) -> tuple[str, ...] | None:
    standing = {team_of(state, p.name) for p in state.players if p.alive}
    return team(state, standing.pop()) if len(standing) == 1 else None


@hookimpl
def liarsdice_player_public(state: GameState, player: str) -> Mapping[str, int]:
    return {"team": team_of(state, player)}


@hookimpl
def liarsdice_describe() -> RulesText:
    own = _(
        """\
The players form two teams in alternate seats: the first, third, fifth... against the second,
fourth, sixth..., so the table needs an even number of players. Nobody sees a team-mate's dice. A
team is out when all its players are."""
    )
    last = _("The last team with a player left wins: all its players win, those already out too.")
    return RulesText(text=own, clauses={"winning.last": last})
