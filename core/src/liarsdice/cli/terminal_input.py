"""What a player types at ``liarsdice play``: a small grammar, parsed apart from the game loop.

The grammar (:func:`help_text` says it in one line)::

    3 5 | 3x5 | 3*5      bid three fives (quantity, then face 1-6)
    challenge | exact   make that call (any call kind the ruleset offers, by name)
    help | ?            show the grammar
    quit | q            leave the game

:func:`parse` never looks at the game: it says what was typed (a :class:`Typed`) or why it cannot
be read (a :class:`~liarsdice.i18n.Text`). Whether the move is legal is the engine's question.
"""

from __future__ import annotations

import re

import attrs

from liarsdice.i18n import Text, _
from liarsdice.models import Bid


def help_text(calls: tuple[str, ...]) -> Text:
    """The grammar in one line, naming ``calls``, the calls one may make."""
    return _(
        'Type a bid as quantity and face ("3 5" or "3x5": three fives), a call by name '
        '({calls}), "help", or "quit".',
        calls=", ".join(calls) or "-",
    )


#: "3 5", "3x5", "3*5", the multiplication sign, or a Cyrillic ha (a uk/ru keyboard's x).
_BID = re.compile("^\\s*(\\d+)\\s*(?:[x*\u00d7\u0445]\\s*|\\s+)(\\d+)\\s*$", re.IGNORECASE)


@attrs.frozen
class Typed:
    """A line read: ``word`` is "bid", "call", "help" or "quit"; ``bid`` or ``kind`` its detail."""

    word: str
    bid: Bid | None = None
    kind: str | None = None


def parse(line: str, calls: tuple[str, ...]) -> Typed | Text:
    """Read ``line``; ``calls`` are the call kinds the ruleset offers. A reason when unreadable."""
    text = line.strip().lower()
    if not text:
        return _('Type a bid or a call ("help" shows how).')
    if text in ("help", "?", "h"):
        return Typed("help")
    if text in ("quit", "q", "exit"):
        return Typed("quit")
    if text in calls:
        return Typed("call", kind=text)
    match = _BID.match(text)
    if match is None:
        return _('"{line}" is neither a bid nor a call ("help" shows how).', line=line.strip())
    quantity, face = int(match[1]), int(match[2])
    if not 1 <= face <= 6:
        return _("a face is 1 to 6, not {face}", face=face)
    if quantity < 1:
        return _("a bid is on at least one die")
    return Typed("bid", bid=Bid(quantity, face))
