"""Variant ``palifico``: the round after a player first drops to one die.

That player opens; no die is wild (ones may be bid); the opening bid fixes the face; once per
player; the options ``one_die_changes_face``, ``two_players`` and ``keep_wilds``; it plays with
any variant that takes dice away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

import pytest

from liarsdice import Bid, Game, Ruleset, RulesetError
from liarsdice.engine import bid_problems, count_matching, legal_bids
from liarsdice.ruleset import presets

TRIO = ("Ann", "Ben", "Cid")


def build(*variants: str, **options: Any) -> Ruleset:
    """``build("calza", calza__reward="table-pays")``: palifico + dice-loss + ``variants``."""
    given = {key.replace("__", "."): value for key, value in options.items()}
    return Ruleset.build(["palifico", "dice-loss", *variants], given)


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build()


def new_game(rules: Ruleset, players: Sequence[str] = TRIO, dice: int = 2) -> Game:
    return Game(rules, list(players), Random(0), dice_per_player=dice, first_opener=players[0])


def lose(game: Game, loser: str) -> None:
    """Play a round that ``loser`` loses (every die shows 2, so ones play no part)."""
    game.start_round({p.name: [2] * p.dice for p in game.state.alive})
    round_ = game.state.round
    assert round_ is not None
    if round_.turn == loser:
        game.bid(loser, 1, 6)  # no sixes on the table: the next player catches the lie
        assert game.state.round is not None
        game.call(game.state.round.turn)
    else:
        quantity = 1
        while game.state.round.turn != loser:  # type: ignore[union-attr]
            game.bid(game.state.round.turn, quantity, 2)  # type: ignore[union-attr]
            quantity += 1
        game.call(loser)  # the bid on twos is true: the challenger loses
    resolution = game.state.round.resolution  # type: ignore[union-attr]
    assert resolution is not None and resolution.losers == (loser,)


def palifico_player(game: Game) -> str | None:
    active: str | None = game.state.plugin("palifico").get("active")
    return active


def problems(rules: Ruleset, game: Game, quantity: int, face: int) -> list[str]:
    assert game.state.round is not None
    return bid_problems(rules, game.state, game.state.round.turn, Bid(quantity, face))


def start(game: Game, rolls: Mapping[str, Sequence[int]]) -> None:
    game.start_round(rolls)


# --- the palifico round --------------------------------------------------------------------------


def test_dropping_to_one_die_makes_the_next_round_palifico(rules: Ruleset) -> None:
    game = new_game(rules)
    lose(game, "Ben")
    assert game.state.player("Ben").dice == 1
    assert game.state.next_opener == "Ben"
    start(game, {"Ann": [5, 1], "Ben": [5], "Cid": [5, 2]})
    assert palifico_player(game) == "Ben"
    assert game.state.round.opener == "Ben"  # type: ignore[union-attr]
    assert count_matching(rules, game.state, 5) == 3, "ones are not wild in a palifico round"
    assert count_matching(rules, game.state, 1) == 1
    assert problems(rules, game, 1, 1) == [], "ones may be bid in a palifico round"


def test_a_challenge_in_a_palifico_round_counts_without_wild_ones(rules: Ruleset) -> None:
    game = new_game(rules)
    lose(game, "Ben")
    start(game, {"Ann": [5, 1], "Ben": [5], "Cid": [5, 1]})
    game.bid("Ben", 2, 5)
    game.bid("Cid", 4, 5)  # true with wild ones (5), false without (3)
    game.call("Ann")
    resolution = game.state.round.resolution  # type: ignore[union-attr]
    assert resolution is not None
    assert (resolution.count, resolution.losers) == (3, ("Cid",))


def test_the_opening_bid_fixes_the_face(rules: Ruleset) -> None:
    game = new_game(rules)
    lose(game, "Ben")
    start(game, {"Ann": [5, 1], "Ben": [5], "Cid": [5, 2]})
    game.bid("Ben", 2, 5)
    reasons = problems(rules, game, 2, 6)
    assert len(reasons) == 1 and "palifico" in str(reasons[0]) and "fives" in str(reasons[0])
    assert problems(rules, game, 3, 6)
    assert problems(rules, game, 3, 5) == []
    assert {bid.face for bid in legal_bids(rules, game.state, "Cid")} == {5}
    game.bid("Cid", 3, 5)
    assert {bid.face for bid in legal_bids(rules, game.state, "Ann")} == {5}


def test_a_round_may_open_on_any_face_including_ones(rules: Ruleset) -> None:
    game = new_game(rules)
    lose(game, "Ben")
    start(game, {"Ann": [1, 1], "Ben": [1], "Cid": [5, 2]})
    game.bid("Ben", 1, 1)
    assert problems(rules, game, 2, 5)
    game.bid("Cid", 2, 1)
    game.bid("Ann", 3, 1)
    game.call("Ben")
    resolution = game.state.round.resolution  # type: ignore[union-attr]
    assert resolution is not None
    assert (resolution.count, resolution.losers) == (3, ("Ben",))


@pytest.mark.parametrize("changes", [True, False])
def test_one_die_changes_face(changes: bool) -> None:
    rules = build(palifico__one_die_changes_face=changes)
    game = new_game(rules)
    lose(game, "Ben")
    start(game, {"Ann": [5, 1], "Ben": [5], "Cid": [5, 2]})
    game.bid("Ben", 1, 5)
    assert problems(rules, game, 2, 6), "Cid holds two dice: never a face change"
    game.bid("Cid", 2, 5)
    game.bid("Ann", 3, 5)
    assert (problems(rules, game, 3, 6) == []) is changes  # Ben holds one die


def test_after_a_one_die_face_change_the_others_keep_the_new_face(rules: Ruleset) -> None:
    """Later bids only raise the quantity of the bid on the table: once a one-die player has changed
    the face, a player with more dice raises the new face and may not switch back."""
    game = new_game(rules)
    lose(game, "Ben")
    start(game, {"Ann": [5, 1], "Ben": [6], "Cid": [5, 2]})
    game.bid("Ben", 1, 5)
    game.bid("Cid", 2, 5)
    game.bid("Ann", 3, 5)
    game.bid("Ben", 3, 6)  # Ben holds one die: he may change the face
    assert problems(rules, game, 4, 6) == []
    reasons = problems(rules, game, 4, 5)
    assert len(reasons) == 1 and "sixes" in str(reasons[0])
    assert {bid.face for bid in legal_bids(rules, game.state, "Cid")} == {6}


# --- who opens it --------------------------------------------------------------------------------


def test_the_one_die_player_opens_under_winner_opens() -> None:
    plain = Ruleset.build(["dice-loss", "winner-opens"])
    game = new_game(plain)
    lose(game, "Ben")  # Ben challenged a true bid: Ann won the call
    assert game.state.next_opener == "Ann"

    rules = build("winner-opens")
    game = new_game(rules)
    lose(game, "Ben")
    assert game.state.next_opener == "Ben"
    start(game, {"Ann": [2, 2], "Ben": [2], "Cid": [2, 2]})
    assert palifico_player(game) == "Ben"


def test_each_player_who_drops_at_once_gets_a_palifico_round_in_turn() -> None:
    """With the table-pays exact call several players can drop to one die in one round: the first
    clockwise from the first loser has the next round; another still owed one opens the round
    after, even though somebody else lost."""
    rules = build("calza", calza__reward="table-pays")
    game = new_game(rules, dice=3)
    lose(game, "Cid")
    lose(game, "Ann")
    start(game, {"Ann": [2, 2], "Ben": [2, 2, 2], "Cid": [2, 2]})
    assert game.state.round.opener == "Ann"  # type: ignore[union-attr]
    game.bid("Ann", 7, 2)
    game.call("Ben", "exact")  # seven twos: the table pays, Cid and then Ann lose a die
    assert [game.state.player(name).dice for name in TRIO] == [1, 3, 1]
    assert game.state.next_opener == "Cid"
    start(game, {"Ann": [3], "Ben": [3, 3, 3], "Cid": [3]})
    assert palifico_player(game) == "Cid"
    game.bid("Cid", 4, 3)
    game.bid("Ann", 5, 3)
    game.call("Ben")  # five threes: true, Ben loses a die (3 -> 2, not palifico)
    assert game.state.player("Ben").dice == 2
    assert game.state.next_opener == "Ann"
    start(game, {"Ann": [3], "Ben": [3, 3], "Cid": [3]})
    assert palifico_player(game) == "Ann"


# --- once per player, and the options ------------------------------------------------------------


def test_once_per_player() -> None:
    rules = build("calza")
    game = new_game(rules)
    lose(game, "Ben")
    start(game, {"Ann": [5, 5], "Ben": [3], "Cid": [5, 1]})
    assert palifico_player(game) == "Ben"
    game.bid("Ben", 1, 5)
    game.bid("Cid", 2, 5)
    game.bid("Ann", 3, 5)
    game.call("Ben", "exact")  # three fives, ones not wild: Ben takes a die back
    assert game.state.player("Ben").dice == 2
    assert game.state.next_opener == "Ben"
    start(game, {"Ann": [5, 1], "Ben": [5, 2], "Cid": [5, 1]})
    assert palifico_player(game) is None
    game.bid("Ben", 6, 6)
    game.call("Cid")  # Ben back at one die
    assert game.state.player("Ben").dice == 1
    start(game, {"Ann": [5, 1], "Ben": [5], "Cid": [5, 1]})
    assert palifico_player(game) is None, "the second time at one die is not palifico"
    assert count_matching(rules, game.state, 5) == 5
    assert problems(rules, game, 1, 1), "ones are wild again, so not biddable"


@pytest.mark.parametrize("two_players", [True, False])
def test_two_players_option(two_players: bool) -> None:
    rules = build(palifico__two_players=two_players)
    game = new_game(rules, ("Ann", "Ben"))
    lose(game, "Ann")
    start(game, {"Ann": [5], "Ben": [5, 1]})
    assert (palifico_player(game) == "Ann") is two_players
    assert count_matching(rules, game.state, 5) == (2 if two_players else 3)


def test_two_players_false_still_plays_palifico_with_three_left() -> None:
    rules = build(palifico__two_players=False)
    game = new_game(rules)
    lose(game, "Ann")
    start(game, {"Ann": [5], "Ben": [5, 1], "Cid": [2, 2]})
    assert palifico_player(game) == "Ann"


def test_two_players_false_counts_players_still_in() -> None:
    rules = build(palifico__two_players=False)
    game = new_game(rules, dice=2)
    lose(game, "Cid")
    start(game, {"Ann": [2, 2], "Ben": [2, 2], "Cid": [2]})
    assert palifico_player(game) == "Cid"
    game.bid("Cid", 1, 6)
    game.call("Ann")  # no sixes: Cid is out, two players are left
    assert not game.state.player("Cid").alive
    lose(game, "Ann")
    start(game, {"Ann": [5], "Ben": [5, 1]})
    assert palifico_player(game) is None


def test_keep_wilds_option_keeps_ones_wild() -> None:
    rules = build(palifico__keep_wilds=True)
    game = new_game(rules)
    lose(game, "Ben")
    start(game, {"Ann": [5, 1], "Ben": [5], "Cid": [5, 2]})
    assert palifico_player(game) == "Ben"
    assert count_matching(rules, game.state, 5) == 4
    assert problems(rules, game, 1, 1), "wild ones are not biddable under the baseline"
    game.bid("Ben", 2, 5)
    assert problems(rules, game, 2, 6), "the face is still fixed"


def test_the_round_after_a_palifico_round_is_normal(rules: Ruleset) -> None:
    game = new_game(rules, dice=3)
    lose(game, "Ben")
    lose(game, "Ben")
    start(game, {"Ann": [2, 2, 2], "Ben": [2], "Cid": [2, 2, 2]})
    assert palifico_player(game) == "Ben"
    game.bid("Ben", 1, 2)
    game.bid("Cid", 2, 2)
    game.call("Ann")  # two twos stand: Ann loses a die (3 -> 2)
    assert game.state.next_opener == "Ann"
    start(game, {"Ann": [5, 1], "Ben": [5], "Cid": [5, 1, 2]})
    assert palifico_player(game) is None
    assert count_matching(rules, game.state, 5) == 5
    assert problems(rules, game, 1, 1)
    game.bid("Ann", 2, 5)
    assert problems(rules, game, 2, 6) == [], "the face may change again"


def test_boxed_perudo_opens_on_ones_only_in_palifico() -> None:
    # The perudo-box preset's rules, at a table of 2 dice each (the preset itself is for 5).
    boxed = presets()["perudo-box"]
    rules = Ruleset.build(boxed.variants, dict(boxed.options))
    assert rules.options["aces-switch.open_on_ones"] is False
    game = new_game(rules)
    game.start_round({"Ann": [1, 2], "Ben": [1, 2], "Cid": [1, 2]})
    assert problems(rules, game, 1, 1), "boxed perudo: no opening on ones"
    game.bid("Ann", 4, 2)
    game.call("Ben")  # three ones and three twos: the bid stands, Ben drops to one die
    start(game, {"Ann": [1, 2], "Ben": [1], "Cid": [1, 2]})
    assert palifico_player(game) == "Ben"
    assert problems(rules, game, 1, 1) == []
    assert count_matching(rules, game.state, 2) == 2


def test_requires_dice_loss() -> None:
    with pytest.raises(RulesetError) as caught:
        Ruleset.build(["palifico", "revolver"])
    assert "palifico" in str(caught.value)
    assert "dice-loss" in str(caught.value)


def test_it_plays_with_any_variant_that_takes_dice_away() -> None:
    rules = Ruleset.build(["palifico", "difference"])
    game = new_game(rules)
    start(game, {"Ann": [3, 3], "Ben": [4, 4], "Cid": [5, 5]})
    game.bid("Ann", 1, 6)
    game.call("Ben")  # no sixes: off by one, so Ann gives up one die
    start(game, {"Ann": [5], "Ben": [5, 1], "Cid": [2, 1]})
    assert palifico_player(game) == "Ann"
    assert count_matching(rules, game.state, 5) == 2, "ones are not wild in a palifico round"


def test_without_a_dice_economy_it_is_refused_naming_the_capability() -> None:
    with pytest.raises(
        RulesetError, match=r"palifico requires dice-economy.*dice-loss, difference"
    ):
        Ruleset.build(["palifico", "revolver"])


def test_it_is_declared_before_the_variants_it_overrides() -> None:
    rules = Ruleset.build(["palifico", "dice-loss", "aces-switch", "winner-opens"])
    assert rules.order.index("palifico") < rules.order.index("aces-switch")
    assert rules.order.index("palifico") < rules.order.index("winner-opens")
