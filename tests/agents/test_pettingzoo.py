"""The PettingZoo environment: PettingZoo's own API and seed tests for every preset and for random
combinations of shipped variants, the end of a game (rewards, teams, truncation at the move
limit), the standard wrappers, and the view in words."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from random import Random
from typing import Any

import attrs
import numpy as np
import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pettingzoo", reason="PettingZoo is the agents extra")

from pettingzoo.test import api_test, seed_test

from liarsdice import COUNT_OF_FACE, Ruleset
from liarsdice.discovery import installed, presets
from liarsdice.errors import BadTableSize, RulesetError
from liarsdice.openspiel import LiarsDiceGame
from liarsdice.pettingzoo import env, raw_env

TABLES = [(2, 1), (3, 2), (6, 5)]


def preset_tables() -> Iterator[Any]:
    """Every preset at 2x1, 3x2 and 6x5; at a table its document refuses, its variants and
    options without it (the preset's rules at another table), and at 2x5 as its document allows."""
    for name, preset in sorted(presets().items()):
        for players, dice in TABLES:
            kwargs: dict[str, Any] = {"preset": name}
            if preset.size.refusal(name, players=players, dice=dice) is not None:
                kwargs = {"variants": preset.variants, "options": preset.options}
            yield pytest.param(
                {**kwargs, "players": players, "dice": dice}, id=f"{name}-{players}x{dice}"
            )
        yield pytest.param({"preset": name, "players": 2, "dice": 5}, id=f"{name}-2x5")


def random_combinations(count: int, seed: int = 48) -> list[Any]:
    """``count`` combinations of shipped variants that build, drawn with ``seed``, each at 3x2
    (or the nearest table they take)."""
    random, pool, found = Random(seed), sorted(set(installed()) - {"standard"}), []
    while len(found) < count:
        names = random.sample(pool, random.randint(1, 4))
        try:
            rules = Ruleset.build(names)
        except RulesetError:
            continue
        if rules.bid_kind is not COUNT_OF_FACE:
            continue  # the bridge numbers counts of a face: refused, as tested below
        for players in (3, 4, 2):
            try:
                rules.check_table(players, 2)
            except BadTableSize:
                continue
            found.append(pytest.param(names, players, id="+".join(sorted(names))))
            break
    return found


def quietly(check: Any, *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # api_test's remarks on bounds
        check(*args, **kwargs)


@pytest.mark.parametrize("kwargs", list(preset_tables()))
def test_every_preset_passes_pettingzoos_api_and_seed_tests(kwargs: dict[str, Any]) -> None:
    quietly(api_test, env(**kwargs), num_cycles=300)
    quietly(seed_test, lambda: env(**kwargs), num_cycles=200)


@pytest.mark.parametrize(("variants", "players"), random_combinations(8))
def test_random_combinations_pass_pettingzoos_api_and_seed_tests(
    variants: list[str], players: int
) -> None:
    quietly(api_test, env(variants=variants, players=players, dice=2), num_cycles=300)
    quietly(seed_test, lambda: env(variants=variants, players=players, dice=2), num_cycles=200)


def play(game: Any, seed: int) -> dict[str, tuple[float, bool, bool]]:
    """Play ``game`` to its end with random legal moves: each agent's last reward, termination
    and truncation."""
    game.reset(seed=seed)
    rng, ended = np.random.default_rng(seed), {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        if terminated or truncated:
            ended[agent] = (reward, terminated, truncated)
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return ended


def test_the_winner_gets_one_and_the_others_share_minus_one() -> None:
    ended = play(env(preset="perudo", players=4, dice=5), seed=3)
    rewards = sorted(reward for reward, _, _ in ended.values())
    assert rewards == pytest.approx([-1 / 3, -1 / 3, -1 / 3, 1.0])
    assert all(terminated and not truncated for _, terminated, truncated in ended.values())


def test_a_team_shares_its_win() -> None:
    ended = play(env(variants=["teams", "dice-loss"], players=4, dice=1), seed=5)
    assert sorted(reward for reward, _, _ in ended.values()) == [-0.5, -0.5, 0.5, 0.5]


def test_a_game_at_the_move_limit_is_truncated_with_no_rewards() -> None:
    game = raw_env(variants=["dice-loss"], players=3, dice=5)
    table = attrs.evolve(game.game.table, move_limit=4)  # four moves, then the game stops
    game.game = LiarsDiceGame(table, None, {"players": 3, "dice": 5})
    ended = play(game, seed=1)
    assert set(ended) == set(game.possible_agents)
    assert all(truncated and not terminated for _, terminated, truncated in ended.values())
    assert all(reward == 0.0 for reward, _, _ in ended.values())


def test_an_illegal_move_ends_the_game_against_the_player_who_made_it() -> None:
    game = env(preset="dudo", players=2, dice=5)
    game.reset(seed=0)
    agent = game.agent_selection
    illegal = int(np.flatnonzero(game.last()[0]["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        game.step(illegal)
    assert game.terminations[agent] and game.rewards[agent] == -1


def test_the_mask_is_the_legal_moves_of_the_agent_on_turn_only() -> None:
    game = raw_env(preset="dudo", players=3, dice=5)
    game.reset(seed=2)
    on_turn = game.agent_selection
    seat = game.possible_agents.index(on_turn)
    mask = game.observe(on_turn)["action_mask"]
    assert list(np.flatnonzero(mask)) == sorted(game.state.legal_actions(seat))
    for other in set(game.possible_agents) - {on_turn}:
        assert not game.observe(other)["action_mask"].any()


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Your dice:"), ("uk", "Ваші кубики:"), ("ru", "Ваши кубики:")],
)
def test_the_ansi_render_is_the_agent_to_acts_view_in_words(lang: str, words: str) -> None:
    game = raw_env(preset="perudo", players=3, dice=5, render_mode="ansi", lang=lang)
    game.reset(seed=7)
    text = game.render()
    assert text is not None
    seat = game.possible_agents.index(game.agent_selection)
    state = game.state.game_state
    assert state is not None and state.round is not None
    own = " ".join(map(str, sorted(state.round.rolls[f"p{seat}"])))
    assert f"{words} {own}" in text
    assert text.splitlines()[0] == f"{game.agent_selection} (p{seat})"


def test_no_render_without_a_render_mode_and_a_bad_one_is_refused() -> None:
    game = raw_env(preset="dudo", players=2, dice=5)
    game.reset(seed=0)
    assert game.render() is None
    with pytest.raises(ValueError, match="render_mode is 'ansi' or None, not 'human'"):
        raw_env(preset="dudo", players=2, dice=5, render_mode="human")


def test_bids_that_are_not_counts_of_a_face_are_refused() -> None:
    with pytest.raises(ValueError, match="plays bids of kind 'pips'"):
        env(variants=["pip-sum", "dice-loss"], players=2, dice=2)
