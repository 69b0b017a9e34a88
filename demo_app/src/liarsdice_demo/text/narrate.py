"""Public, one-line descriptions of game events, and the ruling line shown with a reveal.

Every line is a :class:`~liarsdice.i18n.Text` of the demo's catalog, so each player reads it in
their own language (a plugin's notice or reason is the plugin's own text, translated by the
plugin's catalog).

Contract: nothing here sees hidden dice except :func:`ruling`, which is only called once a call
has lifted the cups. ``RoundStarted`` is narrated without its rolls, ``DiceRerolled`` without its
faces (old or new: both were under the cup) and ``PrivateStateSet`` not at all; ``DiceShown``
names the faces, which are face up for everyone.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Mapping, Sequence

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
    GameStarted,
    GameWon,
    Notice,
    RoundResolved,
    RoundStarted,
    TimedOut,
)
from liarsdice.i18n import Catalog, Param, Text
from liarsdice.models import Resolution
from liarsdice.options import CallKind

_, _n = Catalog(__name__).markers()


def _loses(losers: tuple[str, ...]) -> Text:
    """ "Iris loses the round", "Iris and Knox lose the round", "nobody loses the round"."""
    if not losers:
        return _("nobody loses the round")
    if len(losers) == 1:
        return _("{player} loses the round", player=_who(losers[0]))
    return _("{players} lose the round", players=listing(losers))


def _lose(losers: tuple[str, ...]) -> Text:
    """ "Knox loses", "Knox and Lu lose" (after who won the round)."""
    if len(losers) == 1:
        return _("{player} loses", player=_who(losers[0]))
    return _("{players} lose", players=listing(losers))


def _whose(r: Resolution, kind: BidKind) -> Param:
    if r.bidder is None:
        return kind.words(r.bid) if r.bid is not None else ""
    return (
        _("{player}'s {bid}", player=_who(r.bidder), bid=kind.words(r.bid))
        if r.bid
        else _who(r.bidder)
    )


BOT_SUFFIX = " (bot)"
"""How a bot's seat name ends ("Boris (bot)"); no player's nickname may (``players``)."""


@functools.lru_cache(maxsize=256)
def _bot(name: str) -> Text:
    """A bot's seat name as its own text (one per name: it is read once per language)."""
    return _("{name} (bot)", name=name.removesuffix(BOT_SUFFIX))


def _who(name: str) -> Param:
    """A player's name as said: a bot's "(bot)" in the reader's language."""
    return _bot(name) if name.endswith(BOT_SUFFIX) else name


def listing(names: Sequence[str]) -> Param:
    """Players' names as a list ("Iris", "Iris and Knox"), each as :func:`_who` says it."""
    return phrases.listing([_who(name) for name in names])


def _bots_named(text: Text) -> Text:
    """A plugin's ``text`` with each bot's seat name ("Boris (bot)") in it said in the reader's
    language (``text`` itself when it names no bot)."""
    params: dict[str, Param] = {}
    changed = False
    for key, value in text.params.items():
        named = value
        if isinstance(value, Text):
            named = _bots_named(value)
        elif isinstance(value, str):
            named = _who(value)
        params[key] = named
        changed = changed or named is not value
    return Text(text.msgid, params, text.domain, text.plural) if changed else text


@functools.lru_cache(maxsize=1024)
def ruling(r: Resolution, kind: BidKind = COUNT_OF_FACE) -> Text:
    """One line explaining a ruling, e.g. "Iris challenged Knox's 5 fives: 5 counted, the bid
    stands — Iris loses the round" (one text per ruling: the log line and the reveal share it,
    and so its readings); the bid said as a bid of ``kind``, the table's
    (:attr:`liarsdice.Ruleset.bid_kind`: "Knox's a total of 23")."""
    tail: Param = _loses(r.losers)
    if r.call == "timeout" or r.count is None:
        return _("{player} ran out of time — {tail}", player=_who(r.caller), tail=tail)
    fields: dict[str, Param] = {
        "caller": _who(r.caller),
        "whose": _whose(r, kind),
        "count": r.count,
    }
    if r.call == "challenge":
        if r.success:
            said = _("{caller} challenged {whose}: {count} counted, the bid was a lie", **fields)
        else:
            said = _("{caller} challenged {whose}: {count} counted, the bid stands", **fields)
    elif r.call == "exact":
        if r.success:
            said = _("{caller} called exact on {whose}: {count} counted, exactly right", **fields)
            if r.winners:
                winners = _("{players} wins the round", players=listing(r.winners))
                tail = (
                    _("{won}, {lost}", won=winners, lost=_lose(r.losers)) if r.losers else winners
                )
        else:
            said = _("{caller} called exact on {whose}: {count} counted, not exact", **fields)
    elif r.call == "doubt":
        # The pass plugin's ruling: the passer is the loser when the pass was a lie (success),
        # the winner when it was honest.
        passer = (r.losers if r.success else r.winners) or (_("the passer"),)
        if r.success:
            said = _(
                "{caller} doubted the pass: {passer}'s dice were not all alike",
                caller=_who(r.caller),
                passer=_who(passer[0]) if isinstance(passer[0], str) else passer[0],
            )
        else:
            said = _(
                "{caller} doubted the pass: {passer}'s dice were all alike",
                caller=_who(r.caller),
                passer=_who(passer[0]) if isinstance(passer[0], str) else passer[0],
            )
    else:
        fields["call"] = r.call
        if r.success:
            said = _(
                "{caller} called {call} on {whose}: {count} counted, the call succeeds", **fields
            )
        else:
            said = _("{caller} called {call} on {whose}: {count} counted, the call fails", **fields)
    return _("{said} — {tail}", said=said, tail=tail)


def _call(event: CallMade, calls: Mapping[str, CallKind]) -> Text:
    if event.kind == "pass":
        return _("{player} passes", player=_who(event.player))
    if event.kind == "doubt":
        return _("{player} doubts the pass", player=_who(event.player))
    known = calls.get(event.kind)
    name = known.title if known is not None else event.kind
    return _("{player} calls “{call}”", player=_who(event.player), call=name)


def line(
    event: Event, calls: Mapping[str, CallKind] | None = None, kind: BidKind = COUNT_OF_FACE
) -> Text | None:
    """A public line for ``event``, or ``None`` for events not worth a line. ``calls``: the
    table's call kinds (``Ruleset.calls``), whose labels name calls; ``kind``: its kind of bid
    (``Ruleset.bid_kind``), whose words say a bid."""
    if isinstance(event, GameStarted):
        return _n(
            "New game: {players}, {n} die each",
            "New game: {players}, {n} dice each",
            players=listing(event.players),
            n=event.dice_per_player,
        )
    if isinstance(event, RoundStarted):
        return _("Round {number}: {player} opens", number=event.number, player=_who(event.opener))
    if isinstance(event, BidMade):
        return _("{player} bids {bid}", player=_who(event.player), bid=kind.words(event.bid))
    if isinstance(event, CallMade):
        return _call(event, calls or {})
    if isinstance(event, DiceShown):
        faces = " ".join(map(str, event.dice))
        return _n(
            "{player} puts {n} die face up: {faces}",
            "{player} puts {n} dice face up: {faces}",
            player=_who(event.player),
            n=len(event.dice),
            faces=faces,
        )
    if isinstance(event, DiceRerolled):  # the faces, old and new, stay under the cup
        return _n(
            "{player} rerolls {n} die under the cup",
            "{player} rerolls {n} dice under the cup",
            player=_who(event.player),
            n=len(event.dice),
        )
    if isinstance(event, TimedOut):
        return _("{player}'s clock ran out", player=_who(event.player))
    if isinstance(event, RoundResolved):
        return ruling(event.resolution)
    if isinstance(event, DiceChanged):
        # The reason follows a colon: a reason may hold parentheses of its own, and a bot's
        # name does ("Ada (bot)"), so parentheses around it would nest.
        fields = {
            "player": _who(event.player),
            "n": abs(event.delta),
            "reason": _bots_named(event.reason),
        }
        if event.delta < 0:
            return _n(
                "{player} loses {n} die: {reason}", "{player} loses {n} dice: {reason}", **fields
            )
        return _n("{player} gains {n} die: {reason}", "{player} gains {n} dice: {reason}", **fields)
    if isinstance(event, Eliminated):
        return _(
            "{player} is out: {reason}",
            player=_who(event.player),
            reason=_bots_named(event.reason),
        )
    if isinstance(event, Notice):  # a plugin's text: its names are filled in by the plugin
        return _bots_named(event.text)
    if isinstance(event, GameWon):
        if len(event.winners) == 1:
            return _("{player} wins the game!", player=_who(event.winners[0]))
        return _("{players} win the game!", players=listing(event.winners))
    # TurnPassed (whose turn it is shows on the table), PrivateStateSet (secret), PluginStateSet
    # and OpenerChosen get no line.
    return None


class Log:
    """A table's public log: its last ``size`` lines, each read once in each language asked for
    (a table sends its whole log with every state). ``render(locale)`` is what a message holding
    the log sends (:func:`liarsdice_demo.edge.protocol.encode` reads it so); ``dropped`` counts
    the lines that fell off its start since it was last cleared."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.dropped = 0
        self._lines: deque[Text] = deque(maxlen=size)
        self._read: dict[str, deque[str]] = {}

    def append(self, line: Text) -> None:
        if len(self._lines) == self.size:
            self.dropped += 1
        self._lines.append(line)
        for locale, read in self._read.items():
            read.append(line.render(locale))

    def clear(self) -> None:
        self.dropped = 0
        self._lines.clear()
        self._read.clear()

    def render(self, locale: str) -> list[str]:
        """The lines in ``locale``, oldest first."""
        read = self._read.get(locale)
        if read is None:
            read = self._read[locale] = deque(
                (line.render(locale) for line in self._lines), maxlen=self.size
            )
        return list(read)

    def __len__(self) -> int:
        return len(self._lines)
