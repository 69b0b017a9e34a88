"""liarsdice.tournament and ``liarsdice tournament``: rotation, reports, Wilson intervals, JSON."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from liarsdice import Ruleset, tournament
from liarsdice.cli import main
from liarsdice.models import Action, Bid, BidAction
from liarsdice.views import PlayerView


def test_parse_kinds() -> None:
    assert tournament.parse_kinds("odds,bayes,random") == ["odds", "bayes", "random"]
    assert tournament.parse_kinds("bayes, odds*3") == ["bayes", "odds", "odds", "odds"]
    for bad in ["odds,", "odds*0", "odds*x", "*2"]:
        with pytest.raises(ValueError):
            tournament.parse_kinds(bad)


def test_wilson_interval() -> None:
    low, high = tournament.wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = tournament.wilson(5, 10)
    assert low == pytest.approx(1 - high) and low == pytest.approx(0.2366, abs=1e-4)
    assert tournament.wilson(10, 10)[1] == 1
    assert tournament.wilson(0, 0) == (0.0, 1.0)
    low, high = tournament.wilson(170, 1000)
    assert low < 0.17 < high and high - low < 0.05


def test_seats_rotate_across_games(monkeypatch: pytest.MonkeyPatch) -> None:
    seated: list[tuple[int, str]] = []
    real = tournament.make_bot

    def spy(kind: str, rules: Ruleset, rng: Random) -> Any:
        seated.append((len(seated) % 3, kind))
        return real(kind, rules, rng)

    monkeypatch.setattr(tournament, "make_bot", spy)
    tournament.run(
        Ruleset.build(preset="cheko"), ["odds", "bayes", "random"], 3, 0, dice_per_player=2
    )
    by_game = [seated[i : i + 3] for i in range(0, 9, 3)]
    assert [kind for _, kind in by_game[0]] == ["odds", "bayes", "random"]
    assert [kind for _, kind in by_game[1]] == ["bayes", "random", "odds"]
    assert [kind for _, kind in by_game[2]] == ["random", "odds", "bayes"]


def test_report_counts_every_game_and_every_decision() -> None:
    report = tournament.run(Ruleset.build(preset="casino"), ["bayes", "odds", "odds"], 12, 4)
    assert report.games == 12 and report.seats == ["bayes", "odds", "odds"]
    assert [r.kind for r in report.results] == ["bayes", "odds"]
    assert sum(r.wins for r in report.results) == 12
    bayes, odds = report.results
    assert (bayes.seats, odds.seats) == (1, 2)
    assert bayes.win_rate == bayes.wins / 12 and odds.win_rate == odds.wins / 24
    for result in report.results:
        assert result.share == pytest.approx(1 / 3)
        low, high = result.ci95
        assert low <= result.win_rate <= high
        assert result.decisions > 0 and result.mean_ms > 0 and result.median_ms > 0
        assert result.full_table_median_ms > 0


def test_same_seed_same_games() -> None:
    rules = Ruleset.build(preset="perudo")
    first = tournament.run(rules, ["bayes", "odds", "random"], 6, 9)
    second = tournament.run(rules, ["bayes", "odds", "random"], 6, 9)
    assert [(r.wins, r.decisions) for r in first.results] == [
        (r.wins, r.decisions) for r in second.results
    ]


def test_an_illegal_move_names_the_bot() -> None:
    class Stubborn:
        """Repeats the bid on the table: never a raise."""

        def decide(self, view: PlayerView) -> Action:
            assert view.viewer is not None
            bid = view.bids[-1].bid if view.bids else Bid(1, 2)
            return BidAction(view.viewer, bid)

    rules = Ruleset.build(preset="dudo")
    with pytest.raises(tournament.BotFailure, match="b made an illegal move"):
        tournament.play_game(rules, [("a", Stubborn()), ("b", Stubborn())], Random(0))


def test_cli_tournament_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "tournament",
            "--preset",
            "dudo",
            "--bots",
            "bayes,odds*2",
            "--games",
            "5",
            "--seed",
            "1",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "rules",
        "seats",
        "games",
        "seed",
        "dice_per_player",
        "rounds_per_game",
        "seconds",
        "results",
    }
    assert data["seats"] == ["bayes", "odds", "odds"] and data["games"] == 5 and data["seed"] == 1
    assert [r["kind"] for r in data["results"]] == ["bayes", "odds"]
    for result in data["results"]:
        assert set(result) == {
            "kind",
            "seats",
            "games",
            "wins",
            "win_rate",
            "ci95",
            "share",
            "decisions",
            "mean_ms",
            "median_ms",
            "full_table_median_ms",
        }
        assert len(result["ci95"]) == 2
    assert sum(r["wins"] for r in data["results"]) == 5


def test_cli_tournament_text_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "tournament",
            "--variant",
            "dice-loss",
            "--option",
            "standard.wild_ones=false",
            "--bots",
            "odds,random",
            "--games",
            "4",
            "--dice",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert "Standard rules: Dice loss; wild ones: no — 2 seats (odds, random), 2 dice each" in out
    assert "win rate" in out and "95% CI" in out and "median ms" in out
    assert "odds" in out and "random" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--preset", "dudo", "--bots", "odds,nope"],
        ["--preset", "dudo", "--bots", "odds"],
        ["--preset", "dudo", "--bots", "odds*x"],
        ["--preset", "nope", "--bots", "odds,odds"],
        ["--preset", "dudo", "--games", "0"],
        ["--preset", "dudo", "--option", "revolver.chambers=6"],
    ],
)
def test_cli_tournament_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("liarsdice: ")
