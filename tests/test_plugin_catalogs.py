"""Every variant plugin ships complete Ukrainian and Russian catalogs, and they are read."""

from __future__ import annotations

from pathlib import Path

import pytest

from liarsdice.catalogs import problems
from liarsdice.i18n import render
from liarsdice.rulestext import RulesText

ROOT = Path(__file__).parent.parent
PACKAGES = sorted(
    [
        *ROOT.glob("plugins/*/liarsdice_*/__init__.py"),
        *ROOT.glob("docs/examples/*/liarsdice_*/__init__.py"),
    ]
)


def test_every_plugin_is_a_package() -> None:
    folders = [*ROOT.glob("plugins/*/"), *ROOT.glob("docs/examples/*/")]
    names = {path.parent.parent.name for path in PACKAGES}
    assert names == {folder.name for folder in folders if (folder / "pyproject.toml").is_file()}


@pytest.mark.parametrize("init", PACKAGES, ids=lambda init: init.parent.name)
def test_the_catalogs_are_complete(init: Path) -> None:
    package = init.parent
    assert problems(package, package.name) == []


def test_a_revolver_notice_reads_in_ukrainian_and_russian() -> None:
    from liarsdice_revolver import _

    notice = _(
        "{player} loads {loaded} of {chambers} and pulls: bang", player="Iris", loaded=2, chambers=6
    )
    assert str(notice) == "Iris loads 2 of 6 and pulls: bang"
    uk, ru = notice.render("uk"), notice.render("ru")
    assert uk != str(notice) and "Iris" in uk and "заряджає" in uk
    assert ru != str(notice) and "Iris" in ru and "заряжает" in ru


def test_the_revolver_rules_text_reads_in_ukrainian() -> None:
    import liarsdice_revolver

    options = {"revolver.chambers": 6, "revolver.initial_bullets": 2}
    rules = liarsdice_revolver.liarsdice_describe(options)
    assert isinstance(rules, RulesText)
    english, ukrainian = render(rules.text), render(rules.text, "uk")
    assert "2 bullets" in english
    assert ukrainian != english
    assert "револьвер" in ukrainian and "2 набої" in ukrainian
    assert "2 патрона" in render(rules.text, "ru")
