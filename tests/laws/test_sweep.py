"""The sweep as a tester runs it (liarsdice.testing.pytest_sweep), in pytester: the plan printed
first, a failure printed as it happens with the command that replays it, the game exported, a
JUnit file valid after every item, and the same verdicts whatever the shards."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from types import SimpleNamespace

import pytest

# Imported here so that pytester's in-process runs share them with this process.
import liarsdice.testing.isolation
import liarsdice.testing.laws
import liarsdice.testing.pytest_plugin
import liarsdice.testing.pytest_sweep
import liarsdice.testing.replay
import liarsdice.testing.running
import liarsdice.testing.snapshots
import liarsdice.testing.strategies
import liarsdice.testing.suite
import liarsdice.testing.suite.plan  # noqa: F401
from liarsdice.testing.pytest_sweep import JUnitLog

pytest_plugins = ["pytester"]


CONFTEST = """
from liarsdice.testing.plugins import extra_variants

import unfair

INSTALLED = extra_variants({"unfair": unfair})


def pytest_configure(config):
    INSTALLED.__enter__()


def pytest_unconfigure(config):
    INSTALLED.__exit__(None, None, None)
"""


@pytest.fixture
def sweep(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, unfair_source: str
) -> pytest.Pytester:
    """A folder with the sweep's one line and, installed for the run, a broken variant."""
    monkeypatch.setenv("LIARSDICE_PROPS_EXAMPLES", "3")
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "fast")
    pytester.syspathinsert()
    pytester.makepyfile(unfair=unfair_source)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_sweep="liarsdice_sweep = True\n")
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_inprocess("-p", "no:randomly", "--props-cover", "1", *args)


def failed_ids(result: pytest.RunResult) -> set[str]:
    return {
        line.split("::")[-1].split(" ")[0]
        for line in result.stdout.lines
        if line.startswith("FAILED test_sweep.py::")
    }


def test_the_plan_comes_first_failures_as_they_happen_and_a_junit_file_as_it_goes(
    sweep: pytest.Pytester, tmp_path: Path
) -> None:
    junit, export = tmp_path / "props.xml", tmp_path / "games"
    shard = next(  # a quarter of the plan holding rows with the unfair variant (the plan moves)
        f"{k}/4"
        for k in range(1, 5)
        if run(sweep, "-k", "unfair", "--props-shard", f"{k}/4", "--collect-only").ret == 0
    )
    result = run(
        sweep,
        "-k",
        "unfair",
        "--props-shard",
        shard,
        "--props-junit",
        str(junit),
        "--props-export",
        str(export),
    )
    lines = result.stdout.lines
    plan = next(i for i, line in enumerate(lines) if "liarsdice props plan: 1-way" in line)
    assert plan < next(i for i, line in enumerate(lines) if "test_sweep.py" in line)
    live = next(i for i, line in enumerate(lines) if line.startswith("FAILED test_sweep.py::"))
    assert live < next(i for i, line in enumerate(lines) if "= FAILURES =" in line)
    assert "law violated: a challenge has exactly one loser" in lines[live + 1]
    assert any("-m liarsdice.testing.replay --rules" in line for line in lines[live : live + 8])
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 1
    counted = re.search(
        r"(\d+) rulesets and (\d+) isolation checks; (\d+) games", result.stdout.str()
    )
    assert counted, result.stdout.str()
    rows, isolation, played = map(int, counted.groups())
    assert rows + isolation == outcomes["failed"] + outcomes.get("passed", 0)
    assert rows >= outcomes["failed"] and played  # a failing row is counted, with its games
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    assert sum(1 for _ in cases) == outcomes.get("failed", 0) + outcomes.get("passed", 0)
    assert len(list(export.glob("*.json"))) == outcomes["failed"]
    assert "== liarsdice props ==" in result.stdout.str().replace("=" * 10, "==")


def test_the_verdicts_do_not_depend_on_the_shards(sweep: pytest.Pytester) -> None:
    some = "unfair and (c000 or c001 or c002)"  # the rows with it among the first thirty
    whole = failed_ids(run(sweep, "-k", some))
    halves = failed_ids(run(sweep, "-k", some, "--props-shard", "1/2"))
    halves |= failed_ids(run(sweep, "-k", some, "--props-shard", "2/2"))
    assert len(whole) > 1 and whole == halves


def test_a_bad_shard_or_strength_is_a_usage_error(sweep: pytest.Pytester) -> None:
    result = run(sweep, "--props-shard", "3/2")
    result.stderr.fnmatch_lines(["*--props-shard takes K/N with 1 <= K <= N, not '3/2'*"])
    result = sweep.runpytest_inprocess("--props-cover", "4")
    result.stderr.fnmatch_lines(["*--props-cover takes 1, 2, 3 or all, not '4'*"])


def test_the_junit_file_is_valid_after_every_item(tmp_path: Path) -> None:
    path = tmp_path / "live.xml"
    log = JUnitLog(path)
    assert list(ElementTree.parse(path).getroot().iter("testcase")) == []
    for index, outcome in enumerate(["passed", "failed", "skipped"]):
        report = SimpleNamespace(
            nodeid=f"t.py::sweep::row{index}",
            duration=0.5,
            passed=outcome == "passed",
            skipped=outcome == "skipped",
            failed=outcome == "failed",
            longrepr="law violated: <x> & y" if outcome == "failed" else "",
        )
        log.add(report)  # type: ignore[arg-type]
        cases = list(ElementTree.parse(path).getroot().iter("testcase"))
        assert len(cases) == index + 1  # readable now, as a killed run would leave it
    assert cases[1].find("failure").get("message") == "law violated: <x> & y"  # type: ignore[union-attr]
    log.close()
