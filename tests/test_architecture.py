"""Meta-tests of the code's shape: the import layers docs/architecture.md draws hold, with no
import cycle; every module is in the module map; every module opens with one sentence of its job."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PACKAGES = {
    "liarsdice": ROOT / "core" / "src" / "liarsdice",
    "liarsdice_demo": ROOT / "demo_app" / "src" / "liarsdice_demo",
}
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
    "contracts"
]


def _modules(package: str) -> list[str]:
    """Every module of ``package`` as a path under it: ``engine.py``, ``testing/laws/flow.py``."""
    top = PACKAGES[package]
    return sorted(
        path.relative_to(top).as_posix()
        for path in top.rglob("*.py")
        if "templates" not in path.relative_to(top).parts
    )


def _lint_imports() -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("lint-imports")
    command = [str(script)] if script.exists() else [shutil.which("lint-imports") or "lint-imports"]
    return subprocess.run(
        [*command, str(ROOT / "pyproject.toml"), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contracts_are_kept() -> None:
    """Layers (a module imports only its own layer and the ones below), the core never importing
    the demo, and no import cycle anywhere (import-linter, configured in pyproject.toml)."""
    result = _lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout


def _drawn_layers(container: str) -> list[str]:
    """The layers architecture.md draws for ``container``: the fenced block after the line
    "Layers of `container`", one layer per line that starts in the first column (what it is for
    follows, on the same line or on indented ones)."""
    found = re.search(rf"Layers of `{container}`[^\n]*\n+```text\n(.*?)```", ARCHITECTURE, re.S)
    assert found, f"docs/architecture.md draws no layers of {container}"
    lines = found.group(1).splitlines()
    return [re.split(r"\s{2,}", line)[0] for line in lines if line and not line[0].isspace()]


LAYERS = [contract for contract in CONTRACTS if contract["type"] == "layers"]


def test_each_package_has_its_layers() -> None:
    containers = {container for contract in LAYERS for container in contract["containers"]}
    assert set(PACKAGES) <= containers
    assert all(contract["exhaustive"] for contract in LAYERS), "every module must be in a layer"


@pytest.mark.parametrize(
    "contract", [pytest.param(contract, id=contract["id"]) for contract in LAYERS]
)
def test_the_drawn_layers_are_the_checked_ones(contract: dict[str, Any]) -> None:
    for container in contract["containers"]:
        assert _drawn_layers(container) == contract["layers"]


def _mapped(package: str) -> set[str]:
    """The modules a table of the module map names (first column), for ``package``."""
    section = ARCHITECTURE.split("## Module map", 1)[1].split("\n## ", 1)[0]
    table = section.split(f"Package `{package}`", 1)[1].split("\n\n|", 1)[1].split("\n\n", 1)[0]
    names: set[str] = set()
    for row in ("|" + table).splitlines():
        first = row.split("|")[1]
        names.update(re.findall(r"`([\w/]+(?:\.py|/))`", first))
    return names


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_module_is_in_the_module_map(package: str) -> None:
    """A module is named in the map, or a folder of it is (``bots/``); each name is real."""
    mapped = _mapped(package)
    top = PACKAGES[package]
    for name in mapped:
        assert (top / name).exists(), f"the module map names {name}, which {package} has not"
    missing = [
        module
        for module in _modules(package)
        if module not in mapped
        and not any(module.startswith(name) for name in mapped if name.endswith("/"))
    ]
    assert not missing, f"not in docs/architecture.md's module map: {missing}"


def _summary(path: Path) -> str:
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False)
    return (docstring or "").strip().split("\n", 1)[0]


@pytest.mark.parametrize(
    "module",
    [
        pytest.param(PACKAGES[package] / module, id=f"{package}/{module}")
        for package in sorted(PACKAGES)
        for module in _modules(package)
    ]
    + [
        pytest.param(path, id=path.relative_to(ROOT).as_posix())
        for path in sorted(ROOT.glob("plugins/*/liarsdice_*/__init__.py"))
    ],
)
def test_every_module_opens_with_one_sentence_of_its_job(module: Path) -> None:
    """The docstring's first line is a single sentence, ending the line."""
    summary = _summary(module)
    assert summary.endswith("."), f"{module.name}: the first line is not a sentence: {summary!r}"
    assert not re.search(r"[.!?] [A-Z]", summary), f"{module.name}: two sentences: {summary!r}"


DISCOVERY = {
    "liarsdice/discovery.py",
    "liarsdice/bots/__init__.py",
    "liarsdice/testing/replay.py",
}
"""The modules that find plugins (variants, bot kinds): they load them through entry points, or
(the replay of a law's game) by the import path a failure printed."""


READING = {"importlib.metadata", "importlib.resources"}
"""The parts of ``importlib`` that read what is installed (versions, package data)."""


def _imports_by_name(path: Path, *, discovery: bool) -> list[str]:
    """The lines of ``path`` that can import a module by a name computed at run time: a use of
    ``importlib`` beyond :data:`READING`, of ``__import__`` or ``pkgutil.resolve_name``, or of
    entry points, which load the module they name (a discovery module may do all of these)."""
    if discovery:
        return []
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Name | ast.Attribute):
            names = [node.id if isinstance(node, ast.Name) else node.attr]
        else:
            continue
        for name in names:
            dynamic = name in ("__import__", "resolve_name") or (
                name.rsplit(".", 1)[-1] in ("entry_points", "resolve_name")
            )
            if name.split(".")[0] == "importlib" and not any(
                name == part or name.startswith(f"{part}.") for part in READING
            ):
                dynamic = True
            if dynamic:
                found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    return found


def test_modules_are_imported_by_name_only_in_plugin_discovery() -> None:
    """An import by a computed name is an edge the import contracts cannot see, so a cycle hidden
    behind one would pass them: only plugin discovery loads modules so, through entry points."""
    sources = {
        f"{package}/{module}": PACKAGES[package] / module
        for package in sorted(PACKAGES)
        for module in _modules(package)
    }
    sources.update(
        (path.relative_to(ROOT).as_posix(), path)
        for path in ROOT.glob("plugins/*/liarsdice_*/*.py")
    )
    assert sources.keys() >= DISCOVERY, "a discovery module moved: update DISCOVERY"
    offenders = [
        line
        for name, path in sources.items()
        for line in _imports_by_name(path, discovery=name in DISCOVERY)
    ]
    assert not offenders, f"imports by a computed name: {offenders}"
