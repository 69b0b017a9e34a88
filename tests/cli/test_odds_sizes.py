"""``liarsdice odds`` at any size it accepts, and its bound (issue 28: an OverflowError at 1100)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from liarsdice import odds
from liarsdice.cli import EXIT_BAD_INPUT, main
from liarsdice.cli.play import MAX_DICE_IN_PLAY


def test_a_float_pmf_past_a_floats_range_sums_to_one_and_matches_the_exact_one() -> None:
    pmf = odds.binomial_pmf(1100, 1 / 3)
    exact = odds.binomial_pmf(1100, Fraction(1, 3))
    assert math.isclose(sum(pmf), 1.0, rel_tol=1e-9)
    for k in (0, 100, 366, 367, 500, 1100):
        assert math.isclose(pmf[k], float(exact[k]), rel_tol=1e-9, abs_tol=1e-300)


def test_a_sure_chance_at_a_large_size() -> None:
    assert odds.binomial_pmf(2000, 0.0)[0] == 1.0
    assert odds.binomial_pmf(2000, 1.0)[2000] == 1.0


@pytest.mark.parametrize("size", [1100, MAX_DICE_IN_PLAY])
def test_odds_answers_large_tables(size: int, capsys: pytest.CaptureFixture[str]) -> None:
    main(["odds", "-v", "dice-loss", "--dice-in-play", str(size)])
    out = capsys.readouterr().out
    assert f"{size} dice in play" in out
    assert "sixes: counted" in out


def test_odds_refuses_past_its_bound_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["odds", "-v", "dice-loss", "--dice-in-play", str(MAX_DICE_IN_PLAY + 1)])
    assert done.value.code == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--dice-in-play" in err and "10000" in err
