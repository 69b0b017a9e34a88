"""Variant ``teams``: two teams in alternate seats; the last team standing wins, all of it."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Game, Ruleset, engine
from liarsdice.bots import make_bot
from liarsdice.errors import BadTableSize
from liarsdice.events import GameWon
from liarsdice.models import BidAction, CallAction
from liarsdice.simulate import play_game

PLAYERS = ["Ann", "Ben", "Cid", "Dee"]


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return Ruleset.build(["teams", "dice-loss"])


def test_the_teams_sit_in_alternate_seats_and_are_public(rules: Ruleset) -> None:
    game = Game(rules, PLAYERS, Random(0), dice_per_player=1)
    assert engine.partners(rules, game.state, "Ann") == ("Cid",)
    assert engine.partners(rules, game.state, "Dee") == ("Ben",)
    assert engine.sides(rules, game.state) == [("Ann", "Cid"), ("Ben", "Dee")]
    assert [seat.public["team"] for seat in game.view("Ann").seats] == [1, 2, 1, 2]


def test_an_odd_table_is_refused_everywhere_with_the_reason(rules: Ruleset) -> None:
    reason = "teams: two teams sit in alternate seats, so the table needs an even number"
    with pytest.raises(BadTableSize, match=reason):
        Game(rules, ["Ann", "Ben", "Cid"], Random(0))
    with pytest.raises(BadTableSize, match="not 5"):
        Ruleset.build(["teams", "dice-loss"], players=5)
    with pytest.raises(BadTableSize, match=reason):
        play_game(rules, ["a", "b", "c"], Random(0))
    assert rules.table_refusal(6, 5) is None and rules.table_refusal(None, 5) is None


def lose(game: Game, loser: str) -> None:
    """Play a round that ``loser`` loses: every die shows 2; the opener bids one two and the
    next player challenges it (or, when the loser opens, a lie is challenged)."""
    game.start_round({p.name: [2] * p.dice for p in game.state.alive})
    round_ = game.state.round
    assert round_ is not None
    if round_.opener == loser:
        game.bid(loser, game.state.dice_in_play, 6)
        game.call(game.state.round.turn)  # type: ignore[union-attr]
        return
    game.bid(round_.opener, 1, 2)
    while game.state.round.turn != loser:  # type: ignore[union-attr]
        bid = game.state.round.bids[-1].bid  # type: ignore[union-attr]
        game.bid(game.state.round.turn, bid.quantity + 1 if bid.quantity < 4 else 1, 2)  # type: ignore[union-attr, arg-type]
    game.call(loser)


def test_a_team_is_out_only_when_all_its_players_are_and_then_all_of_the_other_wins(
    rules: Ruleset,
) -> None:
    game = Game(rules, PLAYERS, Random(0), dice_per_player=1, first_opener="Ann")
    lose(game, "Ben")  # Ben is out, Dee still plays for team 2
    assert not game.state.player("Ben").alive and not game.over
    lose(game, "Ann")  # Ann is out too: one player a side, the game goes on
    assert not game.over
    lose(game, "Dee")  # team 2 is out: team 1 wins, Ann (out) with Cid
    assert game.over and game.state.winners == ("Ann", "Cid")
    assert game.state.winner is None  # several won: no single winner
    assert game.events[-1] == GameWon(("Ann", "Cid"))
    assert game.view("Ben").winners == ("Ann", "Cid")


def test_without_teams_the_same_rounds_end_when_one_player_is_left() -> None:
    rules = Ruleset.build(["dice-loss"])
    game = Game(rules, PLAYERS, Random(0), dice_per_player=1, first_opener="Ann")
    lose(game, "Ben")
    lose(game, "Ann")
    lose(game, "Dee")
    assert game.over and game.state.winners == ("Cid",)


def partner_bid_position(rules: Ruleset) -> Game:
    """Ben is out; Ann has just bid two sixes over Dee, and Cid, her partner, is on turn with a
    four: the bid is false unless both dice he cannot see show a six or a one (1 in 9)."""
    game = Game(rules, PLAYERS, Random(0), dice_per_player=1, first_opener="Ann")
    lose(game, "Ben")  # Cid opens next
    game.start_round({"Ann": [3], "Cid": [4], "Dee": [5]})
    game.bid("Cid", 1, 4)
    game.bid("Dee", 1, 5)
    game.bid("Ann", 2, 6)
    assert game.state.round is not None and game.state.round.turn == "Cid"
    return game


@pytest.mark.parametrize("kind", ["odds", "bayes", "mixed"])
def test_a_bot_plays_for_its_team_and_spares_a_partner(kind: str) -> None:
    """Alone, the bot (mostly) challenges the bid that is false 8 times in 9; for its partner,
    never: a challenge would knock Ann, its partner, out."""
    challenge = CallAction("Cid", "challenge")
    alone = Ruleset.build(["dice-loss"])
    game = partner_bid_position(alone)
    assert make_bot(kind, alone, Random(0)).policy(game.view("Cid")).get(challenge, 0.0) > 0.5
    teams = Ruleset.build(["teams", "dice-loss"])
    game = partner_bid_position(teams)
    policy = make_bot(kind, teams, Random(0)).policy(game.view("Cid"))
    assert challenge not in policy or policy[challenge] == 0.0
    assert all(isinstance(action, BidAction) for action, p in policy.items() if p > 0.0)


def test_random_games_end_with_one_whole_team_winning(rules: Ruleset) -> None:
    for seed in range(30):
        record = play_game(rules, PLAYERS, Random(seed), dice_per_player=2)
        assert record.winners in {("Ann", "Cid"), ("Ben", "Dee")}
