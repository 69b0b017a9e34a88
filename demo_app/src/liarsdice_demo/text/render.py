"""Render the Markdown of a rules page (``Ruleset.describe`` output) as safe HTML.

Contract: the text is parsed as CommonMark by markdown-it-py with raw HTML off, so any markup in a
plugin's text is shown escaped and never reaches the page as tags. Links are kept, but
markdown-it-py's ``validate_link`` refuses ``javascript:``, ``vbscript:``, ``file:`` and ``data:``
URLs (images may still use ``data:image/gif|png|jpeg|webp``), which are then shown as plain text;
linkify is off, so bare URLs stay text. :func:`markdown` returns :class:`markupsafe.Markup`.
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from markupsafe import Markup

#: Built once: the parser holds no per-render state, so threads may share it.
_MD = MarkdownIt("commonmark", {"html": False, "linkify": False})


@lru_cache(maxsize=256)
def markdown(text: str) -> Markup:
    """``text`` (CommonMark) as safe HTML. A table's page asks again and again for the same
    text, so the latest pages are kept (a page is a few kilobytes)."""
    return Markup(_MD.render(text))
