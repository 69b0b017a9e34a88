"""liarsdice.odds, .assessment and .oddspage: exact binomial odds driven by the counting hook, a
turn's assessment, the odds page."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from fractions import Fraction
from random import Random
from typing import Any

import attrs
import pytest

from liarsdice import Game, Ruleset, engine, hookimpl, odds
from liarsdice.assessment import assess
from liarsdice.cli import main
from liarsdice.legality import lowest_raises
from liarsdice.models import Bid, BidAction, GameState
from liarsdice.oddspage import NOT_AT_THE_OPEN, odds_table

FACES = range(1, 7)


def brute_force(
    quantity: int, unknown: int, faces: frozenset[int], known: int
) -> tuple[Fraction, Fraction]:
    """P(count >= quantity), P(count == quantity) by listing every roll of the unseen dice."""
    at_least = exactly = 0
    for roll in itertools.product(FACES, repeat=unknown):
        count = known + sum(die in faces for die in roll)
        at_least += count >= quantity
        exactly += count == quantity
    total = 6**unknown
    return Fraction(at_least, total), Fraction(exactly, total)


@pytest.mark.parametrize("unknown", range(5))
@pytest.mark.parametrize(
    "faces", [frozenset(), frozenset({5}), frozenset({5, 1}), frozenset({2, 3, 4})]
)
def test_exact_fractions_match_brute_force_enumeration(unknown: int, faces: frozenset[int]) -> None:
    p = odds.per_die(faces)
    for known in range(3):
        for quantity in range(0, known + unknown + 2):
            want_at_least, want_exactly = brute_force(quantity, unknown, faces, known)
            assert odds.at_least(quantity, unknown, p, known) == want_at_least
            assert odds.exactly(quantity, unknown, p, known) == want_exactly
            # The float path agrees to rounding.
            assert odds.at_least(quantity, unknown, float(p), known) == pytest.approx(
                float(want_at_least), abs=1e-12
            )
            assert odds.exactly(quantity, unknown, float(p), known) == pytest.approx(
                float(want_exactly), abs=1e-12
            )


def test_fraction_and_float_results_never_share_a_cache_entry() -> None:
    assert isinstance(odds.at_least(2, 3, Fraction(1, 2)), Fraction)
    assert isinstance(odds.at_least(2, 3, 0.5), float)
    assert isinstance(odds.exactly(2, 3, Fraction(1, 2)), Fraction)


def test_expected_count_and_distribution_sums() -> None:
    p = Fraction(1, 3)
    assert odds.expected(12, p) == 4  # a third of the unknown dice with wild ones (003)
    assert odds.expected(10, p, known=3) == Fraction(19, 3)
    assert sum(odds.binomial_pmf(7, p)) == 1
    tail = odds.binomial_tail(7, p)
    assert tail[0] == 1 and tail[8] == 0
    assert all(tail[k] - tail[k + 1] == odds.binomial_pmf(7, p)[k] for k in range(8))


def test_per_die_counts_only_real_faces() -> None:
    assert odds.per_die({5, 1}) == Fraction(1, 3)
    assert odds.per_die({5}) == Fraction(1, 6)
    assert odds.per_die({0, 7, 5}) == Fraction(1, 6)
    assert odds.per_die(set(FACES)) == 1


def test_convolve_of_binomials_is_the_binomial_of_the_sum() -> None:
    combined = odds.convolve(odds.binomial_pmf(3, 0.25), odds.binomial_pmf(4, 0.25))
    assert combined == pytest.approx(list(odds.binomial_pmf(7, 0.25)))


# --- the counting hook drives the odds ---------------------------------------------------------


def _game(rules: Ruleset, rolls: dict[str, list[int]]) -> Game:
    game = Game(rules, list(rolls), Random(0), dice_per_player=len(next(iter(rolls.values()))))
    game.start_round(rolls)
    return game


ROLLS = {"Ann": [5, 5, 1, 2, 3], "Ben": [2, 2, 4, 6, 6], "Cid": [3, 3, 4, 4, 6]}


def test_wild_ones_give_two_sixths_per_unseen_die() -> None:
    game = _game(Ruleset.build(preset="dudo"), ROLLS)
    look = odds.view_outlook(game.rules, game.view("Ann"), 5)
    assert look.faces == {1, 5}
    assert look.p == pytest.approx(2 / 6)
    assert (look.known, look.unknown) == (3, 10)
    assert look.expected == pytest.approx(3 + 10 / 3)


def test_locked_ones_give_one_sixth() -> None:
    rules = Ruleset.build(preset="online")
    game = _game(rules, ROLLS)
    assert odds.view_outlook(rules, game.view("Ben"), 5).p == pytest.approx(2 / 6)
    game.bid("Ann", 2, 1)  # a bid on ones locks them
    look = odds.view_outlook(rules, game.view("Ben"), 5)
    assert look.faces == {5}
    assert look.p == pytest.approx(1 / 6)
    assert look.known == 0


def test_palifico_round_gives_one_sixth() -> None:
    rules = Ruleset.build(preset="perudo-box")
    game = _game(rules, ROLLS)
    state = game.state
    assert odds.outlook(rules, state, 5, ROLLS["Ann"]).p == pytest.approx(2 / 6)
    palifico = attrs.evolve(
        state, plugins={**state.plugins, "palifico": {"active": "Ann", "done": ["Ann"]}}
    )
    look = odds.outlook(rules, palifico, 5, ROLLS["Ann"])
    assert look.p == pytest.approx(1 / 6)
    assert look.known == 2  # the one in Ann's hand no longer counts


def test_bids_on_ones_count_ones_only_under_aces_switch() -> None:
    rules = Ruleset.build(preset="perudo")
    state = _game(rules, ROLLS).state
    assert odds.outlook(rules, state, 1, ROLLS["Ann"]).p == pytest.approx(1 / 6)


def test_a_third_party_counting_rule_drives_the_odds(
    install_plugins: Callable[[dict[str, Any]], None], plugin_factory: Callable[..., Any]
) -> None:
    @hookimpl
    def liarsdice_matching_faces(face: int) -> frozenset[int]:
        return frozenset({face, 1, 6})  # sixes are wild too

    install_plugins({"wild-sixes": plugin_factory("wild-sixes", liarsdice_matching_faces)})
    rules = Ruleset.build(["wild-sixes", "dice-loss"])
    look = odds.view_outlook(rules, _game(rules, ROLLS).view("Ann"), 5)
    assert look.p == pytest.approx(3 / 6)
    table = odds_table(rules, 10)
    assert table.face(2).counted == (1, 2, 6)
    row = table.rows_of(2)[3]
    assert row.rules.at_least == pytest.approx(float(odds.at_least(4, 10, Fraction(1, 2))))


def test_the_000_example() -> None:
    # 15 dice, "five fives" on the table; Iris holds two fives and a one, ones wild.
    rules = Ruleset.build(preset="casino")
    rolls = {"Iris": [5, 5, 1, 2, 3], "Marlowe": [5, 1, 2, 3, 4], "Knox": [2, 3, 4, 6, 6]}
    game = _game(rules, rolls)
    game.bid("Iris", 3, 5)
    game.bid("Marlowe", 4, 5)
    game.bid("Knox", 5, 5)
    view = game.view("Iris")
    assessment = assess(rules, view)
    want = odds.at_least(5, 10, Fraction(1, 3), known=3)
    assert assessment.bid == Bid(5, 5)
    assert assessment.bid_true == pytest.approx(float(want))
    assert assessment.challenge_wins == pytest.approx(1 - float(want))
    assert assessment.exact_wins == pytest.approx(
        float(odds.exactly(5, 10, Fraction(1, 3), known=3))
    )
    assert assessment.expected == pytest.approx(3 + 10 / 3)
    # Every lowest raise is legal, and they are listed most likely first.
    legal = engine.legal_bids(rules, game.state, "Iris")
    assert all(r.bid in legal for r in assessment.raises)
    assert [r.true for r in assessment.raises] == sorted(
        (r.true for r in assessment.raises), reverse=True
    )


def test_assess_without_an_exact_call() -> None:
    rules = Ruleset.build(preset="online")
    game = _game(rules, ROLLS)
    game.bid("Ann", 3, 2)
    assessment = assess(rules, game.view("Ben"))
    assert assessment.exact_wins is None
    assert assessment.challenge_wins is not None
    with pytest.raises(ValueError):
        assess(rules, game.view("Ann"))  # not Ann's turn


def test_assess_for_the_opener_has_only_raises() -> None:
    rules = Ruleset.build(preset="dudo")
    assessment = assess(rules, _game(rules, ROLLS).view("Ann"))
    assert assessment.bid is None and assessment.bid_true is None and assessment.exact_wins is None
    assert {r.bid for r in assessment.raises} == {Bid(1, face) for face in range(2, 7)}


@pytest.mark.parametrize("preset", ["casino", "online", "cheko", "dudo", "perudo", "perudo-box"])
def test_lowest_raises_are_the_lowest_legal_bid_of_each_face(
    preset: str, rules_of_preset: Callable[[str], Ruleset]
) -> None:
    rules = rules_of_preset(preset)  # at tables of 1 to 5 dice each
    rng = Random(preset)
    names = ["a", "b", "c", "d"]
    for _ in range(15):
        state, _ = engine.new_game(rules, names, rng, dice_per_player=rng.randint(1, 5))
        state, _ = engine.start_round(rules, state, rng)
        for _ in range(rng.randint(0, 6)):
            assert state.round is not None
            bids = engine.legal_bids(rules, state, state.round.turn)
            if not bids:
                break
            state, _ = engine.step(rules, state, _bid(state, rng.choice(bids[:12])), rng)
        assert state.round is not None
        player = state.round.turn
        want: dict[int, Bid] = {}
        for bid in engine.legal_bids(rules, state, player):
            want.setdefault(bid.face, bid)
        assert lowest_raises(rules, state, player) == want


def _bid(state: GameState, bid: Bid) -> BidAction:
    assert state.round is not None
    return BidAction(state.round.turn, bid)


# --- the odds page ------------------------------------------------------------------------------


def test_odds_table_puts_wild_and_face_alone_side_by_side() -> None:
    rules = Ruleset.build(preset="casino")
    table = odds_table(rules, 15, [5, 5, 1, 2, 3])
    assert (table.dice_in_play, table.unknown, table.wild_faces) == (15, 10, (1,))
    assert table.compared_wild == (1,)
    assert len(table.rows) == 6 * 15
    assert [row.face for row in table.rows_of(5)] == [5] * 15
    row = table.rows_of(5)[5]  # six fives
    assert row.quantity == 6
    assert row.wild.at_least == pytest.approx(float(odds.at_least(6, 10, Fraction(2, 6), known=3)))
    assert row.plain.at_least == pytest.approx(float(odds.at_least(6, 10, Fraction(1, 6), known=2)))
    assert row.rules == row.wild  # casino counts ones as wild
    assert row.wild.exactly == pytest.approx(float(odds.exactly(6, 10, Fraction(2, 6), known=3)))
    fives = table.face(5)
    assert fives.counted == (1, 5) and fives.opening and fives.later
    assert fives.expected.wild == pytest.approx(3 + 10 / 3)
    assert fives.expected.plain == pytest.approx(2 + 10 / 6)
    # The best exact call is the most likely count; its fair odds are (1 - p) / p to 1.
    best = max(table.rows_of(5), key=lambda r: r.rules.exactly)
    assert (fives.exact.quantity, fives.exact.chance) == (best.quantity, best.rules.exactly)
    assert fives.exact.fair_odds == pytest.approx((1 - best.rules.exactly) / best.rules.exactly)
    assert not table.face(1).opening and not table.face(1).later  # ones are never bid here


def test_odds_table_under_natural_ones_counts_the_face_alone(natural_rules: Ruleset) -> None:
    table = odds_table(natural_rules, 12)
    assert table.wild_faces == () and table.compared_wild == (1,)  # compared with wild ones
    for row in table.rows:
        assert row.rules == row.plain
    assert table.face(1).opening and table.face(1).later


def test_odds_table_exact_chances_sum_to_one() -> None:
    table = odds_table(Ruleset.build(preset="dudo"), 9, [4])
    for face in FACES:
        rows = table.rows_of(face)
        zero = 1 - rows[0].rules.at_least  # P(count == 0)
        assert zero + sum(r.rules.exactly for r in rows) == pytest.approx(1)


def test_odds_table_as_plain_data() -> None:
    data = odds_table(Ruleset.build(preset="perudo-box"), 4, [2]).as_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {
        "dice_in_play",
        "hand",
        "unknown",
        "wild_faces",
        "compared_wild",
        "faces",
        "rows",
    }
    assert set(data["rows"][0]) == {"face", "quantity", "wild", "plain", "rules"}
    assert set(data["rows"][0]["wild"]) == {"at_least", "exactly"}
    assert set(data["faces"][0]) == {
        "face",
        "counted",
        "opening",
        "later",
        "expected",
        "exact",
        "refusal",
    }
    assert data["faces"][0]["opening"] is False  # boxed perudo: no opening on aces
    assert data["faces"][0]["later"] is True  # but aces may be bid once a round is open


@pytest.mark.parametrize(("dice", "hand"), [(0, []), (3, [1, 2, 3, 4]), (5, [0]), (5, [7])])
def test_odds_table_refuses_bad_input(dice: int, hand: list[int]) -> None:
    with pytest.raises(ValueError):
        odds_table(Ruleset.build(preset="dudo"), dice, hand)


# --- liarsdice odds -----------------------------------------------------------------------------


def test_cli_odds_prints_both_worlds_and_the_exact_call(capsys: pytest.CaptureFixture[str]) -> None:
    main(["odds", "--preset", "casino", "--dice-in-play", "15", "--hand", "5,5,1,2,3"])
    out = capsys.readouterr().out
    assert "ones wild*" in out and "face alone" in out
    assert "best exact call" in out and "fair odds" in out
    assert "15 dice in play; your hand: 5 5 1 2 3; 10 unseen" in out


@pytest.mark.parametrize(
    ("args", "note"),
    [
        # Ones are wild all game: the rule that refuses them, not a claim about the open only.
        (["-p", "casino"], "ones: counted 1 (ones are wild: no bids on ones)"),
        # Ones are wild in an ordinary round, but may be bid in a palifico round: never "never".
        (["-v", "palifico", "-v", "dice-loss"], "ones: counted 1 (ones are wild: no bids on ones)"),
        (["-p", "perudo-box"], "ones: counted 1 (may not open a round)"),
        (["-p", "perudo"], "ones: counted 1\n"),  # seed 004: a round may open on ones
        (["-p", "online"], "ones: counted 1\n"),
        (
            ["-v", "wild-sixes", "-v", "dice-loss", "-o", "wild-sixes.bid_sixes=false"],
            "sixes: counted 6 (sixes are wild: no bids on sixes)",
        ),
    ],
)
def test_cli_odds_says_when_a_face_may_be_bid_as_the_rules_do(
    args: list[str], note: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["odds", *args, "-n", "6"])
    out = capsys.readouterr().out
    assert note in out
    assert "(may not be bid)" not in out
    assert not out.startswith("Ruleset(")


def test_a_faces_note_is_the_rule_that_refuses_it() -> None:
    casino = odds_table(Ruleset.build(preset="casino"), 6).face(1)
    assert casino.refusal == casino.note == "ones are wild: no bids on ones"
    boxed = odds_table(Ruleset.build(preset="perudo-box"), 6).face(1)
    assert boxed.note == NOT_AT_THE_OPEN and boxed.refusal is not None
    perudo = odds_table(Ruleset.build(preset="perudo"), 6).face(1)
    assert perudo.note == "" and perudo.refusal is None and perudo.opening
    fives = odds_table(Ruleset.build(preset="casino"), 6).face(5)
    assert fives.note == "" and fives.refusal is None


def test_cli_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    main(["odds", "-p", "dudo", "-n", "6", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data == odds_table(Ruleset.build(preset="dudo"), 6).as_dict()


@pytest.mark.parametrize(
    "args",
    [
        ["--preset", "dudo", "--dice-in-play", "3", "--hand", "1,2,3,4"],
        ["--preset", "dudo", "--dice-in-play", "3", "--hand", "1,x"],
        ["--preset", "dudo", "--dice-in-play", "3", "--hand", "9"],
        ["--preset", "dudo", "--dice-in-play", "0"],
        ["--preset", "nope", "--dice-in-play", "3"],
        ["--preset", "dudo"],
    ],
)
def test_cli_odds_bad_input_is_one_line_and_exit_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["odds", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("liarsdice: ")
