"""Variant ``pass``: whose dice all show one face may pass instead of bidding, and be doubted.

A perudo/dudo house rule. The next player must raise the last bid or doubt the pass.

Call kinds: ``pass`` does not end the round (the turn moves on, the bid on the table stays);
``doubt`` ends it: the cups are lifted and the passer loses if their dice were not all alike, the
doubter if they were. While a pass is pending, the next player may only raise the last bid or
doubt; no other call. A pass is a claim, so a player may pass with mixed dice — and hope nobody
doubts. ``pass.limit``: ``player`` (each player passes at most once a round) or ``round`` (one pass
a round for the whole table). ``pass.min_dice``: the fewest dice a player must hold to pass (a
single die always "shows one face").

A pass is a turn without a bid: a round takes up to one more turn per pass allowed in it (the
number of players with ``pass.limit=player``, 1 with ``round``; ``liarsdice_game_limit``).

Public state: ``{"pending": passer or None, "passed": [players who passed this round]}``, reset at
every round start. Private state, for the passer only: ``{"honest": bool}`` — whether their dice
were all alike when they passed, which settles a doubt (and stays right if dice are rerolled later).
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice import (
    GameLimit,
    GameState,
    Notice,
    Options,
    PluginStateSet,
    PrivateStateSet,
    Resolution,
    VariantInfo,
    hookimpl,
    reads,
)
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text
from liarsdice.options import CallRegistry, OptionRegistry
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

PASSED_ALREADY = _("pass: each player may pass once a round, and you have")

NAME = "pass"
PASS = "pass"
DOUBT = "doubt"


def pending(state: GameState) -> str | None:
    """The player whose pass the next player must answer, or None."""
    passer: str | None = state.plugin(NAME).get("pending")
    return passer


def passed(state: GameState) -> list[str]:
    """The players who have passed this round."""
    return list(state.plugin(NAME).get("passed", []))


def alike(dice: Sequence[int]) -> bool:
    """True when every die shows the same face."""
    return len(set(dice)) <= 1


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Pass"),
        summary=_(
            "Whose dice all show one face may pass; the next player raises or doubts the pass."
        ),
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add(
        "limit",
        "player",
        _("how often anyone may pass"),
        choices={"player": _("once a round each"), "round": _("once a round in all")},
    )
    options.add(
        "min_dice", 2, _("the fewest dice a player must hold to pass"), minimum=1, maximum=5
    )


@hookimpl
def liarsdice_register_calls(calls: CallRegistry) -> None:
    calls.add(
        PASS,
        _("all my dice show one face: I pass, and the next player must answer"),
        ends_round=False,
        label=_("Pass"),
    )
    calls.add(DOUBT, _("the pass just made is a lie: lift the cups"), label=_("Doubt"))


@hookimpl
@reads("plugin:pass", "seats")
def liarsdice_call_problem(
    state: GameState, player: str, call: str, options: Options
) -> Text | None:
    waiting = pending(state)
    if call == DOUBT:
        return None if waiting else _("doubt: there is no pass to doubt")
    if waiting:
        return _(
            "pass: {player} has just passed: raise the last bid or doubt the pass", player=waiting
        )
    if call != PASS:
        return None
    done = passed(state)
    if options["pass.limit"] == "player" and player in done:
        return PASSED_ALREADY
    if options["pass.limit"] == "round" and done:
        return _("pass: one pass a round, and {player} has passed", player=done[0])
    fewest = options["pass.min_dice"]
    if state.player(player).dice < fewest:
        return _n(
            "pass: you need at least {n} die to pass",
            "pass: you need at least {n} dice to pass",
            n=fewest,
        )
    return None


@hookimpl
def liarsdice_call_made(state: GameState, player: str, call: str) -> Sequence[Effect]:
    if call != PASS:
        return []
    assert state.round is not None
    honest = alike(state.round.rolls[player])
    return [
        PluginStateSet(NAME, "pending", player),
        PluginStateSet(NAME, "passed", [*passed(state), player]),
        PrivateStateSet(NAME, player, "honest", honest),
        Notice(
            NAME,
            _("{player} passes: all their dice show one face, they say", player=player),
            player,
        ),
    ]


@hookimpl
def liarsdice_bid_made(state: GameState) -> Sequence[Effect]:
    return [PluginStateSet(NAME, "pending", None)] if pending(state) else []


@hookimpl
def liarsdice_round_started(state: GameState) -> Sequence[Effect]:
    if pending(state) is None and not passed(state):
        return []
    return [PluginStateSet(NAME, "pending", None), PluginStateSet(NAME, "passed", [])]


@hookimpl
def liarsdice_resolve_call(
    state: GameState, player: str, call: str, count: int
) -> Resolution | None:
    if call != DOUBT:
        return None
    passer = pending(state)
    assert passer is not None and state.round is not None and state.round.bids
    honest = bool(state.private(NAME, passer).get("honest"))
    placed = state.round.bids[-1]
    loser, winner = (player, passer) if honest else (passer, player)
    return Resolution(
        call=DOUBT,
        caller=player,
        bidder=placed.player,
        bid=placed.bid,
        count=count,
        success=not honest,
        losers=(loser,),
        winners=(winner,),
    )


@hookimpl
def liarsdice_game_limit(players: int, options: Options) -> GameLimit:
    if options["pass.limit"] == "player":
        return GameLimit(extra_turns=players, why="each player may pass once a round")
    return GameLimit(extra_turns=1, why="one pass a round")


@hookimpl
def liarsdice_describe(options: Options) -> RulesText:
    limit = (
        _("Each player may pass once a round.")
        if options["pass.limit"] == "player"
        else _("Only one player may pass in a round.")
    )
    fewest = _n(
        "You need at least {n} die to\npass, and the opener cannot pass.",
        "You need at least {n} dice to\npass, and the opener cannot pass.",
        n=options["pass.min_dice"],
    )
    own = _(
        """\
Instead of bidding, a player whose dice all show the same face may say **pass**. The bid on the
table stays, and the next player must either raise it or **doubt** the pass; no other call is
allowed then. A doubt lifts the cups: if the passer's dice were all alike the doubter loses the
round, otherwise the passer does. A pass is a claim like a bid: you may pass with mixed dice and
hope nobody doubts you. {limit} {fewest}""",
        limit=limit,
        fewest=fewest,
    )
    return RulesText(
        text=own,
        clauses={
            "bidding.turns": _(
                "Play goes clockwise to the next living player, who must either raise or call, "
                "or pass (see Pass); the opener cannot call."
            )
        },
    )
