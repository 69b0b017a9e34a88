"""``liarsdice new-variant NAME``: a new variant plugin package from the template of our own.

The template lives in ``liarsdice/templates/variant/`` (package data, one ``.tmpl`` file per file
made) and gives what ``plugins/dice_loss`` has: a ``pyproject.toml`` with the entry point, one
package with a working rule (the loser gives up one die), its rules text and the skeletons of its
Ukrainian and Russian catalogs (``locale/``, from :mod:`liarsdice.catalogs`), a README, a golden
scenario with its ruling, unit tests, and a one-line test module that runs the rule laws through
the pytest plugin. Placeholders are ``string.Template`` names: ``$name`` (the variant name,
``heavy-loss``), ``$module`` (``heavy_loss``), ``$distribution`` (``liarsdice-rules-heavy-loss``)
and ``$title`` (``Heavy loss``).
"""

from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path

from liarsdice import catalogs

NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")

#: template file (under templates/variant/) -> the file it makes, itself a template.
FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "module.py.tmpl": "liarsdice_$module/__init__.py",
    "README.md.tmpl": "README.md",
    "scenarios/scenario.json.tmpl": "scenarios/${module}_loser_gives_up_a_die.json",
    "scenarios/scenario.out.json.tmpl": "scenarios/${module}_loser_gives_up_a_die.out.json",
    "tests/test_module.py.tmpl": "tests/test_$module.py",
    "tests/test_laws.py.tmpl": "tests/test_laws.py",
}


class ScaffoldError(ValueError):
    """A bad variant name, or a folder that is already there."""


def check_name(name: str) -> None:
    """Variant names are lowercase words joined by dashes: ``heavy-loss``, ``ones2``."""
    if not NAME.match(name):
        raise ScaffoldError(
            f"{name!r} is not a variant name: use lowercase letters and digits, words joined by "
            "single dashes, starting with a letter (e.g. heavy-loss)"
        )


def placeholders(name: str) -> dict[str, str]:
    """The template's values for variant ``name``."""
    module = name.replace("-", "_")
    return {
        "name": name,
        "module": module,
        "distribution": f"liarsdice-rules-{name}",
        "title": name.replace("-", " ").capitalize(),
    }


def render(name: str) -> dict[str, str]:
    """Every file of the package for variant ``name``: relative path -> text."""
    check_name(name)
    values = placeholders(name)
    folder = resources.files("liarsdice") / "templates" / "variant"
    made = {}
    for source, target in FILES.items():
        text = (folder / source).read_text(encoding="utf-8")
        path = string.Template(target).substitute(values)
        made[path] = string.Template(text).substitute(values)
    return made


def new_variant(name: str, parent: str | Path = "plugins") -> Path:
    """Write the package for variant ``name`` into ``parent/<name with underscores>/``.

    Raises :class:`ScaffoldError` for a bad name or a folder that already exists; ``parent`` is
    created if needed. Returns the new folder.
    """
    files = render(name)
    folder = Path(parent) / placeholders(name)["module"]
    if folder.exists():
        raise ScaffoldError(f"{folder} already exists: choose another name or --dir")
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    package = f"liarsdice_{placeholders(name)['module']}"
    catalogs.update(folder / package, package)  # the skeleton of each language's catalog
    return folder


def workspace_root(folder: Path) -> Path | None:
    """The root of the uv workspace ``folder`` is in (a ``pyproject.toml`` with
    ``[tool.uv.workspace]`` in it or above it), or ``None``."""
    for candidate in [folder.resolve(), *folder.resolve().parents]:
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and "[tool.uv.workspace]" in pyproject.read_text(encoding="utf-8"):
            return candidate
    return None
