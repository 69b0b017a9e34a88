"""``liarsdice new-variant``: the scaffolded package is the template of our own plugins, and what it
makes is a working, law-abiding variant with passing tests, before it is even installed."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tomllib
import types
from collections.abc import Iterator
from pathlib import Path

import pluggy
import pytest

from liarsdice import Ruleset, hookspecs, scaffold, scenario
from liarsdice.cli import main
from liarsdice.ruleset import installed
from liarsdice.testing import extra_variants, running, suite

pytest_plugins = ["pytester"]

ROOT = Path(__file__).parent.parent
NAME = "heavy-loss"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    parent = tmp_path_factory.mktemp("variants")
    assert main(["new-variant", NAME, "--dir", str(parent)]) is None
    return parent / "heavy_loss"


def load_module(folder: Path) -> types.ModuleType:
    """The scaffolded module, imported from its file (it is not installed)."""
    path = folder / "liarsdice_heavy_loss/__init__.py"
    spec = importlib.util.spec_from_file_location("liarsdice_heavy_loss", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def plugin(package: Path) -> Iterator[types.ModuleType]:
    module = load_module(package)
    with extra_variants({NAME: module}, distribution="liarsdice-rules-heavy-loss"):
        yield module


def test_it_makes_the_package_files(package: Path) -> None:
    files = [p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    made = sorted(str(p.relative_to(package)) for p in files)
    assert made == [
        "README.md",
        "liarsdice_heavy_loss/__init__.py",
        "liarsdice_heavy_loss/locale/ru/LC_MESSAGES/liarsdice_heavy_loss.po",
        "liarsdice_heavy_loss/locale/uk/LC_MESSAGES/liarsdice_heavy_loss.po",
        "pyproject.toml",
        "scenarios/heavy_loss_loser_gives_up_a_die.json",
        "scenarios/heavy_loss_loser_gives_up_a_die.out.json",
        "tests/test_heavy_loss.py",
        "tests/test_laws.py",
    ]
    assert "$" not in "".join(p.read_text() for p in files if p.suffix not in (".md", ".po"))


def test_its_pyproject_follows_our_plugins_template(package: Path) -> None:
    made = tomllib.loads((package / "pyproject.toml").read_text())
    ours = tomllib.loads((ROOT / "plugins/dice_loss/pyproject.toml").read_text())
    assert made["project"]["name"] == "liarsdice-rules-heavy-loss"
    assert made["project"]["entry-points"] == {"liarsdice": {NAME: "liarsdice_heavy_loss"}}
    assert set(ours["project"]) <= set(made["project"])
    assert made["project"]["dependencies"] == ours["project"]["dependencies"]
    assert made["project"]["dependencies"] == ["liarsdice-rules>=0.2,<0.3"]
    assert made["build-system"] == ours["build-system"]
    wheel = made["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel == {"packages": ["liarsdice_heavy_loss"]}
    assert made["project"]["optional-dependencies"]["test"][0] == "liarsdice-rules[testing]"


def test_its_module_passes_pluggy_validation(package: Path) -> None:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(load_module(package), name=NAME)
    pm.check_pending()


def test_it_is_a_variant_with_rules_text(plugin: types.ModuleType) -> None:
    variant = installed()[NAME]
    assert variant.plugin is plugin and variant.info.economics
    page = Ruleset.build([NAME]).describe()
    assert "## Heavy loss" in page and "gives up one die" in page


def test_it_keeps_the_laws(plugin: types.ModuleType) -> None:
    cases = suite.law_cases(NAME)
    assert {"alone", "with[calza]", "any-combination"} <= {case.name for case in cases}
    settings = running.hypothesis_settings(max_examples=15, database=None)
    alone, relevance = cases[:2]
    assert running.run_case(alone, settings).examples >= 15
    assert relevance.name == suite.RELEVANCE_CASE
    assert "DiceChanged" in running.run_case(relevance).found  # a lost round costs more dice


def test_its_golden_scenario_holds(package: Path, plugin: types.ModuleType) -> None:
    path = package / "scenarios/heavy_loss_loser_gives_up_a_die.json"
    expected = json.loads(path.with_suffix(".out.json").read_text())
    assert scenario.run(scenario.load(path)) == expected
    assert expected["winner"] == "Ben"


def test_its_own_tests_pass(package: Path, pytester: pytest.Pytester) -> None:
    """The generated tests, the one-line laws test included, run as a plugin author runs them
    (the module stands in for the installed entry point)."""
    shutil.copytree(package, pytester.path / "heavy_loss")
    pytester.makeconftest(
        f"""
        import sys
        sys.path.insert(0, {str(pytester.path / "heavy_loss")!r})
        import liarsdice_heavy_loss
        from liarsdice.testing import extra_variants

        installed = extra_variants({{"heavy-loss": liarsdice_heavy_loss}})

        def pytest_configure(config):
            installed.__enter__()

        def pytest_unconfigure(config):
            installed.__exit__(None, None, None)
        """
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-k", "not with", "-q", "-rs")
    result.assert_outcomes(passed=8, skipped=1)  # no rules-text snapshot until it is accepted
    result.stdout.fnmatch_lines(["*no rules-text snapshot of heavy-loss yet*--accept-rules-text*"])
    accepted = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "-k", "rules-text", "-q", "--accept-rules-text"
    )
    accepted.assert_outcomes(passed=1)
    assert (pytester.path / "heavy_loss" / "tests" / "rules_text" / "heavy-loss.md").is_file()


def test_its_python_is_lint_clean(package: Path) -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.skip("ruff is not installed")
    config = ["--config", str(ROOT / "pyproject.toml"), "--no-cache"]
    subprocess.run([ruff, "check", *config, str(package)], check=True)
    subprocess.run([ruff, "format", "--check", *config, str(package)], check=True)


@pytest.mark.parametrize("bad", ["Heavy", "heavy_loss", "-heavy", "heavy-", "a--b", "1up", ""])
def test_a_bad_name_is_one_line_on_stderr_and_exit_2(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["new-variant", "--dir", str(tmp_path), "--", bad])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a variant name" in err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_refused(package: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (package / "liarsdice_heavy_loss/__init__.py").read_text()
    with pytest.raises(SystemExit) as exited:
        main(["new-variant", NAME, "--dir", str(package.parent)])
    assert exited.value.code == 2
    assert (
        capsys.readouterr().err
        == f"liarsdice: {package} already exists: choose another name or --dir\n"
    )
    assert (package / "liarsdice_heavy_loss/__init__.py").read_text() == before


def test_in_a_uv_workspace_it_says_how_to_add_the_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.uv.workspace]\nmembers = ["plugins/*"]\n')
    monkeypatch.chdir(tmp_path)
    main(["new-variant", "ones2"])
    out = capsys.readouterr().out
    assert out.startswith(
        "created plugins/ones2/ (distribution liarsdice-rules-ones2, variant ones2):"
    )
    assert "next: add liarsdice-rules-ones2 to the dependencies and [tool.uv.sources]" in out
    assert (tmp_path / "plugins/ones2/liarsdice_ones2/__init__.py").is_file()


def test_outside_a_workspace_it_says_how_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["new-variant", "ones2", "--dir", str(tmp_path)])
    assert f"pip install -e '{tmp_path / 'ones2'}[test]'" in capsys.readouterr().out


def test_the_template_renders_every_placeholder() -> None:
    files = scaffold.render("x")
    assert set(files) == {
        scaffold.string.Template(target).substitute(module="x")
        for target in scaffold.FILES.values()
    }
    assert scaffold.placeholders("big-red-die")["title"] == "Big red die"
