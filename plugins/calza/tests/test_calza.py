"""Calza, the exact call: success iff count == quantity, rewards, window (seeds 000, 002, 003)."""

from __future__ import annotations

import functools
import math
from typing import Any

import pytest

import liarsdice_calza as calza
from liarsdice import DiceChanged, Game, IllegalAction, Notice, RiggedRandom, Ruleset, engine
from liarsdice.views import public_facts

PLAYERS = ["Ann", "Ben", "Cid"]
FOUR = ["Ann", "Ben", "Cid", "Dan"]
# Five dice count toward fives: three fives and two wild ones.
ROLLS = {
    "Ann": (5, 5, 1, 2, 3),
    "Ben": (5, 2, 3, 4, 6),
    "Cid": (1, 2, 3, 4, 6),
    "Dan": (2, 3, 4, 6, 6),
}
# No fives and no ones: "1 five" is a lie, "n twos" is true while n is at most twice the players.
PLAIN = (2, 2, 3, 4, 6)


@functools.cache
def _rules(variants: tuple[str, ...], options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.build(variants, dict(options))


def rules(*extra: str, reward: str = "regain-die", window: str = "always") -> Ruleset:
    """``calza`` with ``extra`` variants (dice-loss when none is given)."""
    variants = ("calza", *(extra or ("dice-loss",)))
    return _rules(variants, (("calza.reward", reward), ("calza.window", window)))


def new_game(ruleset: Ruleset, players: list[str] = PLAYERS, **kwargs: Any) -> Game:
    return Game(ruleset, players, RiggedRandom(0), **kwargs)


def deal(game: Game, rolls: dict[str, tuple[int, ...]] = ROLLS) -> None:
    """Start a round: each living player rolls the first dice of their entry in ``rolls``."""
    game.start_round({p.name: rolls[p.name][: p.dice] for p in game.state.alive})


def lose(game: Game, loser: str, *pulls: str) -> None:
    """Play one round (no fives, no ones on the table) that ``loser`` loses by a challenge."""
    assert isinstance(game.rng, RiggedRandom)
    game.rng.rig("trigger", pulls)
    deal(game, {p.name: PLAIN for p in game.state.players})
    quantity = 0
    while game.state.round.turn != loser:
        quantity += 1
        game.bid(game.state.round.turn, quantity, 2)
    if quantity:
        game.call(loser)
    else:
        game.bid(loser, 1, 5)
        game.call(game.state.round.turn)
    assert game.state.round.resolution.losers == (loser,)


def exact(game: Game, quantity: int, rolls: dict[str, tuple[int, ...]] = ROLLS) -> str:
    """Deal ``rolls``; the opener bids ``quantity`` fives and the next player calls exact."""
    deal(game, rolls)
    opener = game.state.round.opener
    game.bid(opener, quantity, 5)
    caller = game.state.round.turn
    game.call(caller, "exact")
    return caller


def round_events(game: Game) -> list[Any]:
    """Events since the last call or timeout (those of the round that just ended)."""
    kinds = ("CallMade", "TimedOut")
    last = max(i for i, e in enumerate(game.events) if type(e).__name__ in kinds)
    return game.events[last:]


def dice(game: Game) -> dict[str, int]:
    return {p.name: p.dice for p in game.state.players}


# --- the call kind ------------------------------------------------------------------------------


def test_exact_is_a_call_only_with_calza() -> None:
    plain = Ruleset.build(["dice-loss"])
    assert "exact" not in plain.calls
    game = new_game(plain)
    deal(game)
    game.bid("Ann", 5, 5)
    with pytest.raises(IllegalAction, match="unknown call 'exact'"):
        game.call("Ben", "exact")
    assert engine.legal_calls(plain, game.state, "Ben") == ["challenge"]

    game = new_game(rules())
    deal(game)
    game.bid("Ann", 5, 5)
    assert "exact" in game.rules.calls
    assert sorted(engine.legal_calls(game.rules, game.state, "Ben")) == ["challenge", "exact"]


def test_the_opener_cannot_call_exact() -> None:
    game = new_game(rules())
    deal(game)
    with pytest.raises(IllegalAction, match="the opener cannot call"):
        game.call("Ann", "exact")
    assert engine.legal_calls(game.rules, game.state, "Ann") == []


def test_only_the_player_on_turn_may_call_exact() -> None:
    game = new_game(rules())
    deal(game)
    game.bid("Ann", 5, 5)
    with pytest.raises(IllegalAction, match="not Cid's turn"):
        game.call("Cid", "exact")
    with pytest.raises(IllegalAction, match="not Ann's turn"):
        game.call("Ann", "exact")  # the bidder cannot call her own bid either


# --- success and miss ---------------------------------------------------------------------------


@pytest.mark.parametrize(("quantity", "success"), [(4, False), (5, True), (6, False)])
def test_exact_succeeds_iff_the_count_equals_the_quantity(quantity: int, success: bool) -> None:
    game = new_game(rules())
    caller = exact(game, quantity)
    ruling = game.state.round.resolution
    assert (caller, ruling.call, ruling.count, ruling.bidder) == ("Ben", "exact", 5, "Ann")
    assert ruling.success is success
    if success:
        assert (ruling.losers, ruling.winners) == ((), ("Ben",))
        assert dice(game) == {"Ann": 5, "Ben": 5, "Cid": 5}
    else:  # a miss in either direction: the caller loses, as for a failed challenge
        assert (ruling.losers, ruling.winners) == (("Ben",), ("Ann",))
        assert dice(game) == {"Ann": 5, "Ben": 4, "Cid": 5}


@pytest.mark.parametrize("quantity", [3, 4])
def test_a_miss_is_ruled_like_a_failed_challenge(quantity: int) -> None:
    # 3 or 4 fives, with 5 on the table: a challenge fails, and an exact call misses.
    challenge = new_game(rules())
    deal(challenge)
    challenge.bid("Ann", quantity, 5)
    challenge.call("Ben")
    missed = new_game(rules())
    exact(missed, quantity)
    one, other = challenge.state.round.resolution, missed.state.round.resolution
    assert (one.losers, one.winners) == (other.losers, other.winners) == (("Ben",), ("Ann",))
    assert dice(challenge) == dice(missed)
    assert challenge.state.next_opener == missed.state.next_opener == "Ben"


def test_a_miss_under_the_revolver_loads_and_fires_at_the_caller() -> None:
    game = new_game(rules("revolver", reward="table-pays"))
    game.rng.rig("trigger", ["click"])
    exact(game, 6)
    assert game.state.round.resolution.losers == ("Ben",)
    facts = {p: public_facts(game.rules, game.state, p)["bullets"] for p in PLAYERS}
    assert facts == {"Ann": 0, "Ben": 1, "Cid": 0}


def test_a_successful_exact_call_makes_the_caller_the_winner() -> None:
    for reward in ("regain-die", "table-pays"):
        game = new_game(rules(reward=reward))
        caller = exact(game, 5)
        assert game.state.round.resolution.winners == (caller,)


@pytest.mark.parametrize("reward", ["regain-die", "table-pays"])
def test_with_winner_opens_the_successful_caller_opens_next(reward: str) -> None:
    game = new_game(rules("dice-loss", "winner-opens", reward=reward))
    caller = exact(game, 5)
    assert game.state.next_opener == caller == "Ben"
    deal(game)
    assert game.state.round.opener == "Ben"


def test_with_loser_opens_a_successful_regain_call_lets_the_caller_open() -> None:
    game = new_game(rules())  # dudo: the loser opens, and a successful calza has no loser
    exact(game, 5)
    assert game.state.next_opener == "Ben"


# --- reward: regain-die -------------------------------------------------------------------------


def test_regain_die_gives_back_one_lost_die() -> None:
    game = new_game(rules())
    lose(game, "Ben")
    lose(game, "Ben")
    lose(game, "Cid")
    assert dice(game) == {"Ann": 5, "Ben": 3, "Cid": 4}
    # Cid opens 5 fives; Ann [5,5,1,2,3] 3 + Ben [5,2,3] 1 + Cid [1,2,3,4] 1 = 5: Ann is right,
    # but holds all her dice: nothing changes, and Ann (the caller) opens.
    assert exact(game, 5) == "Ann"
    assert game.state.round.resolution.success
    assert dice(game) == {"Ann": 5, "Ben": 3, "Cid": 4}
    # Ann opens 5 fives again and Ben is right: one die back, and only one.
    assert exact(game, 5) == "Ben"
    assert game.state.round.resolution.success
    assert dice(game) == {"Ann": 5, "Ben": 4, "Cid": 4}
    changes = [e for e in round_events(game) if isinstance(e, DiceChanged)]
    assert [(e.player, e.delta) for e in changes] == [("Ben", 1)]
    assert "calza" in str(changes[0].reason)


def test_regain_die_at_the_starting_count_gains_nothing_and_loses_nothing() -> None:
    game = new_game(rules())
    exact(game, 5)
    assert dice(game) == {"Ann": 5, "Ben": 5, "Cid": 5}
    events = round_events(game)
    assert not [e for e in events if isinstance(e, DiceChanged)]
    notices = [e for e in events if isinstance(e, Notice)]
    assert [(n.plugin, n.player) for n in notices] == [("calza", "Ben")]
    assert "nothing gained" in str(notices[0].text)


def test_regain_die_caps_at_the_games_starting_count() -> None:
    game = new_game(rules(), dice_per_player=3)
    lose(game, "Ben")  # Ben 2, opens
    lose(game, "Ann")  # Ben opens, Cid raises, Ann challenges a true bid: Ann 2, opens
    assert dice(game) == {"Ann": 2, "Ben": 2, "Cid": 3}
    # Ann [5,5] 2 + Ben [5,2] 1 + Cid [1,2,3] 1 = 4 fives. Ann opens, Ben is right: 2 -> 3.
    assert exact(game, 4) == "Ben"
    assert dice(game) == {"Ann": 2, "Ben": 3, "Cid": 3}
    # Ben opens, Cid is right: Cid holds 3 of 3, the cap of this game, so nothing changes.
    assert exact(game, 4) == "Cid"
    assert game.state.round.resolution.success
    assert dice(game) == {"Ann": 2, "Ben": 3, "Cid": 3}


def test_regain_die_under_the_revolver_alone_gains_nothing() -> None:
    game = new_game(rules("revolver"))  # dice never leave a living player's hand
    exact(game, 5)
    assert dice(game) == {"Ann": 5, "Ben": 5, "Cid": 5}


# --- reward: table-pays -------------------------------------------------------------------------


def test_table_pays_under_dice_loss_every_other_living_player_loses_a_die_clockwise() -> None:
    game = new_game(rules(reward="table-pays"), players=FOUR)
    caller = exact(game, 5)  # Ann opens, Ben calls exact: 5 fives exactly
    ruling = game.state.round.resolution
    assert caller == "Ben" and ruling.success
    assert ruling.losers == ("Cid", "Dan", "Ann")
    assert ruling.winners == ("Ben",)
    assert dice(game) == {"Ann": 4, "Ben": 5, "Cid": 4, "Dan": 4}
    changes = [(e.player, e.delta) for e in round_events(game) if isinstance(e, DiceChanged)]
    assert changes == [("Cid", -1), ("Dan", -1), ("Ann", -1)]


def test_table_pays_skips_players_already_out() -> None:
    game = new_game(rules(reward="table-pays"), players=FOUR, dice_per_player=1)
    lose(game, "Cid")  # Cid's only die: out
    assert not game.state.player("Cid").alive
    # Dan opens (Cid was out); Dan [2], Ann [5], Ben [5]: 1 five + ... Dan bids 2 fives, Ann exact.
    caller = exact(game, 2)
    ruling = game.state.round.resolution
    assert caller == "Ann" and ruling.success
    assert ruling.losers == ("Ben", "Dan")
    assert game.state.winner == "Ann"


def test_table_pays_under_the_revolver_loads_each_other_player_and_they_pull_in_turn() -> None:
    # Ann opens 5 fives, Ben calls exact: Cid pulls first (bang), then Ann (click).
    game = new_game(rules("revolver", reward="table-pays"))
    game.rng.rig("trigger", ["bang", "click"])
    exact(game, 5)
    assert game.state.round.resolution.losers == ("Cid", "Ann")
    assert game.rng.leftovers() == {}
    assert not game.state.player("Cid").alive
    assert game.state.player("Ann").alive
    bullets = {p: public_facts(game.rules, game.state, p)["bullets"] for p in PLAYERS}
    assert bullets == {"Ann": 1, "Ben": 0, "Cid": 1}
    pulls = [
        (n.player, str(n.text).rsplit(" ", 1)[-1])
        for n in round_events(game)
        if isinstance(n, Notice)
    ]
    assert pulls == [("Cid", "bang"), ("Ann", "click")]

    # The same call with the pulls the other way round shoots Ann instead.
    game = new_game(rules("revolver", reward="table-pays"))
    game.rng.rig("trigger", ["click", "bang"])
    exact(game, 5)
    assert game.state.player("Cid").alive
    assert not game.state.player("Ann").alive


def test_table_pays_adds_a_bullet_to_those_already_loaded() -> None:
    game = new_game(rules("revolver", reward="table-pays"))
    lose(game, "Cid", "click")
    lose(game, "Cid", "click")
    # Cid opens 5 fives, Ann calls exact: Ben then Cid are loaded.
    game.rng.rig("trigger", ["click", "click"])
    caller = exact(game, 5)
    assert caller == "Ann"
    bullets = {p: public_facts(game.rules, game.state, p)["bullets"] for p in PLAYERS}
    assert bullets == {"Ann": 0, "Ben": 1, "Cid": 3}


def test_table_pays_under_revolver_and_dice_loss_each_other_player_loses_a_die_and_pulls() -> None:
    game = new_game(rules("revolver", "dice-loss", reward="table-pays"))
    game.rng.rig("trigger", ["click", "click"])
    exact(game, 5)
    assert dice(game) == {"Ann": 4, "Ben": 5, "Cid": 4}
    bullets = {p: public_facts(game.rules, game.state, p)["bullets"] for p in PLAYERS}
    assert bullets == {"Ann": 1, "Ben": 0, "Cid": 1}


def test_table_pays_miss_costs_only_the_caller() -> None:
    game = new_game(rules(reward="table-pays"))
    exact(game, 4)
    assert game.state.round.resolution.losers == ("Ben",)
    assert dice(game) == {"Ann": 5, "Ben": 4, "Cid": 5}


# --- window -------------------------------------------------------------------------------------

FIVE = ["Ann", "Ben", "Cid", "Dan", "Eve"]


def _dice_out(window: str, out: int) -> Game:
    """A 5 x 5 game (seed 002's example) in which ``out`` dice were lost, nobody out."""
    game = new_game(rules(window=window), players=FIVE)
    for index in range(out):
        lose(game, FIVE[index % 5])
    assert game.state.dice_in_play == 25 - out
    return game


def _bid_and_ask(game: Game) -> tuple[str, list[str]]:
    """Deal, let the opener bid 1 two; the next player and why they may not call exact."""
    deal(game, {p.name: PLAIN for p in game.state.players})
    game.bid(game.state.round.opener, 1, 2)
    caller = game.state.round.turn
    return caller, engine.call_problems(game.rules, game.state, caller, "exact")


def test_half_window_allows_exact_while_more_than_half_the_dice_are_in_play() -> None:
    game = _dice_out("half", 12)  # 13 of 25 in play
    caller, problems = _bid_and_ask(game)
    assert problems == []
    game.call(caller, "exact")
    assert game.state.round.resolution.call == "exact"


def test_half_window_refuses_exact_once_13_of_25_dice_are_out() -> None:
    game = _dice_out("half", 13)  # 12 of 25 in play: half is gone
    caller, problems = _bid_and_ask(game)
    assert len(problems) == 1
    assert (
        "more than half" in str(problems[0])
        and "25" in str(problems[0])
        and "12 left" in str(problems[0])
    )
    with pytest.raises(IllegalAction, match="more than half"):
        game.call(caller, "exact")
    assert "exact" not in engine.legal_calls(game.rules, game.state, caller)
    game.call(caller)  # a challenge is still fine


def test_always_window_allows_exact_with_few_dice_left() -> None:
    game = _dice_out("always", 13)
    _, problems = _bid_and_ask(game)
    assert problems == []


def test_half_window_counts_the_dice_of_shot_players_as_out() -> None:
    game = new_game(rules("revolver", window="half"), players=FOUR)  # 20 dice
    lose(game, "Cid", "bang")
    caller, problems = _bid_and_ask(game)  # 15 of 20 in play
    assert problems == []
    game.rng.rig("trigger", ["click"])
    game.call(caller)  # a true bid: the challenger loses and survives
    lose(game, "Dan", "bang")
    assert game.state.dice_in_play == 10
    _, problems = _bid_and_ask(game)  # 10 of 20: not more than half
    assert len(problems) == 1 and "20 dice" in str(problems[0]) and "10 left" in str(problems[0])


# --- rules text ---------------------------------------------------------------------------------


def test_rules_text_follows_the_options() -> None:
    regain = rules(window="half").describe()
    assert "takes back one lost die" in regain and "gains nothing and loses nothing" in regain
    assert "more than half" in regain
    pays = rules(reward="table-pays").describe()
    assert (
        "the table pays" in pays and "every other living player, clockwise from the caller" in pays
    )
    assert "any turn after the opening bid" in pays
    assert "exact" in pays and "either direction" in pays


# --- how long a game can last -------------------------------------------------------------------


def test_regain_die_stretches_the_rounds_and_table_pays_does_not() -> None:
    limit = rules().move_limit(3, 2)  # dice-loss: 5 rounds
    assert limit.rounds == 5 * calza.ROUNDS_FACTOR + calza.EXTRA_ROUNDS == 215
    assert "calza x 3 + 200: a successful exact call costs nobody anything" in limit.rounds_why
    assert rules(reward="table-pays").move_limit(3, 2).rounds == 5


def _at_least(trials: int, successes: int, p: float) -> float:
    """P(Binomial(trials, p) >= successes)."""
    total = 0.0
    for k in range(successes, trials + 1):
        term = math.exp(
            math.lgamma(trials + 1)
            - math.lgamma(k + 1)
            - math.lgamma(trials - k + 1)
            + k * math.log(p)
            + (trials - k) * math.log(1 - p)
        )
        total += term
        if term < 1e-30:
            break
    return total


def test_the_declared_stretch_leaves_a_real_game_a_negligible_chance_to_pass_it() -> None:
    """The module docstring's bound: with at most 1/4 of rounds ending in a successful exact call,
    more than 3B + 200 rounds needs B + 101 of them among the first 3B + 200."""
    for base in [*range(1, 200), *range(200, 2001, 100)]:
        rounds = calza.ROUNDS_FACTOR * base + calza.EXTRA_ROUNDS
        assert _at_least(rounds, (rounds - base + 2) // 2, 0.25) < 1e-12, base


# --- calza.anyone: the exact call out of turn -----------------------------------------------------


def anyone(reward: str = "regain-die") -> Ruleset:
    return _rules(("calza", "dice-loss"), (("calza.reward", reward), ("calza.anyone", True)))


def bid_on_fives(ruleset: Ruleset) -> Game:
    game = new_game(ruleset, FOUR, first_opener="Ann")
    game.start_round(dict(ROLLS))
    game.bid("Ann", 4, 5)
    return game


def test_anyone_but_the_bidder_may_call_exact_out_of_turn() -> None:
    game = bid_on_fives(anyone())
    assert game.state.round is not None and game.state.round.turn == "Ben"
    assert engine.legal_calls(game.rules, game.state, "Cid") == ["exact"]  # not on turn
    assert engine.legal_calls(game.rules, game.state, "Ann") == []  # the bidder
    callers = [call.player for call in engine.out_of_turn_calls(game.rules, game.state)]
    assert callers == ["Cid", "Dan"]  # clockwise from Ben, who is on turn: not Ann
    with pytest.raises(IllegalAction, match="Ann made the bid on the table and cannot call it"):
        game.call("Ann", "exact")
    with pytest.raises(IllegalAction, match="not Cid's turn"):
        game.call("Cid", "challenge")  # only the exact call may be made out of turn
    game.call("Dan", "exact")  # four fives... there are five: Dan misses and loses
    resolution = game.state.round.resolution
    assert resolution is not None and resolution.caller == "Dan" and resolution.losers == ("Dan",)
    with pytest.raises(IllegalAction, match="no round is being played"):
        game.call("Cid", "exact")  # the first to act made the call


def test_an_exact_call_out_of_turn_is_ruled_as_any_exact_call() -> None:
    game = new_game(anyone(), FOUR, first_opener="Ann")
    game.start_round(dict(ROLLS))
    game.bid("Ann", 5, 5)
    game.call("Cid", "exact")  # exactly five count toward fives
    resolution = game.state.round.resolution  # type: ignore[union-attr]
    assert resolution is not None and resolution.success and resolution.winners == ("Cid",)


def test_without_anyone_only_the_player_on_turn_calls_exact() -> None:
    game = bid_on_fives(rules())
    assert engine.legal_calls(game.rules, game.state, "Cid") == []
    assert engine.out_of_turn_calls(game.rules, game.state) == []
    assert game.rules.out_of_turn == () and anyone().out_of_turn == ("exact",)
    with pytest.raises(IllegalAction, match="not Cid's turn"):
        game.call("Cid", "exact")
    game.call("Ben", "exact")


def test_the_random_policy_draws_nothing_more_when_nobody_may_call_out_of_turn() -> None:
    from random import Random

    from liarsdice.simulate import random_action, random_turn_action

    ruleset = rules()
    for policy in (random_action, random_turn_action):
        game = Game(ruleset, FOUR, Random(3))
        while not game.over:
            game.start_round()
            while not game.state.round.over:  # type: ignore[union-attr]
                game.act(policy(ruleset, game.state, game.rng))
        if policy is random_action:
            events = list(game.events)
        else:
            assert game.events == events  # the same game: no extra draw


def test_a_bot_that_sees_enough_calls_exact_out_of_turn() -> None:
    from random import Random

    from liarsdice.bots import interjection, make_bot

    # forehead at one die each: Cid sees Ann's six and Ben's two but not his own die, so "1 six"
    # is exactly right unless his own die is a six or a wild one: 4 chances in 6.
    ruleset = _rules(("calza", "dice-loss", "forehead"), (("calza.anyone", True),))
    game = Game(ruleset, ["Ann", "Ben", "Cid"], Random(0), dice_per_player=1, first_opener="Ann")
    game.start_round({"Ann": [6], "Ben": [2], "Cid": [3]})
    game.bid("Ann", 1, 6)
    for kind in ("odds", "bayes"):
        bot = make_bot(kind, ruleset, Random(0))
        assert interjection(bot, game.view("Cid")) == engine.CallAction("Cid", "exact")
        assert interjection(bot, game.view("Ann")) is None  # the bidder may not
    game.bid("Ben", 2, 6)  # "2 sixes": Cid sees one, his own would have to be a six or a one
    assert interjection(make_bot("odds", ruleset, Random(0)), game.view("Cid")) is None
