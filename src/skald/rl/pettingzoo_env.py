"""A Skald game as a PettingZoo AEC environment: `env("vikings", num_players=3)` (wrapped so that calls out of order,
such as `step()` before `reset()`, fail with a clear message) or the bare `SkaldAECEnv`.

Agents are `player_0` … `player_{n-1}` (the seats). Each observation is a dict: `observation`, the game's tensor from
that seat's point of view (docs/rl-observation.md), and `action_mask`, 1 for each legal action of the seat to act;
with `mask_in_observation=False` it is the tensor alone and the acting agent's mask is in its `infos` entry. In a game
with hidden information an agent's observation is its own view only (its hand, not the others'), and nothing of
another seat's hidden part reaches an agent through `infos` either.
Spaces are built once and are identical for every seat; the tensor's Box has the bounds the game declares. Chance
(tiles from the stacks, Vikings from the bag) is resolved inside the environment with its own generator, seeded by
`reset(seed=…)`. With `skip_forced=True` (the default) a seat with exactly one legal action has it played for it
where every agent can tell it has one (`State.forced_is_public`); elsewhere it is asked, so the agent order is the
same in every world an agent cannot tell apart.
Rewards, `reward="win"`: Skald's returns at the end, 1/k to each of the k winners; `reward="margin"` adds, at every
step, each seat's change in score margin divided by `margin_scale` (as in the Gymnasium wrapper). When the game ends
every agent's `infos` entry holds the final `scores`, `winners`, `returns`, the `game_length`, and that seat's
`decisions` and `forced` moves. An illegal action raises `IllegalAction` naming the rule and leaves the game as it
was; sample from the mask to avoid it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from skald.engine import CHANCE, State, get_game, sample_chance
from skald.rl.common import (
    RENDER_FPS,
    REWARDS,
    KnownLegal,
    apply_checked,
    final_info,
    known_legal,
    legal_bytes,
    observation_bounds,
    render_table,
    require_tensors,
)
from skald.rl.spaces import observation_space

ObsDict = dict[str, npt.NDArray[Any]]

#: Games a reset may start in a row that end before any seat has a real choice (all moves forced).
MAX_EMPTY_GAMES = 100


class SkaldAECEnv(AECEnv[str, Any, int]):  # type: ignore[misc]
    """A Skald game for n seats as an AEC environment; chance acts inside, seeded by `reset`."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention: a class attribute)
        "name": "skald_v0",
        "render_modes": ["ansi", "human"],
        "render_fps": RENDER_FPS,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        skip_forced: bool = True,
        reward: str = "win",
        margin_scale: float = 20.0,
        mask_in_observation: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = get_game(game)
        self.num_players = num_players
        self.options = self.game.resolve_options(options)
        shape = require_tensors(self.game, num_players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']}")
        if reward not in REWARDS:
            raise ValueError(f"reward: {reward!r} is not one of {list(REWARDS)}")
        if not margin_scale > 0:
            raise ValueError(f"margin_scale: {margin_scale!r} is not a positive number")
        self.render_mode = render_mode
        self.skip_forced = skip_forced
        self.reward_kind = reward
        self.margin_scale = float(margin_scale)
        self.mask_in_observation = mask_in_observation
        self.metadata = {**self.metadata, "name": f"skald_{game}_v0"}
        self.num_actions = self.game.num_distinct_actions
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = observation_space(
            shape, self.num_actions, observation_bounds(self.game, num_players), mask_in_observation
        )
        act_space = spaces.Discrete(self.num_actions)
        # One space object per seat, all equal (RLlib and others want identical spaces across agents).
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: act_space for agent in self.possible_agents}
        self._rng = random.Random()
        self.game_state: State = self.game.new_initial_state(num_players, self.options)
        self._started = False
        self._no_actions = np.zeros(self.num_actions, dtype=np.int8)
        #: Per seat: the decisions it was asked for and the forced moves played for it, this game.
        self.decisions = [0] * num_players
        self.forced = [0] * num_players
        self._scores: list[int] = []
        #: The mask of the seat to act at the current position, once observed (a private copy: callers may write to
        #: theirs); `step` checks the action against it.
        self._legal: KnownLegal | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the game's whole fixed action space; the mask says which ids are legal."""
        return self.action_spaces[agent]

    def _advance(self) -> None:
        """Let chance act (and, with `skip_forced`, play every forced move) until a seat has a real choice or the
        game is over."""
        state = self.game_state
        while True:
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, self._rng))
            elif player >= 0 and self.skip_forced and state.forced_is_public():
                # Skipped only where every agent can tell the move is forced: in Vikingatid's card windows whether
                # a holder has one answer depends on his hand, so skipping there would change the agent order.
                legal = state.legal_actions()
                if len(legal) != 1:
                    return
                state.apply_legal(legal[0])
                self.forced[player] += 1
            else:
                return

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` fixes the chance draws (and, through it, the whole game given the actions)."""
        self._rng = random.Random(seed)
        for _ in range(MAX_EMPTY_GAMES):
            self.game_state = self.game.new_initial_state(self.num_players, self.options)
            self.decisions = [0] * self.num_players
            self.forced = [0] * self.num_players
            self._advance()
            if not self.game_state.is_terminal():
                break
        else:
            raise RuntimeError(f"{MAX_EMPTY_GAMES} games in a row ended before any seat had a choice")
        self._started = True
        self._legal = None
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._scores = list(self.game_state.scores()) if self.reward_kind == "margin" else []
        self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._offer_mask()

    def _mask_of(self, seat: int) -> npt.NDArray[np.int8]:
        """The seat's legal-action mask (all 0 unless it is to act), remembered for `step` when it is to act."""
        state = self.game_state
        if state.current_player() != seat:
            return self._no_actions.copy()
        known = self._legal
        if known is not None and known[0] is state and known[1] == len(state.history):
            return np.frombuffer(bytearray(known[2]), dtype=np.int8)
        legal = legal_bytes(state, self.num_actions)
        self._legal = known_legal(state, legal)
        return np.frombuffer(legal, dtype=np.int8)

    def _offer_mask(self) -> None:
        """Without the mask in the observation, the agent to act finds it in its `infos` entry."""
        if not self.mask_in_observation and not self.game_state.is_terminal():
            self.infos[self.agent_selection] = {"action_mask": self._mask_of(self._seat[self.agent_selection])}

    def observe(self, agent: str) -> Any:
        """The agent's tensor and legal-action mask (all 0 unless it is the agent to act), fresh arrays each call; or
        the tensor alone with `mask_in_observation=False`."""
        seat = self._seat[agent]
        tensor = self.game_state.observation_array(seat)
        if not self.mask_in_observation:
            return tensor
        return {"observation": tensor, "action_mask": self._mask_of(seat)}

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The agent's legal-action mask (all 0 unless it is to act), the same as in its observation."""
        return self._mask_of(self._seat[agent])

    def _margin_rewards(self) -> None:
        """Each seat's change in score margin since the last step, scaled, as this step's rewards."""
        scores = list(self.game_state.scores())
        for seat, agent in enumerate(self.possible_agents):
            best_now = max(score for other, score in enumerate(scores) if other != seat)
            best_then = max(score for other, score in enumerate(self._scores) if other != seat)
            change = (scores[seat] - best_now) - (self._scores[seat] - best_then)
            self.rewards[agent] = change / self.margin_scale
        self._scores = scores

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action, then let chance (and forced moves) act until a seat must choose or the
        game ends."""
        if not self._started:
            raise RuntimeError("call reset() before step(): no game has been started")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is an action only for an agent whose game is over")
        state = self.game_state
        apply_checked(state, int(action), self._legal)
        self._legal = None
        self.decisions[self._seat[agent]] += 1
        self._advance()
        self._cumulative_rewards[agent] = 0.0
        if self.infos[agent]:
            self.infos[agent] = {}
        if self.reward_kind == "margin":
            self._margin_rewards()
        if state.is_terminal():
            returns = state.returns()
            for seat, other in enumerate(self.possible_agents):
                self.rewards[other] = returns[seat] + (self.rewards[other] if self.reward_kind == "margin" else 0.0)
                self.terminations[other] = True
                self.infos[other] = final_info(state, self.decisions[seat], self.forced[seat])
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % self.num_players]
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
            if self.reward_kind == "margin":
                self._accumulate_rewards()
            # With rewards only at the end there is nothing to accumulate until then.
            self._offer_mask()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text: returned for `ansi`, printed for `human`."""
        return render_table(self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def env(game: str, num_players: int = 2, **kwargs: Any) -> Any:
    """PettingZoo's usual constructor: the environment wrapped so that calls out of order (`step`, `observe` or
    `render` before `reset`; a step once every agent is done) fail or warn with a clear message."""
    return wrappers.OrderEnforcingWrapper(SkaldAECEnv(game, num_players, **kwargs))
