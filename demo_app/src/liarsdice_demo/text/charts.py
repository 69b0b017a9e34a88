"""The odds page's data and charts: ``liarsdice.oddspage.odds_table`` drawn as inline SVG.

Contract: :func:`odds_charts` draws one bar chart per face, "at least q" with
the wild faces counted and with the face alone side by side, and a dot for the rules in force.
The wild column counts the table's wild faces (``compared_wild``: ones, sixes under wild-sixes, or
ones for comparison when the table has none); :func:`wild_label` names it. The SVG is built from
numbers and the demo's own words (escaped), so it is safe to mark up. Words are in the request's
language (Flask-Babel's ``gettext``; English outside a request).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from markupsafe import Markup, escape

from liarsdice.oddspage import OddsTable
from liarsdice_demo.text.i18n import N_

FACE_NAMES = {
    1: N_("ones"),
    2: N_("twos"),
    3: N_("threes"),
    4: N_("fours"),
    5: N_("fives"),
    6: N_("sixes"),
}
"""Each face's name, as a chart's heading says it (translated where it is shown)."""


def face_name(face: int) -> str:
    """The name of ``face`` in the request's language ("fives")."""
    return gettext(FACE_NAMES[face]) if face in FACE_NAMES else str(face)


WIDTH, HEIGHT, PAD = 420, 170, 28


def wild_label(table: OddsTable) -> str:
    """The wild column's name: "ones wild", "sixes wild", "ones and sixes wild"."""
    names = [face_name(face) for face in table.compared_wild]
    if len(names) == 1:
        joined = names[0]
    else:
        joined = gettext("%(first)s and %(last)s", first=", ".join(names[:-1]), last=names[-1])
    return str(gettext("%(faces)s wild", faces=joined))


def _bar(x: float, width: float, value: float, css: str, label: str) -> str:
    height = (HEIGHT - 2 * PAD) * value
    y = HEIGHT - PAD - height
    return (
        f'<rect class="{css}" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}">'
        f"<title>{escape(label)}: {value:.1%}</title></rect>"
    )


def face_chart(table: OddsTable, face: int) -> Markup:
    """One face's chart: for each quantity, P(at least) wild and plain, and the rules' dot."""
    rows = table.rows_of(face)
    wild = wild_label(table)
    step = (WIDTH - 2 * PAD) / max(1, len(rows))
    bar = max(1.0, step * 0.4)
    parts = [
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" class="odds-chart" role="img" '
        f'aria-label="{escape(gettext("odds for %(face)s", face=face_name(face)))}">',
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
        wild_text = gettext("%(q)s or more, %(wild)s", q=q, wild=wild)
        plain_text = gettext("%(q)s or more, face alone", q=q)
        rules_text = gettext("%(q)s or more under this table's rules", q=q)
        parts.append(_bar(x, bar, row.wild.at_least, "wild", wild_text))
        parts.append(_bar(x + bar, bar, row.plain.at_least, "plain", plain_text))
        cy = HEIGHT - PAD - (HEIGHT - 2 * PAD) * row.rules.at_least
        parts.append(
            f'<circle class="rules" cx="{x + bar:.1f}" cy="{cy:.1f}" r="2.5">'
            f"<title>{escape(rules_text)}: {row.rules.at_least:.1%}</title></circle>"
        )
        if len(rows) <= 15 or q % 5 == 0 or q == 1:
            parts.append(
                f'<text class="tick" x="{x + bar:.1f}" y="{HEIGHT - PAD + 14}" '
                f'text-anchor="middle">{q}</text>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def odds_charts(table: OddsTable) -> list[dict[str, Any]]:
    """Per face: its name, summary and chart."""
    return [
        {
            "face": f.face,
            "name": face_name(f.face),
            "summary": f,
            "chart": face_chart(table, f.face),
        }
        for f in table.faces
    ]
