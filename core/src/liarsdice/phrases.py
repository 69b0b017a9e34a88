"""Core's shared words for players, as translatable texts: faces, bids, counts of dice, lists.

Everything here returns a :class:`~liarsdice.i18n.Text`, read in any language with ``render``;
the English reads as before ("5 fives", "one die", "Iris and Knox").
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice.i18n import Param, Text, _, _n
from liarsdice.models import Bid

# A bid is always said as an object ("Iris bids 1 two", "a challenge on Knox's 1 two"), so its
# Ukrainian and Russian forms are accusative ("1 двійку", "1 двойку").
_FACES_PLURAL = {
    # Translators: a bid as the object of a verb or "on": accusative ("1 одиницю").
    1: lambda n: _n("{n} one", "{n} ones", n=n),
    2: lambda n: _n("{n} two", "{n} twos", n=n),
    3: lambda n: _n("{n} three", "{n} threes", n=n),
    4: lambda n: _n("{n} four", "{n} fours", n=n),
    5: lambda n: _n("{n} five", "{n} fives", n=n),
    6: lambda n: _n("{n} six", "{n} sixes", n=n),
}
_FACES = {
    1: _("ones"),
    2: _("twos"),
    3: _("threes"),
    4: _("fours"),
    5: _("fives"),
    6: _("sixes"),
}


def faces(face: int) -> Text:
    """A face's name as the dice that show it: "ones", "sixes"."""
    return _FACES.get(face) or _("face-{face}", face=face)


def bid(value: Bid) -> Text:
    """A bid as players say it as an object ("bids 5 fives", "on 1 six"): in Ukrainian and
    Russian, accusative."""
    counted = _FACES_PLURAL.get(value.face)
    if counted is None or not value.whole:
        return _("{quantity} face-{face}", quantity=value.quantity, face=value.face)
    return counted(value.quantity)


def dice(count: int) -> Text:
    """A number of dice: "1 die", "5 dice"."""
    return _n("{n} die", "{n} dice", n=count)


def listing(items: Sequence[Param]) -> Param:
    """Names or texts as a list: "Iris", "Iris and Knox", "Iris, Knox and Lee"."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    head: Param = items[0]
    for item in items[1:-1]:
        head = _("{first}, {second}", first=head, second=item)
    return _("{first} and {last}", first=head, last=items[-1])


def clauses(items: Sequence[Param]) -> Param:
    """Reasons one after another: "the game is over; not Iris's turn"."""
    if not items:
        return ""
    joined: Param = items[0]
    for item in items[1:]:
        joined = _("{first}; {second}", first=joined, second=item)
    return joined


def yes_no(value: bool) -> Text:
    """A yes-or-no option's value."""
    return _("yes") if value else _("no")
