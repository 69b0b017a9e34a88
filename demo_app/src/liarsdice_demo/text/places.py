"""A finishing place as players read it: "1st place", "2nd place", "11th place".

In uk/ru the catalogs say "place N", which needs no ordinal ending.

Contract: :func:`place_text` takes a place (1 = the winners) and returns it in the request's
language; the English ordinal suffix picks the message, each one a whole phrase to translate.
"""

from __future__ import annotations

from flask_babel import gettext


def place_text(place: int) -> str:
    """``place`` (1 or more) as "Nth place" in the request's language."""
    teen = place % 100 in (11, 12, 13)
    last = place % 10
    if last == 1 and not teen:
        return str(gettext("%(place)sst place", place=place))
    if last == 2 and not teen:
        return str(gettext("%(place)snd place", place=place))
    if last == 3 and not teen:
        return str(gettext("%(place)srd place", place=place))
    return str(gettext("%(place)sth place", place=place))
