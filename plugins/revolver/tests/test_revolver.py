"""The revolver: bullets per lost round, one pull, a hit is out (seed 000, 003's house rule)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from random import Random
from typing import Any

import pytest

from liarsdice import (
    CallAction,
    Eliminated,
    Game,
    IllegalAction,
    Notice,
    PluginError,
    PluginStateSet,
    RiggedRandom,
    Ruleset,
    engine,
)
from liarsdice.errors import BadOptionValue, Conflict
from liarsdice.simulate import play_game, random_action
from liarsdice.views import public_facts

PLAYERS = ["Ann", "Ben", "Cid"]
# No fives and no ones anywhere: "1 five" is always a lie, "n twos" true while n <= 2 per player.
ROLL = (2, 2, 3, 4, 6)


@functools.cache
def _rules(variants: tuple[str, ...], options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.build(variants, dict(options))


def rules(*extra: str, **options: Any) -> Ruleset:
    """``revolver`` (plus ``extra`` variants) with ``revolver.<name>`` options."""
    opts = tuple(sorted((f"revolver.{key}", value) for key, value in options.items()))
    return _rules(("revolver", *extra), opts)


def new_game(ruleset: Ruleset, seed: int = 0, players: list[str] = PLAYERS) -> Game:
    return Game(ruleset, players, RiggedRandom(seed))


def bullets(game: Game) -> dict[str, int]:
    return {
        p.name: public_facts(game.rules, game.state, p.name)["bullets"] for p in game.state.players
    }


def lose(game: Game, loser: str, *pulls: str) -> None:
    """Play one round that ``loser`` loses, with the trigger pulls rigged to ``pulls``.

    The players before ``loser`` bid 1, 2, ... twos (all true) and ``loser`` challenges; if
    ``loser`` opens, they bid "1 five" (a lie) and the next player challenges.
    """
    assert isinstance(game.rng, RiggedRandom)
    game.rng.rig("trigger", pulls)
    game.start_round({p.name: ROLL[: p.dice] for p in game.state.alive})
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
    assert game.rng.leftovers() == {}, "every rigged pull must be drawn"


# --- loading ------------------------------------------------------------------------------------


def test_first_loss_loads_one_bullet_by_default() -> None:
    game = new_game(rules())
    lose(game, "Ann", "click")
    assert bullets(game) == {"Ann": 1, "Ben": 0, "Cid": 0}
    assert game.state.player("Ann").alive
    assert game.state.player("Ann").dice == 5  # the revolver alone costs no dice


@pytest.mark.parametrize("initial", [2, 3, 5])
def test_first_loss_loads_the_configured_initial_bullets_then_one_per_loss(initial: int) -> None:
    game = new_game(rules(initial_bullets=initial))
    lose(game, "Ann", "click")
    assert bullets(game)["Ann"] == initial
    if initial + 1 < 6:
        lose(game, "Ann", "click")
        assert bullets(game)["Ann"] == initial + 1


def test_each_later_loss_adds_exactly_one_and_bullets_are_never_removed() -> None:
    game = new_game(rules())
    seen = []
    for _ in range(5):
        lose(game, "Ann", "click")
        seen.append(bullets(game)["Ann"])
        # someone else's lost round (even a surviving one) does not touch Ann's bullets
        lose(game, "Ben", "click")
        assert bullets(game)["Ann"] == seen[-1]
    assert seen == [1, 2, 3, 4, 5]
    assert bullets(game)["Ben"] == 5


def test_a_player_never_loaded_has_no_bullets_and_the_loser_is_announced() -> None:
    game = new_game(rules())
    lose(game, "Cid", "click")
    notices = [e for e in game.events if isinstance(e, Notice)]
    assert [(n.plugin, n.player) for n in notices] == [("revolver", "Cid")]
    assert "1 of 6" in str(notices[0].text) and "click" in str(notices[0].text)
    assert bullets(game) == {"Ann": 0, "Ben": 0, "Cid": 1}


def test_bullets_are_capped_at_the_chambers() -> None:
    # A state no game reaches (a living player with a full cylinder): the next loss stays at 6.
    import liarsdice_revolver

    game = new_game(rules())
    lose(game, "Ann", "click")
    state = game.state
    plugins = {**state.plugins, "revolver": {"bullets": {"Ann": 6}}}
    full = type(state)(state.players, state.dice_per_player, state.round, None, None, plugins)
    options = game.rules.options
    effects = liarsdice_revolver.liarsdice_settle(full, state.round.resolution, Random(0), options)
    loads = [e.value["Ann"] for e in effects if isinstance(e, PluginStateSet)]
    assert loads == [6]
    assert any(isinstance(e, Eliminated) for e in effects)


def test_bullets_never_decrease_and_never_exceed_the_chambers_in_random_games() -> None:
    for extra, options in (((), {}), (("dice-loss",), {"chambers": 4})):
        ruleset = rules(*extra, **options)
        chambers = ruleset.options["revolver.chambers"]
        for seed in range(3):
            game = Game(ruleset, PLAYERS, Random(seed))
            last: Mapping[str, int] = {}
            while not game.over:
                game.start_round()
                while not game.state.round.over:
                    game.act(random_action(game.rules, game.state, game.rng))
                now = game.state.plugin("revolver").get("bullets", {})
                for name, count in now.items():
                    assert last.get(name, 0) <= count <= chambers
                assert set(last) <= set(now)  # nobody is ever unloaded
                last = now


# --- the pull -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_full_cylinder_is_certain_death_whatever_the_rng(seed: int) -> None:
    game = Game(rules(initial_bullets=5), PLAYERS, RiggedRandom(seed))
    lose(game, "Ann", "click")  # 5 of 6 loaded: survived by rigging
    assert bullets(game)["Ann"] == 5
    lose(game, "Ann")  # 6 of 6, a real spin
    assert bullets(game)["Ann"] == 6
    assert not game.state.player("Ann").alive


def test_a_rigged_click_with_a_full_cylinder_is_refused_and_changes_nothing() -> None:
    game = new_game(rules(initial_bullets=6))
    game.rng.rig("trigger", ["click"])
    game.start_round({p: ROLL for p in PLAYERS})
    game.bid("Ann", 1, 5)
    before, log = game.state, len(game.events)
    with pytest.raises(PluginError, match="6 chambers"):
        game.call("Ben")
    assert game.state is before and len(game.events) == log


def test_a_rigged_bang_with_a_full_cylinder_is_accepted() -> None:
    game = new_game(rules(initial_bullets=6))
    lose(game, "Ann", "bang")
    assert not game.state.player("Ann").alive


def test_a_rigged_pull_must_be_click_or_bang() -> None:
    game = new_game(rules())
    game.rng.rig("trigger", ["boom"])
    game.start_round({p: ROLL for p in PLAYERS})
    game.bid("Ann", 1, 5)
    with pytest.raises(PluginError, match="'click' or 'bang'"):
        game.call("Ben")


def test_a_hit_eliminates_the_player_and_their_dice_leave_with_them() -> None:
    game = new_game(rules())
    lose(game, "Ann", "bang")
    ann = game.state.player("Ann")
    assert (ann.alive, ann.dice) == (False, 0)
    assert [e.player for e in game.events if isinstance(e, Eliminated)] == ["Ann"]
    assert game.state.dice_in_play == 10
    # Ann lost, so Ann would open; she is out, so the next living player clockwise opens.
    assert game.state.next_opener == "Ben"
    game.start_round({"Ben": ROLL, "Cid": ROLL})
    assert game.state.round.dice_in_play == 10
    assert "Ann" not in game.state.round.rolls
    with pytest.raises(IllegalAction, match="1 to 10 dice"):
        game.bid("Ben", 11, 6)
    game.bid("Ben", 10, 6)  # the highest bid over the ten dice left


def test_survivors_keep_their_bullets() -> None:
    game = new_game(rules())
    lose(game, "Ben", "click")
    lose(game, "Cid", "click")
    lose(game, "Cid", "click")
    lose(game, "Ann", "bang")
    assert bullets(game) == {"Ann": 1, "Ben": 1, "Cid": 2}
    lose(game, "Ben", "click")
    assert bullets(game) == {"Ann": 1, "Ben": 2, "Cid": 2}


@pytest.mark.parametrize(("chambers", "loaded"), [(6, 1), (6, 3), (6, 5), (4, 1)])
def test_a_pull_hits_with_probability_bullets_over_chambers(chambers: int, loaded: int) -> None:
    ruleset = rules(chambers=chambers, initial_bullets=loaded)
    game = Game(ruleset, PLAYERS, Random(0))
    game.start_round({p: ROLL for p in PLAYERS})
    game.bid("Ann", 1, 5)
    before = game.state  # Ben is about to catch Ann's lie; replay that call many times
    rng = Random(20240 + 10 * chambers + loaded)
    pulls = 2000
    hits = sum(
        not engine.step(ruleset, before, CallAction("Ben"), rng)[0].player("Ann").alive
        for _ in range(pulls)
    )
    assert abs(hits / pulls - loaded / chambers) < 0.05


# --- timeouts -----------------------------------------------------------------------------------


@pytest.mark.parametrize("chambers", [6, 8])
def test_timeout_loads_every_remaining_chamber_and_fires(chambers: int) -> None:
    for seed in range(5):
        game = Game(rules(chambers=chambers), PLAYERS, RiggedRandom(seed))
        lose(game, "Ann", "click")  # Ann has 1 bullet and opens round 2
        game.start_round({p: ROLL for p in PLAYERS})
        game.bid("Ann", 1, 2)
        game.timeout("Ben")
        assert not game.state.player("Ben").alive
        assert bullets(game) == {"Ann": 1, "Ben": chambers, "Cid": 0}
        game.start_round({"Ann": ROLL, "Cid": ROLL})
        game.timeout("Cid")  # the opener may time out too, before any bid
        assert bullets(game)["Cid"] == chambers
        assert game.state.winner == "Ann"


def test_timeout_refuses_a_rigged_click() -> None:
    game = new_game(rules())
    game.rng.rig("trigger", ["click"])
    game.start_round({p: ROLL for p in PLAYERS})
    with pytest.raises(PluginError):
        game.timeout("Ann")


# --- composition with dice-loss -----------------------------------------------------------------


def test_with_dice_loss_the_loser_loses_a_die_and_pulls() -> None:
    game = new_game(rules("dice-loss"))
    lose(game, "Ann", "click")
    assert game.state.player("Ann").dice == 4
    assert bullets(game)["Ann"] == 1
    lose(game, "Ann", "click")
    assert game.state.player("Ann").dice == 3
    assert bullets(game)["Ann"] == 2
    lose(game, "Ann", "bang")
    assert not game.state.player("Ann").alive
    assert game.state.dice_in_play == 10


def test_casino_preset_with_dice_loss_costs_a_die_and_a_pull() -> None:
    ruleset = Ruleset.build(["dice-loss"], preset="casino")
    game = Game(ruleset, ["Iris", "Marlowe", "Knox"], RiggedRandom(0))
    game.rng.rig("trigger", ["click"])
    game.start_round({p: ROLL for p in ["Iris", "Marlowe", "Knox"]})
    game.bid("Iris", 1, 5)
    game.call("Marlowe")
    iris = game.state.player("Iris")
    assert (iris.dice, iris.alive) == (4, True)
    assert bullets(game)["Iris"] == 1
    assert game.state.next_opener == "Marlowe"  # casino: the winner of the call opens


# --- presentation and options -------------------------------------------------------------------


def test_views_show_everyones_bullets() -> None:
    game = new_game(rules())
    lose(game, "Ann", "click")
    lose(game, "Ann", "click")
    lose(game, "Cid", "click")
    for viewer in ("Ann", "Ben", None):
        seats = {seat.name: seat.public for seat in game.view(viewer).seats}
        assert seats == {"Ann": {"bullets": 2}, "Ben": {"bullets": 0}, "Cid": {"bullets": 1}}


@pytest.mark.parametrize("chambers", [0, -1, 13])
def test_chambers_out_of_range_are_refused(chambers: int) -> None:
    with pytest.raises(BadOptionValue, match=r"revolver\.chambers"):
        Ruleset.build(["revolver"], {"revolver.chambers": chambers})


def test_zero_initial_bullets_are_refused() -> None:
    with pytest.raises(BadOptionValue, match=r"revolver\.initial_bullets"):
        Ruleset.build(["revolver"], {"revolver.initial_bullets": 0})


@pytest.mark.parametrize(("initial", "chambers"), [(7, 6), (3, 2)])
def test_more_initial_bullets_than_chambers_is_refused_naming_both(
    initial: int, chambers: int
) -> None:
    options = {"revolver.initial_bullets": initial, "revolver.chambers": chambers}
    with pytest.raises(Conflict) as refused:
        Ruleset.build(["revolver"], options)
    message = str(refused.value)
    assert f"revolver.initial_bullets={initial}" in message
    assert f"revolver.chambers={chambers}" in message


def test_as_many_initial_bullets_as_chambers_is_allowed_and_the_first_loss_is_fatal() -> None:
    game = Game(rules(chambers=3, initial_bullets=3), PLAYERS, Random(5))
    game.start_round({p: ROLL for p in PLAYERS})
    game.bid("Ann", 1, 5)
    game.call("Ben")
    assert not game.state.player("Ann").alive


def test_revolver_counts_as_economics_on_its_own() -> None:
    assert Ruleset.build(["revolver"]).names == ("standard", "revolver")


def test_rules_text_states_the_configured_numbers() -> None:
    default = rules().describe()
    assert "loads one bullet" in default
    assert "bullets in 6" in default and "Chambers in the cylinder: **6**" in default
    custom = rules(chambers=8, initial_bullets=3).describe()
    assert "loads 3 bullets" in custom
    assert "bullets in 8" in custom and "bullets in 6" not in custom
    assert "1 chambers" not in rules(chambers=1).describe()
    assert "Timeouts" in custom and "every remaining chamber" in custom
    assert "Chambers in the cylinder: **8**" in custom
    assert "first lost round: **3**\n" in custom


@pytest.mark.parametrize(("chambers", "initial", "lives"), [(6, 1, 6), (6, 6, 1), (4, 2, 3)])
def test_a_game_lasts_at_most_every_life_but_one_rounds(
    chambers: int, initial: int, lives: int
) -> None:
    """A player's (chambers - initial + 1)-th lost round loads every chamber: the winner survives
    at most one loss fewer, so a game lasts at most players x lives - 1 rounds."""
    ruleset = rules(chambers=chambers, initial_bullets=initial)
    limit = ruleset.move_limit(3, 2)
    assert limit.rounds == 3 * lives - 1
    assert f"lost round loads all {chambers} chambers, 3 x {lives} - 1" in limit.rounds_why
    rng = Random(lives)
    longest = max(play_game(ruleset, PLAYERS, rng, dice_per_player=2).rounds for _ in range(200))
    assert longest <= limit.rounds
    if lives == 1:
        assert longest == 2  # the first loss kills: one player goes a round
