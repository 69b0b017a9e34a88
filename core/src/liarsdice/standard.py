"""The baseline rules, variant ``standard``: loaded in every ruleset, answering every hook last.

Raise = more dice of any face, or as many dice of a higher face. With ``standard.wild_ones`` (the
default) ones count toward every other face and nobody may bid ones; without it ones are the lowest
ordinary face. A challenge loses for the challenger when the count reaches the quantity, else for
the bidder. Seat 1 opens the first round, the loser opens the next. A timeout is a lost round.
"""

from __future__ import annotations

from liarsdice.hookspecs import hookimpl
from liarsdice.models import Bid, GameState, RankKey, Resolution
from liarsdice.options import CallRegistry, OptionRegistry, Options, VariantInfo
from liarsdice.presets import BUILT_IN, PresetRegistry
from liarsdice.rulestext import RulesText

NAME = "standard"
WILD_ONES = "standard.wild_ones"
_WILD = {face: frozenset({face, 1}) for face in range(2, 7)} | {1: frozenset({1})}
_PLAIN = {face: frozenset({face}) for face in range(1, 7)}


@hookimpl(trylast=True)
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title="Standard rules",
        summary="Classic raises, wild ones, challenge; seat 1 then the loser opens.",
    )


@hookimpl(trylast=True)
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add(
        "wild_ones",
        True,
        "ones count toward every other face, and nobody may bid ones while they are wild",
    )


@hookimpl(trylast=True)
def liarsdice_register_calls(calls: CallRegistry) -> None:
    calls.add("challenge", "the bid on the table is a lie: lift the cups and count")


@hookimpl(trylast=True)
def liarsdice_register_presets(presets: PresetRegistry) -> None:
    for preset in BUILT_IN:
        presets.add(
            preset.name,
            title=preset.title,
            source=preset.source,
            summary=preset.summary,
            variants=preset.variants,
            options=preset.options,
        )


@hookimpl(trylast=True)
def liarsdice_bid_rank(bid: Bid) -> RankKey:
    return (bid.quantity, bid.face)


@hookimpl(trylast=True)
def liarsdice_face_allowed(face: int, options: Options) -> bool | str:
    if face == 1 and options[WILD_ONES]:
        return "ones are wild: no bids on ones"
    return True


@hookimpl(trylast=True)
def liarsdice_matching_faces(face: int, options: Options) -> frozenset[int]:
    return _WILD[face] if options[WILD_ONES] else _PLAIN[face]


@hookimpl(trylast=True)
def liarsdice_resolve_call(
    state: GameState, player: str, call: str, count: int
) -> Resolution | None:
    if call != "challenge":
        return None
    assert state.round is not None and state.round.bids
    placed = state.round.bids[-1]
    stands = count >= placed.bid.quantity
    loser, winner = (player, placed.player) if stands else (placed.player, player)
    return Resolution(
        call=call,
        caller=player,
        bidder=placed.player,
        bid=placed.bid,
        count=count,
        success=not stands,
        losers=(loser,),
        winners=(winner,),
    )


@hookimpl(trylast=True)
def liarsdice_timeout(state: GameState, player: str) -> Resolution:
    placed = state.round.bids[-1] if state.round and state.round.bids else None
    return Resolution(
        call="timeout",
        caller=player,
        bidder=placed.player if placed else None,
        bid=placed.bid if placed else None,
        count=None,
        success=False,
        losers=(player,),
        winners=(),
    )


@hookimpl(trylast=True)
def liarsdice_first_opener(state: GameState) -> str:
    return state.players[0].name


@hookimpl(trylast=True)
def liarsdice_next_opener(resolution: Resolution) -> str:
    return resolution.losers[0] if resolution.losers else resolution.caller


@hookimpl(trylast=True)
def liarsdice_describe(options: Options) -> RulesText:
    if options[WILD_ONES]:
        ones = (
            "Ones are wild: every die showing 1 also counts toward a bid on any other face. A bid "
            "on ones would count them twice, so nobody may bid ones."
        )
    else:
        ones = "Ones are **not** wild: a one counts only toward a bid on ones, and ones are the lowest face."
    return RulesText(
        topics={
            "table": (
                "Every player starts with the same number of six-sided dice and a cup. Each round "
                "everyone still in rolls all their dice in secret and looks only at their own."
            ),
            "bidding": (
                'The opener bids a quantity and a face: "four fives" claims that at least four dice '
                "on the whole table show a five. Play goes clockwise to the next living player, who "
                "must either raise or call; there is no passing, and the opener cannot call. A raise "
                "names more dice of any face, or as many dice of a higher face; a higher face with "
                "fewer dice is not a raise. A bid may not name more dice than are in play, so all "
                "the dice showing sixes is the highest bid there is."
            ),
            "ones": ones,
            "challenge": (
                "Only the player on turn may challenge, and only the bid just made. All cups are "
                "lifted and the matching dice counted. If the count reaches the quantity the bid "
                "stands and the challenger loses the round (an exactly true bid stands); otherwise "
                "the bidder loses. Exactly one player loses a challenge."
            ),
            "first-opener": "Seat 1 opens the first round.",
            "next-opener": (
                "The loser of a round opens the next. If that player is out, the next living "
                "player clockwise opens."
            ),
            "timeouts": "A player whose clock runs out loses the round.",
            "winning": "The last player left in wins.",
        }
    )
