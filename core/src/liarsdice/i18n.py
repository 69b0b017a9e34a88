"""Translations: what a player reads, in English, Ukrainian or Russian, from gettext catalogs.

Every package that says something to players (core, each plugin, the demo) is one gettext
*domain*, named like its top-level module, whose catalogs live inside the package at
``locale/<lang>/LC_MESSAGES/<domain>.po``. English is the source language: a message missing
from a catalog (or a package with no catalogs) reads in English, message by message.

A message is marked where it is written and rendered where it is read, in the reader's language::

    _, _n = Catalog(__name__).markers()
    _("{player} loads {loaded} of {chambers} and pulls: bang", player=p, loaded=2, chambers=6)
    _n("one bullet", "{n} bullets", n=initial)

Both return a :class:`Text`: its template is the English ``msgid`` (``str.format`` fields), its
parameters are plain values or other texts; ``text.render("uk")`` reads it in Ukrainian and
``str(text)`` in English. Catalogs are read from the ``.po`` files themselves (no compiled
``.mo`` files to build or ship), once per domain and language.
"""

from __future__ import annotations

import functools
import io
import re
import string
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from typing import TypeAlias

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

#: The languages players can read, English (the source language) first.
LOCALES = ("en", "uk", "ru")
#: Each language's name in that language, for a language switch.
LANGUAGE_NAMES = {"en": "English", "uk": "Українська", "ru": "Русский"}
#: The domain of core's own messages.
CORE_DOMAIN = "liarsdice"

Param: TypeAlias = "str | int | float | Text"
Reason: TypeAlias = "str | Text"
"""Why something is refused: a plain string or a text to translate."""


class Text:
    """A message to a player, to be read in any language.

    ``msgid`` is the English template; ``plural`` (with the count in ``params["n"]``) its plural
    form. ``domain`` names the catalog that translates it. A translation whose fields do not
    match the English ones is not used (the English is). Like a lazy string, a text equals any
    text or string that reads the same in English (``Notice(...).text == "Iris passes"``). A text
    is read once per language: the reading is kept (a table sends its log over and over).

    A plain class with slots rather than an attrs class: a table makes a few texts per move, and
    this is what makes that cheap. Treat a text as immutable.
    """

    __slots__ = ("_read", "domain", "msgid", "params", "plural")

    def __init__(
        self,
        msgid: str,
        params: Mapping[str, Param] | None = None,
        domain: str = CORE_DOMAIN,
        plural: str | None = None,
    ) -> None:
        self.msgid = msgid
        self.params: Mapping[str, Param] = {} if params is None else params
        self.domain = domain
        self.plural = plural
        self._read: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"Text({self.msgid!r}, {dict(self.params)!r}, domain={self.domain!r}" + (
            f", plural={self.plural!r})" if self.plural is not None else ")"
        )

    def render(self, locale: str = "en") -> str:
        """This text in ``locale`` (English for an unknown locale or a missing message)."""
        read = self._read.get(locale)
        if read is None:
            read = self._read[locale] = self._render(locale)
        return read

    def _render(self, locale: str) -> str:
        values = {
            key: value.render(locale) if type(value) is Text else str(value)
            for key, value in self.params.items()
        }
        english = self.msgid if self.plural is None or values.get("n") == "1" else self.plural
        if locale != "en":
            catalog = translations(self.domain, locale)
            if self.plural is None:
                template = catalog.gettext(self.msgid)
            else:
                template = catalog.ngettext(self.msgid, self.plural, int(self.params["n"]))  # type: ignore[arg-type]
            wanted = fields(self.msgid) | fields(self.plural or "")
            if template != english and fields(template) == wanted:
                try:
                    return template.format(**values)
                except (KeyError, IndexError, ValueError):
                    pass  # a translation that does not fit reads in English
        try:
            return english.format(**values)
        except (KeyError, IndexError, ValueError) as error:
            raise ValueError(
                f"{self.domain or 'a plain string'}: the message {english!r} cannot be filled in "
                f"with {sorted(values)}: {error!r}"
            ) from None

    def __str__(self) -> str:
        return self.render("en")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Text | str):
            return str(self) == str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


_PERCENT_FIELD = re.compile(r"%\((\w+)\)[sdif]")


def fields(message: str) -> set[str]:
    """The fields a message fills in: ``{name}`` (not ``{{``) and ``%(name)s`` names."""
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(message) if name is not None}
    except ValueError:  # not a valid format string: it has no fields to fill
        names = set()
    return {name.split(".")[0].split("[")[0] for name in names} | set(
        _PERCENT_FIELD.findall(message)
    )


def render(value: Param | None, locale: str = "en") -> str:
    """``value`` as a player reads it in ``locale``: a :class:`Text` translated, anything else as
    it is (``None`` as an empty string)."""
    if value is None:
        return ""
    if isinstance(value, Text):
        return value.render(locale)
    return str(value)


def as_text(value: str | Text) -> Text:
    """``value`` as a :class:`Text`: a plain string is a message with no translation."""
    return value if isinstance(value, Text) else Text(value, domain="")


class Catalog:
    """The messages of one domain (a package): makes :class:`Text` objects in that domain."""

    def __init__(self, domain: str) -> None:
        self.domain = domain.partition(".")[0]

    def text(self, msgid: str, **params: Param) -> Text:
        """A message of this domain (mark it ``_``)."""
        return Text(msgid, params, self.domain)

    def plural(self, msgid: str, plural: str, **params: Param) -> Text:
        """A message with a plural form chosen by ``params["n"]`` (mark it ``_n``)."""
        if "n" not in params:
            raise TypeError(f"{self.domain}: a plural message needs its count as n=: {msgid!r}")
        return Text(msgid, params, self.domain, plural)

    def markers(self) -> tuple[Callable[..., Text], Callable[..., Text]]:
        """``_`` and ``_n``, the names Babel's extraction looks for (:mod:`liarsdice.catalogs`)."""
        return self.text, self.plural


def catalog_path(domain: str, locale: str) -> resources.abc.Traversable | None:
    """Where ``domain``'s catalog for ``locale`` is, if the domain is an installed package."""
    if not domain:
        return None
    try:
        root = resources.files(domain)
    except (ModuleNotFoundError, TypeError, ValueError):
        return None
    return root / "locale" / locale / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def translations(domain: str, locale: str) -> NullTranslations:
    """The translations of ``domain`` into ``locale`` (none for English or a missing catalog), as
    Babel's translations (the standard library's, with the names Jinja's i18n calls too)."""
    path = catalog_path(domain, locale) if locale != "en" else None
    if path is None or not path.is_file():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=locale, domain=domain)
    for message in list(catalog):  # a plural with a form missing reads wholly in English
        if message.id and isinstance(message.string, tuple) and not all(message.string):
            catalog.delete(message.id, context=message.context)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=domain)


def negotiate(wanted: Iterable[str], default: str = "en") -> str:
    """The first of ``wanted`` (language tags such as ``"uk-UA"``) that players can read."""
    for tag in wanted:
        language = tag.replace("_", "-").split("-")[0].strip().lower()
        if language in LOCALES:
            return language
    return default


_, _n = Catalog(CORE_DOMAIN).markers()
"""Core's own markers (core modules import these)."""
