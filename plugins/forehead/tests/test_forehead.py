"""Variant ``forehead``: a player down to one die cannot see it, and every other player can."""

from __future__ import annotations

from random import Random

import pytest

from liarsdice import Game, Ruleset, engine
from liarsdice.bots import make_bot
from liarsdice.errors import IllegalAction
from liarsdice.models import Bid, BidAction
from liarsdice.oddspage import odds_table
from liarsdice.views import HIDDEN_DIE, public_events, view_state


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return Ruleset.build(["forehead", "dice-loss"])


def one_die_round(rules: Ruleset) -> Game:
    """Ben drops to one die; the next round is dealt: Ann 2 5, Ben 6, Cid 4 1."""
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(0), dice_per_player=2, first_opener="Ann")
    game.start_round({"Ann": [2, 2], "Ben": [3, 3], "Cid": [4, 4]})
    game.bid("Ann", 1, 2)
    game.call("Ben")  # the bid stands: Ben drops to one die and opens
    game.start_round({"Ann": [2, 5], "Ben": [6], "Cid": [4, 1]})
    return game


def test_everyone_but_the_owner_sees_a_lone_die(rules: Ruleset) -> None:
    game = one_die_round(rules)
    ben, ann, watcher = game.view("Ben"), game.view("Ann"), game.view(None)
    assert ben.own_dice is None and dict(ben.seen) == {} and ben.known_dice == ()
    assert ann.own_dice == (2, 5) and dict(ann.seen) == {"Ben": (6,)}
    assert ann.known_dice == (2, 5, 6)
    assert watcher.own_dice is None and dict(watcher.seen) == {}
    assert dict(game.view("Cid").seen) == {"Ben": (6,)}  # two dice each: nobody else's shown


def test_while_everyone_has_two_dice_nothing_changes(rules: Ruleset) -> None:
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [2, 5], "Ben": [6, 6]})
    assert game.state.round is not None and game.state.round.sights == ()
    assert game.view("Ann").own_dice == (2, 5) and dict(game.view("Ann").seen) == {}


def test_the_event_log_each_viewer_gets_follows_the_same_sight(rules: Ruleset) -> None:
    game = one_die_round(rules)
    started = {viewer: public_events(game.events, viewer)[-1] for viewer in ("Ann", "Ben", None)}
    assert started["Ann"].rolls == {"Ann": (2, 5), "Ben": (6,), "Cid": (HIDDEN_DIE,) * 2}
    assert started["Ben"].rolls == {"Ann": (0, 0), "Ben": (HIDDEN_DIE,), "Cid": (0, 0)}
    assert all(die == HIDDEN_DIE for roll in started[None].rolls.values() for die in roll)
    game.bid("Ben", 3, 6)
    game.call("Cid")  # the cups are lifted: everyone sees everything
    assert game.view("Ben").own_dice == (6,) and game.view("Ben").revealed is not None


def test_the_odds_and_the_bots_count_what_the_viewer_sees(rules: Ruleset) -> None:
    game = one_die_round(rules)
    ann, ben = game.view("Ann"), game.view("Ben")
    assert view_state(ann).round.rolls["Ben"] == (6,)  # type: ignore[union-attr]
    assert view_state(ben).round.rolls["Ben"] == (HIDDEN_DIE,)  # type: ignore[union-attr]
    sixes = odds_table(rules, 5, ann.known_dice).face(6)
    assert sixes.expected.rules == pytest.approx(1 + 2 * 2 / 6)  # Ben's six, Ann's none: 2 unseen
    for kind in ("random", "odds", "bayes"):
        action = make_bot(kind, rules, Random(1)).decide(ben)
        assert action.player == "Ben"  # a decision on what Ben sees: no die of his own


def test_beside_bluff_a_player_who_cannot_see_their_die_cannot_show_it() -> None:
    rules = Ruleset.build(["forehead", "bluff", "dice-loss"])
    game = one_die_round(rules)  # Ben, on one die (a 6) he cannot see, opens
    bid = BidAction("Ben", Bid(1, 3))
    assert engine.payload_choices(rules, game.state, bid) == {}
    state = view_state(game.view("Ben"))
    assert engine.payload_choices(rules, state, bid) == {}  # as a bot asks it, from the view
    for face in range(1, 7):  # the same refusal whatever the face: it tells him nothing
        with pytest.raises(IllegalAction, match="the rules hide your dice from you"):
            game.act(BidAction("Ben", Bid(1, 3), {"bluff": {"show": [face]}}))
    assert engine.payload_choices(rules, game.state, BidAction("Ann", Bid(1, 3)))  # not Ann's
