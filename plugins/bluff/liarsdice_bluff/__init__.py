"""Variant ``bluff``: Milton Bradley's Bluff reroll, dice shown after a bid and the rest rerolled.

After bidding, the bidder may put some of their hidden dice face up for everyone and reroll the
rest under the cup.

The bid's payload says which dice to show: ``{"bluff": {"show": [5, 5]}}``, faces of the bidder's
hidden dice, at least one. Unless ``bluff.show_all``, at least one die must stay under the cup to
be rerolled. ``bluff.rerolls`` limits how many times a player may show and reroll in one round
(0: no limit). Dice face up stay up, and count, until the round ends; views, odds and bots see them.
The new faces are drawn from the game's RNG, or from the rigged stream ``"reroll"`` (a list of
faces per reroll) in scenario files.

Public state: ``{"rerolls": {player: times this round}}``, reset at every round start.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from random import Random

from liarsdice import (
    BidAction,
    DiceRerolled,
    DiceShown,
    GameState,
    Options,
    Payload,
    PluginError,
    PluginStateSet,
    VariantInfo,
    hookimpl,
    rigged,
)
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text
from liarsdice.models import JSON, remove_dice
from liarsdice.options import OptionRegistry
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

NAME = "bluff"


def rerolls(state: GameState) -> Mapping[str, int]:
    """How many times each player has shown and rerolled this round."""
    done: Mapping[str, int] = state.plugin(NAME).get("rerolls", {})
    return done


def _allowed(state: GameState, player: str, options: Options) -> bool:
    limit = options["bluff.rerolls"]
    return not limit or rerolls(state).get(player, 0) < limit


def show_problem(hidden: tuple[int, ...], value: JSON, show_all: bool) -> Text | None:
    """Why ``value`` is not a valid payload for a bidder whose hidden dice are ``hidden``."""
    if not isinstance(value, dict) or set(value) != {"show"}:
        # Translators: {{"show": ...}} is literal JSON: keep it as it is.
        return _('bluff: the payload is {{"show": [faces of your hidden dice]}}')
    show = value["show"]
    if not isinstance(show, list) or not show or not all(type(die) is int for die in show):
        return _("bluff: show at least one die, as a list of faces")
    try:
        remove_dice(hidden, tuple(show))
    except ValueError:
        return _(
            "bluff: you can only show dice from under your cup: {dice}", dice=str(sorted(hidden))
        )
    if len(show) == len(hidden) and not show_all:
        return _("bluff: keep at least one die under the cup to reroll")
    return None


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Bluff reroll"),
        summary=_("After bidding, put some dice face up and reroll the rest under the cup."),
        payloads=("bid",),
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add(
        "rerolls",
        0,
        _("how many times a player may show and reroll in one round (0: no limit)"),
        minimum=0,
        maximum=5,
    )
    options.add(
        "show_all", False, _("the bidder may put every die face up, leaving none to reroll")
    )


@hookimpl
def liarsdice_bid_problem(
    state: GameState, player: str, payload: Payload, options: Options
) -> Text | None:
    if NAME not in payload:
        return None
    if not _allowed(state, player, options):
        return _n(
            "bluff: one reroll a round at most, and you have had yours",
            "bluff: {n} rerolls a round at most, and you have had yours",
            n=options["bluff.rerolls"],
        )
    assert state.round is not None
    if player not in state.round.sees(player):  # refusing by face would tell them their dice
        return _("bluff: the rules hide your dice from you this round, so you cannot show any")
    return show_problem(state.round.hidden(player), payload[NAME], options["bluff.show_all"])


@hookimpl
def liarsdice_payload_choices(
    state: GameState, player: str, action: BidAction, options: Options
) -> Sequence[JSON]:
    if not isinstance(action, BidAction) or state.round is None:
        return []
    if not _allowed(state, player, options) or player not in state.round.sees(player):
        return []
    hidden = sorted(state.round.hidden(player))
    largest = len(hidden) if options["bluff.show_all"] else len(hidden) - 1
    found = {
        shown for size in range(1, largest + 1) for shown in itertools.combinations(hidden, size)
    }
    return [{"show": list(shown)} for shown in sorted(found, key=lambda s: (len(s), s))]


def _new_faces(rng: Random, count: int) -> tuple[int, ...]:
    outcome = rigged(rng, "reroll")
    if outcome is None:
        return tuple(rng.randint(1, 6) for _die in range(count))
    if (
        not isinstance(outcome, list)
        or len(outcome) != count
        or not all(type(die) is int and 1 <= die <= 6 for die in outcome)
    ):
        raise PluginError(
            f"bluff: a rigged reroll of {count} dice is {count} faces 1-6, not {outcome!r}"
        )
    return tuple(outcome)


@hookimpl
def liarsdice_bid_made(
    state: GameState, player: str, payload: Payload, rng: Random
) -> Sequence[Effect]:
    if NAME not in payload:
        return []
    assert state.round is not None
    show = tuple(payload[NAME]["show"])
    rest = remove_dice(state.round.hidden(player), show)
    effects: list[Effect] = [DiceShown(player, show)]
    if rest:
        effects.append(DiceRerolled(player, rest, _new_faces(rng, len(rest))))
    done = dict(rerolls(state))
    done[player] = done.get(player, 0) + 1
    # No Notice: DiceShown and DiceRerolled say it all, and a table narrates them.
    return [*effects, PluginStateSet(NAME, "rerolls", done)]


@hookimpl
def liarsdice_round_started(state: GameState) -> Sequence[Effect]:
    return [PluginStateSet(NAME, "rerolls", {})] if rerolls(state) else []


@hookimpl
def liarsdice_describe(options: Options) -> RulesText:
    limit = options["bluff.rerolls"]
    if not limit:
        times = _("after any of their bids")
    else:
        times = _n("once a round", "up to {n} times a round", n=limit)
    keep = (
        _("They may even put every die face up.")
        if options["bluff.show_all"]
        else _("At least one die must stay under the cup to be rerolled.")
    )
    own = _(
        """\
Right after bidding, the bidder may put one or more of their hidden dice face up in front of
everyone, then reroll the rest under the cup, {times}. {keep} Dice face up stay up until the round
ends, and they count like any other: everyone can see them, so every bid that follows is made
knowing them.""",
        times=times,
        keep=keep,
    )
    return RulesText(
        text=own,
        clauses={
            "table.shown": _(
                "Dice put face up (see Bluff reroll) are seen by everyone for the rest of the round."
            )
        },
    )
