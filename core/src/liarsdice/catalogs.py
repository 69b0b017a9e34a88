"""Catalog upkeep for a package's translations: extract, update, and list what a catalog lacks.

It serves ``liarsdice catalog update|check`` and the catalog tests of every package.

Messages are found by Babel's extraction in the package's ``.py`` files (the markers ``_`` and
``_n`` of :mod:`liarsdice.i18n`, ``N_`` for a message marked now and translated later, and
Flask-Babel's ``gettext``/``ngettext``/``lazy_gettext``) and
its ``templates/**.html`` (Jinja). A catalog is complete when every message has a translation that
is not fuzzy and uses exactly the English message's fields (``{name}`` or ``%(name)s``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from liarsdice.i18n import LOCALES, fields

#: The marker functions extraction looks for, with the arguments that are messages.
KEYWORDS = {
    "_": None,
    "_n": (1, 2),
    "N_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
}
METHODS = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
TRANSLATED = tuple(locale for locale in LOCALES if locale != "en")

HEADER = """\
# The {domain} messages in {locale}.
# Kept up to date with: liarsdice catalog update <the {domain} package folder>"""


def po_path(package_dir: Path, domain: str, locale: str) -> Path:
    """Where a package keeps its catalog for ``locale``."""
    return package_dir / "locale" / locale / "LC_MESSAGES" / f"{domain}.po"


def extract(package_dir: Path, domain: str) -> Catalog:
    """Every message marked in ``package_dir``, as a template catalog."""
    template = Catalog(domain=domain, project=domain, charset="utf-8")
    found = extract_from_dir(
        str(package_dir), METHODS, keywords=KEYWORDS, comment_tags=("Translators:",)
    )
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def _read(path: Path, locale: str, domain: str) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=locale, domain=domain)


def update(package_dir: Path, domain: str, locales: tuple[str, ...] = TRANSLATED) -> list[Path]:
    """Bring each locale's catalog of ``package_dir`` up to its marked messages: new messages are
    added untranslated, gone ones dropped, changed ones marked fuzzy. Returns the files written."""
    template = extract(package_dir, domain)
    written = []
    for locale in locales:
        path = po_path(package_dir, domain, locale)
        if path.is_file():
            catalog = _read(path, locale, domain)
        else:
            catalog = Catalog(locale=Locale.parse(locale), domain=domain, project=domain)
            catalog.creation_date = datetime.now(UTC)
            catalog.fuzzy = False
            catalog.header_comment = HEADER.format(domain=domain, locale=locale)
        template.creation_date = catalog.creation_date  # no change when nothing changed
        catalog.update(template, update_header_comment=False)
        catalog.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as po:
            write_po(po, catalog, width=100, no_location=True, include_previous=True)
        written.append(path)
    return written


def _forms(value: object) -> tuple[str, ...]:
    """A message's text, or each of its plural forms ("" when there is none)."""
    if isinstance(value, list | tuple):
        return tuple(str(form or "") for form in value)
    return (str(value or ""),)


def problems(package_dir: Path, domain: str, locales: tuple[str, ...] = TRANSLATED) -> list[str]:
    """What keeps the catalogs of ``package_dir`` from being complete, one line per problem."""
    template = extract(package_dir, domain)
    found = []
    for locale in locales:
        path = po_path(package_dir, domain, locale)
        if not path.is_file():
            found.append(f"{path}: missing (run: liarsdice catalog update {package_dir})")
            continue
        catalog = _read(path, locale, domain)
        for message in template:
            if not message.id:
                continue
            english = _forms(message.id)
            entry = catalog.get(message.id)
            where = f"{path}: {english[0]!r}"
            if entry is None:
                found.append(f"{where} is not in the catalog")
                continue
            strings = _forms(entry.string)
            if entry.fuzzy or not all(strings):
                found.append(f"{where} is {'fuzzy' if entry.fuzzy else 'not translated'}")
                continue
            wanted = set().union(*(fields(text) for text in english))
            for text in strings:
                if fields(text) != wanted:
                    found.append(
                        f"{where}: the translation {text!r} has fields "
                        f"{sorted(fields(text))}, not {sorted(wanted)}"
                    )
    return found
