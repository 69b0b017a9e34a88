"""The odds page's data and charts: ``liarsdice.odds.odds_table`` drawn as inline SVG.

Contract: :func:`odds_data` returns the core's odds table, or ``None`` when this liarsdice has no
``liarsdice.odds`` module; :func:`odds_charts` draws one bar chart per face, "at least q" with
the wild faces counted and with the face alone side by side, and a dot for the rules in force.
The wild column counts the table's wild faces (``compared_wild``: ones, sixes under wild-sixes, or
ones for comparison when the table has none); :func:`wild_label` names it. The SVG is built from
numbers and fixed words only, so it is safe to mark up.
"""

from __future__ import annotations

import importlib
from typing import Any

from markupsafe import Markup

from liarsdice.models import FACE_NAMES
from liarsdice.ruleset import Ruleset

WIDTH, HEIGHT, PAD = 420, 170, 28


def odds_data(rules: Ruleset, dice: int, hand: tuple[int, ...] = ()) -> Any | None:
    """The core's odds table for ``dice`` dice in play (and ``hand``), if the core has odds."""
    try:
        odds = importlib.import_module("liarsdice.odds")
    except ImportError:
        return None
    return odds.odds_table(rules, dice, hand or None)


def wild_label(table: Any) -> str:
    """The wild column's name: "ones wild", "sixes wild", "ones and sixes wild"."""
    names = [FACE_NAMES[face] for face in table.compared_wild]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{joined} wild"


def _bar(x: float, width: float, value: float, css: str, label: str) -> str:
    height = (HEIGHT - 2 * PAD) * value
    y = HEIGHT - PAD - height
    return (
        f'<rect class="{css}" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}">'
        f"<title>{label}: {value:.1%}</title></rect>"
    )


def face_chart(table: Any, face: int) -> Markup:
    """One face's chart: for each quantity, P(at least) wild and plain, and the rules' dot."""
    rows = table.rows_of(face)
    wild = wild_label(table)
    step = (WIDTH - 2 * PAD) / max(1, len(rows))
    bar = max(1.0, step * 0.4)
    parts = [
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" class="odds-chart" role="img" '
        f'aria-label="odds for {FACE_NAMES[face]}">',
        f'<line class="axis" x1="{PAD}" y1="{HEIGHT - PAD}" '
        f'x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}"/>',
    ]
    for tick in (0.0, 0.5, 1.0):
        y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * tick
        parts.append(
            f'<line class="grid" x1="{PAD}" y1="{y:.1f}" x2="{WIDTH - PAD}" y2="{y:.1f}"/>'
        )
        parts.append(f'<text class="tick" x="2" y="{y + 4:.1f}">{int(tick * 100)}%</text>')
    for index, row in enumerate(rows):
        x = PAD + index * step + step * 0.1
        q = row.quantity
        parts.append(_bar(x, bar, row.wild.at_least, "wild", f"{q} or more, {wild}"))
        parts.append(_bar(x + bar, bar, row.plain.at_least, "plain", f"{q} or more, face alone"))
        cy = HEIGHT - PAD - (HEIGHT - 2 * PAD) * row.rules.at_least
        parts.append(
            f'<circle class="rules" cx="{x + bar:.1f}" cy="{cy:.1f}" r="2.5">'
            f"<title>{q} or more under this table's rules: "
            f"{row.rules.at_least:.1%}</title></circle>"
        )
        if len(rows) <= 15 or q % 5 == 0 or q == 1:
            parts.append(
                f'<text class="tick" x="{x + bar:.1f}" y="{HEIGHT - PAD + 14}" '
                f'text-anchor="middle">{q}</text>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def odds_charts(table: Any) -> list[dict[str, Any]]:
    """Per face: its name, summary and chart."""
    return [
        {
            "face": f.face,
            "name": FACE_NAMES[f.face],
            "summary": f,
            "chart": face_chart(table, f.face),
        }
        for f in table.faces
    ]
