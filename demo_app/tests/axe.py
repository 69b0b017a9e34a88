"""axe-core in the browser tests: its script, shipped by ``axe-playwright-python``, is injected by
the test (``page.evaluate`` runs outside the page's CSP, which stays strict), and its serious and
critical violations are reported by rule, impact and the failing nodes' targets."""

from __future__ import annotations

import functools
from importlib.resources import files
from typing import Any

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
"""The rules run: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices."""
BLOCKING = ("serious", "critical")
"""The impacts that fail a test."""


@functools.cache
def axe_source() -> str:
    """axe.min.js as ``axe-playwright-python`` ships it."""
    return (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def blocking_violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on ``page`` as it is now (axe is injected
    into the page first when it is not there yet)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    results = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})",
        TAGS,
    )
    return [v for v in results["violations"] if v["impact"] in BLOCKING]


def describe(where: str, violations: list[dict[str, Any]], nodes: int = 6) -> str:
    """Lines naming each violation on ``where``: its rule, impact and help, then the targets of
    its first ``nodes`` failing nodes."""
    lines = []
    for violation in violations:
        lines.append(f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:nodes]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['failureSummary']!r}")
        if len(violation["nodes"]) > nodes:
            lines.append(f"    … and {len(violation['nodes']) - nodes} more")
    return "\n".join(lines)


class AxeAudit:
    """Serious and critical violations gathered page by page, for one assertion at the end that
    lists all of them."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.checked: list[str] = []

    def check(self, page: Any, where: str) -> None:
        """Run axe on ``page`` now; what it finds is named ``where`` in the report."""
        self.checked.append(where)
        violations = blocking_violations(page)
        if violations:
            self.found.append(describe(where, violations))

    def assert_clean(self) -> None:
        assert not self.found, "axe found serious or critical violations:\n" + "\n".join(self.found)
