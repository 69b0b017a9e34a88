"""Meta-test: every preset's rules page (and each variant's smallest table) says what the engine
plays. The facts come from the engine — which faces are wild, whether a face can ever be bid — and
the page must state them and never the opposite; every option in force is listed with its value."""

from __future__ import annotations

import pytest

from liarsdice import Ruleset, rulespage
from liarsdice.models import FACE_NAMES, Bid, GameState, PlacedBid, opening_state
from liarsdice.ruleset import installed, presets
from liarsdice.testing import suite

VARIANTS = sorted(name for name in installed() if name != "standard")
TABLES = {
    **{f"preset {name}": (lambda name=name: Ruleset.build(preset=name)) for name in presets()},
    **{f"variant {name}": (lambda name=name: suite.smallest_ruleset(name)) for name in VARIANTS},
    "wild sixes, no bids on sixes": lambda: Ruleset.build(
        ["wild-sixes", "dice-loss"], {"wild-sixes.bid_sixes": False}
    ),
    "ones not wild": lambda: Ruleset.build(["dice-loss"], {"standard.wild_ones": False}),
    "palifico keeps wilds": lambda: Ruleset.build(
        ["palifico", "dice-loss", "wild-sixes"], {"palifico.keep_wilds": True}
    ),
}

#: What a page may say about bids on a face, by what the engine allows.
ALLOWED = ("bids on {names} are allowed", "{names} may be bid", "anyone may bid {names}")
REFUSED = ("nobody may bid {names}", "no bids on {names}")


def rules_text(rules: Ruleset) -> str:
    """The page without its list of options (whose labels name rules that may be off)."""
    page = rules.describe()
    return page[: page.index("## Options in force")]


def _with_a_bid(rules: Ruleset, state: GameState) -> GameState:
    """``state`` with the lowest allowed opening bid on the table."""
    assert state.round is not None
    bidder = state.players[-1].name
    opening = next(
        Bid(1, face) for face in range(2, 7) if rules.face_refusal(state, bidder, face) is None
    )
    round_ = state.round
    return GameState(
        state.players,
        state.dice_per_player,
        type(round_)(
            round_.number,
            round_.opener,
            round_.rolls,
            round_.dice_in_play,
            round_.turn,
            (PlacedBid(bidder, opening),),
        ),
    )


def biddable(rules: Ruleset, face: int) -> bool:
    """Whether ``face`` may be bid at the start of a round or once a bid is on the table."""
    state = opening_state(10)
    viewer = state.players[0].name
    later = _with_a_bid(rules, state)
    return any(rules.face_refusal(s, viewer, face) is None for s in (state, later))


def _sentences(page: str, names: str, phrases: tuple[str, ...]) -> list[str]:
    lowered = " ".join(page.split()).lower()
    return [p.format(names=names) for p in phrases if p.format(names=names).lower() in lowered]


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_page_states_the_wild_faces_the_engine_counts(table: str) -> None:
    rules = TABLES[table]()
    page = rules_text(rules)
    wild = rules.wild_faces()
    label = {frozenset({1}): "Wild ones", frozenset({6}): "Wild sixes"}.get(wild, "No wild dice")
    assert f"**{label}.**" in page, table
    for face in (1, 6):
        statement = f"{FACE_NAMES[face].capitalize()} are wild"
        assert (statement in page) == (face in wild), (table, statement)
    if not wild:
        assert "No die is wild" in page, table


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_page_never_refuses_a_face_the_engine_allows_or_the_reverse(table: str) -> None:
    rules = TABLES[table]()
    page = rules_text(rules)
    baseline = page[: page.index("\n## ", page.index("## Standard rules") + 1)]
    for face in (1, 6):
        names = FACE_NAMES[face]
        if biddable(rules, face):
            assert not _sentences(page, names, REFUSED), (table, names)
        else:
            assert not _sentences(baseline, names, ALLOWED), (table, names)


@pytest.mark.parametrize("table", sorted(TABLES))
def test_every_option_in_force_is_listed_with_its_value(table: str) -> None:
    rules = TABLES[table]()
    page = rules.describe()
    assert page.count("## Options in force") == 1, table
    for key, value in rules.options.items():
        option = rules.option(key)
        shown = ("yes" if value else "no") if isinstance(value, bool) else option.value_label(value)
        label = rulespage.option_label(option)
        assert page.count(f"- {label}: **{shown}**\n") == 1, (table, key)
        assert f"`{key}`" not in page, (table, key)  # the key is for developers, not players


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_page_holds_no_developer_markup(table: str) -> None:
    page = TABLES[table]().describe()
    artefacts = ("_(", "Rewrites the rules above", "topics", "None", "Ruleset(", "following seed")
    for artefact in artefacts:
        assert artefact not in page, (table, artefact)
