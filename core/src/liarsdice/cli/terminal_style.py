"""How ``liarsdice play`` looks: colour (through :func:`click.style`) and when to use it.

:func:`colour_wanted` decides, from ``--color``/``--no-color``, ``NO_COLOR``, ``TERM`` and whether
stdout is a terminal. A :class:`Palette` that is off leaves every text as it is; one that is on
colours the fields that matter inside a translated line (the bid, the losers, the player's own
dice), so the words around them stay in the reader's language and order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import click

from liarsdice.events import DiceChanged, Eliminated, Event
from liarsdice.i18n import Param, Text, render

Look = Mapping[str, Any]
"""Keyword arguments of :func:`click.style`."""

BID: Look = {"fg": "magenta", "bold": True}
LOSER: Look = {"fg": "red", "bold": True}
WINNER: Look = {"fg": "green", "bold": True}
OWN_DICE: Look = {"fg": "cyan", "bold": True}
PROMPT: Look = {"fg": "green", "bold": True}
TURN: Look = {"bold": True}

#: The fields of the narration's lines that stand out, at any depth of a line.
EVENT_LOOKS: Mapping[str, Look] = {"bid": BID, "losers": LOSER, "winners": WINNER}


def colour_wanted(flag: bool | None, tty: bool, environ: Mapping[str, str]) -> bool:
    """Whether to colour: ``--color``/``--no-color`` (``flag``) win; else none when ``NO_COLOR``
    is set and not empty or ``TERM`` is ``dumb``; else only when stdout is a terminal (``tty``)."""
    if flag is not None:
        return flag
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    return tty


def emphasise(text: Text, looks: Mapping[str, Look], lang: str) -> Text:
    """``text`` with each field named in ``looks``, however deep, read in ``lang`` and styled."""
    params: dict[str, Param] = {}
    for key, value in text.params.items():
        if key in looks:
            params[key] = click.style(render(value, lang), **looks[key])
        elif isinstance(value, Text):
            params[key] = emphasise(value, looks, lang)
        else:
            params[key] = value
    return Text(text.msgid, params, text.domain, text.plural)


@attrs.frozen
class Palette:
    """Colours on or off for one reader: ``lang`` is the language the styled fields are read in."""

    on: bool = False
    lang: str = "en"

    def event(self, event: Event, line: Text) -> Param:
        """The narration of ``event``: the bid, the losers and the winners stand out, and the
        player who loses dice or is out."""
        if not self.on:
            return line
        if isinstance(event, Eliminated) or (isinstance(event, DiceChanged) and event.delta < 0):
            return emphasise(line, {"player": LOSER}, self.lang)
        return emphasise(line, EVENT_LOOKS, self.lang)

    def bids(self, line: Text) -> Param:
        """The bids so far: each bid stands out."""
        return emphasise(line, EVENT_LOOKS, self.lang) if self.on else line

    def own_dice(self, line: Text) -> Param:
        """The player's own dice line: the dice stand out."""
        return emphasise(line, {"dice": OWN_DICE}, self.lang) if self.on else line

    def whole(self, line: Param, look: Look) -> str:
        """``line`` read in the palette's language, in ``look`` from end to end (the turn, the
        prompt, a win)."""
        read = render(line, self.lang)
        return click.style(read, **look) if self.on else read
