"""liarsdice.engine (and the Game wrapper): the game loop under the baseline rules with dice loss.

Each baseline rule (standard.py docstring, RULES.md "Table and round", "Raising" default, "Wild ones
and counting", "Calls: Challenge", dice-loss economics, "loser opens", "next living clockwise if the
opener is out", timeout = lost round) has a test here that fails if the rule is broken.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

import pytest

from liarsdice import Game, IllegalAction, PluginError, Ruleset, engine, hookimpl
from liarsdice.events import (
    BidMade,
    CallMade,
    DiceChanged,
    Eliminated,
    Event,
    GameStarted,
    GameWon,
    Notice,
    OpenerChosen,
    RoundResolved,
    RoundStarted,
    TimedOut,
)
from liarsdice.models import Bid, BidAction, CallAction, GameState, TimeoutAction
from liarsdice.options import CallRegistry
from liarsdice.reducer import replay
from liarsdice.simulate import random_action

# --- helpers ------------------------------------------------------------------------------------


def rigged_game(
    rules: Ruleset, rolls: Mapping[str, Sequence[int]], *, opener: str | None = None, seed: int = 0
) -> Game:
    """A game whose players (seated in ``rolls`` order) start round 1 with these dice."""
    dice = len(next(iter(rolls.values())))
    game = Game(rules, list(rolls), Random(seed), dice_per_player=dice, first_opener=opener)
    game.start_round(rolls)
    return game


def table_state(
    seats: Sequence[tuple[str, Sequence[int] | None]], *, dice: int = 5, opener: str | None = None
) -> GameState:
    """A state in round 1 built from events: a seat with roll ``None`` is out; the others hold
    ``len(roll)`` dice (fewer than ``dice`` means they lost some earlier)."""
    events: list[Event] = [GameStarted(tuple(name for name, _ in seats), dice)]
    for name, roll in seats:
        if roll is None:
            events.append(Eliminated(name, "earlier"))
        elif len(roll) != dice:
            events.append(DiceChanged(name, len(roll) - dice, "earlier"))
    first = opener or next(name for name, roll in seats if roll is not None)
    events.append(OpenerChosen(first))
    rolls = {name: tuple(roll) for name, roll in seats if roll is not None}
    events.append(RoundStarted(1, first, rolls))
    return replay(events)


def refuse(game: Game, action, *expected: str) -> list[str]:
    """Assert ``action`` is refused with reasons containing each of ``expected``, and that the
    refusal changed nothing: same state, no new events."""
    state, events = game.state, list(game.events)
    with pytest.raises(IllegalAction) as refusal:
        game.act(action)
    reasons = refusal.value.reasons
    for text in expected:
        assert any(text in str(reason) for reason in reasons), (text, reasons)
    assert str(refusal.value) == "; ".join(map(str, reasons))
    assert game.state is state
    assert game.events == events
    return reasons


ROLLS3 = {"Ann": [5, 5, 1, 2, 3], "Ben": [5, 2, 3, 4, 6], "Cid": [1, 2, 3, 4, 6]}


# --- table and round ------------------------------------------------------------------------------


def test_seat_one_opens_the_first_round(dice_loss_rules: Ruleset) -> None:
    state, events = engine.new_game(dice_loss_rules, ["Cid", "Ann", "Ben"], Random(1))
    assert events == [GameStarted(("Cid", "Ann", "Ben"), 5), OpenerChosen("Cid")]
    assert state.next_opener == "Cid"
    assert [p.dice for p in state.players] == [5, 5, 5]


def test_first_opener_can_be_overridden(dice_loss_rules: Ruleset) -> None:
    state, _ = engine.new_game(dice_loss_rules, ["Ann", "Ben"], Random(1), first_opener="Ben")
    assert state.next_opener == "Ben"
    with pytest.raises(ValueError, match="not at the table"):
        engine.new_game(dice_loss_rules, ["Ann", "Ben"], Random(1), first_opener="Zed")


@pytest.mark.parametrize(
    ("players", "dice", "message"),
    [
        (["Ann"], 5, "at least 2 players"),
        (["Ann", "Ann"], 5, "unique"),
        (["Ann", "Ben"], 0, "1 die"),
    ],
)
def test_new_game_refuses_bad_tables(dice_loss_rules, players, dice, message) -> None:
    with pytest.raises(ValueError, match=message):
        engine.new_game(dice_loss_rules, players, Random(0), dice_per_player=dice)


def test_every_living_player_rolls_all_their_dice(dice_loss_rules: Ruleset) -> None:
    state, _ = engine.new_game(
        dice_loss_rules, ["A", "B", "C", "D", "E", "F", "G"], Random(4), dice_per_player=8
    )
    state, events = engine.start_round(dice_loss_rules, state, Random(5))
    assert isinstance(events[0], RoundStarted)
    assert state.round is not None
    assert set(state.round.rolls) == {"A", "B", "C", "D", "E", "F", "G"}
    assert all(
        len(roll) == 8 and set(roll) <= set(range(1, 7)) for roll in state.round.rolls.values()
    )
    assert state.round.dice_in_play == 56
    assert state.round.turn == state.round.opener == "A"
    assert state.round.number == 1
    assert state.next_opener is None


def test_eliminated_players_do_not_roll(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, {"Ann": [2], "Ben": [3], "Cid": [4]})
    game.bid("Ann", 1, 2)
    game.bid("Ben", 3, 6)
    game.call("Cid")  # Ben's bid was a lie: Ben loses his only die
    assert not game.state.player("Ben").alive
    game.start_round()
    assert game.state.round is not None
    assert set(game.state.round.rolls) == {"Ann", "Cid"}
    assert game.state.round.dice_in_play == 2
    assert game.state.round.number == 2


def test_a_round_in_play_cannot_be_restarted(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    with pytest.raises(IllegalAction, match="round 1 is still being played"):
        game.start_round()


def test_rolls_that_do_not_fit_the_table_are_refused(dice_loss_rules: Ruleset) -> None:
    game = Game(dice_loss_rules, ["Ann", "Ben"], Random(0), dice_per_player=2)
    with pytest.raises(ValueError, match="Ben must roll 2 dice"):
        game.start_round({"Ann": [1, 2], "Ben": [3]})
    with pytest.raises(ValueError, match="face outside 1-6"):
        game.start_round({"Ann": [1, 7], "Ben": [3, 3]})
    assert game.state.round is None


def test_same_seed_and_same_actions_give_identical_events(dice_loss_rules: Ruleset) -> None:
    def play(seed: int) -> list[Event]:
        rng = Random(seed)
        state, log = engine.new_game(dice_loss_rules, ["Ann", "Ben", "Cid"], rng, dice_per_player=2)
        policy = Random(99)  # the same actions whatever the game's seed
        while not state.over:
            state, events = engine.start_round(dice_loss_rules, state, rng)
            log += events
            while state.round is not None and not state.round.over:
                state, events = engine.step(
                    dice_loss_rules, state, random_action(dice_loss_rules, state, policy), rng
                )
                log += events
        assert replay(log) == state
        return log

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_the_turn_passes_clockwise_skipping_players_who_are_out(dice_loss_rules: Ruleset) -> None:
    state = table_state([("Ann", [2, 2]), ("Ben", None), ("Cid", [3, 4]), ("Dan", [5, 6])], dice=2)
    state, events = engine.step(dice_loss_rules, state, BidAction("Ann", Bid(1, 2)), Random(0))
    assert events == [BidMade("Ann", Bid(1, 2))]
    assert state.round is not None and state.round.turn == "Cid"
    state, _ = engine.step(dice_loss_rules, state, BidAction("Cid", Bid(2, 2)), Random(0))
    state, _ = engine.step(dice_loss_rules, state, BidAction("Dan", Bid(3, 2)), Random(0))
    assert state.round is not None and state.round.turn == "Ann"  # wraps around


# --- raising (the default order) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "raise_"),
    [
        ((5, 5), (6, 2)),  # more dice of a lower face
        ((5, 5), (6, 5)),  # more dice of the same face
        ((5, 5), (5, 6)),  # as many dice of a higher face
        ((1, 2), (15, 6)),  # a jump of any size
        ((5, 3), (6, 2)),  # RULES 002 example: after 5 threes, 6 twos...
        ((5, 3), (5, 6)),  # ... and 5 sixes are raises
    ],
)
def test_a_raise_is_more_dice_or_as_many_of_a_higher_face(dice_loss_rules, current, raise_) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", *current)
    events = game.bid("Ben", *raise_)
    assert events == [BidMade("Ben", Bid(*raise_))]
    assert game.state.round is not None and game.state.round.current_bid == Bid(*raise_)


@pytest.mark.parametrize(
    ("current", "attempt"),
    [
        ((5, 5), (4, 6)),  # a higher face with fewer dice
        ((5, 5), (5, 5)),  # the same bid
        ((5, 5), (5, 4)),  # as many dice of a lower face
        ((5, 5), (4, 2)),  # fewer dice of a lower face
        ((5, 3), (5, 2)),
    ],
)
def test_anything_else_is_not_a_raise(dice_loss_rules, current, attempt) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", *current)
    refuse(game, BidAction("Ben", Bid(*attempt)), f"{Bid(*attempt)} does not raise {Bid(*current)}")


def test_four_sixes_after_five_fives_reads_clearly(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 5, 5)
    assert refuse(game, BidAction("Ben", Bid(4, 6))) == [
        "4 sixes does not raise 5 fives",
        "the lowest raise is 5 sixes",  # the lowest of all is on the same face: said once
    ]


def test_the_opener_may_bid_anything_in_range(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    assert engine.legal_bids(dice_loss_rules, game.state, "Ann")[0] == Bid(1, 2)
    game.bid("Ann", 15, 6)  # the highest bid there is
    assert game.state.round is not None and game.state.round.turn == "Ben"


@pytest.mark.parametrize("quantity", [0, -1, 16])
def test_quantity_must_be_one_to_the_dice_in_play(dice_loss_rules: Ruleset, quantity: int) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    refuse(game, BidAction("Ann", Bid(quantity, 5)), "is not 1 to 15 dice, the dice in play")


def test_quantity_counts_only_the_dice_still_in_play(dice_loss_rules: Ruleset) -> None:
    state = table_state([("Ann", [2, 2]), ("Ben", None), ("Cid", [3])], dice=2)
    with pytest.raises(IllegalAction, match="not 1 to 3 dice"):
        engine.step(dice_loss_rules, state, BidAction("Ann", Bid(4, 2)), Random(0))
    engine.step(dice_loss_rules, state, BidAction("Ann", Bid(3, 6)), Random(0))


@pytest.mark.parametrize("face", [0, 7, -1])
def test_faces_run_one_to_six(dice_loss_rules: Ruleset, face: int) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    refuse(game, BidAction("Ann", Bid(2, face)), f"there is no face {face}: dice show 1 to 6")


def test_a_bid_is_made_of_whole_numbers(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    refuse(game, BidAction("Ann", Bid(2.0, 5)), "a bid is a whole quantity and a face")  # type: ignore[arg-type]


def test_the_highest_bid_leaves_only_a_call(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 15, 6)
    assert engine.legal_bids(dice_loss_rules, game.state, "Ben") == []
    assert engine.legal_calls(dice_loss_rules, game.state, "Ben") == ["challenge"]
    refuse(game, BidAction("Ben", Bid(15, 6)), "does not raise")


# --- wild ones ---------------------------------------------------------------------------------


def test_no_bids_on_ones_while_they_are_wild(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    assert refuse(game, BidAction("Ann", Bid(3, 1))) == ["ones are wild: no bids on ones"]
    assert all(bid.face != 1 for bid in engine.legal_bids(dice_loss_rules, game.state, "Ann"))


def test_every_reason_is_reported(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 2, 3)
    reasons = refuse(game, BidAction("Ben", Bid(1, 1)))
    assert reasons == [
        "ones are wild: no bids on ones",
        "1 one does not raise 2 threes",
        "the lowest raise is 2 fours",  # nothing on ones: ones may not be bid
    ]


def test_ones_are_an_ordinary_lowest_face_without_wild_ones(natural_rules: Ruleset) -> None:
    game = rigged_game(natural_rules, ROLLS3)
    assert engine.legal_bids(natural_rules, game.state, "Ann")[0] == Bid(1, 1)  # the lowest bid
    game.bid("Ann", 2, 1)
    game.bid("Ben", 2, 2)  # same quantity, higher face: ones rank below twos
    reasons = refuse(
        game,
        BidAction("Cid", Bid(2, 1)),
        "2 ones does not raise 2 twos",
        "the lowest raise is 2 threes, or 3 ones on the same face",  # what Cid can bid instead
    )
    assert reasons[-1].render("uk") == (
        "найменша ставка, що перебиває, — 2 трійки, або 3 одиниці на те саме значення"
    )
    game.bid("Cid", 3, 1)  # more dice: ones are fine
    assert game.state.round is not None and game.state.round.current_bid == Bid(3, 1)


def test_count_matching_with_and_without_wild_ones(dice_loss_rules, natural_rules) -> None:
    # Fives: Ann 2, Ben 1; ones: Ann 1, Cid 1.
    wild = rigged_game(dice_loss_rules, ROLLS3).state
    plain = rigged_game(natural_rules, ROLLS3).state
    assert engine.count_matching(dice_loss_rules, wild, 5) == 3 + 2
    assert engine.count_matching(natural_rules, plain, 5) == 3
    assert engine.count_matching(dice_loss_rules, wild, 6) == 2 + 2
    assert engine.count_matching(natural_rules, plain, 6) == 2
    # A bid on ones counts ones only, wild or not.
    assert engine.count_matching(dice_loss_rules, wild, 1) == 2
    assert engine.count_matching(natural_rules, plain, 1) == 2


def test_a_natural_challenge_does_not_count_ones_as_wild(natural_rules: Ruleset) -> None:
    game = rigged_game(natural_rules, ROLLS3)
    game.bid("Ann", 4, 5)  # three fives; with wild ones it would be five
    game.call("Ben")
    ruling = game.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None and ruling.count == 3 and ruling.losers == ("Ann",)


# --- calls: the challenge ----------------------------------------------------------------------


def test_opener_cannot_call(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    assert engine.legal_calls(dice_loss_rules, game.state, "Ann") == []
    refuse(game, CallAction("Ann"), "the opener cannot call: there is no bid yet")


def test_only_the_player_on_turn_may_act(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    refuse(game, BidAction("Ben", Bid(3, 5)), "not Ben's turn")
    game.bid("Ann", 3, 5)
    assert refuse(game, CallAction("Cid")) == ["not Cid's turn"]  # only Ben may call Ann's bid
    refuse(game, BidAction("Ann", Bid(4, 5)), "not Ann's turn")
    refuse(game, TimeoutAction("Cid"), "not Cid's turn")
    assert engine.legal_bids(dice_loss_rules, game.state, "Cid") == []
    assert engine.legal_calls(dice_loss_rules, game.state, "Cid") == []


def test_a_stranger_cannot_act(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    refuse(game, BidAction("Zed", Bid(3, 5)), "'Zed' is not at this table")


def test_unknown_call_kind_lists_the_allowed_ones(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 3, 5)
    refuse(game, CallAction("Ben", "exact"), "unknown call 'exact'; this table allows: challenge")


def test_not_an_action_is_refused(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    refuse(game, "challenge", "not an action")


def test_challenge_on_a_true_bid_loses_the_challenger(dice_loss_rules: Ruleset) -> None:
    # RULES 000: three fives and two ones: five fives stands, Ann (Iris) challenged and loses.
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 3, 5)
    game.bid("Ben", 4, 5)
    game.bid("Cid", 5, 5)
    events = game.call("Ann")
    ruling = game.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None
    assert (ruling.call, ruling.caller, ruling.bidder, ruling.bid) == (
        "challenge",
        "Ann",
        "Cid",
        Bid(5, 5),
    )
    assert ruling.count == 5
    assert ruling.success is False
    assert ruling.losers == ("Ann",) and ruling.winners == ("Cid",)
    assert events == [
        CallMade("Ann", "challenge"),
        RoundResolved(ruling),
        DiceChanged("Ann", -1, "lost the round"),
        OpenerChosen("Ann"),
    ]


def test_exactly_true_bid_stands(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 5, 5)  # count is exactly 5
    game.call("Ben")
    ruling = game.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None and ruling.count == 5 and ruling.losers == ("Ben",)


def test_challenge_on_a_lie_loses_the_bidder(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 6, 5)  # one more than the five that match
    game.call("Ben")
    ruling = game.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None
    assert ruling.count == 5 and ruling.success is True
    assert ruling.losers == ("Ann",) and ruling.winners == ("Ben",)
    assert [p.dice for p in game.state.players] == [4, 5, 5]


def test_only_the_latest_bid_is_called(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 9, 5)  # a lie...
    game.bid("Ben", 9, 6)  # ...raised to another lie (four sixes with the ones)
    game.call("Cid")
    ruling = game.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None and ruling.bidder == "Ben" and ruling.losers == ("Ben",)


def test_no_actions_once_the_round_is_called(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 3, 5)
    game.call("Ben")
    refuse(game, BidAction("Cid", Bid(4, 5)), "no round is being played")
    refuse(game, CallAction("Ann"), "no round is being played")


# --- dice loss, elimination, winner, openers ----------------------------------------------------


def test_the_loser_gives_up_exactly_one_die_and_opens_next(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 2, 6)
    game.bid("Ben", 8, 6)  # four sixes with the ones: a lie
    game.call("Cid")
    assert {p.name: p.dice for p in game.state.players} == {"Ann": 5, "Ben": 4, "Cid": 5}
    assert game.state.next_opener == "Ben"
    game.start_round()
    assert game.state.round is not None
    assert game.state.round.opener == game.state.round.turn == "Ben"
    assert len(game.state.round.rolls["Ben"]) == 4
    assert game.state.round.dice_in_play == 14


def test_losing_the_last_die_eliminates(dice_loss_rules: Ruleset) -> None:
    state = table_state([("Ann", [2, 2]), ("Ben", [3]), ("Cid", [4, 4])], dice=2)
    state, _ = engine.step(dice_loss_rules, state, BidAction("Ann", Bid(2, 2)), Random(0))
    state, events = engine.step(dice_loss_rules, state, CallAction("Ben"), Random(0))
    assert events[2:] == [
        DiceChanged("Ben", -1, "lost the round"),
        Eliminated("Ben", "lost their last die"),
        OpenerChosen("Cid"),  # Ben is out: the next living player clockwise opens
    ]
    assert state.player("Ben").dice == 0 and not state.player("Ben").alive
    assert state.winner is None


def test_next_opener_skips_every_seat_that_is_out_and_wraps(dice_loss_rules: Ruleset) -> None:
    # Dan (last seat) loses his only die; Ann (seat 1) is out already, so Ben opens.
    state = table_state(
        [("Ann", None), ("Ben", [2, 2]), ("Cid", [3, 3]), ("Dan", [6])], dice=2, opener="Cid"
    )
    state, _ = engine.step(dice_loss_rules, state, BidAction("Cid", Bid(1, 3)), Random(0))
    state, _ = engine.step(dice_loss_rules, state, BidAction("Dan", Bid(5, 6)), Random(0))  # a lie
    state, events = engine.step(dice_loss_rules, state, CallAction("Ben"), Random(0))
    assert Eliminated("Dan", "lost their last die") in events
    assert events[-1] == OpenerChosen("Ben")
    assert state.next_opener == "Ben"


def test_the_last_player_with_dice_wins(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, {"Ann": [4], "Ben": [4]})
    game.bid("Ann", 2, 4)
    events = game.call("Ben")  # exactly true: Ben loses his last die
    assert events[-2:] == [Eliminated("Ben", "lost their last die"), GameWon("Ann")]
    assert game.over and game.state.winner == "Ann"
    assert game.state.next_opener is None
    assert [p.name for p in game.state.alive] == ["Ann"]


def test_nothing_happens_after_the_game_is_over(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, {"Ann": [4], "Ben": [4]})
    game.bid("Ann", 2, 4)
    game.call("Ben")
    for action in (BidAction("Ann", Bid(1, 2)), CallAction("Ann"), TimeoutAction("Ann")):
        refuse(game, action, "the game is over")
    refuse(game, BidAction("Ben", Bid(1, 2)), "the game is over")
    with pytest.raises(IllegalAction, match="the game is over"):
        game.start_round()
    assert engine.legal_bids(dice_loss_rules, game.state, "Ann") == []


def test_an_eliminated_player_cannot_act(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, {"Ann": [2], "Ben": [3], "Cid": [4]})
    game.bid("Ann", 1, 2)
    game.bid("Ben", 2, 6)
    game.call("Cid")  # no sixes, no ones: Ben loses his only die
    game.start_round({"Ann": [5], "Cid": [6]})
    assert game.state.round is not None and game.state.round.opener == "Cid"
    for action in (BidAction("Ben", Bid(1, 2)), CallAction("Ben"), TimeoutAction("Ben")):
        refuse(game, action, "Ben is out of the game")
    game.bid("Cid", 1, 6)
    assert game.state.round.turn == "Ann"  # type: ignore[union-attr]


def test_a_full_game_has_exactly_one_winner(dice_loss_rules: Ruleset) -> None:
    for seed in range(5):
        game = Game(dice_loss_rules, ["Ann", "Ben", "Cid", "Dan"], Random(seed), dice_per_player=2)
        policy = Random(seed + 100)
        while not game.over:
            game.start_round()
            while not game.state.round.over:  # type: ignore[union-attr]
                game.act(random_action(dice_loss_rules, game.state, policy))
        assert len(game.state.alive) == 1
        assert game.state.winner == game.state.alive[0].name
        assert [type(e) for e in game.events].count(GameWon) == 1
        assert sum(p.dice for p in game.state.players) == game.state.alive[0].dice >= 1
        assert replay(game.events) == game.state


# --- timeouts ------------------------------------------------------------------------------------


def test_a_timeout_is_a_lost_round_without_a_reveal(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.bid("Ann", 3, 5)
    events = game.timeout("Ben")
    ruling = game.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None
    assert (ruling.call, ruling.caller, ruling.bidder, ruling.bid) == (
        "timeout",
        "Ben",
        "Ann",
        Bid(3, 5),
    )
    assert ruling.count is None
    assert ruling.losers == ("Ben",) and ruling.winners == ()
    assert events == [
        TimedOut("Ben"),
        RoundResolved(ruling),
        DiceChanged("Ben", -1, "lost the round"),
        OpenerChosen("Ben"),
    ]
    assert game.view("Ann").revealed is None
    assert game.view(None).revealed is None


def test_the_opener_can_time_out_before_any_bid(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    game.timeout("Ann")
    ruling = game.state.round.resolution  # type: ignore[union-attr]
    assert ruling is not None and ruling.bidder is None and ruling.bid is None
    assert ruling.losers == ("Ann",)
    assert game.state.player("Ann").dice == 4


def test_only_the_player_on_turn_can_time_out(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, ROLLS3)
    refuse(game, TimeoutAction("Ben"), "not Ben's turn")
    refuse(game, TimeoutAction("Zed"), "not at this table")


def test_a_timeout_can_eliminate_and_end_the_game(dice_loss_rules: Ruleset) -> None:
    game = rigged_game(dice_loss_rules, {"Ann": [1], "Ben": [1]})
    events = game.timeout("Ann")
    assert events[-2:] == [Eliminated("Ann", "lost their last die"), GameWon("Ben")]


# --- enumeration agrees with validation ---------------------------------------------------------


def ladder_states(rules: Ruleset) -> list[tuple[GameState, str]]:
    game = rigged_game(rules, {"Ann": [1, 2, 3], "Ben": [4, 5, 6], "Cid": [1, 1, 6]})
    found = [(game.state, "Ann"), (game.state, "Ben")]
    for bid in [(1, 3), (2, 1), (4, 4), (6, 5), (8, 6)]:
        try:
            game.act(BidAction(game.state.round.turn, Bid(*bid)))  # type: ignore[union-attr]
        except IllegalAction:
            continue
        found.append((game.state, game.state.round.turn))  # type: ignore[union-attr]
    found.append((table_state([("Ann", [2]), ("Ben", None), ("Cid", [3, 4])], dice=2), "Ann"))
    return found


@pytest.mark.parametrize("wild", [True, False])
def test_legal_bids_agree_with_bid_problems_on_the_whole_ladder(wild: bool) -> None:
    rules = Ruleset.build(["dice-loss"], {"standard.wild_ones": wild})
    for state, player in ladder_states(rules):
        assert state.round is not None
        legal = engine.legal_bids(rules, state, player)
        candidates = [
            Bid(q, f) for q in range(0, state.round.dice_in_play + 2) for f in range(0, 8)
        ]
        for bid in candidates:
            assert (bid in legal) == (not engine.bid_problems(rules, state, player, bid)), bid
        assert legal == sorted(legal, key=rules.hooks.bid_rank)
        assert engine.legal_bids(rules, state, player, limit=3) == legal[:3]


def test_legal_bids_respect_a_plugins_bid_problem(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_bid_problem(bid):
        return "no even quantities here" if bid.quantity % 2 == 0 else None

    install_plugins({"odd": plugin_factory("odd", liarsdice_bid_problem)})
    rules = Ruleset.build(["odd", "dice-loss"])
    state = rigged_game(rules, ROLLS3).state
    legal = engine.legal_bids(rules, state, "Ann")
    assert legal and all(bid.quantity % 2 == 1 for bid in legal)
    for bid in rules.ladder(15)[1]:
        assert (bid in legal) == (not engine.bid_problems(rules, state, "Ann", bid))
    assert engine.bid_problems(rules, state, "Ann", Bid(2, 5)) == ["no even quantities here"]


# --- plugin contract breaches -------------------------------------------------------------------


def test_a_call_kind_nobody_resolves_is_a_plugin_error(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_register_calls(calls):
        calls.add("exact", "the bid is exactly right")

    install_plugins({"half-calza": plugin_factory("half-calza", liarsdice_register_calls)})
    rules = Ruleset.build(["half-calza", "dice-loss"])
    game = rigged_game(rules, ROLLS3)
    game.bid("Ann", 3, 5)
    assert engine.legal_calls(rules, game.state, "Ben") == ["challenge", "exact"]
    with pytest.raises(PluginError, match="no plugin resolves call 'exact'"):
        game.call("Ben", "exact")


def test_an_effect_that_is_not_an_effect_is_a_plugin_error(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_settle(resolution):
        return [OpenerChosen(resolution.caller)]

    install_plugins({"rogue": plugin_factory("rogue", liarsdice_settle)})
    rules = Ruleset.build(["rogue", "dice-loss"])
    game = rigged_game(rules, ROLLS3)
    game.bid("Ann", 3, 5)
    with pytest.raises(PluginError, match="not an effect"):
        game.call("Ben")


def test_effects_on_a_player_already_out_are_dropped(install_plugins, plugin_factory) -> None:
    @hookimpl
    def liarsdice_settle(resolution):
        loser = resolution.losers[0]
        return [
            Notice("double", "twice", loser),
            DiceChanged(loser, -1, "again"),
            Eliminated(loser, "gone"),
        ]

    install_plugins({"double": plugin_factory("double", liarsdice_settle)})
    rules = Ruleset.build(["double", "dice-loss"])
    game = rigged_game(rules, {"Ann": [1, 1], "Ben": [2, 2], "Cid": [3, 3]})
    game.bid("Ann", 6, 6)  # a lie: Ann loses two dice, then is eliminated; nothing more
    events = game.call("Ben")
    eliminations = [e for e in events if isinstance(e, Eliminated)]
    assert eliminations == [Eliminated("Ann", "gone")]
    assert not game.state.player("Ann").alive
    assert events[-1] == OpenerChosen("Ben")


def test_effects_that_leave_nobody_alive_are_a_plugin_error(
    install_plugins: Any, plugin_factory: Any
) -> None:
    @hookimpl
    def liarsdice_settle(state: GameState) -> list[Any]:
        return [Eliminated(p.name, "swept away") for p in state.players if p.alive]

    install_plugins({"sweep": plugin_factory("sweep", liarsdice_settle)})
    game = Game(Ruleset.build(["sweep", "dice-loss"]), ["Ann", "Ben"], Random(0))
    game.start_round()
    game.bid(game.state.round.turn, 1, 2)  # type: ignore[union-attr]
    with pytest.raises(PluginError, match="the effects of challenge left nobody alive"):
        game.call(game.state.round.turn)  # type: ignore[union-attr]


def test_a_call_made_out_of_turn_must_end_the_round() -> None:
    with pytest.raises(ValueError, match="shout' is made out of turn, so it must end the round"):
        CallRegistry("shouter").add("shout", "a call", ends_round=False, out_of_turn=True)


@pytest.mark.parametrize("player", ["nobody", "Cid"])
def test_a_bid_off_turn_is_refused_without_a_raise_hint(player: str) -> None:
    """Only the player on turn is told the lowest raise: asking the plugins about a stranger's
    raises made palifico's bid_problems fail (KeyError: 'nobody')."""
    rules = Ruleset.build(["palifico", "dice-loss"])
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(1), dice_per_player=2, first_opener="Ann")
    game.start_round()
    game.bid("Ann", 2, 3)
    before = game.state
    with pytest.raises(IllegalAction) as refused:
        game.act(BidAction(player, Bid(1, 2)))
    assert not any("lowest raise" in str(reason) for reason in refused.value.reasons)
    assert game.state == before
