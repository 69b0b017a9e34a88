"""What a player types at ``liarsdice play``: a small grammar, parsed apart from the game loop.

The grammar (:func:`help_text` says it in one line)::

    3 5 | 3x5 | 3*5       bid three fives (quantity, then face 1-6)
    23                    bid 23, where a bid is one number (a total of pips: ``one_number``)
    challenge | exact     make that call: any call kind the ruleset offers, by its name or by
                          its label in any language (:func:`call_words`: the buttons' words)
    help | ? | допомога   show the grammar (the word in any language: :func:`command_words`)
    quit | q | вийти      leave the game

:func:`parse` never looks at the game: it says what was typed (a :class:`Typed`) or why it cannot
be read (a :class:`~liarsdice.i18n.Text`). Whether the move is legal is the engine's question.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

import attrs

from liarsdice.i18n import LOCALES, Text, _, render
from liarsdice.models import Bid
from liarsdice.options import CallKind

# Translators: the word a player types at "liarsdice play" to see what they may type.
HELP = _("help")
# Translators: the word a player types at "liarsdice play" to leave the game.
QUIT = _("quit")
# Translators: in the help line of "liarsdice play", in place of the calls one may make, where no
# call may be made yet (before the round's first bid).
NO_CALL_YET = _("none yet")


def help_text(calls: tuple[str, ...], one_number: bool = False) -> Text:
    """The grammar in one line, naming ``calls``, the calls one may make, and the reader's
    words for help and quit (``one_number``: where a bid is one number, such as a total of
    pips)."""
    if one_number:
        return _(
            'Type a bid as one number ("23"), a call by name ({calls}), "{help}", or "{quit}".',
            calls=", ".join(calls) or NO_CALL_YET,
            help=HELP,
            quit=QUIT,
        )
    return _(
        'Type a bid as quantity and face ("3 5" or "3x5": three fives), a call by name '
        '({calls}), "{help}", or "{quit}".',
        calls=", ".join(calls) or NO_CALL_YET,
        help=HELP,
        quit=QUIT,
    )


@functools.cache
def command_words() -> dict[str, str]:
    """The words for "help" and "quit" (their short forms and their word in every language,
    "допомога", "выйти"), as :func:`word` reads them, mapped to "help" or "quit"."""
    found = {"?": "help", "h": "help", "q": "quit", "exit": "quit"}
    for command, text in (("help", HELP), ("quit", QUIT)):
        for locale in LOCALES:
            found[word(render(text, locale))] = command
    return found


#: "3 5", "3x5", "3*5", the multiplication sign, or a Cyrillic ha (a uk/ru keyboard's x).
_BID = re.compile("^\\s*(\\d+)\\s*(?:[x*\u00d7\u0445]\\s*|\\s+)(\\d+)\\s*$", re.IGNORECASE)


#: A bid of one number ("23").
_NUMBER = re.compile("^\\s*(\\d+)\\s*$")


#: What :func:`word` drops from a call's label: quotes, ending marks and the spaces around them.
_MARKS = re.compile(r"[\"'«»„“”!?.…]+")


def word(text: str) -> str:
    """``text`` as :func:`parse` compares a call: lower case, no quotes or "!", single spaces."""
    return " ".join(_MARKS.sub(" ", text).lower().split())


def call_words(calls: Mapping[str, CallKind]) -> dict[str, str]:
    """The words that make each call of ``calls`` (kind by name): its name and its label in
    every language (the Ukrainian and Russian "I don't believe it" of a challenge, as the seeds
    and the buttons say it), each as :func:`word` reads it, mapped to the kind."""
    found: dict[str, str] = {}
    for name, kind in calls.items():
        found.setdefault(word(name), name)
        for locale in LOCALES:
            found.setdefault(word(render(kind.title, locale)), name)
    found.pop("", None)
    return found


@attrs.frozen
class Typed:
    """A line read: ``word`` is "bid", "call", "help" or "quit"; ``bid`` or ``kind`` its detail."""

    word: str
    bid: Bid | None = None
    kind: str | None = None


def parse(line: str, calls: Mapping[str, str], one_number: bool = False) -> Typed | Text:
    """Read ``line``; ``calls`` maps the words that make a call to the call's kind (the ruleset's
    kinds: :func:`call_words`); with ``one_number`` a bid is one number, ``Bid(number, 0)`` (a
    bid kind of one field, :mod:`liarsdice.bidkinds`). A reason when unreadable."""
    text = line.strip().lower()
    if not text:
        return _('Type a bid or a call ("{help}" shows how).', help=HELP)
    commands = command_words()
    command = commands.get(text, commands.get(word(text)))
    if command is not None:
        return Typed(command)
    kind = calls.get(word(text))
    if kind is not None:
        return Typed("call", kind=kind)
    if one_number:
        number = _NUMBER.match(text)
        if number is not None:
            return Typed("bid", bid=Bid(int(number[1]), 0))
    match = None if one_number else _BID.match(text)
    if match is None:
        return _(
            '"{line}" is neither a bid nor a call ("{help}" shows how).',
            line=line.strip(),
            help=HELP,
        )
    quantity, face = int(match[1]), int(match[2])
    if not 1 <= face <= 6:
        return _("a face is 1 to 6, not {face}", face=face)
    if quantity < 1:
        return _("a bid is on at least one die")
    return Typed("bid", bid=Bid(quantity, face))
