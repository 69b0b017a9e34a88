"""Translations: texts read in each language, English per missing message, catalogs kept complete."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from liarsdice import Ruleset, phrases
from liarsdice.catalogs import problems, update
from liarsdice.cli import cli
from liarsdice.events import Event, Notice
from liarsdice.i18n import Catalog, Text, fields, negotiate, render, translations
from liarsdice.models import Bid
from liarsdice.serialization import from_data, to_data

CORE = Path(__file__).parents[2] / "core" / "src" / "liarsdice"


def test_core_catalogs_are_complete() -> None:
    # The demo's (its templates need Jinja's extractor) are checked by the demo's own tests.
    assert problems(CORE, CORE.name) == []


def test_a_text_reads_in_each_language_with_its_parts_translated() -> None:
    bid = phrases.bid(Bid(5, 5))
    assert str(bid) == "5 fives"
    assert bid.render("uk") == "5 пʼятірок"
    assert bid.render("ru") == "5 пятёрок"
    heading = Text("Rules: {title}", {"title": phrases.faces(6)})
    assert heading.render("uk") == "Правила: шістки"


@pytest.mark.parametrize(
    ("n", "uk", "ru"),
    [
        (1, "1 кубик", "1 кубик"),
        (2, "2 кубики", "2 кубика"),
        (5, "5 кубиків", "5 кубиков"),
        (11, "11 кубиків", "11 кубиков"),
        (21, "21 кубик", "21 кубик"),
        (24, "24 кубики", "24 кубика"),
    ],
)
def test_plurals_follow_each_languages_rule(n: int, uk: str, ru: str) -> None:
    dice = phrases.dice(n)
    assert dice.render("uk") == uk and dice.render("ru") == ru
    assert str(dice) == (f"{n} die" if n == 1 else f"{n} dice")


def test_a_missing_message_an_unknown_language_and_a_plain_string_read_in_english() -> None:
    _, _n = Catalog("liarsdice").markers()
    assert _("not in any catalog, {x}", x=1).render("uk") == "not in any catalog, 1"
    assert _("Options in force").render("de") == "Options in force"
    assert render("plain", "uk") == "plain" and render(None) == ""
    assert Text("no package of that name", domain="no_such_package").render("ru").startswith("no ")


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    """An importable package ``i18n_probe`` marking two messages."""
    folder = tmp_path / "i18n_probe"
    folder.mkdir()
    (folder / "__init__.py").write_text(
        "from liarsdice.i18n import Catalog\n"
        "_, _n = Catalog(__name__).markers()\n"
        'HELLO = _("Hello {name}", name="Iris")\n'
        'DICE = _n("{n} die left", "{n} dice left", n=2)\n'
    )
    sys.path.insert(0, str(tmp_path))
    yield folder
    sys.path.remove(str(tmp_path))
    sys.modules.pop("i18n_probe", None)
    translations.cache_clear()


def _translate(po: Path, english: str, translation: str) -> None:
    text = po.read_text()
    assert f'msgid "{english}"\nmsgstr ""' in text
    po.write_text(
        text.replace(f'msgid "{english}"\nmsgstr ""', f'msgid "{english}"\nmsgstr "{translation}"')
    )


def test_catalog_upkeep_finds_what_is_missing_and_what_does_not_fit(package: Path) -> None:
    assert len(problems(package, "i18n_probe")) == 2  # no catalog at all, in uk and ru
    written = update(package, "i18n_probe")
    uk = package / "locale/uk/LC_MESSAGES/i18n_probe.po"
    assert uk in written and 'msgid_plural "{n} dice left"' in uk.read_text()
    found = problems(package, "i18n_probe", ("uk",))
    assert len(found) == 2 and all("not translated" in line for line in found)
    _translate(uk, "Hello {name}", "Привіт, {імʼя}")  # a field renamed: refused
    found = problems(package, "i18n_probe", ("uk",))
    assert any("has fields" in line for line in found)
    uk.write_text(uk.read_text().replace("Привіт, {імʼя}", "Привіт, {name}"))
    assert not any("Hello" in line for line in problems(package, "i18n_probe", ("uk",)))
    (package / "__init__.py").write_text(
        (package / "__init__.py").read_text().replace("Hello {name}", "Hi {name}")
    )
    update(package, "i18n_probe", ("uk",))  # the changed message keeps its translation, fuzzy
    assert any("'Hi {name}' is fuzzy" in line for line in problems(package, "i18n_probe", ("uk",)))


def test_a_translation_whose_fields_do_not_fit_is_not_used(package: Path) -> None:
    update(package, "i18n_probe", ("uk",))
    uk = package / "locale/uk/LC_MESSAGES/i18n_probe.po"
    _translate(uk, "Hello {name}", "Привіт, {who}")
    import i18n_probe

    assert i18n_probe.HELLO.render("uk") == "Hello Iris"
    translations.cache_clear()
    uk.write_text(uk.read_text().replace("{who}", "{name}"))
    again = Text(i18n_probe.HELLO.msgid, i18n_probe.HELLO.params, "i18n_probe")  # not yet read
    assert again.render("uk") == "Привіт, Iris"


def test_a_text_equals_the_english_it_reads_and_round_trips_as_data() -> None:
    _, _n = Catalog("liarsdice_revolver").markers()
    text = _(
        "{player} loads {loaded} of {chambers} and pulls: bang", player="Iris", loaded=2, chambers=6
    )
    assert text == "Iris loads 2 of 6 and pulls: bang" == text
    assert hash(text) == hash("Iris loads 2 of 6 and pulls: bang")
    nested = Notice("revolver", Text("{a}; {b}", {"a": text, "b": phrases.dice(2)}))
    data = to_data(nested, Event)
    assert from_data(data, Event) == nested
    assert from_data(data, Event).text.render("uk") == nested.text.render("uk") != str(nested.text)
    legacy = {"type": "Notice", "plugin": "x", "text": "stored before texts", "player": None}
    assert from_data(legacy, Event) == Notice("x", "stored before texts")
    assert to_data(Notice("x", "plain"), Event)["text"] == "plain"


def test_a_plural_needs_its_count() -> None:
    with pytest.raises(TypeError, match="n="):
        Catalog("liarsdice").plural("{n} die", "{n} dice", count=2)


@pytest.mark.parametrize(
    ("tags", "locale"),
    [(["uk-UA", "en"], "uk"), (["de", "ru_RU"], "ru"), (["de"], "en"), ([], "en")],
)
def test_negotiate_picks_the_first_language_players_can_read(tags: list[str], locale: str) -> None:
    assert negotiate(tags) == locale


def test_the_rules_command_prints_the_page_in_the_language_asked() -> None:
    runner = CliRunner()
    uk = runner.invoke(cli, ["rules", "--preset", "perudo", "--lang", "uk"])
    assert uk.exit_code == 0, uk.output
    assert uk.output.startswith("# Правила: ") and "Чинні налаштування" in uk.output
    assert uk.output == Ruleset.build(preset="perudo").describe("uk")
    ru = runner.invoke(cli, ["rules", "--preset", "perudo", "--lang", "ru"])
    assert ru.output.startswith("# Правила: ") and ru.output != uk.output
    refused = runner.invoke(cli, ["rules", "--lang", "de"])
    assert refused.exit_code != 0 and "de" in refused.output


def test_the_catalog_command_updates_and_checks(package: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(cli, ["catalog", "check", str(package)])
    assert missing.exit_code == 1 and "missing" in missing.output
    made = runner.invoke(cli, ["catalog", "update", str(package)])
    assert made.exit_code == 0 and made.output.count("updated ") == 2
    complete = runner.invoke(cli, ["catalog", "check", str(CORE)])
    assert complete.exit_code == 0 and "every message is translated" in complete.output


def test_an_options_value_reads_by_its_label_in_each_language() -> None:
    rules = Ruleset.build(preset="casino")  # calza.reward=table-pays
    assert "- What a successful exact call earns: **the table pays**\n" in rules.describe()
    for locale, words in (("uk", "платить увесь стіл"), ("ru", "платит весь стол")):
        page = rules.describe(locale)
        assert f"**{words}**" in page and "table-pays" not in page
    assert rules.option("calza.reward").value_label("regain-die") == "the caller regains a die"
    assert rules.option("revolver.chambers").value_label(6) == "6"


def test_a_translation_that_drops_a_field_or_a_plural_form_reads_in_english(package: Path) -> None:
    update(package, "i18n_probe", ("ru",))
    ru = package / "locale/ru/LC_MESSAGES/i18n_probe.po"
    _translate(ru, "Hello {name}", "Привет")  # {name} dropped: refused
    text = ru.read_text().replace('msgstr[0] ""', 'msgstr[0] "остался {n} кубик"', 1)
    ru.write_text(text)  # one plural form of three: the message is not used
    import i18n_probe

    assert i18n_probe.HELLO.render("ru") == "Hello Iris"
    assert Catalog("i18n_probe").plural("{n} die left", "{n} dice left", n=21).render("ru") == (
        "21 dice left"
    )
    assert any("not translated" in line for line in problems(package, "i18n_probe", ("ru",)))


def test_escaped_braces_are_not_fields_and_a_bad_message_names_itself() -> None:
    assert fields("Braces {{like this}} stay, {name} and %(other)s are filled") == {"name", "other"}
    with pytest.raises(ValueError, match=re.escape("liarsdice: the message 'missing {x}'")):
        str(Catalog("liarsdice").text("missing {x}"))
