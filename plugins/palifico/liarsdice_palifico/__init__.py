"""Variant ``palifico`` (Perudo): the round after a player first drops to one die is special.

That player opens; no die is wild (unless ``palifico.keep_wilds``), so any face may be bid; the
opening bid fixes the face and later bids only raise the quantity of the bid on the table — except,
with ``palifico.one_die_changes_face``, bids by players who hold one die themselves; after such a
change the others raise the new face. ``palifico.two_players`` says whether it still happens when
only two players remain. Each player gets one palifico round per game.

It needs a variant that takes dice away (the capability ``dice-economy``: ``dice-loss``,
``difference``...). In its round it overrides the other variants' wild dice, face rules and
openers, so it is declared before them.

Plugin state: ``{"active": player or None, "done": [players who have had theirs]}``.
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice import (
    Bid,
    GameState,
    Notice,
    Options,
    PluginStateSet,
    Resolution,
    VariantInfo,
    hookimpl,
    reads,
)
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text
from liarsdice.options import OptionRegistry
from liarsdice.phrases import faces

_, _n = Catalog(__name__).markers()

NAME = "palifico"


def active(state: GameState) -> str | None:
    """The player whose palifico round this is, or None in an ordinary round."""
    player: str | None = state.plugin(NAME).get("active")
    return player


def _due(state: GameState, player: str, options: Options) -> bool:
    """Whether ``player`` is owed a palifico round now."""
    seat = state.player(player)
    return (
        seat.alive
        and seat.dice == 1
        and state.dice_per_player > 1
        and player not in state.plugin(NAME).get("done", [])
        and (options["palifico.two_players"] or len(state.alive) > 2)
    )


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Palifico"),
        summary=_(
            "After a player first drops to one die: they open, no die is wild, the face is fixed."
        ),
        requires=("dice-economy",),
        before=("aces-switch", "ones-locking", "wild-sixes", "winner-opens", "last-change-opens"),
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add(
        "one_die_changes_face",
        True,
        _("in a palifico round, players who hold one die themselves may change the face"),
    )
    options.add("two_players", True, _("palifico rounds still happen when only two players remain"))
    options.add("keep_wilds", False, _("wild dice stay wild in a palifico round"))


@hookimpl
def liarsdice_next_opener(state: GameState, resolution: Resolution, options: Options) -> str | None:
    start = resolution.losers[0] if resolution.losers else resolution.caller
    seat = state.seat(start)
    for offset in range(len(state.players)):
        player = state.players[(seat + offset) % len(state.players)].name
        if _due(state, player, options):
            return player
    return None


@hookimpl
def liarsdice_round_started(state: GameState, options: Options) -> Sequence[Effect]:
    assert state.round is not None
    opener = state.round.opener
    effects: list[Effect] = []
    if _due(state, opener, options):
        done = [*state.plugin(NAME).get("done", []), opener]
        effects += [
            PluginStateSet(NAME, "active", opener),
            PluginStateSet(NAME, "done", done),
            Notice(
                NAME,
                _(
                    "palifico: {player} is down to one die and opens a palifico round",
                    player=opener,
                ),
                opener,
            ),
        ]
    elif active(state) is not None:
        effects.append(PluginStateSet(NAME, "active", None))
    return effects


@hookimpl
@reads("plugin:palifico")
def liarsdice_matching_faces(
    state: GameState, face: int, options: Options
) -> frozenset[int] | None:
    if active(state) is not None and not options["palifico.keep_wilds"]:
        return frozenset({face})
    return None


@hookimpl
@reads("plugin:palifico")
def liarsdice_face_allowed(state: GameState, options: Options) -> bool | None:
    # With no wild dice, no face would be counted twice: ones (or sixes) may be bid like any face.
    if active(state) is not None and not options["palifico.keep_wilds"]:
        return True
    return None


@hookimpl
def liarsdice_bid_problems(
    state: GameState, player: str, bids: Sequence[Bid], options: Options
) -> list[Text | None] | None:
    # The batch form: one look at the round answers for every bid asked about.
    if active(state) is None or state.round is None or not state.round.bids:
        return None
    if options["palifico.one_die_changes_face"] and state.player(player).dice == 1:
        return None
    fixed = state.round.bids[-1].bid.face  # the opener's face, unless a one-die player changed it
    refusal = _("palifico: the face is fixed at {faces}; raise the quantity", faces=faces(fixed))
    return [None if bid.face == fixed else refusal for bid in bids]


@hookimpl
def liarsdice_describe(options: Options) -> Text:
    wild = (
        _("Wild dice stay wild.")
        if options["palifico.keep_wilds"]
        else _("No die is wild, so every face may be bid, the usually wild one included.")
    )
    change = (
        _(
            " Players who hold a single die themselves may still change the face; the players "
            "after them then raise the quantity of the new face."
        )
        if options["palifico.one_die_changes_face"]
        else ""
    )
    two = (
        ""
        if options["palifico.two_players"]
        else _(" There is no palifico round once only two players remain.")
    )
    return _(
        """\
When a player first drops to a single die, the next round is a **palifico** round: that player
opens it. {wild} The face named in the opening bid is fixed for the round: later bids may only
raise the quantity.{change} Each player has one palifico round per game.{two}""",
        wild=wild,
        change=change,
        two=two,
    )
