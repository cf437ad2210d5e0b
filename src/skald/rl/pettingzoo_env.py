"""A Skald game as a PettingZoo AEC environment: `SkaldAECEnv("vikings", num_players=3)`.

Agents are `player_0` … `player_{n-1}` (the seats). Each observation is a dict: `observation`, the game's tensor from
that seat's point of view (docs/rl-observation.md), and `action_mask`, 1 for each legal action of the seat to act. In
a game with hidden information an agent's observation is its own view only (its hand, not the others'), and `infos`
stay empty: nothing of another seat's hidden part reaches an agent.
Spaces are built once and are identical for every seat. Chance (tiles from the stacks, Vikings from the bag) is
resolved inside the environment with its own generator, seeded by `reset(seed=…)`. Rewards come only at the end:
Skald's returns, 1/k to each of the k winners. An illegal action raises `IllegalAction` naming the rule and leaves
the game as it was; sample from the mask to avoid it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from skald.engine import State, get_game
from skald.rl.common import (
    KnownLegal,
    apply_checked,
    known_legal,
    legal_bytes,
    render_table,
    require_tensors,
    resolve_chance,
)

ObsDict = dict[str, npt.NDArray[Any]]


def observation_space(shape: tuple[int, ...], num_actions: int) -> spaces.Dict:
    """The observation space shared by every seat: the tensor (unbounded floats) and the legal-action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
        }
    )


class SkaldAECEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """A Skald game for n seats as an AEC environment; chance acts inside, seeded by `reset`."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention: a class attribute)
        "name": "skald_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = get_game(game)
        self.num_players = num_players
        self.options = self.game.resolve_options(options)
        shape = require_tensors(self.game, num_players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"skald_{game}_v0"}
        self.num_actions = self.game.num_distinct_actions
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = observation_space(shape, self.num_actions)
        act_space = spaces.Discrete(self.num_actions)
        # One space object per seat, all equal (RLlib and others want identical spaces across agents).
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: act_space for agent in self.possible_agents}
        self._rng = random.Random()
        self.game_state: State = self.game.new_initial_state(num_players, self.options)
        self._no_actions = np.zeros(self.num_actions, dtype=np.int8)
        #: The mask of the seat to act at the current position, once observed (a private copy: callers may write to
        #: theirs); `step` checks the action against it.
        self._legal: KnownLegal | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the game's whole fixed action space; the mask says which ids are legal."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` fixes the chance draws (and, through it, the whole game given the actions)."""
        self._rng = random.Random(seed)
        self.game_state = self.game.new_initial_state(self.num_players, self.options)
        self._legal = None
        resolve_chance(self.game_state, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def observe(self, agent: str) -> ObsDict:
        """The agent's tensor and legal-action mask (all 0 unless it is the agent to act), fresh arrays each call."""
        seat = self._seat[agent]
        state = self.game_state
        if state.current_player() == seat:
            legal = legal_bytes(state, self.num_actions)
            self._legal = known_legal(state, legal)
            mask = np.frombuffer(legal, dtype=np.int8)
        else:
            mask = self._no_actions.copy()
        return {"observation": state.observation_array(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action, then let chance act until a seat must choose or the game ends."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is an action only for an agent whose game is over")
        state = self.game_state
        apply_checked(state, int(action), self._legal)
        self._legal = None
        resolve_chance(state, self._rng)
        self._cumulative_rewards[agent] = 0.0
        if state.is_terminal():
            returns = state.returns()
            for seat, other in enumerate(self.possible_agents):
                self.rewards[other] = returns[seat]
                self.terminations[other] = True
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % self.num_players]
            self._accumulate_rewards()
        else:
            # Rewards come only at the end, so until then there is nothing to accumulate.
            self.agent_selection = self.possible_agents[state.current_player()]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text: returned for `ansi`, printed for `human`."""
        return render_table(self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def env(game: str, num_players: int = 2, **kwargs: Any) -> SkaldAECEnv:
    """PettingZoo's usual constructor name."""
    return SkaldAECEnv(game, num_players, **kwargs)
