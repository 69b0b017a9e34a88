"""Names that pass for another, and names with characters nobody sees.

Contract: :func:`invisible` finds a character that shows nothing (control and format characters,
line and paragraph separators, private-use, surrogate and unassigned code points, Unicode's
default-ignorable code points such as the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0 or
the zero-width characters, and the blank braille pattern U+2800). :func:`lookalike` finds, among
names in use, one that ``name`` can be taken for: a different string with the same Unicode TR39
skeleton (ICU's spoof checker: "Hana" written with the Cyrillic letter
U+0430 for its "a", or U+041D for its "H", beside the Latin "Hana"). An
identical name is not a look-alike: a table tells namesakes apart itself ("Hana 2"). Skeletons
are case-sensitive, as TR39 defines them, so "hana" does not pass for "Hana".
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

import icu

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
"""Unicode general categories of characters that show nothing (or nothing agreed on)."""
BLANK = frozenset({"\u2800"})
"""Characters that are neither of those nor default-ignorable, yet print as blank space."""

_checker = icu.SpoofChecker()
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT


def invisible(name: str) -> str | None:
    """The first character of ``name`` that shows nothing, if any."""
    for char in name:
        if (
            unicodedata.category(char) in HIDDEN_CATEGORIES
            or char in BLANK
            or icu.Char.hasBinaryProperty(char, _IGNORABLE)
        ):
            return char
    return None


@functools.lru_cache(maxsize=65536)
def skeleton(name: str) -> str:
    """The TR39 skeleton of ``name``: two names are confusable when their skeletons are equal
    (for comparison only, never shown)."""
    return str(_checker.getSkeleton(0, name))


def lookalike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` can be taken for (same skeleton, other string)."""
    mine = skeleton(name)
    return next((other for other in others if other != name and skeleton(other) == mine), None)
