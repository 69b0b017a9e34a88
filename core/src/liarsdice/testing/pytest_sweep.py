"""The sweep (``tox -e props``): the rule laws on every ruleset of a plan, as pytest items.

A test module that sets ``liarsdice_sweep = True`` gets a collector ``liarsdice_sweep`` with one
item per row of the plan (:mod:`liarsdice.testing.suite.plan`) that falls in this shard, and one
``isolation[variant]`` item per installed variant (games kept apart, checked in a new process).
The options (``pytest --help``, group "liarsdice"): ``--props-cover`` (1, 2 or 3 for a covering
array of that strength, ``all`` for every valid combination), ``--props-sample N`` random
rulesets on top, ``--props-seed S``, ``--props-shard K/N``, ``--props-export DIR`` and
``--props-junit FILE``; ``$LIARSDICE_PROPS_EXAMPLES`` games per row (default :data:`EXAMPLES`).

The plan is computed once and kept in pytest's cache folder, keyed by the installed plugins: the
controller makes it before xdist starts its workers (when a ``--props-*`` option is given) and
prints it first; the workers read it. Each row's Hypothesis run is seeded from the plan's seed
and the row, so a row's verdict is the same whatever the shard or the worker. A failure is
printed as it happens, with the command that replays its game, and the JUnit file is rewritten
after every item, so a run that is killed still reports. Like the pytest plugin, it imports
the engine and the kit only when a sweep is asked for.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

import attrs
import pytest

if TYPE_CHECKING:
    from liarsdice.testing.suite.plan import Plan, PlanRow, Request

EXAMPLES = 80
"""Games per row by default (the thorough profile's other settings)."""

EXAMPLES_VARIABLE = "LIARSDICE_PROPS_EXAMPLES"
MARKER = "liarsdice_sweep"
STARTED = time.monotonic()


def add_options(group: Any) -> None:
    """The sweep's command-line options, in the kit's option group."""
    group.addoption(
        "--props-cover",
        metavar="T",
        default=None,
        help="the sweep's rulesets: a covering array of strength 1, 2 (default) or 3 over "
        "the variants and option values, or 'all' valid combinations",
    )
    group.addoption(
        "--props-sample", type=int, default=0, metavar="N", help="N random rulesets more"
    )
    group.addoption("--props-seed", type=int, default=0, metavar="S", help="the sweep's seed")
    group.addoption("--props-shard", default="1/1", metavar="K/N", help="run shard K of N")
    group.addoption("--props-junit", metavar="FILE", help="a JUnit file, rewritten after each item")


def cover_of(config: pytest.Config) -> tuple[str, int]:
    """The plan's mode and strength that ``--props-cover`` asks for; a bad value is a
    ``pytest.UsageError``."""
    cover = config.getoption("props_cover") or "2"
    if cover not in ("1", "2", "3", "all"):
        raise pytest.UsageError(f"--props-cover takes 1, 2, 3 or all, not {cover!r}")
    return ("all", 0) if cover == "all" else ("cover", int(cover))


def request_of(config: pytest.Config) -> Request:
    """The plan the options ask for."""
    from liarsdice.testing.suite.plan import Request

    mode, strength = cover_of(config)
    return Request(mode, strength, config.getoption("props_sample"), config.getoption("props_seed"))


def shard_of(config: pytest.Config) -> tuple[int, int]:
    text = config.getoption("props_shard")
    number, _, count = text.partition("/")
    try:
        shard = int(number), int(count)
    except ValueError:
        shard = (0, 0)
    if not 1 <= shard[0] <= shard[1]:
        raise pytest.UsageError(f"--props-shard takes K/N with 1 <= K <= N, not {text!r}")
    return shard


def _folder(config: pytest.Config) -> Path:
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("liarsdice-props"))
    return (
        Path(tempfile.gettempdir())
        / f"liarsdice-props-{os.getuid() if hasattr(os, 'getuid') else 0}"
    )


def plan_for(config: pytest.Config) -> Plan:
    """The plan the options ask for (read from the cache folder, or made and kept there)."""
    from liarsdice.testing.suite.plan import load_plan

    found = getattr(config, "_liarsdice_plan", None)
    if found is None:
        found, _ = load_plan(request_of(config), _folder(config))
        config._liarsdice_plan = found  # type: ignore[attr-defined]
    plan: Plan = found
    return plan


def examples() -> int:
    return int(os.environ.get(EXAMPLES_VARIABLE) or EXAMPLES)


# --- collection ---------------------------------------------------------------------------------


def child_id(parent: pytest.Collector, name: str) -> str:
    """The node id of ``parent``'s child ``name``, given as text: pytest reads the ids of
    ``--lf`` back from text, where a ``[`` starts parameters, so a child named with brackets
    (``with[calza]``) is found again only if its id was made from text too."""
    return f"{parent.nodeid}::{name}"


class SweepSuite(pytest.Collector):
    """The sweep's items in this shard: one per row of the plan, one per installed variant."""

    def collect(self) -> Sequence[pytest.Item]:
        from liarsdice.ruleset import BASELINE, installed

        plan = plan_for(self.config)
        number, count = shard_of(self.config)
        items: list[pytest.Item] = [
            SweepItem.from_parent(self, name=row.id, nodeid=child_id(self, row.id), row=row)
            for row in plan.shard(number, count)
        ]
        variants = sorted(set(installed()) - {BASELINE})
        items += [
            IsolationItem.from_parent(
                self,
                name=f"isolation[{name}]",
                nodeid=child_id(self, f"isolation[{name}]"),
                variant=name,
            )
            for index, name in enumerate(variants)
            if index % count == number - 1
        ]
        return items


def _seed(plan: Plan, row: PlanRow) -> int:
    digest = hashlib.sha256(f"{plan.request.seed}:{row.id}".encode()).hexdigest()
    return int(digest[:8], 16)


class SweepItem(pytest.Item):
    """Every rule law on one row's ruleset (options pinned, or drawn per example), and its games
    played again in the reverse order (nothing kept between games)."""

    def __init__(self, *, row: PlanRow, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.row = row

    def runtest(self) -> None:
        from liarsdice.ruleset import Ruleset
        from liarsdice.testing import isolation, running
        from liarsdice.testing.suite import LawCase

        started = time.perf_counter()
        row = self.row
        plan = plan_for(self.config)
        case = LawCase(row.id, "sweep", row.variants, row.variants)
        settings = running.hypothesis_settings(
            "thorough", max_examples=examples(), report_multiple_bugs=False
        )
        export = self.config.getoption("props_export")
        run = running.CaseRun()
        try:
            running.run_case(
                case,
                settings,
                run=run,
                options=row.options,
                seed=_seed(plan, row),
                database_key=f"sweep:{row.id}",
                replays=running.Replays(export=Path(export) if export else None),
            )
            if row.options is not None:
                isolation.check([Ruleset.build(row.variants, row.options)], games=2)
        finally:  # a failing row is counted too, with the games it played
            self.user_properties += [
                ("props_row", row.id),
                ("examples", run.examples),
                ("rulesets", len(run.rulesets)),
                ("values", sorted(run.values, key=repr)),
                ("seconds", time.perf_counter() - started),
            ]

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        return _law_failure(self, excinfo, f"liarsdice sweep, ruleset {self.row.id}:", style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"liarsdice sweep: {self.row.id}"


class IsolationItem(pytest.Item):
    """One variant's games, played in two orders and in a new process, must agree."""

    def __init__(self, *, variant: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.variant = variant

    def runtest(self) -> None:
        from liarsdice.testing import isolation

        found = isolation.check(isolation.rulesets_for(self.variant), fresh=True)
        self.user_properties.append(("isolation", found))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        return _law_failure(self, excinfo, f"liarsdice sweep, {self.name}:", style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"liarsdice sweep: {self.name}"


def _law_failure(
    item: pytest.Item, excinfo: pytest.ExceptionInfo[BaseException], heading: str, style: Any
) -> Any:
    from liarsdice.errors import PluginError, RulesetError
    from liarsdice.testing.laws import LawViolation
    from liarsdice.testing.running import KitError

    error = excinfo.value
    if not isinstance(error, LawViolation | PluginError | RulesetError | KitError):
        return pytest.Item.repr_failure(item, excinfo, style=style)
    shown = str(error) if isinstance(error, LawViolation) else f"{type(error).__name__}: {error}"
    return "\n".join([heading, shown, *getattr(error, "__notes__", [])])


# --- reporting ----------------------------------------------------------------------------------


class JUnitLog:
    """A JUnit XML file rewritten as items finish: valid after every item, so a run that is
    killed leaves a report of what it did."""

    TAIL = "</testsuite>\n</testsuites>\n"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("w+", encoding="utf-8")
        self.file.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n')
        self.file.write('<testsuite name="liarsdice-props">\n')
        self.end = self.file.tell()
        self._finish()

    def _finish(self) -> None:
        self.file.seek(self.end)
        self.file.write(self.TAIL)
        self.file.truncate()
        self.file.flush()

    def add(self, report: pytest.TestReport) -> None:
        name = quoteattr(report.nodeid.rpartition("::")[2])
        case = f"<testcase classname={quoteattr(report.nodeid.rpartition('::')[0])} name={name} "
        case += f'time="{report.duration:.3f}"'
        if report.passed:
            case += "/>\n"
        else:
            kind = "skipped" if report.skipped else "failure"
            text = str(report.longrepr)
            case += f"><{kind} message={quoteattr(text.splitlines()[0] if text else kind)}>"
            case += f"{escape(text)}</{kind}></testcase>\n"
        self.file.seek(self.end)
        self.file.write(case)
        self.end = self.file.tell()
        self._finish()

    def close(self) -> None:
        self.file.close()


@attrs.define(eq=False)
class SweepReporter:
    """The controller's side of the sweep: the plan first, failures as they happen, the JUnit
    file, and the summary."""

    config: pytest.Config
    junit: JUnitLog | None = None
    reports: list[pytest.TestReport] = attrs.Factory(list)

    def _write(self, line: str, *, first: bool = False) -> None:
        """A line of our own; the first of a group starts on a line of its own, past any
        progress marks."""
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            if first:
                reporter.write("\n")
            reporter.write_line(line)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        if hasattr(self.config, "workerinput"):
            return
        junit = self.config.getoption("props_junit")
        if junit:
            self.junit = JUnitLog(Path(junit))
        if self.config.getoption("props_cover") is not None:
            started = time.monotonic()
            plan = plan_for(self.config)
            self._write(f"liarsdice props {plan.summary()} ({time.monotonic() - started:.1f} s)")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if MARKER not in report.nodeid or hasattr(self.config, "workerinput"):
            return
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.reports.append(report)
            if self.junit is not None:
                self.junit.add(report)
            if report.failed:
                self._write(f"FAILED {report.nodeid}", first=True)
                for line in str(report.longrepr).splitlines()[1:3]:
                    self._write(f"  {line}")
                for line in _replay_lines(str(report.longrepr)):
                    self._write(f"  {line}")

    def pytest_sessionfinish(self) -> None:
        if self.junit is not None:
            self.junit.close()

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.reports:
            return
        write = terminalreporter.write_line
        terminalreporter.section("liarsdice props")
        plan = plan_for(self.config)
        for line in summary(plan, self.reports, shard_of(self.config)):
            write(line)


def _replay_lines(text: str) -> Iterator[str]:
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("replay this game") or line.startswith("the game as a scenario"):
            yield line
            if line.startswith("replay") and index + 1 < len(lines):
                yield lines[index + 1].strip()


def summary(plan: Plan, reports: Sequence[pytest.TestReport], shard: tuple[int, int]) -> list[str]:
    """What the sweep covered and cost, as lines."""
    props: list[dict[str, Any]] = [dict(report.user_properties) for report in reports]
    rows = [p for p in props if "props_row" in p]
    passed = sum(1 for report in reports if report.passed)
    failed = sum(1 for report in reports if report.failed)
    skipped = sum(1 for report in reports if report.skipped)
    games = sum(p["examples"] for p in rows)
    lines = [
        plan.summary(),
        f"shard {shard[0]}/{shard[1]}: {len(reports)} items ({passed} passed, {failed} failed, "
        f"{skipped} skipped): {len(rows)} rulesets and "
        f"{len(reports) - len(rows)} isolation checks; {games} games checked against every law",
    ]
    groups = Counter(tuple(name for name, _ in found) for found, _ in plan.uncoverable)
    for names, count in groups.most_common():
        example, reason = next(
            (found, reason)
            for found, reason in plan.uncoverable
            if tuple(name for name, _ in found) == names
        )
        shown = ", ".join(f"{name}={value!r}" for name, value in example)
        lines.append(f"  {count} of {' x '.join(names)} no ruleset holds, as ({shown}): {reason}")
    busy = sum(p["seconds"] for p in rows)
    wall = time.monotonic() - STARTED
    workers = _workers(reports)
    lines.append(
        f"wall time {wall:.0f} s on {workers} worker{'s' if workers != 1 else ''}; "
        f"{busy:.0f} s checking rulesets"
    )
    if games:
        per_game = busy / games
        lines.append(f"cost: {1000 * per_game:.1f} ms a game per worker")
        each = examples()
        for more, cores in ((each, workers), (each * 5, workers), (each, 4 * workers)):
            minutes = len(plan.rows) * more * per_game / cores / 60
            lines.append(
                f"  the whole plan ({len(plan.rows):,} rulesets) at {more} games each on {cores} "
                f"worker{'s' if cores != 1 else ''}: about {minutes:.1f} min of checking (a "
                "failing ruleset costs more: its game is shrunk)"
            )
    return lines


def _workers(reports: Sequence[pytest.TestReport]) -> int:
    """How many pytest-xdist workers sent ``reports`` (1 without xdist)."""
    nodes = {getattr(getattr(report, "node", None), "gateway", None) for report in reports}
    return max(len({getattr(node, "id", None) for node in nodes} - {None}), 1)
