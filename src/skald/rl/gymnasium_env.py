"""One learner against Skald bots as a Gymnasium environment: `SkaldGymEnv("vikings", 2, opponents="greedy")`, or
`gymnasium.make("skald/Vikings-v0", num_players=2, opponents="greedy")` (registered on import).

The learner sits in `seat` (or a seat drawn at each reset when `seat=None`); the other seats are Skald bots built
from spec strings (`random`, `greedy`, `mcts:easy`, …; see `skald.bots`). Chance and the bots act inside `step`
until the learner must choose again or the game ends. Observations are dicts: `observation`, the game's tensor from
the learner's seat (docs/rl-observation.md), and `action_mask`, 1 for each legal action; `info["action_mask"]`
holds the same mask. In a game with hidden information the learner sees its own view only, and the bots choose from
what their own seats know (docs/bots.md). The reward is 0 until the end, then the learner's Skald return (1/k if
one of k winners).

An illegal action, with `illegal="penalty"` (the default), changes nothing: the step returns `illegal_reward`
(default -1), the same observation, and `info["illegal"]` with the rule's reason; after `max_illegal` illegal
actions in a row the episode is truncated. With `illegal="raise"` it raises `IllegalAction` instead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from skald.bots import Bot, make_bot
from skald.engine import CHANCE, IllegalAction, State, get_game, sample_chance
from skald.rl.common import (
    KnownLegal,
    apply_checked,
    known_legal,
    learnable_games,
    legal_bytes,
    legal_mask,
    render_table,
    require_tensors,
)
from skald.rl.pettingzoo_env import observation_space

ObsDict = dict[str, npt.NDArray[Any]]


class SkaldGymEnv(gym.Env[dict[str, Any], np.int64]):
    """A single learner seat against Skald bots; chance and the bots act inside `step`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (Gymnasium's convention)

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        options: Mapping[str, Any] | None = None,
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        max_illegal: int = 100,
        render_mode: str | None = None,
    ) -> None:
        self.game = get_game(game)
        self.num_players = num_players
        self.options = self.game.resolve_options(options)
        shape = require_tensors(self.game, num_players)
        if seat is not None and not 0 <= seat < num_players:
            raise ValueError(f"seat: {seat} is not one of the {num_players} seats")
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal: {illegal!r} is not 'penalty' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']}")
        specs = [opponents] * (num_players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != num_players - 1:
            raise ValueError(f"opponents: expected {num_players - 1} bot specs, got {len(specs)}")
        for spec in specs:
            make_bot(spec)
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.max_illegal = max_illegal
        self.render_mode = render_mode
        self.num_actions = self.game.num_distinct_actions
        self.observation_space = observation_space(shape, self.num_actions)
        self.action_space = spaces.Discrete(self.num_actions)
        self.game_state: State = self.game.new_initial_state(num_players, self.options)
        self.bots: dict[int, Bot] = {}
        self._chance = random.Random()
        self._illegal_run = 0
        #: The learner's mask at the current position (a private copy); `step` checks the action against it.
        self._legal: KnownLegal | None = None

    def _observe(self) -> tuple[ObsDict, dict[str, Any]]:
        observation = self.game_state.observation_array(self.seat)
        if self.game_state.current_player() == self.seat:
            legal = legal_bytes(self.game_state, self.num_actions)
            self._legal = known_legal(self.game_state, legal)
            mask = np.frombuffer(legal, dtype=np.int8)
        else:
            self._legal = None
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}, {"action_mask": mask, "seat": self.seat}

    def _advance(self) -> None:
        """Let chance and the bots act until the learner must choose or the game is over."""
        state = self.game_state
        while True:
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, self._chance))
            elif player >= 0 and player != self.seat:
                state.apply(self.bots[player].step(state))
            else:
                return

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """A new game; `seed` fixes chance, the bots and (with `seat=None`) the learner's seat."""
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**62, size=self.num_players + 1)
        self._chance = random.Random(int(draws[0]))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, self.num_players))
        others = [s for s in range(self.num_players) if s != self.seat]
        self.bots = {s: make_bot(spec, int(draws[1 + s])) for s, spec in zip(others, self.opponent_specs, strict=True)}
        self.game_state = self.game.new_initial_state(self.num_players, self.options)
        self._illegal_run = 0
        self._advance()
        return self._observe()

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then chance and the bots; reward only at the end (or for an illegal action)."""
        state = self.game_state
        if state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        try:
            # Checked against the mask handed out with the last observation; an illegal action changes nothing.
            apply_checked(state, int(action), self._legal)
        except IllegalAction as error:
            if self.illegal == "raise":
                raise
            self._illegal_run += 1
            observation, info = self._observe()
            info["illegal"] = str(error)
            return observation, self.illegal_reward, False, self._illegal_run >= self.max_illegal, info
        self._illegal_run = 0
        self._advance()
        observation, info = self._observe()
        terminated = state.is_terminal()
        reward = state.returns()[self.seat] if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (the method name sb3-contrib's MaskablePPO looks for)."""
        return legal_mask(self.game_state, self.num_actions).astype(bool)

    def render(self) -> str | None:
        """The table as text as the learner's seat sees it: returned for `ansi`, printed for `human`."""
        return render_table(self.game_state, self.render_mode, self.seat)


def env_id(game: str) -> str:
    """Gymnasium's id for a Skald game: `skald/Vikings-v0`."""
    return f"skald/{game.capitalize()}-v0"


def register_envs() -> list[str]:
    """Register every Skald game that encodes tensors with Gymnasium (done on import); returns the ids.

    Then `gymnasium.make("skald/Vikings-v0", num_players=3, opponents="greedy")`, or without importing first,
    `gymnasium.make("skald.rl.gymnasium_env:skald/Vikings-v0", …)`.
    """
    ids = []
    for name in learnable_games():
        ids.append(env_id(name))
        if ids[-1] not in gym.registry:
            gym.register(id=ids[-1], entry_point=f"{__name__}:SkaldGymEnv", kwargs={"game": name})
    return ids


register_envs()
