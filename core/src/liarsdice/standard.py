"""The baseline rules, variant ``standard``: loaded in every ruleset, the fallback of every hook.

Raise = more dice of any face, or as many dice of a higher face. With ``standard.wild_ones`` (the
default) ones count toward every other face and nobody may bid ones; without it ones are the lowest
ordinary face. A challenge loses for the challenger when the count reaches the quantity, else for
the bidder. Seat 1 opens the first round, the loser opens the next; the turn passes clockwise. A
timeout is a lost round. Variants answer first: this plugin is asked only when none of them does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from liarsdice.bidkinds import COUNT_OF_FACE, BidKind
from liarsdice.hookspecs import hookimpl
from liarsdice.i18n import Text, _
from liarsdice.models import Bid, GameState, PlacedBid, PlayerState, RankKey, Resolution
from liarsdice.options import CallRegistry, CallStakes, OptionRegistry, Options, Payoff, VariantInfo
from liarsdice.presets import BUILT_IN, PresetRegistry
from liarsdice.reads import reads
from liarsdice.rulestext import RulesText

NAME = "standard"
WILD_ONES = "standard.wild_ones"
_WILD = {face: frozenset({face, 1}) for face in range(2, 7)} | {1: frozenset({1})}
_PLAIN = {face: frozenset({face}) for face in range(1, 7)}


NO_BIDS_ON_ONES = _("ones are wild: no bids on ones")

NOT_YOUR_OWN_BID = _("you cannot challenge your own bid")


@hookimpl
def liarsdice_variant_info() -> VariantInfo:
    return VariantInfo(
        title=_("Standard rules"),
        summary=_("Classic raises, wild ones, challenge; seat 1 then the loser opens."),
    )


@hookimpl
def liarsdice_register_options(options: OptionRegistry) -> None:
    options.add("wild_ones", True, _("ones are wild (they count toward every other face)"))


@hookimpl
def liarsdice_register_calls(calls: CallRegistry) -> None:
    calls.add(
        "challenge",
        _("the bid on the table is a lie: lift the cups and count"),
        label=_("Challenge"),
    )


CHALLENGE_STAKES = CallStakes("false", right=Payoff(bidder=1), wrong=Payoff(caller=1))
"""A challenge is right when the bid is false: the bidder loses the round, else the caller."""


@hookimpl
def liarsdice_call_stakes(call: str) -> CallStakes | None:
    return CHALLENGE_STAKES if call == "challenge" else None


@hookimpl
def liarsdice_register_presets(presets: PresetRegistry) -> None:
    for preset in BUILT_IN:
        presets.add(
            preset.name,
            title=preset.title,
            source=preset.source,
            summary=preset.summary,
            variants=preset.variants,
            options=preset.options,
            players=preset.size.players,
            dice=preset.size.dice,
        )


@hookimpl
def liarsdice_bid_kind() -> BidKind:
    return COUNT_OF_FACE


@hookimpl
def liarsdice_bid_rank(bid: Bid) -> RankKey:
    return (bid.quantity, bid.face)


@hookimpl
def liarsdice_face_allowed(face: int, options: Options) -> bool | Text:
    if face == 1 and options[WILD_ONES]:
        return NO_BIDS_ON_ONES
    return True


@hookimpl
def liarsdice_matching_faces(face: int, options: Options) -> frozenset[int]:
    return _WILD[face] if options[WILD_ONES] else _PLAIN[face]


@hookimpl
@reads("last_bidder")
def liarsdice_call_problem(state: GameState, player: str, call: str) -> Text | None:
    assert state.round is not None and state.round.bids
    if call == "challenge" and state.round.bids[-1].player == player:
        return NOT_YOUR_OWN_BID
    return None


@hookimpl
def liarsdice_resolve_call(
    state: GameState, player: str, call: str, count: int
) -> Resolution | None:
    assert state.round is not None and state.round.bids
    return challenge_ruling(state.round.bids[-1], player, call, count)


def challenge_ruling(placed: PlacedBid, player: str, call: str, count: int) -> Resolution | None:
    """The ruling on ``player``'s ``call`` of the bid ``placed`` with ``count`` matching dice
    (``None`` for any call but a challenge): the rule of :func:`liarsdice_resolve_call`."""
    if call != "challenge":
        return None
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


@hookimpl
def liarsdice_timeout(state: GameState, player: str) -> Resolution:
    return timeout_ruling(state.round.bids if state.round else (), player)


def timeout_ruling(bids: Sequence[PlacedBid], player: str) -> Resolution:
    """The ruling on ``player``'s timeout after ``bids``: the rule of :func:`liarsdice_timeout`."""
    placed = bids[-1] if bids else None
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


@hookimpl
def liarsdice_first_opener(state: GameState) -> str:
    return state.players[0].name


@hookimpl
def liarsdice_next_opener(resolution: Resolution) -> str:
    return resolution.losers[0] if resolution.losers else resolution.caller


@hookimpl
def liarsdice_game_winners(state: GameState) -> tuple[str, ...] | None:
    return last_alive(state.players)


def last_alive(players: Iterable[PlayerState]) -> tuple[str, ...] | None:
    """The winner when one of ``players`` is left alive: the rule of
    :func:`liarsdice_game_winners`."""
    alive = [player.name for player in players if player.alive]
    return (alive[0],) if len(alive) == 1 else None


@hookimpl
def liarsdice_partners() -> tuple[str, ...]:
    return ()


@hookimpl
def liarsdice_dice_visible(viewer: str | None, owner: str) -> bool:
    return viewer == owner


@hookimpl
def liarsdice_next_turn(state: GameState, player: str) -> str:
    return state.next_alive(player)


@hookimpl
def liarsdice_describe(options: Options) -> RulesText:
    if options[WILD_ONES]:
        wilds = {
            "wilds.which": _(
                "Ones are wild: every die showing 1 also counts toward a bid on any other face."
            ),
            "wilds.bids": _("A bid on ones would count them twice, so nobody may bid ones."),
        }
    else:
        wilds = {
            "wilds.which": _("No die is wild: each die counts only toward a bid on its own face."),
            "wilds.bids": _("Ones may be bid like any face; they are the lowest face."),
        }
    return RulesText(
        clauses={
            "table.dice": _(
                "Every player starts with the same number of six-sided dice and a cup."
            ),
            "table.roll": _(
                "Each round everyone still in rolls all their dice in secret and looks only at "
                "their own."
            ),
            "bidding.claim": _(
                'The opener bids a quantity and a face: "four fives" claims that at least four '
                "dice on the whole table show a five."
            ),
            "bidding.turns": _(
                "Play goes clockwise to the next living player, who must either raise or call; "
                "there is no passing, and the opener cannot call."
            ),
            "bidding.raise": _(
                "A raise names more dice of any face, or as many dice of a higher face; a higher "
                "face with fewer dice is not a raise."
            ),
            "bidding.limit": _(
                "A bid may not name more dice than are in play, so all the dice showing sixes is "
                "the highest bid there is."
            ),
            **wilds,
            "challenge.who": _(
                "Only the player on turn may challenge, and only the bid just made."
            ),
            "challenge.count": _("All cups are lifted and the matching dice counted."),
            "challenge.verdict": _(
                "If the count reaches the quantity the bid stands and the challenger loses the "
                "round (an exactly true bid stands); otherwise the bidder loses. Exactly one "
                "player loses a challenge."
            ),
            "first-opener.who": _("Seat 1 opens the first round."),
            "next-opener.who": _("The loser of a round opens the next."),
            "next-opener.out": _("If that player is out, the next living player clockwise opens."),
            "timeouts.cost": _("A player whose clock runs out loses the round."),
            "winning.last": _("The last player left in wins."),
        }
    )
