"""A tiny, safe Markdown renderer for the rules pages (the subset ``Ruleset.describe`` uses).

Contract: the text is HTML-escaped first, so no markup in a plugin's text reaches the page; then
headings (``#``..``###``), paragraphs, ``-`` lists, ``**bold**``, ``*italic*`` and `` `code` `` are
turned into tags. Returns :class:`markupsafe.Markup`.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
)


def _inline(text: str) -> str:
    out = str(escape(text))
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def markdown(text: str) -> Markup:
    """``text`` (Markdown subset) as safe HTML."""
    html: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if paragraph:
            html.append(f"<p>{_inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if items:
            html.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    for raw in text.splitlines():
        line = raw.strip()
        heading = re.match(r"^(#{1,3})\s+(.*)$", line)
        if not line:
            flush()
        elif heading:
            flush()
            level = len(heading.group(1))
            html.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif line.startswith("- "):
            if paragraph:
                flush()
            items.append(line[2:])
        elif items and raw.startswith((" ", "\t")):
            items[-1] += " " + line
        else:
            if items:
                flush()
            paragraph.append(line)
    flush()
    return Markup("\n".join(html))
