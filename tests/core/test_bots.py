"""Bots decide from the view alone, play legally under any combination, and mind their bullets."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from random import Random
from typing import Any

import attrs
import pytest

from liarsdice import Game, Ruleset, engine, hookimpl, odds
from liarsdice.bots import (
    LEVELS,
    TITLES,
    bot_kinds,
    bot_label,
    bot_level,
    bot_title,
    by_level,
    make_bot,
)
from liarsdice.bots._play import Table, loss_cost
from liarsdice.bots.bayes_bot import BayesBot, Beliefs
from liarsdice.bots.odds_bot import OddsBot
from liarsdice.errors import BadHookResult, RulesetError
from liarsdice.models import Action, Bid, BidAction, CallAction, GameState, Resolution
from liarsdice.options import CallRegistry, CallStakes, Payoff
from liarsdice.ruleset import installed
from liarsdice.tournament import play_game
from liarsdice.views import PlayerView, player_view

PRESETS = ["casino", "online", "cheko", "dudo", "perudo", "perudo-box"]
KINDS = ["odds", "bayes", "mixed"]
VARIANTS = sorted(name for name in installed() if name != "standard")


def with_bullets(view: PlayerView, player: str, bullets: int) -> PlayerView:
    """``view`` with ``player``'s revolver holding ``bullets`` (bullets are public)."""
    seats = tuple(
        attrs.evolve(seat, public={**seat.public, "bullets": bullets})
        if seat.name == player
        else seat
        for seat in view.seats
    )
    revolver = dict(view.plugins.get("revolver", {}))
    revolver["bullets"] = {**revolver.get("bullets", {}), player: bullets}
    return attrs.evolve(view, seats=seats, plugins={**view.plugins, "revolver": revolver})


def situations(rules: Ruleset, rng: Random, count: int, players: int = 4) -> list[GameState]:
    """Mid-round states reached by random play: someone is on turn."""
    names = [f"p{i}" for i in range(players)]
    found = []
    while len(found) < count:
        state, _ = engine.new_game(rules, names, rng, dice_per_player=rng.randint(1, 5))
        state, _ = engine.start_round(rules, state, rng)
        for _ in range(rng.randint(0, 8)):
            assert state.round is not None
            bids = engine.legal_bids(rules, state, state.round.turn, 8)
            if not bids:
                break
            state, _ = engine.step(rules, state, BidAction(state.round.turn, rng.choice(bids)), rng)
        found.append(state)
    return found


def test_each_built_in_kind_has_a_level_players_understand() -> None:
    # Easy to hard follows the measured strength (docs/bots.md: mixed beats bayes beats odds
    # beats random); bayes, the hard level before mixed, is kept without a level.
    assert {kind: bot_level(kind) for kind in ("random", "odds", "mixed", "bayes")} == {
        "random": "easy",
        "odds": "medium",
        "mixed": "hard",
        "bayes": None,
    }
    assert set(LEVELS) <= set(bot_kinds())
    assert str(bot_label("mixed")) == "Hard bot (mixed)"
    assert str(bot_label("random")) == "Easy bot (random)"
    assert bot_level("someone-elses") is None and bot_label("someone-elses") == "Bot someone-elses"


@pytest.mark.parametrize(
    ("lang", "hard", "classic"),
    [
        ("en", "Hard bot", "Classic hard bot"),
        ("uk", "Складний бот", "Класичний складний бот"),
        ("ru", "Сложный бот", "Классический сложный бот"),
    ],
)
def test_every_built_in_kind_has_a_title_in_each_language(
    lang: str, hard: str, classic: str
) -> None:
    """A player reads words for every built-in kind, never its name alone ("bayes")."""
    assert set(bot_kinds()) <= set(TITLES)
    assert bot_title("mixed").render(lang) == hard
    assert bot_title("bayes").render(lang) == classic
    assert bot_label("bayes").render(lang) == f"{classic} (bayes)"
    assert by_level(["mixed", "extra", "random", "odds"]) == ["random", "odds", "mixed", "extra"]


def test_the_bots_are_installed_through_the_entry_point_group() -> None:
    assert {"random", "odds", "bayes", "mixed"} <= set(bot_kinds())
    rules = Ruleset.build(preset="dudo")
    assert isinstance(make_bot("odds", rules, Random(0)), OddsBot)
    assert isinstance(make_bot("bayes", rules, Random(0)), BayesBot)


# --- only the view --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [*KINDS, "random"])
@pytest.mark.parametrize("preset", PRESETS)
def test_hidden_dice_never_change_a_decision(
    kind: str, preset: str, rules_of_preset: Callable[[str], Ruleset]
) -> None:
    """Same public facts and own dice, different hidden dice: the same decision, seed for seed
    (at tables of 1 to 5 dice each: the preset's rules without its table size)."""
    rules = rules_of_preset(preset)
    rng = Random(f"{kind}-{preset}")
    for state in situations(rules, rng, 12):
        assert state.round is not None
        player = state.round.turn
        rerolled = {
            name: roll if name == player else tuple(rng.randint(1, 6) for _ in roll)
            for name, roll in state.round.rolls.items()
        }
        other = attrs.evolve(state, round=attrs.evolve(state.round, rolls=rerolled))
        view, other_view = player_view(rules, state, player), player_view(rules, other, player)
        assert view == other_view  # the view hides the difference...
        first = make_bot(kind, rules, Random(7)).decide(view)
        second = make_bot(kind, rules, Random(7)).decide(other_view)
        assert first == second  # ...and the bot decides on the view alone


@pytest.mark.parametrize("kind", KINDS)
def test_a_bot_refuses_a_view_that_is_not_its_turn(kind: str) -> None:
    rules = Ruleset.build(preset="dudo")
    game = Game(rules, ["a", "b", "c"], Random(0))
    game.start_round()
    with pytest.raises(ValueError):
        make_bot(kind, rules, Random(0)).decide(game.view("b"))


# --- legal play under every combination --------------------------------------------------------


def _play(rules: Ruleset, kinds: list[str], seed: int, dice: int = 3) -> list[Action]:
    """Play one game; every action goes through the engine, which refuses an illegal one."""
    actions: list[Action] = []
    rng = Random(seed)

    class Recorder:
        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def decide(self, view: PlayerView) -> Action:
            action: Action = self.bot.decide(view)
            actions.append(action)
            return action

    seating = [
        (f"{i}:{kind}", Recorder(make_bot(kind, rules, Random(seed + i))))
        for i, kind in enumerate(kinds)
    ]
    play_game(rules, seating, rng, dice_per_player=dice)
    return actions


@pytest.mark.parametrize("preset", PRESETS)
def test_bots_play_whole_games_under_every_preset(preset: str) -> None:
    rules = Ruleset.build(preset=preset)
    for seed in range(4):
        actions = _play(rules, ["bayes", "odds", "random", "bayes", "odds", "odds"], seed, dice=5)
        assert any(isinstance(a, CallAction) for a in actions)


OPENERS = [name for name in VARIANTS if installed()[name].distribution == "liarsdice-rules-openers"]
SHAPING = [name for name in VARIANTS if name not in OPENERS]


def test_bots_play_every_valid_combination() -> None:
    """Every valid combination of the variants that shape bids, counting, calls and economics
    (with wild ones on and off), each with one of the opener variants in turn."""
    played = 0
    for size in range(len(SHAPING) + 1):
        for combo in itertools.combinations(SHAPING, size):
            for wild in (True, False):
                opener = [None, *OPENERS][played % (len(OPENERS) + 1)]
                variants = [*combo, opener] if opener else list(combo)
                try:
                    rules = Ruleset.build(variants, {"standard.wild_ones": wild})
                except RulesetError:
                    continue
                _play(rules, ["bayes", "odds", "bayes", "odds"], played, dice=2)
                played += 1
    assert played > 40


def random_option_rulesets(rng: Random, count: int) -> list[Ruleset]:
    """Rulesets of random variants with random option values (choices, flags, small numbers)."""
    found: list[Ruleset] = []
    while len(found) < count:
        chosen = [name for name in VARIANTS if rng.random() < 0.4]
        options: dict[str, Any] = {}
        for name in ["standard", *chosen]:
            for option in installed()[name].options:
                if option.choices:
                    options[option.key] = rng.choice(option.choices)
                elif isinstance(option.default, bool):
                    options[option.key] = rng.random() < 0.5
                elif isinstance(option.default, int):
                    low = option.minimum if option.minimum is not None else 0
                    high = min(option.maximum if option.maximum is not None else low + 6, low + 6)
                    options[option.key] = rng.randint(low, high)
        try:
            found.append(Ruleset.build(chosen, options))
        except RulesetError:
            continue
    return found


def test_bots_play_random_option_combinations() -> None:
    rng = Random(5)
    for index, rules in enumerate(random_option_rulesets(rng, 25)):
        kinds = ["bayes", "odds", "random", "bayes", "odds"]
        if rules.table_refusal(len(kinds), 3) is not None:  # teams: an even table
            kinds.pop()
        _play(rules, kinds, index, dice=3)


def test_bots_play_a_third_party_counting_rule(
    install_plugins: Callable[[dict[str, Any]], None], plugin_factory: Callable[..., Any]
) -> None:
    @hookimpl
    def liarsdice_matching_faces(face: int) -> frozenset[int]:
        return frozenset({face, 1, 6})  # sixes are wild too: 3/6 per unseen die

    install_plugins({"wild-sixes": plugin_factory("wild-sixes", liarsdice_matching_faces)})
    rules = Ruleset.build(["wild-sixes", "dice-loss"])
    for seed in range(3):
        _play(rules, ["bayes", "odds", "bayes", "odds"], seed, dice=4)
    game = Game(rules, ["a", "b"], Random(0), dice_per_player=5)
    game.start_round({"a": [2, 2, 3, 3, 4], "b": [5, 5, 5, 5, 5]})
    look = Table(rules, game.view("a")).chances(Bid(3, 5))
    assert isinstance(look, odds.Outlook) and look.p == pytest.approx(3 / 6)


def test_bots_make_exact_calls_when_the_rules_have_them() -> None:
    kinds = {"dudo": 0, "casino": 0}
    for preset in kinds:
        rules = Ruleset.build(preset=preset)
        for seed in range(12):  # exact calls are rare: about one game in four has one
            actions = _play(rules, ["odds", "bayes", "odds", "bayes"], seed, dice=5)
            kinds[preset] += sum(isinstance(a, CallAction) and a.kind == "exact" for a in actions)
    assert all(count > 0 for count in kinds.values()), kinds


SPOT_ON = CallStakes("exact", right=Payoff(bidder=1, others=1), wrong=Payoff(caller=1))


def spot_on_plugin(plugin_factory: Callable[..., Any], *, stakes: bool) -> Any:
    """A third-party call kind, "spot-on": the bid is exactly right, and every other living
    player loses a round; a miss costs the caller one. With ``stakes``, it says so to the bots."""

    @hookimpl
    def liarsdice_register_calls(calls: CallRegistry) -> None:
        calls.add("spot-on", "the bid is exactly right: everyone else loses a round")

    @hookimpl
    def liarsdice_resolve_call(
        state: GameState, player: str, call: str, count: int
    ) -> Resolution | None:
        if call != "spot-on":
            return None
        assert state.round is not None
        placed = state.round.bids[-1]
        right = count == placed.bid.quantity
        others = tuple(p.name for p in state.players if p.alive and p.name != player)
        losers, winners = (others, (player,)) if right else ((player,), (placed.player,))
        return Resolution(call, player, placed.player, placed.bid, count, right, losers, winners)

    @hookimpl
    def liarsdice_call_stakes(call: str) -> CallStakes | None:
        return SPOT_ON if call == "spot-on" else None

    hooks = [liarsdice_register_calls, liarsdice_resolve_call]
    return plugin_factory("spot-on", *hooks, *([liarsdice_call_stakes] if stakes else []))


def _spot_on_position(rules: Ruleset) -> PlayerView:
    """Ann holds three fives and Ben one unseen die; Ben bids three fives (ones not wild): the
    bid is true for certain, and exactly right unless Ben's die is a five (5/6)."""
    game = Game(rules, ["Ann", "Ben"], Random(0), dice_per_player=3)
    game.start_round({"Ann": [2, 2, 2], "Ben": [3, 3, 3]})
    game.bid("Ann", 3, 2)
    game.call("Ben")  # three twos: Ben loses a die, and opens
    game.start_round({"Ann": [2, 2, 2], "Ben": [3, 3]})
    game.bid("Ben", 3, 3)
    game.call("Ann")  # two threes: Ben loses another
    game.start_round({"Ann": [5, 5, 5], "Ben": [2]})
    game.bid("Ben", 3, 5)
    return game.view("Ann")


@pytest.mark.parametrize("kind", KINDS)
def test_bots_weigh_a_third_party_call_kind_by_its_declared_stakes(
    kind: str,
    install_plugins: Callable[[dict[str, Any]], None],
    plugin_factory: Callable[..., Any],
) -> None:
    install_plugins({"spot-on": spot_on_plugin(plugin_factory, stakes=True)})
    rules = Ruleset.build(["dice-loss", "spot-on"], {"standard.wild_ones": False})
    assert rules.call_stakes("spot-on") == SPOT_ON
    view = _spot_on_position(rules)
    bot: Any = make_bot(kind, rules, Random(0))
    best = _pick(bot, view, "Ann", 0)
    assert best.action == CallAction("Ann", "spot-on")
    assert best.wins > 0.5  # right with 5/6 on the dice alone
    assert max(bot.policy(view).items(), key=lambda item: item[1])[0] == best.action


def test_a_call_kind_without_stakes_is_never_made_by_the_bots(
    install_plugins: Callable[[dict[str, Any]], None], plugin_factory: Callable[..., Any]
) -> None:
    install_plugins({"spot-on": spot_on_plugin(plugin_factory, stakes=False)})
    rules = Ruleset.build(["dice-loss", "spot-on"], {"standard.wild_ones": False})
    assert rules.call_stakes("spot-on") is None
    view = _spot_on_position(rules)
    for kind in KINDS:
        bot: Any = make_bot(kind, rules, Random(0))
        assert CallAction("Ann", "spot-on") not in bot.policy(view)


def test_stakes_out_of_contract_are_refused_naming_plugin_and_hook(
    install_plugins: Callable[[dict[str, Any]], None], plugin_factory: Callable[..., Any]
) -> None:
    @hookimpl
    def liarsdice_call_stakes(call: str) -> Any:
        return {"right_when": "exact"} if call == "challenge" else None

    install_plugins({"sloppy": plugin_factory("sloppy", liarsdice_call_stakes)})
    rules = Ruleset.build(["dice-loss", "sloppy"])
    with pytest.raises(BadHookResult, match=r"sloppy's liarsdice_call_stakes .*a CallStakes"):
        rules.call_stakes("challenge")
    with pytest.raises(ValueError, match=r"Payoff\.caller counts lost rounds or dice"):
        Payoff(caller=-1)
    with pytest.raises(ValueError, match="right_when"):
        CallStakes("maybe", right=Payoff(), wrong=Payoff())


# --- the revolver: more bullets, safer play ----------------------------------------------------


def test_losing_costs_more_with_more_bullets() -> None:
    rules = Ruleset.build(preset="casino")
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(0))
    game.start_round()
    view = game.view("Ann")
    costs = [
        loss_cost(rules, with_bullets(view, "Ann", n), with_bullets(view, "Ann", n).seats[0])
        for n in range(6)
    ]
    assert costs == sorted(costs) and costs[0] < costs[4] < costs[5] == 1.0


def test_with_four_bullets_the_odds_bot_skips_an_exact_call_it_makes_with_none(
    rules_of_preset: Callable[[str], Ruleset],
) -> None:
    rules = rules_of_preset("casino")  # at a table of 2 dice each
    game = Game(rules, ["Ann", "Ben", "Cid"], Random(0), dice_per_player=2)
    game.start_round({"Ann": [1, 6], "Ben": [1, 3], "Cid": [4, 1]})
    game.bid("Ann", 3, 3)
    view = game.view("Ben")
    bot = OddsBot(rules, Random(0))
    assert bot.decide(with_bullets(view, "Ben", 0)) == CallAction("Ben", "exact")
    assert bot.decide(with_bullets(view, "Ben", 4)) != CallAction("Ben", "exact")


def _pick(bot: Any, view: PlayerView, player: str, bullets: int) -> Any:
    found = bot.choices(with_bullets(view, player, bullets))
    found = found[-1] if isinstance(found, tuple) else found
    return max(found, key=lambda choice: choice.value)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("preset", ["casino", "dudo"])
def test_more_bullets_never_pick_a_riskier_choice(
    kind: str, preset: str, rules_of_preset: Callable[[str], Ruleset]
) -> None:
    """Whatever the situation, the choice made with 4 bullets loses no more often than with none."""
    rules = rules_of_preset(preset)  # at tables of 1 to 5 dice each
    if preset == "dudo":
        rules = Ruleset.build([*rules.names[1:], "revolver"], rules.options)
    bot: Any = (
        BayesBot(rules, Random(0), bluff_rate=0)
        if kind == "bayes"
        else make_bot(kind, rules, Random(0))
    )
    changed = 0
    for state in situations(rules, Random(preset), 150, players=3):
        assert state.round is not None
        player = state.round.turn
        view = player_view(rules, state, player)

        calm, wary = _pick(bot, view, player, 0), _pick(bot, view, player, 4)
        assert wary.lose <= calm.lose + 1e-12, (view, calm, wary)
        changed += calm.action != wary.action
    assert changed > 0


# --- the bayes bot's beliefs -------------------------------------------------------------------


def test_a_bid_raises_the_belief_in_its_face_and_lowers_the_others(natural_rules: Ruleset) -> None:
    game = Game(natural_rules, ["Ann", "Ben", "Cid"], Random(0))
    game.start_round({"Ann": [5, 5, 5, 2, 3], "Ben": [2, 3, 4, 6, 6], "Cid": [2, 3, 4, 6, 1]})
    game.bid("Ann", 3, 5)
    view = game.view("Ben")
    table = Table(natural_rules, view)
    beliefs = Beliefs(table, (0.7, 0.7, 1.3))
    plain = odds.view_outlook(natural_rules, view, 5)
    assert beliefs.at_least(5, 4) > plain.at_least(4)
    assert beliefs.at_least(2, 4) < odds.view_outlook(natural_rules, view, 2).at_least(4)
    # No bids by others: the beliefs are the plain odds.
    empty = Beliefs(table, (0.0, 0.0, 0.0))
    for quantity in range(1, 8):
        assert empty.at_least(5, quantity) == pytest.approx(plain.at_least(quantity))
        assert empty.exactly(5, quantity) == pytest.approx(plain.exactly(quantity))


def test_without_bluffs_the_bayes_bot_ignores_its_rng(
    rules_of_preset: Callable[[str], Ruleset],
) -> None:
    rules = rules_of_preset("perudo")  # at tables of 1 to 5 dice each
    for state in situations(rules, Random(3), 30):
        assert state.round is not None
        view = player_view(rules, state, state.round.turn)
        decisions = {BayesBot(rules, Random(seed), bluff_rate=0).decide(view) for seed in range(4)}
        assert len(decisions) == 1
