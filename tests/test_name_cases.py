"""Player names stand in the nominative in every Ukrainian and Russian catalog message.

A name is whatever a player typed ("Петро", "Анна", "Iris"): it cannot be declined, so a
translation must not put it where the grammar needs another case ("У Петро сплив час", "на 1
двойку от Анна", "Господар прибрав Петро"). Every message of every catalog (core and its terminal
game, each plugin, the tutorial's example, the demo app) that fills in a player's name is checked:
the word right before the name must not be a preposition or a noun in an oblique case
(:data:`NEEDS_A_CASE`), and any other word there must be one known to leave the name in the
nominative (:data:`NOMINATIVE_BEFORE`: "гравець Петро", "відкриває Петро"); punctuation ("Петро:",
"(Петро)", "ви — Петро") and the start of the message always do. A new message in a construction
that needs a case fails here; one in a new nominative construction adds its word to the list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).parent.parent
CATALOGS = sorted(
    path
    for pattern in (
        "core/src/liarsdice/locale/*/LC_MESSAGES/*.po",
        "plugins/*/liarsdice_*/locale/*/LC_MESSAGES/*.po",
        "docs/examples/*/liarsdice_*/locale/*/LC_MESSAGES/*.po",
        "demo_app/src/liarsdice_demo/locale/*/LC_MESSAGES/*.po",
    )
    for path in ROOT.glob(pattern)
)

#: The fields that hold a player's name (or a list of names) in every catalog.
NAME_FIELDS = frozenset(
    {
        "player",
        "players",
        "caller",
        "bidder",
        "passer",
        "winners",
        "losers",
        "names",
        "seated",
    }
)
#: Fields that hold a player's name in one domain only (``{name}`` is a preset's name in core).
DOMAIN_NAME_FIELDS = {"liarsdice_demo": frozenset({"name", "other"})}

#: Words after which a name would need a case: prepositions (uk, ru) and person nouns in an
#: oblique case ("у гравця Петро", "игроку Анна").
NEEDS_A_CASE = frozenset(
    {
        "у",
        "в",
        "во",
        "від",
        "до",
        "для",
        "з",
        "із",
        "зі",
        "зо",
        "на",
        "по",
        "при",
        "про",
        "за",
        "без",
        "біля",
        "після",
        "через",
        "над",
        "під",
        "перед",
        "між",
        "проти",
        "о",
        "об",
        "обо",
        "к",
        "ко",
        "крім",
        "замість",
        "серед",
        "щодо",
        "навколо",
        "коло",
        "от",
        "с",
        "со",
        "из",
        "около",
        "возле",
        "после",
        "под",
        "между",
        "против",
        "кроме",
        "вместо",
        "среди",
        "насчёт",
        "ради",
        "гравця",
        "гравцю",
        "гравцеві",
        "гравцем",
        "гравців",
        "гравцям",
        "гравцями",
        "господаря",
        "господарю",
        "переможця",
        "суперника",
        "супернику",
        "игрока",
        "игроку",
        "игроком",
        "игроке",
        "игроков",
        "игрокам",
        "игроками",
        "хозяина",
        "хозяину",
        "победителя",
        "соперника",
        "сопернику",
    }
)
#: Words after which a name stays in the nominative: nominative nouns in apposition ("гравець
#: Петро", "імʼя Петро") and verbs with the name as their subject ("відкриває Петро").
NOMINATIVE_BEFORE = frozenset(
    {
        "гравець",
        "гравці",
        "імʼя",
        "ім'я",
        "игрок",
        "игроки",
        "имя",
        "переможець",
        "переможці",
        "победитель",
        "победители",
        "відкриває",
        "сідає",
        "начинает",
        "садится",
        "не",
    }
)

_FIELD = re.compile(r"\{(\w+)\}|%\((\w+)\)s")
_LAST_WORD = re.compile(r"([\w'ʼ’]+)\s*$")


def _name_fields(domain: str) -> frozenset[str]:
    return NAME_FIELDS | DOMAIN_NAME_FIELDS.get(domain, frozenset())


def problems(text: str, names: frozenset[str]) -> list[str]:
    """Where ``text`` puts a name field after a word that needs (or may need) a case."""
    found = []
    for match in _FIELD.finditer(text):
        if (match[1] or match[2]) not in names:
            continue
        word = _LAST_WORD.search(text[: match.start()])
        if word is None:  # the start of the message, or punctuation before the name
            continue
        lowered = word[1].lower()
        if lowered in NEEDS_A_CASE:
            found.append(f"{word[1]!r} needs a case before {match[0]}")
        elif lowered not in NOMINATIVE_BEFORE:
            found.append(f"{word[1]!r} before {match[0]} may need a case")
    return found


def _messages(path: Path) -> list[tuple[str, str]]:
    """``(msgid, translation)`` of each translated message of ``path`` that fills in a name."""
    domain = path.stem
    with path.open("rb") as po:
        catalog = read_po(po)
    names = _name_fields(domain)
    found = []
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not message.id or not any(
            (a or b) in names for msgid in ids for a, b in _FIELD.findall(msgid)
        ):
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [(ids[0], string) for string in strings if string]
    return found


TRANSLATED = [path for path in CATALOGS if path.parts[-3] in ("uk", "ru")]


def test_every_catalog_is_checked() -> None:
    domains = {path.stem for path in TRANSLATED}
    assert {"liarsdice", "liarsdice_demo", "liarsdice_revolver", "liarsdice_pass"} <= domains
    assert len(TRANSLATED) >= 30


@pytest.mark.parametrize(
    "path", TRANSLATED, ids=lambda path: f"{path.parts[-3]}-{path.stem.removeprefix('liarsdice_')}"
)
def test_names_stand_in_the_nominative(path: Path) -> None:
    names = _name_fields(path.stem)
    wrong = [
        f"{msgid!r} -> {string!r}: {'; '.join(found)}"
        for msgid, string in _messages(path)
        if (found := problems(string, names))
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "text",
    [
        "У {player} сплив час",
        "{bid} от {player}",
        "у гравця {player} лишився один кубик",
        "Хозяин убрал {player}.",
        "кубики {passer} не все одинаковые",
        "імʼя %(name)s схоже на %(other)s",
    ],
)
def test_a_name_in_an_oblique_case_is_found(text: str) -> None:
    assert problems(text, NAME_FIELDS | {"name", "other"})


@pytest.mark.parametrize(
    "text",
    [
        "{player}: час сплив",
        "{player} ставить {bid}",
        "Раунд {number}: відкриває {player}",
        "гравець {player} уже не в грі",
        "{bid} ({player})",
        "Ви — {player}",
    ],
)
def test_a_name_in_the_nominative_passes(text: str) -> None:
    assert problems(text, NAME_FIELDS) == []
