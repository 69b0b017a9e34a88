"""The Gymnasium environment for one seat: Gymnasium's checker for every preset's id, episodes
replayed from their seed, the action mask, the bots' seats and the end of a game."""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import pytest

if not os.environ.get("CI"):
    pytest.importorskip("gymnasium", reason="Gymnasium is the agents extra")

import gymnasium
from gymnasium.utils.env_checker import check_env

from liarsdice.bots import UnknownBot
from liarsdice.discovery import presets
from liarsdice.gym import SeatEnv


def episode(env: Any, seed: int) -> tuple[list[int], float, bool, bool]:
    """One episode with the learner's random legal moves (drawn from ``seed``): the moves, the
    last reward, terminated and truncated."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    moves, done = [], False
    while not done:
        move = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(move)
        moves.append(move)
        done = terminated or truncated
    return moves, reward, terminated, truncated


@pytest.mark.parametrize("preset", sorted(presets()))
def test_every_presets_id_passes_gymnasiums_checker(preset: str) -> None:
    env = gymnasium.make(f"liarsdice/{preset}-v0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env.unwrapped)


def test_an_episode_is_replayed_from_its_seed_and_differs_for_another() -> None:
    env = SeatEnv(preset="perudo", players=4, opponents=("odds", "bayes", "random"))
    first, again, other = episode(env, 11), episode(env, 11), episode(env, 12)
    assert first == again
    assert first != other


def test_the_mask_is_the_learners_legal_moves() -> None:
    env = SeatEnv(preset="dudo", players=3, opponents="odds", seat=1)
    _, info = env.reset(seed=4)
    node = env.game.state.node
    assert env.game.agent_selection == "player_1"
    assert list(np.flatnonzero(info["action_mask"])) == sorted(node.choices)
    assert (env.action_masks() == info["action_mask"].astype(bool)).all()


def test_the_game_is_played_to_its_end_and_the_learner_gets_its_share() -> None:
    env = SeatEnv(preset="perudo", players=3, opponents="odds")
    rewards = {episode(env, seed)[1] for seed in range(8)}
    assert rewards <= {1.0, -0.5}
    assert -0.5 in rewards  # a random learner against two odds bots loses most games


def test_an_illegal_move_ends_the_episode_with_minus_one() -> None:
    env = SeatEnv(preset="dudo", players=2)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)


def test_bots_asked_out_of_turn_play_on() -> None:
    """Under calza.anyone every seat is asked before each move: the bots wait or call."""
    env = SeatEnv(
        variants=["dice-loss", "calza"], options={"calza.anyone": True}, players=3, dice=2
    )
    moves, reward, terminated, _ = episode(env, 3)
    assert moves and terminated and reward in (1.0, -0.5)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"opponents": "nobody"}, UnknownBot, "unknown bot 'nobody'"),
        (
            {"opponents": ("odds",), "players": 3},
            ValueError,
            "2 opponents sit with the learner, not 1",
        ),
        ({"seat": 2}, ValueError, "seat is a number from 0 to 1, not 2"),
    ],
)
def test_a_bad_table_is_refused_by_name(
    kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        SeatEnv(preset="dudo", **kwargs)
