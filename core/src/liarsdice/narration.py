"""A game in words: events and a player's view as translatable texts, one line each.

What ``liarsdice play`` prints, and the PettingZoo environment's ``ansi`` render.

Everything returns :class:`~liarsdice.i18n.Text` (or ``None`` for an event with nothing to say), so
the loop renders it in the player's language. Names come from :mod:`liarsdice.phrases`; the
reasons in :class:`~liarsdice.events.DiceChanged`, :class:`~liarsdice.events.Eliminated` and
:class:`~liarsdice.events.Notice` are the plugins' own texts (the revolver's pull among them).
"""

from __future__ import annotations

from liarsdice import phrases
from liarsdice.bidkinds import COUNT_OF_FACE, BidKind
from liarsdice.events import (
    BidMade,
    CallMade,
    DiceChanged,
    DiceRerolled,
    DiceShown,
    Eliminated,
    Event,
    GameWon,
    Notice,
    OpenerChosen,
    RoundResolved,
    TimedOut,
    TurnPassed,
)
from liarsdice.i18n import Param, Text, _, _n
from liarsdice.models import Resolution
from liarsdice.ruleset import Ruleset
from liarsdice.views import PlayerView


def call_title(rules: Ruleset, kind: str) -> Param:
    """A call kind's name for players (its label), or the kind itself."""
    call = rules.calls.get(kind)
    return call.title if call is not None else kind


def event_line(rules: Ruleset, event: Event) -> Text | None:
    """One line for ``event``, or ``None`` for bookkeeping a player does not read."""
    if isinstance(event, BidMade):
        return _("{player} bids {bid}", player=event.player, bid=rules.bid_kind.words(event.bid))
    if isinstance(event, CallMade):
        return _("{player} calls: {call}", player=event.player, call=call_title(rules, event.kind))
    if isinstance(event, TurnPassed):
        return _("{player} passes", player=event.player)
    if isinstance(event, TimedOut):
        return _("{player}'s clock ran out", player=event.player)
    if isinstance(event, RoundResolved):
        return ruling(rules, event.resolution)
    if isinstance(event, DiceChanged):
        lost = phrases.dice(abs(event.delta))
        if event.delta < 0:
            return _(
                "{player} loses {dice}: {reason}",
                player=event.player,
                dice=lost,
                reason=event.reason,
            )
        return _(
            "{player} gains {dice}: {reason}", player=event.player, dice=lost, reason=event.reason
        )
    if isinstance(event, Eliminated):
        return _("{player} is out: {reason}", player=event.player, reason=event.reason)
    if isinstance(event, DiceShown):
        shown = " ".join(map(str, event.dice))
        return _("{player} shows {dice}", player=event.player, dice=shown)
    if isinstance(event, DiceRerolled):
        return _(
            "{player} rerolls {count}", player=event.player, count=phrases.dice(len(event.dice))
        )
    if isinstance(event, Notice):
        return event.text
    if isinstance(event, OpenerChosen):
        return _("{player} opens", player=event.player)
    if isinstance(event, GameWon):
        return _("{winners} won the game!", winners=phrases.listing(list(event.winners)))
    return None


def ruling(rules: Ruleset, resolution: Resolution) -> Text:
    """Who lost the round and why: the call, the bid, the count, the losers."""
    losers = phrases.listing(list(resolution.losers))
    lost = _n(
        "{losers} loses the round",
        "{losers} lose the round",
        n=len(resolution.losers),
        losers=losers,
    )
    if resolution.bid is None or resolution.count is None:
        return lost
    return _(
        "{call} on {bidder}'s {bid}: {count} counted; {lost}",
        call=call_title(rules, resolution.call),
        bidder=resolution.bidder or "",
        bid=rules.bid_kind.words(resolution.bid),
        count=rules.bid_kind.value_words(resolution.count),
        lost=lost,
    )


def dice_line(dice: tuple[int, ...] | None) -> Text:
    """The viewer's own dice, or that they are hidden from them."""
    if dice is None:
        return _("Your dice are hidden from you this round")
    return _("Your dice: {dice}", dice=" ".join(map(str, sorted(dice))))


def table_line(view: PlayerView) -> Text:
    """Every seat still in and its dice count, e.g. "Iris 5 dice, Knox 4 dice"."""
    seats = [
        _("{player}: {dice}", player=seat.name, dice=phrases.dice(seat.dice))
        for seat in view.seats
        if seat.alive
    ]
    return _(
        "Round {number}. At the table: {seats}", number=view.round, seats=phrases.listing(seats)
    )


def bids_line(view: PlayerView, kind: BidKind = COUNT_OF_FACE) -> Text:
    """The bids so far this round, oldest first, said as bids of ``kind`` (the ruleset's
    ``bid_kind``)."""
    if not view.bids:
        return _("No bids yet this round")
    said = [
        _("{player} {bid}", player=placed.player, bid=kind.words(placed.bid))
        for placed in view.bids
    ]
    return _("Bids this round: {bids}", bids=phrases.clauses(said))


def reveal_lines(view: PlayerView) -> list[Text]:
    """Every cup, lifted: one line per player."""
    if view.revealed is None:
        return []
    return [_("Cups lifted:")] + [
        _("  {player}: {dice}", player=name, dice=" ".join(map(str, sorted(roll))) or "-")
        for name, roll in view.revealed.items()
    ]
