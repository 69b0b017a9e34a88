"""The props sweep (``tox -e props``): collected only when ``LIARSDICE_PROPS=1``, so the default run
never sees it. Prints how many combinations, examples and option values the sweep covered."""

from __future__ import annotations

import os
import time
from collections import defaultdict
from typing import Any

import pytest

GATE = "LIARSDICE_PROPS"
STARTED = time.monotonic()

if os.environ.get(GATE) != "1":
    collect_ignore_glob = ["test_*.py"]


def _props(reports: list[Any]) -> list[dict[str, Any]]:
    found = []
    for report in reports:
        properties = dict(getattr(report, "user_properties", ()))
        if report.when == "call" and "props_combination" in properties:
            found.append(properties)
    return found


def _workers(reports: list[Any]) -> int:
    """How many pytest-xdist workers sent ``reports`` (1 without xdist)."""
    gateways = {
        getattr(getattr(getattr(report, "node", None), "gateway", None), "id", None)
        for report in reports
    }
    return max(len(gateways - {None}), 1)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    stats = terminalreporter.stats
    passed = _props(stats.get("passed", []))
    failed = _props(stats.get("failed", []))
    runs = passed + failed
    if not runs:
        return
    hypothesis_examples = sum(run["hypothesis_examples"] for run in runs)
    row_examples = sum(run["row_examples"] for run in runs)
    rulesets = sum(run["rulesets"] for run in runs)
    values: dict[str, set[Any]] = defaultdict(set)
    declared: dict[str, set[Any]] = defaultdict(set)
    unreachable: set[tuple[str, str]] = set()
    for run in runs:
        for key, value in run["values"]:
            values[key].add(value)
        for key, domain in run["domains"].items():
            declared[key].update(domain)
        unreachable.update((run["props_combination"], f"{k}={v}") for k, v in run["unreachable"])
    pairs = sum(len(domain) for domain in declared.values())
    seen = sum(len(values[key] & domain) for key, domain in declared.items())
    write = terminalreporter.write_line
    terminalreporter.section("liarsdice props")
    write(
        f"combinations: {len(runs)} ({len(passed)} passed, {len(failed)} failed), every valid "
        "combination of the installed variants"
    )
    write(
        f"examples: {hypothesis_examples + row_examples} games checked against every law "
        f"({hypothesis_examples} drawn by Hypothesis, options drawn per example; {row_examples} "
        "seeded games at option rows covering every option value in every combination)"
    )
    write(f"distinct rulesets (variants x option values): {rulesets}")
    write(f"option values used: {seen} of {pairs} declared, over {len(declared)} options")
    refused = sorted({value for _, value in unreachable})
    if refused:
        write(
            f"values a combination refuses (never valid there): {', '.join(refused)} "
            f"in {len(unreachable)} (combination, value) pairs"
        )
    wall = time.monotonic() - STARTED
    games = hypothesis_examples + row_examples
    busy = sum(run["seconds"] for run in runs)
    workers = _workers(stats.get("passed", []) + stats.get("failed", []))
    per_game = busy / games if games else 0.0
    write(
        f"wall time: {wall:.0f} s on {workers} worker{'s' if workers != 1 else ''} "
        f"({busy:.0f} s of checking, {max(wall - busy / workers, 0):.0f} s of start-up and "
        f"collection)"
    )
    write(f"cost: {1000 * per_game:.1f} ms per game per worker")
    examples = int(os.environ.get("LIARSDICE_PROPS_EXAMPLES") or EXAMPLES)
    for more, cores in ((examples, workers), (examples * 5, workers), (examples, 4 * workers)):
        scaled = len(runs) * more + row_examples
        write(
            f"  at {more} examples per combination on {cores} workers: {scaled} games, about "
            f"{scaled * per_game / cores / 60:.0f} min of checking"
        )


EXAMPLES = 20
"""Hypothesis examples per combination by default. With 756 combinations, 200 took 19 minutes on
2 cores; with the 5184 of today (pass, bluff and wild-sixes added), 15 took 38 minutes on 2 cores
(77,760 drawn games and 123,840 seeded ones at option rows, about 22 ms a game per core), so 20
keeps the sweep under an hour there. Raise it on a bigger machine: the cost grows linearly."""


@pytest.fixture
def props_examples() -> int:
    """Hypothesis examples per combination: ``$LIARSDICE_PROPS_EXAMPLES``, default :data:`EXAMPLES`."""
    return int(os.environ.get("LIARSDICE_PROPS_EXAMPLES") or EXAMPLES)
