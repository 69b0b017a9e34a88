"""Names that pass for another, and names with characters nobody sees.

Contract: :func:`invisible` finds a character that shows nothing (control and format characters,
line and paragraph separators, private-use, surrogate and unassigned code points, Unicode's
default-ignorable code points such as the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0 or
the zero-width characters, and the blank braille pattern U+2800). :func:`lookalike` finds, among
names in use, one that ``name`` can be taken for: a different string with the same skeleton
(:func:`skeleton`, after Unicode TR39, from the confusables data of ``confusable-homoglyphs``:
"Hana" written with the Cyrillic letter U+0430 for its "a", or U+041D for its "H", beside the
Latin "Hana"). An identical name is not a look-alike: a table tells namesakes apart itself
("Hana 2"). Skeletons are case-sensitive, as TR39 defines them, so "hana" does not pass for
"Hana".
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs.confusables import confusables_data

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
"""Unicode general categories of characters that show nothing (or nothing agreed on)."""
BLANK = frozenset({"\u2800"})
"""Characters that are neither of those nor default-ignorable, yet print as blank space."""
IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), inclusive ranges."""
_MARKS = str.maketrans("", "", "\u200e\u200f")
"""Direction marks the library's data wraps right-to-left characters in, for display only."""


def invisible(name: str) -> str | None:
    """The first character of ``name`` that shows nothing, if any."""
    for char in name:
        code = ord(char)
        if (
            unicodedata.category(char) in HIDDEN_CATEGORIES
            or char in BLANK
            or any(low <= code <= high for low, high in IGNORABLE_RANGES)
        ):
            return char
    return None


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables.txt mapped to its group's prototype.

    ``confusable-homoglyphs`` keeps each line of that file both ways: a character and its
    prototype (the text TR39 maps it to) each list the other. So a group is a star, whose
    prototype lists every other member and each member lists the prototype alone. In a group of
    two there is no telling which is which, and the lower code point stands for both.
    """
    links: dict[str, set[str]] = {}
    for char, homoglyphs in confusables_data.items():
        mine = links.setdefault(char.translate(_MARKS), set())
        mine.update(glyph["c"].translate(_MARKS) for glyph in homoglyphs)

    def prototype(char: str) -> str:
        if len(links[char]) > 1:
            return char
        (other,) = links[char]
        if len(other) > 1 or len(links[other]) > 1:
            return other
        return min(char, other)

    return {char: prototype(char) for char in links if len(char) == 1}


@functools.lru_cache(maxsize=65536)
def skeleton(name: str) -> str:
    """The skeleton of ``name`` after Unicode TR39: NFD, each character replaced by its confusable
    group's prototype, NFD again. Two names are confusable when their skeletons are equal (for
    comparison only, never shown)."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", name))
    return unicodedata.normalize("NFD", mapped)


def lookalike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` can be taken for (same skeleton, other string)."""
    mine = skeleton(name)
    return next((other for other in others if other != name and skeleton(other) == mine), None)
