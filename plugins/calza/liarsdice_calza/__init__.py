"""Variant ``calza``: the exact call, declaring on your turn that the bid on the table is exact.

Call kind ``exact``. It succeeds when the count equals the quantity; a miss either way loses like a
failed challenge. ``calza.reward`` sets what a success earns: ``regain-die`` (take back one lost
die, nothing at the starting count) or ``table-pays`` (every other living player takes a lost round,
clockwise from the caller). ``calza.window``: ``always``, or ``half`` (only while more than half of
all dice are in play). After a successful exact call the caller is the round's winner.
``calza.anyone``: any living player but the bidder may call exact out of turn, before the next bid
(the call kind is declared ``out_of_turn="anyone"``; without the option only the player on turn
may).

How long a game can last (``liarsdice_game_limit``). With ``table-pays`` every round has a loser,
so calza does not lengthen games. With ``regain-die`` there is no strict bound: a successful exact
call costs nobody anything and may give the caller a die back, and in principle such rounds could
go on for ever. Every other round has a loser, and a successful exact call undoes at most one
round of progress, so under an economics bound of ``B`` rounds (``dice-loss``: every die but one
lost) a game lasts more than ``t`` rounds only if at least ``(t - B + 1) / 2`` of its first ``t``
rounds ended in a successful exact call. Assume that a round ends so with a chance of at most 1/4,
whatever came before (we measured at most 0.13, with the random policy and every bot, at tables of
2 x 1 to 6 x 5 dice, with and without wild ones, over dice-loss, difference and the revolver).
Then the chance that a game lasts more than ``3B + 200`` rounds is at most
``P(Binomial(3B + 200, 1/4) >= B + 101)``, which is below 1e-12 for every ``B`` (at most 1.2e-13,
near ``B = 58``). So calza declares ``GameLimit(rounds_factor=3, extra_rounds=200)``: a real game
that needs more is, to all purposes, a stuck one.
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice import (
    DiceChanged,
    GameLimit,
    GameState,
    Notice,
    Options,
    Resolution,
    VariantInfo,
    hookimpl,
    reads,
)
from liarsdice.events import Effect
from liarsdice.i18n import Catalog, Text
from liarsdice.options import CallRegistry, CallStakes, OptionRegistry, Payoff
from liarsdice.rulestext import RulesText

_, _n = Catalog(__name__).markers()

NOT_YOUR_OWN_BID = _("calza: you cannot call your own bid exact")


NAME = "calza"
EXACT = "exact"
ROUNDS_FACTOR = 3
EXTRA_ROUNDS = 200
"""How much ``regain-die`` may lengthen a game: rounds x 3 + 200 (see the module docstring)."""


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Calza (exact call)"),
        summary=_("Call the bid exactly right: regain a die, or make the table pay."),
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add(
        "reward",
        "regain-die",
        _("what a successful exact call earns"),
        choices={"regain-die": _("the caller regains a die"), "table-pays": _("the table pays")},
    )
    options.add(
        "window",
        "always",
        _(
            "when the exact call is allowed: always, or only while more than half of all dice "
            "are in play"
        ),
        choices={"always": _("always"), "half": _("while more than half of all dice are in play")},
    )
    options.add(
        "anyone",
        False,
        _("any player but the bidder may call exact out of turn, before the next bid"),
    )


@hookimpl
def liarsdice_register_calls(calls: CallRegistry) -> None:
    calls.add(
        EXACT,
        _("the bid on the table is exactly right: no more, no fewer"),
        label=_("Exact"),
        out_of_turn="anyone",  # only where calza.anyone is on
    )


@hookimpl
def liarsdice_call_stakes(call: str, options: Options) -> CallStakes | None:
    if call != EXACT:
        return None
    pays = options["calza.reward"] == "table-pays"  # every other living player loses a round
    right = Payoff(bidder=1, others=1) if pays else Payoff(regains=1)
    return CallStakes("exact", right=right, wrong=Payoff(caller=1))


@hookimpl
@reads("last_bidder", "dice_in_play")
def liarsdice_call_problem(
    state: GameState, player: str, call: str, options: Options
) -> Text | None:
    if call != EXACT:
        return None
    assert state.round is not None and state.round.bids
    if state.round.bids[-1].player == player:  # on turn (out of turn, the engine refuses it)
        return NOT_YOUR_OWN_BID
    if options["calza.window"] != "half":
        return None
    total = len(state.players) * state.dice_per_player
    in_play = state.round.dice_in_play if state.round else state.dice_in_play
    if in_play * 2 > total:
        return None
    return _(
        "calza: the exact call is allowed only while more than half of the {total} dice are "
        "in play ({left} left)",
        total=total,
        left=in_play,
    )


@hookimpl
def liarsdice_resolve_call(
    state: GameState, player: str, call: str, count: int, options: Options
) -> Resolution | None:
    if call != EXACT:
        return None
    assert state.round is not None and state.round.bids
    placed = state.round.bids[-1]
    if count != placed.bid.quantity:
        losers: tuple[str, ...] = (player,)
        winners: tuple[str, ...] = (placed.player,)
    elif options["calza.reward"] == "table-pays":
        losers, winners = state.clockwise_from(player), (player,)
    else:
        losers, winners = (), (player,)
    return Resolution(
        call=EXACT,
        caller=player,
        bidder=placed.player,
        bid=placed.bid,
        count=count,
        success=count == placed.bid.quantity,
        losers=losers,
        winners=winners,
    )


@hookimpl
def liarsdice_settle(
    state: GameState, resolution: Resolution, options: Options
) -> Sequence[Effect]:
    if (
        resolution.call != EXACT
        or not resolution.success
        or options["calza.reward"] != "regain-die"
    ):
        return []
    caller = state.player(resolution.caller)
    if caller.dice >= state.dice_per_player:
        return [
            Notice(
                NAME,
                _n(
                    "{player} already holds all {n} die: nothing gained",
                    "{player} already holds all {n} dice: nothing gained",
                    player=caller.name,
                    n=caller.dice,
                ),
                caller.name,
            )
        ]
    return [DiceChanged(caller.name, +1, _("calza: regained a die"))]


@hookimpl
def liarsdice_game_limit(options: Options) -> GameLimit | None:
    if options["calza.reward"] != "regain-die":
        return None
    return GameLimit(
        rounds_factor=ROUNDS_FACTOR,
        extra_rounds=EXTRA_ROUNDS,
        why="a successful exact call costs nobody anything and may give a die back",
    )


@hookimpl
def liarsdice_describe(options: Options) -> RulesText:
    if options["calza.reward"] == "table-pays":
        reward = _(
            "If the count matches exactly, **the table pays**: every other living player, "
            "clockwise from the caller, takes a lost round."
        )
    else:
        reward = _(
            "If the count matches exactly, the caller **takes back one lost die**; a caller who "
            "still holds all their dice gains nothing and loses nothing."
        )
    window = (
        _(
            "The exact call is allowed only while more than half of all the dice the game "
            "started with are still in play."
        )
        if options["calza.window"] == "half"
        else _("The exact call is allowed on any turn after the opening bid.")
    )
    anyone = (
        _(
            "Any player but the bidder may call exact out of turn, as soon as a bid is made and "
            "before the next one: the first to call it makes the call."
        )
        if options["calza.anyone"]
        else ""
    )
    own = _(
        """\
On your turn, instead of raising or challenging, you may call **exact** ("calza"): you claim the
bid on the table is exactly right, no more and no fewer. The cups are lifted and counted as for a
challenge. {reward} A miss in either direction loses the round for the caller, as a failed
challenge would. After a successful exact call the caller counts as the winner of the round.""",
        reward=reward,
    )
    return RulesText(text=own, clauses={"calza.window": window, "calza.anyone": anyone})
