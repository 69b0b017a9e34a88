"""The rules page's Markdown renderer: CommonMark rendered, raw HTML and script links refused."""

from __future__ import annotations

import re

import pytest
from markupsafe import Markup

from liarsdice import Ruleset
from liarsdice_demo.text.render import markdown


def tight(html: str) -> str:
    """``html`` without the newlines markdown-it puts between block tags."""
    return re.sub(r">\s+<", "><", html.strip())


def test_markdown_renderer_escapes_html() -> None:
    html = markdown("# Title\n\nA <script>x</script> **bold** and `code`\n\n- one\n- two")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<h1>Title</h1>" in html and "<strong>bold</strong>" in html
    assert "<ul><li>one</li><li>two</li></ul>" in tight(html)


def test_returns_markup_so_jinja_does_not_escape_it_again() -> None:
    html = markdown("**x**")
    assert isinstance(html, Markup)
    assert Markup("{}").format(html) == html  # already safe: formatting leaves it alone


def test_headings_lists_bold_italic_and_code_render() -> None:
    html = tight(
        markdown(
            "# One\n\n## Two\n\n### Three\n\n#### Four\n\n"
            "A **bold** and *italic* word, and `code`.\n\n- first\n- second\n\n1. a\n2. b"
        )
    )
    for tag in ("<h1>One</h1>", "<h2>Two</h2>", "<h3>Three</h3>", "<h4>Four</h4>"):
        assert tag in html
    assert "<p>A <strong>bold</strong> and <em>italic</em> word, and <code>code</code>.</p>" in html
    assert "<ul><li>first</li><li>second</li></ul>" in html
    assert "<ol><li>a</li><li>b</li></ol>" in html


def test_underscore_emphasis_renders_instead_of_showing_raw() -> None:
    html = markdown("The round ends. _(Winner opens)_ and __always__.")
    assert "<em>(Winner opens)</em>" in html and "<strong>always</strong>" in html
    assert "_" not in html


def test_code_spans_are_literal() -> None:
    html = markdown("`**x**` and `a_b_c` and `<b>`")
    assert "<code>**x**</code>" in html and "<code>a_b_c</code>" in html
    assert "<code>&lt;b&gt;</code>" in html and "<b>" not in html


def test_a_paragraph_wrapped_over_lines_stays_one_paragraph() -> None:
    html = markdown("First line\nsecond line\n\nNext")
    assert tight(html).count("<p>") == 2 and "<br" not in html


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        "Before <script>alert(1)</script> after",
        '<img src="x" onerror="alert(1)">',
        "Inline <img src=x onerror=alert(1)> image",
        "<iframe src=//evil></iframe>",
        '<a href="javascript:alert(1)">x</a>',
        "<div onclick=alert(1)>block</div>",
        "<!-- comment --> <style>body{}</style>",
    ],
)
def test_raw_html_in_a_plugins_text_never_reaches_the_page(text: str) -> None:
    html = markdown(text)
    assert not re.search(r"<(script|img|iframe|a|div|style|!--)\b", html), html
    assert "&lt;" in html  # shown as text, escaped


@pytest.mark.parametrize(
    "text",
    [
        "[click](javascript:alert(1))",
        "[click](JavaScript:alert(1))",
        "[click](&#106;avascript:alert(1))",
        "[click]( javascript:alert(1))",
        "<javascript:alert(1)>",
        "[click][r]\n\n[r]: javascript:alert(1)",
        "[click](vbscript:msgbox(1))",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "![pic](javascript:alert(1))",
        "[click](file:///etc/passwd)",
        "see javascript:alert(1) and https://example.org",  # linkify is off
    ],
)
def test_a_script_link_is_never_clickable(text: str) -> None:
    html = markdown(text)
    assert "<a " not in html and "<img" not in html, html
    assert "href" not in html and "src=" not in html


def test_an_ordinary_link_is_kept_and_its_url_escaped() -> None:
    html = markdown('[docs](https://example.org/rules?a=1&b="x")')
    assert '<a href="https://example.org/rules?a=1&amp;b=%22x%22">docs</a>' in html


def test_a_real_rules_page_renders_every_construct_it_uses() -> None:
    page = markdown(Ruleset.build(preset="casino").describe(locale="en"))
    assert "<h1>Rules: Casino revolver</h1>" in page and "<h2>Standard rules</h2>" in page
    assert "<p><strong>Wild ones.</strong> Ones are wild" in page
    assert "<li>Chambers in the cylinder: <strong>6</strong></li>" in page
    assert "**" not in page and "##" not in page
