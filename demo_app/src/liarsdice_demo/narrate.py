"""Public, one-line descriptions of game events, and the ruling line shown with a reveal.

Contract: nothing here sees hidden dice except :func:`ruling`, which is only called once a call
has lifted the cups. ``RoundStarted`` is narrated without its rolls, ``DiceRerolled`` without its
faces (old or new: both were under the cup) and ``PrivateStateSet`` not at all; ``DiceShown``
names the faces, which are face up for everyone.
"""

from __future__ import annotations

from liarsdice.events import (
    BidMade,
    CallMade,
    DiceChanged,
    DiceRerolled,
    DiceShown,
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

CALL_LINES = {
    "pass": "{player} passes",
    "doubt": "{player} doubts the pass",
}
"""How a call is told, by kind; any other kind reads "Iris calls challenge"."""


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


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
    if r.call == "doubt":
        # The pass plugin's ruling: the passer is the loser when the pass was a lie (success),
        # the winner when it was honest.
        passer = (r.losers if r.success else r.winners) or ("the passer",)
        alike = "were not all alike" if r.success else "were all alike"
        return (
            f"{r.caller} doubted the pass: {passer[0]}'s dice {alike} — {losers} {verb} the round"
        )
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
        return CALL_LINES.get(event.kind, "{player} calls {kind}").format(
            player=event.player, kind=event.kind
        )
    if isinstance(event, DiceShown):
        faces = " ".join(map(str, event.dice))
        return f"{event.player} puts {_dice(len(event.dice))} face up: {faces}"
    if isinstance(event, DiceRerolled):  # the faces, old and new, stay under the cup
        return f"{event.player} rerolls {_dice(len(event.dice))} under the cup"
    if isinstance(event, TimedOut):
        return f"{event.player}'s clock ran out"
    if isinstance(event, RoundResolved):
        return ruling(event.resolution)
    if isinstance(event, DiceChanged):
        change = "loses" if event.delta < 0 else "gains"
        return f"{event.player} {change} {_dice(abs(event.delta))} ({event.reason})"
    if isinstance(event, Eliminated):
        return f"{event.player} is out ({event.reason})"
    if isinstance(event, Notice):
        return event.text
    if isinstance(event, GameWon):
        return f"{event.player} wins the game!"
    # TurnPassed (whose turn it is shows on the table), PrivateStateSet (secret), PluginStateSet
    # and OpenerChosen get no line.
    return None
