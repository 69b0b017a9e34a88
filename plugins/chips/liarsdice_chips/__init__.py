"""Variant ``chips``: the loser of a round pays a chip into the pot and keeps every die.

Each player starts with ``chips.start`` chips. Whoever loses a round (several losers, as when the
table pays for an exact call, pay one each) puts a chip into the pot; a player with no chips left
is out, and their dice leave with them. The last player with chips wins. Every lost round takes a
chip, so a game lasts at most ``players x start - 1`` rounds (``liarsdice_game_limit``).

Plugin state: ``{"chips": {player: n}}`` for players who have paid (the others hold ``start``) and
``{"pot": n}``; both are public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from liarsdice import (
    Eliminated,
    GameLimit,
    GameState,
    Notice,
    Options,
    PluginStateSet,
    Resolution,
    VariantInfo,
    hookimpl,
)
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text
from liarsdice.options import OptionRegistry

_, _n = Catalog(__name__).markers()

NAME = "chips"


def chips(state: GameState, options: Options) -> dict[str, int]:
    """Each player's chips now (``chips.start`` for a player who has not paid yet)."""
    paid: Mapping[str, int] = state.plugin(NAME).get("chips", {})
    return {p.name: paid.get(p.name, options["chips.start"]) for p in state.players}


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Chips"),
        summary=_("The loser pays a chip into the pot and keeps every die; no chips left, out."),
        economics=True,
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add("start", 3, _("chips each player starts with"), minimum=1, maximum=20)


@hookimpl
def liarsdice_settle(
    state: GameState, resolution: Resolution, options: Options
) -> Sequence[Effect]:
    held = chips(state, options)
    pot = state.plugin(NAME).get("pot", 0)
    effects: list[Effect] = []
    for loser in resolution.losers:
        held[loser] -= 1
        pot += 1
        effects.append(
            Notice(
                NAME,
                _n(
                    "{player} pays a chip into the pot: {n} chip left",
                    "{player} pays a chip into the pot: {n} chips left",
                    player=loser,
                    n=held[loser],
                ),
                loser,
            )
        )
        if held[loser] == 0:
            effects.append(Eliminated(loser, _("out of chips")))
    paid = {name: n for name, n in held.items() if n != options["chips.start"]}
    effects[:0] = [PluginStateSet(NAME, "chips", paid), PluginStateSet(NAME, "pot", pot)]
    return effects


@hookimpl
def liarsdice_game_limit(players: int, options: Options) -> GameLimit:
    start = options["chips.start"]
    return GameLimit(
        rounds=players * start - 1, why=f"a lost round costs a chip, {players} x {start} - 1"
    )


@hookimpl
def liarsdice_player_public(state: GameState, player: str, options: Options) -> Mapping[str, int]:
    return {"chips": chips(state, options)[player]}


@hookimpl
def liarsdice_describe(options: Options) -> Text:
    start = _n("one chip", "{n} chips", n=options["chips.start"])
    own = _(
        """\
Every player starts with {start} and keeps all their dice for the whole game. Whoever loses a
round pays a chip into the pot (when several players lose a round, each pays one). A player with
no chips left is out, and their dice leave the table with them: the last player with chips wins.""",
        start=start,
    )
    return own
