"""Public, one-line descriptions of game events, and the ruling line shown with a reveal.

Contract: nothing here sees hidden dice except :func:`ruling`, which is only called once a call
has lifted the cups. ``RoundStarted`` is narrated without its rolls.
"""

from __future__ import annotations

from liarsdice.events import (
    BidMade,
    CallMade,
    DiceChanged,
    Eliminated,
    Event,
    GameStarted,
    GameWon,
    Notice,
    RoundResolved,
    RoundStarted,
    TimedOut,
)
from liarsdice.models import Resolution


def _join(names: tuple[str, ...] | list[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def ruling(resolution: Resolution) -> str:
    """One line explaining a ruling, e.g. "Iris challenged Knox's 5 fives: 5 counted, the bid
    stands — Iris loses the round"."""
    r = resolution
    losers = _join(r.losers) or "nobody"
    verb = "loses" if len(r.losers) == 1 else "lose"
    if r.call == "timeout" or r.count is None:
        return f"{r.caller} ran out of time — {losers} {verb} the round"
    counted = f"{r.count} counted"
    whose = f"{r.bidder}'s {r.bid}" if r.bidder else str(r.bid)
    if r.call == "challenge":
        verdict = "the bid was a lie" if r.success else "the bid stands"
        return f"{r.caller} challenged {whose}: {counted}, {verdict} — {losers} {verb} the round"
    if r.call == "exact":
        verdict = "exactly right" if r.success else "not exact"
        tail = f"{losers} {verb} the round"
        if r.success and r.winners:
            tail = f"{_join(r.winners)} wins the round" + (f", {losers} {verb}" if r.losers else "")
        return f"{r.caller} called exact on {whose}: {counted}, {verdict} — {tail}"
    verdict = "the call succeeds" if r.success else "the call fails"
    return (
        f"{r.caller} called {r.call} on {whose}: {counted}, {verdict} — {losers} {verb} the round"
    )


def line(event: Event) -> str | None:
    """A public line for ``event``, or ``None`` for events not worth a line."""
    if isinstance(event, GameStarted):
        return f"New game: {_join(list(event.players))}, {event.dice_per_player} dice each"
    if isinstance(event, RoundStarted):
        return f"Round {event.number}: {event.opener} opens"
    if isinstance(event, BidMade):
        return f"{event.player} bids {event.bid}"
    if isinstance(event, CallMade):
        return f"{event.player} calls {event.kind}"
    if isinstance(event, TimedOut):
        return f"{event.player}'s clock ran out"
    if isinstance(event, RoundResolved):
        return ruling(event.resolution)
    if isinstance(event, DiceChanged):
        change = "loses" if event.delta < 0 else "gains"
        count = abs(event.delta)
        return f"{event.player} {change} {count} {'die' if count == 1 else 'dice'} ({event.reason})"
    if isinstance(event, Eliminated):
        return f"{event.player} is out ({event.reason})"
    if isinstance(event, Notice):
        return event.text
    if isinstance(event, GameWon):
        return f"{event.player} wins the game!"
    return None
