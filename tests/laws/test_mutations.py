"""The laws can fail: deliberately broken plugins (installed through fake entry points) and
deliberately broken engine functions must each make the matching law raise ``LawViolation``.

Where no plugin can break a law because the engine or reducer guards it (dice beyond the starting
count, a second winner, a non-raising bid), a recorded game is doctored instead, standing for an
engine that lost its guard.
"""

from __future__ import annotations

import random
import types
from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import attrs
import pytest

from liarsdice import (
    Bid,
    BidKind,
    DiceChanged,
    Eliminated,
    Game,
    GameState,
    Notice,
    PluginError,
    PluginStateSet,
    PrivateStateSet,
    Resolution,
    Ruleset,
    VariantInfo,
    engine,
    hookimpl,
)
from liarsdice.events import BidMade
from liarsdice.i18n import Text
from liarsdice.models import BidAction
from liarsdice.options import CallStakes, Payoff
from liarsdice.reducer import InvalidEvent
from liarsdice.rulestext import RulesText
from liarsdice.testing import (
    LawViolation,
    RandomChooser,
    check_game,
    check_ruleset,
    laws,
    play_game,
)
from liarsdice.testing.driver import PlayedGame, StartRound, Step, illegal_actions, timeline
from liarsdice.testing.plugins import NATURAL_ACE, extra_variants
from liarsdice_pip_sum import PipTotal, sum_pmf

GameLaw = laws.GameLaw


def make_plugin(
    name: str, *functions: Callable[..., Any], economics: bool = False, **info: Any
) -> types.ModuleType:
    """A plugin module holding ``functions`` (hookimpls), with a variant-info hook added
    (``info``: more keyword arguments of :class:`VariantInfo`)."""
    module = types.ModuleType(f"broken_{name.replace('-', '_')}")
    for function in functions:
        setattr(module, function.__name__, function)

    @hookimpl
    def liarsdice_variant_info() -> VariantInfo:
        return VariantInfo(
            f"Broken {name}", "deliberately broken, for the law tests", economics=economics, **info
        )

    module.liarsdice_variant_info = liarsdice_variant_info  # type: ignore[attr-defined]
    return module


@pytest.fixture
def broken() -> Iterator[Callable[..., Ruleset]]:
    """``broken(name, *hookimpls, options=...)``: the baseline + dice-loss + that broken plugin."""
    stack: list[Any] = []

    def build(
        name: str, *functions: Callable[..., Any], options: dict[str, Any] | None = None
    ) -> Ruleset:
        context = extra_variants({name: make_plugin(name, *functions)})
        context.__enter__()
        stack.append(context)
        return Ruleset.build(["dice-loss", name], options or {})

    yield build
    for context in reversed(stack):
        context.__exit__(None, None, None)


def games(rules: Ruleset, players: int = 3, dice: int = 2, count: int = 40) -> Iterator[PlayedGame]:
    names = [f"p{i}" for i in range(1, players + 1)]
    for seed in range(count):
        yield play_game(rules, names, dice, seed, RandomChooser(seed))


def first_violation(rules: Ruleset, law: GameLaw, **table: int) -> LawViolation:
    """The first violation of ``law`` over a batch of random games; fails the test if none."""
    for game in games(rules, **table):
        try:
            law(rules, game.steps)
        except LawViolation as violation:
            return violation
    pytest.fail(f"{law.__name__} never failed under {rules!r}")


def sound_game(players: int = 3, dice: int = 2, seed: int = 1) -> PlayedGame:
    rules = Ruleset.build(["dice-loss"])
    game = play_game(
        rules, [f"p{i}" for i in range(1, players + 1)], dice, seed, RandomChooser(seed)
    )
    check_game(rules, game.steps)
    return game


# --- the bid order --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rank",
    [
        lambda bid: (0,),
        lambda bid: (bid.quantity,),
        lambda bid: (
            (bid.quantity, -bid.face if bid.quantity % 2 else bid.face)
            if bid.quantity < 3
            else (random.random(),)
        ),
    ],
    ids=["constant", "ties", "non-deterministic"],
)
def test_a_broken_rank_breaks_the_order_law(
    broken: Callable[..., Ruleset], rank: Callable[[Bid], Any]
) -> None:
    @hookimpl
    def liarsdice_bid_rank(bid: Bid) -> Any:
        return rank(bid)

    rules = broken("bad-rank", liarsdice_bid_rank)
    with pytest.raises(LawViolation) as raised:
        check_ruleset(rules)
    assert raised.value.law == laws.ORDER
    assert "bad-rank" in str(raised.value) and "rank" in str(raised.value)


def test_a_rank_out_of_contract_is_reported_by_the_law_naming_plugin_and_hook(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_bid_rank(bid: Bid) -> Any:
        return "ones" if bid.face == 1 else (bid.quantity, bid.face)

    rules = broken("bad-rank", liarsdice_bid_rank)
    with pytest.raises(LawViolation) as raised:
        check_ruleset(rules)
    message = str(raised.value)
    assert raised.value.law == laws.ORDER and "BadHookResult" in message
    assert "bad-rank's liarsdice_bid_rank returned 'ones'" in message


# --- challenges -----------------------------------------------------------------------------------


def test_both_players_losing_a_challenge_breaks_the_one_loser_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_resolve_call(state: GameState, player: str, call: str, count: int) -> Resolution:
        assert state.round is not None
        placed = state.round.bids[-1]
        return Resolution(
            call, player, placed.player, placed.bid, count, False, (player, placed.player), ()
        )

    rules = broken("both-lose", liarsdice_resolve_call)
    violation = first_violation(rules, laws.challenge_has_one_loser)
    assert violation.law == laws.ONE_LOSER and "losers" in violation.detail
    assert "(ruled by both-lose's liarsdice_resolve_call)" in violation.detail  # who answered
    with pytest.raises(LawViolation, match="exactly one loser"):
        for game in games(rules):
            check_game(rules, game.steps)


def test_a_reversed_ruling_breaks_the_one_loser_law(broken: Callable[..., Ruleset]) -> None:
    @hookimpl
    def liarsdice_resolve_call(state: GameState, player: str, call: str, count: int) -> Resolution:
        assert state.round is not None
        placed = state.round.bids[-1]
        lie = count < placed.bid.quantity
        loser, winner = (player, placed.player) if lie else (placed.player, player)
        return Resolution(
            call, player, placed.player, placed.bid, count, not lie, (loser,), (winner,)
        )

    violation = first_violation(
        broken("reversed", liarsdice_resolve_call), laws.challenge_has_one_loser
    )
    assert "so" in violation.detail and "loses" in violation.detail
    assert violation.detail.endswith("(ruled by reversed's liarsdice_resolve_call)")


def test_a_miscount_breaks_the_one_loser_law(broken: Callable[..., Ruleset]) -> None:
    @hookimpl
    def liarsdice_matching_faces(face: int) -> frozenset[int]:
        return frozenset({face}) if random.random() < 0.5 else frozenset({face, 1, 6})

    violation = first_violation(
        broken("miscount", liarsdice_matching_faces), laws.challenge_has_one_loser
    )
    assert "recount" not in violation.detail and "rolls hold" in violation.detail
    assert "(faces from miscount's liarsdice_matching_faces)" in violation.detail


# --- economics and dice ---------------------------------------------------------------------------


def test_counting_that_reads_the_hidden_dice_breaks_the_blind_count_law() -> None:
    with extra_variants({"natural-ace": NATURAL_ACE}):
        rules = Ruleset.build(["dice-loss", "natural-ace"])
        violation = first_violation(rules, laws.counting_ignores_hidden_dice)
    assert violation.law == laws.BLIND_COUNT
    assert "natural-ace's liarsdice_matching_faces" in violation.detail
    assert "never on a die under a cup" in violation.detail


def test_counting_that_reads_public_facts_keeps_the_blind_count_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_matching_faces(state: GameState, face: int) -> frozenset[int] | None:
        # ones stop being wild once three bids are on the table: public, so allowed
        assert state.round is not None
        return frozenset({face}) if len(state.round.bids) >= 3 else None

    rules = broken("late-locking", liarsdice_matching_faces)
    for game in games(rules, count=10):
        laws.counting_ignores_hidden_dice(rules, game.steps)


def test_stakes_that_misstate_the_ruling_break_the_stakes_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_call_stakes(call: str) -> CallStakes | None:
        # says a challenge is right when the bid is true: the bots would challenge true bids
        if call != "challenge":
            return None
        return CallStakes("true", right=Payoff(bidder=1), wrong=Payoff(caller=1))

    rules = broken("misstated", liarsdice_call_stakes)
    violation = first_violation(rules, laws.calls_deal_their_stakes)
    assert violation.law == laws.STAKES
    assert "misstated's liarsdice_call_stakes" in violation.detail
    laws.calls_deal_their_stakes(Ruleset.build(["dice-loss"]), sound_game().steps)


def test_regaining_dice_beyond_the_start_is_caught(broken: Callable[..., Ruleset]) -> None:
    """The reducer refuses the effect, so the engine raises on a legal move: the game is cut short
    and the legal-moves law names the dice problem."""

    @hookimpl
    def liarsdice_settle(resolution: Resolution) -> list[DiceChanged]:
        return [DiceChanged(winner, +2, "a gift") for winner in resolution.winners]

    violation = first_violation(broken("gift", liarsdice_settle), laws.legal_moves_apply)
    assert violation.law == laws.APPLY and "dice" in violation.detail


def test_nobody_left_alive_is_caught(broken: Callable[..., Ruleset]) -> None:
    @hookimpl
    def liarsdice_settle(state: GameState) -> list[Eliminated]:
        return [Eliminated(p.name, "a massacre") for p in state.alive]

    violation = first_violation(broken("massacre", liarsdice_settle), laws.legal_moves_apply)
    assert "nobody alive" in violation.detail


def test_a_plugin_failure_met_while_a_law_replays_is_filed_as_the_plugin_s(
    broken: Callable[..., Ruleset],
) -> None:
    """All the laws in their order: the privacy law, which plays rounds again, meets the engine's
    error first; it is reported as the plugin's failure, naming it, not as a leak of dice."""

    @hookimpl
    def liarsdice_settle(state: GameState) -> list[Eliminated]:
        return [Eliminated(p.name, "a massacre") for p in state.alive]

    rules = broken("massacre", liarsdice_settle)
    game = next(iter(games(rules, count=1)))
    with pytest.raises(LawViolation) as caught:
        check_game(rules, game.steps)
    assert caught.value.law == laws.APPLY
    assert "left nobody alive (dice-loss took 1 die; massacre put 3 out)" in str(caught.value)
    assert str(caught.value).count("hook liarsdice_settle") == 1


def test_dice_appearing_without_an_effect_break_the_dice_law() -> None:
    game = sound_game()
    steps = list(game.steps)
    index = next(i for i, step in enumerate(steps) if isinstance(step.action, StartRound))
    after = steps[index].after
    assert after is not None
    players = (attrs.evolve(after.players[0], dice=after.players[0].dice + 1), *after.players[1:])
    steps[index] = attrs.evolve(steps[index], after=attrs.evolve(after, players=players))
    with pytest.raises(LawViolation) as raised:
        laws.dice_change_only_through_effects(game.rules, steps)
    assert raised.value.law == laws.DICE and "effects give" in raised.value.detail


def test_dice_beyond_the_start_break_the_dice_law() -> None:
    game = sound_game()
    steps = list(game.steps)
    index = next(
        i for i, step in enumerate(steps) if any(isinstance(e, DiceChanged) for e in step.events)
    )
    events = tuple(
        attrs.evolve(e, delta=+1) if isinstance(e, DiceChanged) else e for e in steps[index].events
    )
    steps[index] = attrs.evolve(steps[index], events=events)
    with pytest.raises(LawViolation, match="would hold 3 dice"):
        laws.dice_change_only_through_effects(game.rules, steps)


def test_a_shrinking_public_fact_breaks_its_law(broken: Callable[..., Ruleset]) -> None:
    """The generic law for facts such as the revolver's bullets: never down, never above a bound."""

    @hookimpl
    def liarsdice_player_public(state: GameState, player: str) -> dict[str, int]:
        return {"bullets": state.player(player).dice}

    rules = broken("falling-bullets", liarsdice_player_public)
    violation = first_violation(rules, laws.bullets_never_decrease)
    assert "fell from" in violation.detail
    capped = laws.public_fact_law("bullets", maximum=lambda rules: 1, never_decreases=False)
    assert "> 1" in first_violation(rules, capped).detail


# --- turns, rounds and the end of the game --------------------------------------------------------


def test_a_plugin_that_shoots_the_opener_at_round_start_is_refused(
    broken: Callable[..., Ruleset],
) -> None:
    """Dice are rolled and in play once a round starts: only settling may eliminate a player."""

    @hookimpl
    def liarsdice_round_started(state: GameState) -> list[Eliminated]:
        assert state.round is not None
        return [Eliminated(state.round.opener, "shot at dawn")]

    rules = broken("dawn", liarsdice_round_started)
    state, _ = engine.new_game(rules, ["p1", "p2", "p3"], Random(1), dice_per_player=2)
    with pytest.raises(PluginError, match="only in liarsdice_settle"):
        engine.start_round(rules, state, Random(1))


def test_an_eliminated_player_acting_breaks_the_eliminated_law() -> None:
    game = sound_game()
    steps = list(game.steps)
    index = next(
        i for i, step in enumerate(steps) if isinstance(step.action, BidAction) and step.accepted
    )
    step = steps[index]
    assert step.state is not None and isinstance(step.action, BidAction)
    dead = tuple(
        attrs.evolve(p, dice=0, alive=False) if p.name == step.action.player else p
        for p in step.state.players
    )
    steps[index] = attrs.evolve(step, state=attrs.evolve(step.state, players=dead))
    with pytest.raises(LawViolation, match="an eliminated player acted"):
        laws.eliminated_players_never_act(game.rules, steps)


@pytest.mark.parametrize("keep", [False, True], ids=["another-winner", "a-second-winner"])
def test_a_wrong_or_second_winner_breaks_the_winner_law(keep: bool) -> None:
    game = sound_game()
    steps = list(game.steps)
    last = max(i for i, step in enumerate(steps) if step.accepted)
    after = steps[last].after
    assert after is not None and after.winner is not None
    other = next(p.name for p in after.players if p.name != after.winner)
    winners = (after.winner, other) if keep else (other,)
    steps[last] = attrs.evolve(steps[last], after=attrs.evolve(after, winners=winners))
    with pytest.raises(LawViolation) as raised:
        laws.game_has_one_winner(game.rules, steps)
    assert raised.value.law == laws.ONE_WINNER


def test_a_bid_that_does_not_raise_breaks_the_rounds_law() -> None:
    game = sound_game()
    steps = list(game.steps)
    index = next(
        i for i, step in enumerate(steps) if any(isinstance(e, BidMade) for e in step.events)
    )
    steps.insert(index + 1, steps[index])
    with pytest.raises(LawViolation, match="does not raise"):
        laws.rounds_end(game.rules, steps)


def test_a_dead_end_breaks_the_rounds_law(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Ruleset.build(["dice-loss"])
    monkeypatch.setattr(engine, "legal_bids", lambda *args, **kwargs: [])
    monkeypatch.setattr(engine, "legal_calls", lambda *args, **kwargs: [])
    violation = first_violation(rules, laws.rounds_end)
    assert "dead end" in violation.detail


# --- enumeration and validation -------------------------------------------------------------------


def test_an_enumeration_that_forgets_a_bid_breaks_the_enumeration_law(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stands for an optimisation of ``legal_bids`` that drops the top of the ladder."""
    rules = Ruleset.build(["dice-loss"])
    real = engine.legal_bids

    def forgetful(*args: Any, **kwargs: Any) -> list[Bid]:
        return real(*args, **kwargs)[:-1]

    monkeypatch.setattr(engine, "legal_bids", forgetful)
    violation = first_violation(rules, laws.legal_enumeration_agrees)
    assert violation.law == laws.ENUMERATION and "leaves out" in violation.detail


def test_a_flaky_bid_problem_breaks_the_enumeration_law(broken: Callable[..., Ruleset]) -> None:
    @hookimpl
    def liarsdice_bid_problem(bid: Bid) -> str | None:
        return "not today" if random.random() < 0.3 else None

    violation = first_violation(
        broken("flaky", liarsdice_bid_problem), laws.legal_enumeration_agrees
    )
    assert violation.law == laws.ENUMERATION
    assert "judged by flaky's liarsdice_bid_problem" in violation.detail  # who answered


# --- state: illegal actions, replay, JSON, views, determinism -------------------------------------


def test_a_hook_that_mutates_the_state_breaks_the_illegal_action_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_bid_problem(state: GameState) -> None:
        tally = state.plugins.setdefault("meddler", {})  # type: ignore[attr-defined]
        tally["asked"] = tally.get("asked", 0) + 1

    violation = first_violation(
        broken("meddler", liarsdice_bid_problem), laws.illegal_actions_change_nothing
    )
    assert "mutated" in violation.detail


def test_state_changed_outside_the_events_breaks_the_replay_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_round_started(state: GameState) -> None:
        assert state.round is not None
        state.plugins["sneaky"] = {"round": state.round.number}  # type: ignore[index]

    violation = first_violation(
        broken("sneaky", liarsdice_round_started), laws.replay_rebuilds_state
    )
    assert violation.law == laws.REPLAY and "sneaky" in violation.detail


def test_non_json_plugin_state_breaks_the_json_law(broken: Callable[..., Ruleset]) -> None:
    @hookimpl
    def liarsdice_round_started(state: GameState) -> list[PluginStateSet]:
        assert state.round is not None
        return [PluginStateSet("tuples", "last", (state.round.number, "round"))]

    violation = first_violation(broken("tuples", liarsdice_round_started), laws.json_round_trip)
    assert violation.law == laws.JSON_TRIP and "GameState" in violation.detail


def test_leaking_dice_in_public_facts_breaks_the_views_law(broken: Callable[..., Ruleset]) -> None:
    @hookimpl
    def liarsdice_player_public(state: GameState, player: str) -> dict[str, Any]:
        rolls = state.round.rolls if state.round else {}
        return {"sixes": rolls.get(player, ()).count(6)}

    violation = first_violation(broken("leaky", liarsdice_player_public), laws.views_hide_dice)
    assert (
        violation.law == laws.HIDDEN and "depends on other players' hidden dice" in violation.detail
    )


def test_randomness_outside_the_rng_breaks_the_same_seed_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_settle() -> list[Notice]:
        return [Notice("chaos", f"the crowd roars {random.SystemRandom().randrange(10**9)}")]

    violation = first_violation(broken("chaos", liarsdice_settle), laws.same_seed_same_game)
    assert violation.law == laws.SAME_SEED and "events differ" in violation.detail


def test_a_violation_names_the_law_the_ruleset_and_an_example(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_settle() -> list[Notice]:
        return [Notice("chaos", str(random.SystemRandom().random()))]

    violation = first_violation(broken("chaos", liarsdice_settle), laws.same_seed_same_game)
    text = str(violation)
    assert text.startswith(f"law violated: {laws.SAME_SEED}")
    assert "ruleset: Ruleset(['chaos', 'dice-loss']" in text
    assert "example: seats " in text and "move: " in text
    assert isinstance(violation, AssertionError)


def test_a_sound_game_record_reads_well() -> None:
    game = sound_game()
    text = repr(game)
    assert text.startswith(
        "PlayedGame(Ruleset(['dice-loss'], {}), new game: 3 players x 2 dice, seed 1"
    )
    assert all(isinstance(step, Step) for step in timeline(game.steps))


# --- guards the laws lean on ----------------------------------------------------------------------


def test_rolls_for_a_stranger_are_refused() -> None:
    """A roll for someone not at the table would add their dice to the count (and to the dice in
    play); the reducer refuses it, as it refuses a roll of the wrong length."""
    rules = Ruleset.build(["dice-loss"])
    rng = Random(0)
    state, _ = engine.new_game(rules, ["a", "b"], rng, dice_per_player=1)
    with pytest.raises(InvalidEvent, match="zed"):
        engine.start_round(rules, state, rng, rolls={"a": (2,), "b": (3,), "zed": (6, 6, 6)})


# --- the second edition's mechanics -------------------------------------------------------------


def test_two_unordered_rulings_on_one_call_break_the_one_ruler_law() -> None:
    def resolver(name: str, loser: str) -> types.ModuleType:
        @hookimpl
        def liarsdice_resolve_call(state, player, call, count):
            if call != "challenge":
                return None
            placed = state.round.bids[-1]
            lost = player if loser == "caller" else placed.player
            won = placed.player if lost == player else player
            return Resolution(
                call, player, placed.player, placed.bid, count, lost != player, (lost,), (won,)
            )

        return make_plugin(name, liarsdice_resolve_call)

    plugins = {
        "caller-loses": resolver("caller-loses", "caller"),
        "bidder-loses": resolver("bidder-loses", "bidder"),
    }
    with extra_variants(plugins):
        rules = Ruleset.build(["dice-loss", "caller-loses", "bidder-loses"])
        violation = first_violation(rules, laws.calls_are_ruled_by_one_variant)
    assert violation.law == laws.ONE_RULER
    assert "bidder-loses and caller-loses both rule on this 'challenge' call" in violation.detail


def test_a_secret_in_public_facts_breaks_the_views_law(broken: Callable[..., Ruleset]) -> None:
    @hookimpl
    def liarsdice_round_started(state):
        return [PrivateStateSet("gossip", p, "dice", list(r)) for p, r in state.round.rolls.items()]

    @hookimpl
    def liarsdice_player_public(state, player):
        return {"told": state.private("gossip", player).get("dice")}

    rules = broken("gossip", liarsdice_round_started, liarsdice_player_public)
    violation = first_violation(rules, laws.views_hide_dice)
    assert violation.law == laws.HIDDEN
    assert "depends on other players' hidden dice or private state" in violation.detail


def test_a_payload_offered_then_refused_breaks_the_enumeration_law(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_payload_choices():
        return [1, 2]

    @hookimpl
    def liarsdice_bid_problem(payload):
        return "fickle: only 1" if payload.get("fickle") == 2 else None

    with extra_variants(
        {
            "fickle": make_plugin(
                "fickle", liarsdice_payload_choices, liarsdice_bid_problem, payloads=("bid",)
            )
        }
    ):
        rules = Ruleset.build(["dice-loss", "fickle"])
        violation = first_violation(rules, laws.legal_enumeration_agrees)
    assert violation.law == laws.ENUMERATION
    # Either the driver tried the offered payload and it was refused, or the law asked first.
    assert "fickle: only 1" in violation.detail


def test_two_unordered_rewrites_of_one_clause_break_the_text_law() -> None:
    def rewriter(name: str) -> types.ModuleType:
        @hookimpl
        def liarsdice_describe():
            return RulesText(clauses={"bidding.turns": f"{name} says who plays next."})

        return make_plugin(name, liarsdice_describe)

    with extra_variants({"left": rewriter("left"), "right": rewriter("right")}):
        rules = Ruleset.build(["dice-loss", "left", "right"])
        with pytest.raises(LawViolation) as broken_law:
            check_ruleset(rules)
    assert broken_law.value.law == laws.TEXT_ORDER
    assert "left and right both replace the clause 'bidding.turns'" in broken_law.value.detail


def test_a_misspelt_topic_breaks_the_text_target_law(broken: Callable[..., Ruleset]) -> None:
    @hookimpl
    def liarsdice_describe():
        return RulesText(clauses={"wild.bids": "Ones are never wild."})  # "wilds"

    rules = broken("misspelt", liarsdice_describe)
    with pytest.raises(LawViolation) as broken_law:
        check_ruleset(rules)
    assert broken_law.value.law == laws.TEXT_TARGET
    assert "misspelt's liarsdice_describe writes the clause 'wild.bids'" in broken_law.value.detail


def test_an_amendment_to_a_clause_its_variant_does_not_write_breaks_the_text_target_law() -> None:
    @hookimpl
    def liarsdice_describe():
        return RulesText(clauses={"calza.when": "Not with two players left."})  # calza.window

    with extra_variants({"stale": make_plugin("stale", liarsdice_describe)}):
        check_ruleset(Ruleset.build(["dice-loss", "stale"]))  # calza is not at the table
        rules = Ruleset.build(["dice-loss", "calza", "stale"])
        with pytest.raises(LawViolation) as broken_law:
            check_ruleset(rules)
    assert broken_law.value.law == laws.TEXT_TARGET
    assert (
        "stale's liarsdice_describe amends 'calza.when', but calza writes no such clause "
        "(its clauses: 'calza.window', 'calza.anyone')"
    ) in broken_law.value.detail


# --- bid kinds ------------------------------------------------------------------------------------


class _ForgetsTheKnownDice(PipTotal):
    """A sum-of-pips kind whose distribution leaves out the dice the player sees."""

    def distribution(self, bid: Bid, known: Any, unknown: int, matching: Any) -> Any:
        return sum_pmf(unknown)


class _OneTooMany(PipTotal):
    """A sum-of-pips kind whose shape check takes a total one above its range."""

    def shape_problem(self, bid: Bid, dice_in_play: int) -> Any:
        if bid.face == 0 and bid.quantity == 6 * dice_in_play + 1:
            return None
        return super().shape_problem(bid, dice_in_play)


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        (_ForgetsTheKnownDice(), "but its truth function over every roll gives"),
        (
            _OneTooMany(),
            "its shape check accepts a total of 7 [7, 0], which its range does not list",
        ),
    ],
    ids=["distribution", "shape"],
)
def test_a_bid_kind_at_odds_with_itself_breaks_the_kind_law(
    broken: Callable[..., Ruleset], kind: PipTotal, said: str
) -> None:
    @hookimpl
    def liarsdice_bid_kind() -> PipTotal:
        return kind

    @hookimpl
    def liarsdice_bid_rank(bid: Bid) -> tuple[int, int]:
        return (bid.quantity, bid.face)

    rules = broken("sloppy-kind", liarsdice_bid_kind, liarsdice_bid_rank)
    with pytest.raises(LawViolation) as caught:
        laws.bid_kind_is_consistent(rules)
    assert caught.value.law == laws.KIND
    assert "sloppy-kind's liarsdice_bid_kind" in caught.value.detail
    assert said in caught.value.detail
    laws.bid_kind_is_consistent(Ruleset.build(["pip-sum", "dice-loss"]))
    laws.bid_kind_is_consistent(Ruleset.build(["dice-loss"]))


def test_a_rank_that_ignores_the_total_breaks_the_bid_order(
    broken: Callable[..., Ruleset],
) -> None:
    @hookimpl
    def liarsdice_bid_kind() -> PipTotal:
        return PipTotal()

    @hookimpl
    def liarsdice_bid_rank(bid: Bid) -> tuple[int, int]:
        return (min(bid.quantity, 10), 0)  # every total above 10 ranks alike

    rules = broken("capped", liarsdice_bid_kind, liarsdice_bid_rank)
    with pytest.raises(LawViolation) as caught:
        laws.bid_order(rules)
    assert caught.value.law == laws.ORDER
    assert "ranks are equal" in caught.value.detail
    assert "(ranked by capped's liarsdice_bid_rank)" in caught.value.detail


class _HighestDie(BidKind):
    """A correct kind whose lowest bid is ``Bid(1, 0)``: "the highest die shows at least n"."""

    name = "highest"
    fields = ("pips",)
    names_faces = False

    def bids(self, dice_in_play: int) -> Any:
        return (Bid(pips, 0) for pips in range(1, 7))

    def shape_problem(self, bid: Bid, dice_in_play: int) -> Any:
        return None if bid.face == 0 and 1 <= bid.quantity <= 6 else "not a highest die"

    def value(self, bid: Bid, dice: Any, matching: Any) -> int:
        return max(dice)

    def words(self, bid: Bid) -> Any:
        return Text("a highest die of {n}", {"n": bid.quantity})

    def distribution(self, bid: Bid, known: Any, unknown: int, matching: Any) -> Any:
        top = max(known, default=0)
        below = [0.0 if v < top else (v / 6) ** unknown for v in range(7)]  # P(highest <= v)
        return tuple(below[v] - (below[v - 1] if v else 0.0) for v in range(7))


class _DictDistribution(_HighestDie):
    def distribution(self, bid: Bid, known: Any, unknown: int, matching: Any) -> Any:
        return dict(enumerate(super().distribution(bid, known, unknown, matching)))


class _RightForFewDice(_HighestDie):
    """Right up to 3 unseen dice, then as if 3 were unseen."""

    def distribution(self, bid: Bid, known: Any, unknown: int, matching: Any) -> Any:
        return super().distribution(bid, known, min(unknown, 3), matching)


def _highest_plugin(kind: BidKind) -> tuple[Callable[..., Any], Callable[..., Any]]:
    @hookimpl
    def liarsdice_bid_kind() -> BidKind:
        return kind

    @hookimpl
    def liarsdice_bid_rank(bid: Bid) -> tuple[int, int]:
        return (bid.quantity, bid.face)

    return liarsdice_bid_kind, liarsdice_bid_rank


def test_a_right_kind_whose_lowest_bid_is_face_0_keeps_every_game_law(
    broken: Callable[..., Ruleset],
) -> None:
    """The kit once tried Bid(1, 0) as a bid out of range, the lowest bid of this kind: the
    illegal-actions law failed a right plugin."""
    rules = broken(
        "highest", *_highest_plugin(_HighestDie()), options={"standard.wild_ones": False}
    )
    check_ruleset(rules)
    for game in games(rules, count=12):
        check_game(rules, game.steps)
    opening = Game(rules, ["p1", "p2"], Random(0), dice_per_player=2, first_opener="p1")
    opening.start_round()
    tried = illegal_actions(rules, opening.state)
    assert BidAction("p1", Bid(1, 0)) not in tried  # the lowest opening bid of this kind
    assert BidAction("p1", Bid(7, 6)) in tried and BidAction("p1", Bid(1, 7)) in tried


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        (_DictDistribution(), "not a sequence of chances indexed by value"),
        (_RightForFewDice(), "with [] known and 5 unseen"),
    ],
    ids=["a-dict", "right-for-few-dice"],
)
def test_a_distribution_of_the_wrong_shape_or_beyond_three_dice_is_caught(
    broken: Callable[..., Ruleset], kind: BidKind, said: str
) -> None:
    rules = broken("highest", *_highest_plugin(kind), options={"standard.wild_ones": False})
    with pytest.raises(LawViolation) as caught:
        laws.bid_kind_is_consistent(rules)
    assert "highest's liarsdice_bid_kind" in caught.value.detail
    assert said in caught.value.detail
