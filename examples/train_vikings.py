"""Train a small policy for Vikings against the random bot on a CPU, then measure how often it wins.

A linear softmax policy over the legal actions (numpy only), trained by REINFORCE with a running baseline through
the Gymnasium wrapper, the learner's seat drawn at random each game. Usage:

    python examples/train_vikings.py --minutes 3 --eval-games 400

Chance for a two-player game is 0.5 (a shared victory counts 1/k, as in Skald's returns).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from skald.rl.gymnasium_env import SkaldGymEnv


def choose(
    weights: np.ndarray, bias: np.ndarray, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator, greedy: bool
) -> tuple[int, np.ndarray]:
    """An action from the masked softmax policy, and the policy's probabilities."""
    logits = weights @ x + bias
    logits[mask == 0] = -np.inf
    if greedy:
        return int(np.argmax(logits)), logits
    logits -= logits.max()
    probs = np.exp(logits)
    probs /= probs.sum()
    return int(rng.choice(len(probs), p=probs)), probs


def play(
    env: SkaldGymEnv, weights: np.ndarray, bias: np.ndarray, rng: np.random.Generator, seed: int, greedy: bool
) -> tuple[float, list[np.ndarray], list[int], list[np.ndarray]]:
    """One game: the learner's return and, for training, its observations, actions and probabilities."""
    obs, _ = env.reset(seed=seed)
    xs, actions, probs = [], [], []
    reward, terminated = 0.0, False
    while not terminated:
        x = obs["observation"]
        action, p = choose(weights, bias, x, obs["action_mask"], rng, greedy)
        xs.append(x)
        actions.append(action)
        probs.append(p)
        obs, reward, terminated, _, _ = env.step(action)
    return float(reward), xs, actions, probs


def evaluate(env: SkaldGymEnv, weights: np.ndarray, bias: np.ndarray, games: int, seed: int) -> tuple[float, float]:
    """Mean return of the greedy policy over `games` games, with its 95% half-width."""
    rng = np.random.default_rng(seed)
    results = [play(env, weights, bias, rng, seed + g, greedy=True)[0] for g in range(games)]
    mean = float(np.mean(results))
    return mean, 1.96 * float(np.std(results)) / math.sqrt(games)


def main() -> None:
    """Train for the given minutes, then evaluate against the random bot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = SkaldGymEnv("vikings", args.players, opponents="random", seat=None)
    size = env.observation_space["observation"].shape[0]
    actions = env.action_space.n
    weights = np.zeros((actions, size), np.float32)
    bias = np.zeros(actions, np.float32)
    rng = np.random.default_rng(args.seed)

    before, half = evaluate(env, weights, bias, args.eval_games, seed=10**6)
    print(
        f"before training: mean return {before:.3f} ± {half:.3f} over {args.eval_games} games (chance "
        f"{1 / args.players:.3f})"
    )
    baseline, games, start = 1 / args.players, 0, time.monotonic()
    while time.monotonic() - start < args.minutes * 60:
        reward, xs, taken, probs = play(env, weights, bias, rng, seed=games, greedy=False)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        grad = -np.stack(probs)
        grad[np.arange(len(taken)), taken] += 1.0
        grad = np.nan_to_num(grad)
        weights += (args.lr * advantage) * (grad.T @ np.stack(xs))
        bias += (args.lr * advantage) * grad.sum(axis=0)
        games += 1
        if games % 500 == 0:
            print(f"{games} games, {time.monotonic() - start:.0f} s, running mean return {baseline:.3f}")
    after, half = evaluate(env, weights, bias, args.eval_games, seed=10**6)
    print(f"trained on {games} games in {args.minutes:g} min")
    print(
        f"after training: mean return {after:.3f} ± {half:.3f} over {args.eval_games} games against random "
        f"(chance {1 / args.players:.3f})"
    )


if __name__ == "__main__":
    main()
