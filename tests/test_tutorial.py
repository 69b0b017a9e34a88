"""docs/writing-a-variant.md cannot rot: every file it shows is the file in docs/examples/difference
(which the suite installs and tests), and what it says the scaffold makes is what it makes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from liarsdice import scaffold

ROOT = Path(__file__).parent.parent
TUTORIAL = ROOT / "docs" / "writing-a-variant.md"
EXAMPLE = ROOT / "docs" / "examples" / "difference"
BLOCK = re.compile(r"<!-- (file|scaffold): (\S+)(?: (\S+))? -->\n```\w*\n(.*?)```", re.S)


def blocks(kind: str) -> list[tuple[str, str, str]]:
    return [
        (first, second, text)
        for found, first, second, text in BLOCK.findall(TUTORIAL.read_text())
        if found == kind
    ]


def test_the_tutorial_shows_the_files_of_the_example() -> None:
    shown = {name for name, _, _ in blocks("file")}
    assert shown >= {
        "liarsdice_difference/__init__.py",
        "tests/test_difference.py",
        "tests/test_laws.py",
    }


@pytest.mark.parametrize("name", [name for name, _, _ in blocks("file")])
def test_each_file_shown_is_the_example_file(name: str) -> None:
    (text,) = [text for shown, _, text in blocks("file") if shown == name]
    assert text == (EXAMPLE / name).read_text()


def test_the_scaffolded_pyproject_is_what_the_tutorial_shows() -> None:
    ((name, path, text),) = blocks("scaffold")
    assert text == scaffold.render(name)[path]


def test_the_example_pyproject_is_the_scaffold_with_the_new_description() -> None:
    made = scaffold.render("difference")["pyproject.toml"].splitlines()
    ours = (EXAMPLE / "pyproject.toml").read_text().splitlines()
    changed = [(a, b) for a, b in zip(made, ours, strict=True) if a != b]
    assert len(changed) == 1 and changed[0][1].startswith("description = ")
    assert f"```toml\n{changed[0][1]}\n```" in TUTORIAL.read_text()


def test_the_example_has_the_golden_scenario_the_tutorial_writes() -> None:
    assert (EXAMPLE / "scenarios/difference_four_rounds.out.json").is_file()
    assert not list(EXAMPLE.glob("scenarios/*loser_gives_up_a_die*"))
