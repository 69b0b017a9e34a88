"""Train sb3-contrib's MaskablePPO on one seat of a preset against bots, then measure it.

    python benchmarks/train_maskable_ppo.py --preset dudo --opponents random --steps 200000

Needs sb3-contrib and PyTorch (not in the project's groups: ``pip install torch sb3-contrib``
beside the `agents` extra). Prints the win rate of the trained policy (masked, deterministic)
and, as the baseline measured the same way in the same process, of random legal moves, each over
``--games`` games with its 95% Wilson interval, and the training time. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

from liarsdice.gym import SeatEnv
from liarsdice.tournament import wilson


def win_rate(env: SeatEnv, choose, games: int, seed: int) -> tuple[float, float, float]:
    """The share of ``games`` the learner wins choosing with ``choose(observation, mask)``."""
    wins = 0
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        done = False
        while not done:
            move = choose(observation, info["action_mask"].astype(bool))
            observation, reward, terminated, truncated, info = env.step(move)
            done = terminated or truncated
        wins += reward > 0
    low, high = wilson(wins, games)
    return wins / games, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="dudo")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--dice", type=int, default=5)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(2)

    def make() -> SeatEnv:
        return SeatEnv(args.preset, args.players, args.dice, opponents=args.opponents)

    env = ActionMasker(make(), lambda e: e.unwrapped.action_masks())
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048, batch_size=256)
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    trained_for = time.perf_counter() - started

    judge, rng = make(), np.random.default_rng(args.seed)
    trained = win_rate(
        judge,
        lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0]),
        args.games,
        10**6,
    )
    random_moves = win_rate(
        judge, lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), args.games, 10**6
    )
    table = f"{args.preset} {args.players}x{args.dice} against {args.opponents}"
    print(f"MaskablePPO, {args.steps:,} steps on {table}: trained in {trained_for:.0f} s")
    for name, (rate, low, high) in (("trained policy", trained), ("random moves", random_moves)):
        print(f"  {name:15} wins {rate:6.1%}  (95% {low:.1%} - {high:.1%}, {args.games} games)")
    print(f"  ratio trained / random: {trained[0] / max(random_moves[0], 1e-9):.2f}")


if __name__ == "__main__":
    main()
