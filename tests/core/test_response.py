"""Whole-game best responses: OpenSpiel's figure for uniform play, the bots' 2 x 1 figures, the
rounds' trees and the CFR+ solver's own figures met again over games of several rounds, and a
best response never below what the policy wins."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random

import pytest

from liarsdice import Ruleset, engine
from liarsdice.bots import make_bot
from liarsdice.endgame import Limits, Store, Unsolvable, cfr, graph, rounds, solve
from liarsdice.endgame.response import (
    Policy,
    PolicyError,
    best_response,
    measure,
    policy_value,
    uniform,
)
from liarsdice.models import Action, Bid, BidAction, GameState, PlayerState
from liarsdice.views import PlayerView, player_view

NAMES = ("A", "B")


def table(first: int, second: int, per_player: int = 0) -> GameState:
    """A state between rounds: A holding ``first`` dice, B ``second`` (of ``per_player``, by
    default the larger); A opens."""
    players = (PlayerState("A", first), PlayerState("B", second))
    return GameState(players, per_player or max(first, second), next_opener="A")


def bots(kind: str, rules: Ruleset) -> dict[str, Policy]:
    return {name: make_bot(kind, rules, Random(seat)).policy for seat, name in enumerate(NAMES)}


@pytest.fixture(scope="module")
def openspiel_rules() -> Ruleset:
    """OpenSpiel's liar's dice: sixes wild and biddable, the loser of a round loses a die."""
    return Ruleset.build(["wild-sixes", "dice-loss"])


def test_uniform_play_is_as_exploitable_as_openspiel_says(openspiel_rules: Ruleset) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("liars_dice", {"numdice": 1})
    theirs = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    played = dict.fromkeys(NAMES, uniform(openspiel_rules))
    found = [best_response(openspiel_rules, table(1, 1), played, name) for name in NAMES]
    assert sum(found) / 2 == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize(("kind", "figure"), [("odds", 0.4444), ("bayes", 0.5000)])
def test_the_bots_figures_at_two_by_one(openspiel_rules: Ruleset, kind: str, figure: float) -> None:
    """docs/bots.md's figures, measured there with OpenSpiel's best responses on the bridge."""
    found = measure(openspiel_rules, table(1, 1), bots(kind, openspiel_rules))
    assert round(found.exploitability, 4) == figure


def test_a_best_response_wins_at_least_what_the_policy_does(two_faces_rules: Ruleset) -> None:
    """Over a game of several rounds (2 dice v 1, then 1 v 1), for either seat, and the
    policies' values sum to zero."""
    for kind in ("random", "odds", "bayes"):
        found = measure(two_faces_rules, table(2, 1), bots(kind, two_faces_rules))
        assert found.value[0] == pytest.approx(-found.value[1], abs=1e-12)
        for seat in (0, 1):
            assert found.best[seat] >= found.value[seat] - 1e-12
        # bayes happens to play an equilibrium of this small game
        assert found.exploitability > 0.05 or (kind == "bayes" and found.exploitability > -1e-12)


def _round_responses(rules: Ruleset, start: GameState, seat: int) -> float:
    """``seat``'s best response against uniform play from ``start``, round by round on the
    rounds' built trees with :func:`cfr.evaluate`, the last rounds first."""
    found = graph.explore(rules, rounds.dealt_root(rules, start), Limits(max_dice=3))
    values: dict[rounds.NodeKey, float] = {}  # to the rounds' first player, as payoffs are
    for group in graph.components(found):
        (key,) = group
        tree = found.trees[key]
        even = [
            [[1 / len(kids)] * len(kids)] * len(tree.hands[a])
            for a, kids in zip(tree.actor, tree.kids, strict=True)
        ]
        best = cfr.evaluate(tree, found.payoffs(key, values), even).best[seat]
        values[key] = best if seat == 0 else -best
    root = rounds.node_key(rounds.dealt_root(rules, start))
    return values[root] if seat == 0 else -values[root]


def test_the_rounds_trees_give_the_same_best_responses(two_faces_rules: Ruleset) -> None:
    start = table(2, 1)
    everyone = dict.fromkeys(NAMES, uniform(two_faces_rules))
    for seat, name in enumerate(NAMES):
        expected = _round_responses(two_faces_rules, start, seat)
        assert best_response(two_faces_rules, start, everyone, name) == pytest.approx(
            expected, abs=1e-12
        )


def test_cfr_plus_is_worth_what_the_solver_says(two_faces_rules: Ruleset) -> None:
    """Both seats playing a solved endgame of two rounds win what the solver values it at, and
    at one round a best response wins the solver's own exploitability."""
    solved = solve(two_faces_rules, table(2, 1), limits=Limits(max_dice=3), store=Store(None))
    played = dict.fromkeys(NAMES, solved.policy)
    assert policy_value(two_faces_rules, table(2, 1), played, "A") == pytest.approx(
        solved.value("A"), abs=1e-9
    )
    one = solve(two_faces_rules, table(1, 1), store=Store(None))
    found = measure(two_faces_rules, table(1, 1), dict.fromkeys(NAMES, one.policy))
    assert found.exploitability == pytest.approx(one.exploitability, abs=1e-9)
    assert found.value[0] == pytest.approx(one.value("A"), abs=1e-9)


def test_a_policy_is_asked_as_it_plays(openspiel_rules: Ruleset) -> None:
    """At every decision, with the player's own view of the round dealt and played so far."""
    seen: list[PlayerView] = []
    odds = bots("odds", openspiel_rules)

    def watched(view: PlayerView) -> Mapping[Action, float]:
        seen.append(view)
        return odds["B"](view)

    best_response(openspiel_rules, table(1, 1), {"A": odds["A"], "B": watched}, "A")
    assert {view.own_dice for view in seen} == {(face,) for face in range(1, 7)}
    for view in seen[::50]:
        assert view.own_dice is not None
        state, _ = engine.start_round(
            openspiel_rules, table(1, 1), Random(1), rolls={"A": (3,), "B": view.own_dice}
        )
        for placed in view.bids:
            action = BidAction(placed.player, placed.bid)
            state, _ = engine.step(openspiel_rules, state, action, Random(1))
        assert player_view(openspiel_rules, state, "B") == view


def test_a_policy_that_plays_an_illegal_move_is_refused(openspiel_rules: Ruleset) -> None:
    def stuck(view: PlayerView) -> Mapping[Action, float]:
        assert view.viewer is not None
        return {BidAction(view.viewer, Bid(1, 1)): 1.0}

    odds = bots("odds", openspiel_rules)
    with pytest.raises(PolicyError, match="not legal"):
        best_response(openspiel_rules, table(1, 1), {"A": odds["A"], "B": stuck}, "A")


def test_a_start_in_a_round_is_refused(openspiel_rules: Ruleset) -> None:
    state, _ = engine.start_round(openspiel_rules, table(1, 1), Random(1))
    with pytest.raises(Unsolvable, match="between rounds"):
        measure(openspiel_rules, state, bots("odds", openspiel_rules))


def test_a_game_that_can_come_back_to_a_position_is_refused(
    rules_of_preset: Callable[[str], Ruleset],
) -> None:
    """Dudo's exact call gives a die back: from one die each to two against one, and back."""
    rules = rules_of_preset("dudo")
    with pytest.raises(Unsolvable, match="lead back"):
        best_response(rules, table(1, 1, per_player=2), bots("odds", rules), "A")
