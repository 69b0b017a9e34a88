"""liarsdice.cli.terminal_input: the grammar of what one types at ``liarsdice play``."""

from __future__ import annotations

import pytest

from liarsdice.cli.terminal_input import Typed, call_words, help_text, parse
from liarsdice.i18n import Text, render
from liarsdice.models import Bid
from liarsdice.ruleset import Ruleset

CALLS = {"challenge": "challenge", "exact": "exact"}


@pytest.mark.parametrize("line", ["3 5", "3x5", "3X5", " 3 x 5 ", "3*5", "3\u00d75", "3\u04455"])
def test_a_bid_is_quantity_then_face(line: str) -> None:
    assert parse(line, CALLS) == Typed("bid", bid=Bid(3, 5))


def test_a_large_quantity_is_read() -> None:
    assert parse("12 6", CALLS) == Typed("bid", bid=Bid(12, 6))


@pytest.mark.parametrize("line", ["challenge", "Exact", "  EXACT  "])
def test_a_call_is_its_kind_by_name(line: str) -> None:
    assert parse(line, CALLS) == Typed("call", kind=line.strip().lower())


def test_a_call_the_ruleset_does_not_offer_is_unreadable() -> None:
    assert isinstance(parse("exact", {"challenge": "challenge"}), Text)


@pytest.mark.parametrize(
    ("line", "word"), [("help", "help"), ("?", "help"), ("quit", "quit"), ("q", "quit")]
)
def test_help_and_quit(line: str, word: str) -> None:
    assert parse(line, CALLS) == Typed(word)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("9 9", "a face is 1 to 6, not 9"),
        ("3 0", "a face is 1 to 6, not 0"),
        ("0 5", "a bid is on at least one die"),
        ("", 'Type a bid or a call ("help" shows how).'),
        ("three fives", '"three fives" is neither a bid nor a call ("help" shows how).'),
        ("3 5 6", '"3 5 6" is neither a bid nor a call ("help" shows how).'),
        ("-3 5", '"-3 5" is neither a bid nor a call ("help" shows how).'),
    ],
)
def test_unreadable_lines_get_a_reason(line: str, reason: str) -> None:
    answer = parse(line, CALLS)
    assert isinstance(answer, Text)
    assert str(answer) == reason


def test_the_help_line_names_the_calls_and_reads_in_ukrainian() -> None:
    assert "(challenge, exact)" in str(help_text(tuple(CALLS)))
    assert "Ставка" in help_text(tuple(CALLS)).render("uk")
    assert "(none yet)" in str(help_text(()))  # before the first bid
    assert "(пока нельзя)" in help_text(()).render("ru")


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("допомога", "help"),
        ("Допомога", "help"),
        ("вийти", "quit"),
        ("помощь", "help"),
        ("«Выйти!»", "quit"),
        ("выйти", "quit"),
    ],
)
def test_help_and_quit_in_ukrainian_and_russian(line: str, word: str) -> None:
    assert parse(line, CALLS) == Typed(word)


@pytest.mark.parametrize(
    ("lang", "help_word", "quit_word"),
    [("en", "help", "quit"), ("uk", "допомога", "вийти"), ("ru", "помощь", "выйти")],
)
def test_the_help_line_and_the_reasons_name_the_readers_words(
    lang: str, help_word: str, quit_word: str
) -> None:
    """The words the help line names are words the grammar reads."""
    grammar = help_text(tuple(CALLS)).render(lang)
    assert f'"{help_word}"' in grammar and f'"{quit_word}"' in grammar
    for line in ("", "nonsense"):
        reason = parse(line, CALLS)
        assert isinstance(reason, Text)
        assert f'"{help_word}"' in reason.render(lang)
    assert parse(help_word, CALLS) == Typed("help")
    assert parse(quit_word, CALLS) == Typed("quit")


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("не вірю", "challenge"),
        ("Не вірю!", "challenge"),
        ("не верю", "challenge"),
        ("«Не верю!»", "challenge"),
        ("в точку", "exact"),
        ("В ТОЧКУ", "exact"),
        ("точно", "exact"),
        ("challenge", "challenge"),
        ("Exact", "exact"),
    ],
)
def test_a_call_is_also_its_label_in_any_language(line: str, kind: str) -> None:
    """A Ukrainian player types "не вірю" (the seeds' word and the button's), not "challenge"."""
    calls = call_words(Ruleset.build(preset="dudo").calls)
    assert parse(line, calls) == Typed("call", kind=kind)


def test_a_label_of_a_call_the_ruleset_does_not_offer_is_unreadable() -> None:
    calls = call_words(Ruleset.build(["dice-loss"]).calls)
    assert parse("не вірю", calls) == Typed("call", kind="challenge")
    assert isinstance(parse("в точку", calls), Text)


def test_where_a_bid_is_one_number_a_number_is_a_bid() -> None:
    calls = {"challenge": "challenge"}
    assert parse("23", calls, one_number=True) == Typed("bid", bid=Bid(23, 0))
    assert parse(" 7 ", calls, one_number=True) == Typed("bid", bid=Bid(7, 0))
    assert parse("challenge", calls, one_number=True) == Typed("call", kind="challenge")
    assert not isinstance(parse("3 5", calls, one_number=True), Typed)
    assert not isinstance(parse("23", calls), Typed)  # a count of a face needs both numbers
    assert '"23"' in render(help_text(("challenge",), one_number=True))
