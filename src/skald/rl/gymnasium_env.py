"""One learner against opponents as a Gymnasium environment: `SkaldGymEnv("vikings", 2, opponents="greedy")`, or
`gymnasium.make("skald/Vikings-v0")` (registered on import; the defaults suit training).

- **Seats.** With `seat=None` (the default) the learner's seat rotates from one game to the next, starting from a
  seat drawn from the reset's seed, so training sees every seat; an int fixes it.
- **Opponents** sit clockwise from the learner: `opponents[0]` is the next seat. Each is a Skald bot spec string
  (`random`, `greedy`, `mcts:easy`, …; docs/bots.md), a `Bot`, or a policy: any callable
  `policy(observation, action_mask) -> action`, handed the observation exactly as the learner would get it in that
  seat. A policy makes self-play a one-liner (a frozen copy of the learner) and `set_opponents` swaps them between
  games (opponent pools). Chance and the opponents act inside `step` until the learner must choose or the game ends.
- **Forced moves.** With `skip_forced=True` (the default) a decision with exactly one legal action is played for the
  learner; whatever reward it brings is carried into the next step's reward. The learner knows its own legal
  actions, so where its steps fall tells it nothing it did not know, and nothing of the opponents' hidden parts.
- **Reward.** `reward="win"`: 0 until the end, then the learner's Skald return (1/k if one of k winners).
  `reward="margin"`: the same, plus at every step the change in the learner's score margin (its score minus the best
  other score) since its last decision, divided by `margin_scale`.
- **Observation.** With `mask_in_observation=True` (the default) a dict: `observation`, the game's tensor from the
  learner's seat (docs/rl-observation.md), and `action_mask`, 1 for each legal action; with False, the tensor alone
  (a Box). Either way `info["action_mask"]` and `action_masks()` give the mask. The Box has the bounds the game
  declares. In a game with hidden information the learner sees its own view only.
- **The last step's info** carries the final `scores`, `winners` and `returns`, the `game_length` and the number of
  `decisions` (and `forced` moves) the learner had.

- **Length.** `gymnasium.make` wraps the environment in a `TimeLimit` of `max_episode_steps`: the longest game the
  game declares over its player counts and rule options (`longest_game`; 1,255 for Vikings, 559 for Vikingdoms, 30,000
  for Vikingatid), which a game of legal steps never reaches (the limit counts illegal attempts too).
  `env.max_episode_steps` is the bound for this environment's own player count and options.

An illegal action, with `illegal="penalty"` (the default), changes nothing: the step returns `illegal_reward`
(default -1), the same observation, and `info["illegal"]` with the rule's reason; after `max_illegal` illegal
actions in a row the episode is truncated. With `illegal="raise"` it raises `IllegalAction` instead.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from skald.bots import Bot, check_spec, make_bot
from skald.engine import CHANCE, Game, IllegalAction, State, get_game, sample_chance
from skald.rl.common import (
    RENDER_FPS,
    REWARDS,
    KnownLegal,
    apply_checked,
    final_info,
    known_legal,
    learnable_games,
    legal_mask,
    longest_game,
    margin,
    max_game_length,
    observation_bounds,
    render_table,
    require_tensors,
)
from skald.rl.spaces import observation_space

#: A policy for an opponent seat: the observation as the learner would get it in that seat, and the legal-action
#: mask (int8), to an action id (any int-like value, e.g. a numpy scalar).
Policy = Callable[[Any, npt.NDArray[np.int8]], Any]
#: An opponent: a Skald bot spec string, a `Bot`, or a `Policy`.
Opponent = str | Bot | Policy

#: Games a reset may start in a row that end before the learner has a decision (all its moves forced).
MAX_EMPTY_GAMES = 100


def opponent_list(
    opponents: Opponent | Sequence[Opponent], num_opponents: int, game: Game | None = None
) -> list[Opponent]:
    """One opponent per other seat (a single one fills every seat); checks that each is a usable kind (and, given
    the game, that a spec can play it at this many seats: a learned bot has a model for the table)."""
    if isinstance(opponents, str | Bot) or callable(opponents):
        listed: list[Opponent] = [opponents] * num_opponents
    else:
        listed = list(opponents)
    if len(listed) != num_opponents:
        raise ValueError(f"opponents: expected {num_opponents} (one per other seat), got {len(listed)}")
    for opponent in listed:
        if isinstance(opponent, str):
            # SpecError naming what is wrong with the spec, or the model field that does not fit the table
            if game is not None:
                check_spec(opponent, game, num_opponents + 1)
            else:
                make_bot(opponent)
        elif not (isinstance(opponent, Bot) or callable(opponent)):
            raise TypeError(f"opponents: {opponent!r} is not a bot spec, a Bot or a policy callable")
    return listed


class SkaldGymEnv(gym.Env[Any, np.int64]):
    """A single learner seat against bots or policies; chance and the opponents act inside `step`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int | None = None,
        options: Mapping[str, Any] | None = None,
        skip_forced: bool = True,
        reward: str = "win",
        margin_scale: float = 20.0,
        mask_in_observation: bool = True,
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
        if reward not in REWARDS:
            raise ValueError(f"reward: {reward!r} is not one of {list(REWARDS)}")
        if not margin_scale > 0:
            raise ValueError(f"margin_scale: {margin_scale!r} is not a positive number")
        self.opponents = opponent_list(opponents, num_players - 1, self.game)
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.skip_forced = skip_forced
        self.reward_kind = reward
        self.margin_scale = float(margin_scale)
        self.mask_in_observation = mask_in_observation
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.max_illegal = max_illegal
        self.render_mode = self._checked_render_mode(render_mode)
        self.num_actions = self.game.num_distinct_actions
        #: The most learner steps a game can take here: its actions at most (`Game.max_game_length`).
        self.max_episode_steps = max_game_length(self.game, num_players, self.options)
        self.observation_space = observation_space(
            shape, self.num_actions, observation_bounds(self.game, num_players), mask_in_observation
        )
        self.action_space = spaces.Discrete(self.num_actions)
        self.game_state: State = self.game.new_initial_state(num_players, self.options)
        #: Who plays each other seat this game: a Bot, or a policy.
        self.players: dict[int, Bot | Policy] = {}
        #: The seats whose bot this environment built from a spec: Skald's own, whose actions need no second check.
        self._built: set[int] = set()
        self._chance = random.Random()
        self._next_seat: int | None = None
        self._started = False
        self._illegal_run = 0
        self._margin = 0
        self.decisions = 0
        self.forced = 0
        #: The learner's legal actions at the current position, found while advancing to it.
        self._legal_now: list[int] = []
        #: The learner's mask at the current position (a private copy); `step` checks the action against it.
        self._legal: KnownLegal | None = None

    @property
    def bots(self) -> dict[int, Bot]:
        """The opponents of this game that are Skald bots, by seat."""
        return {seat: player for seat, player in self.players.items() if isinstance(player, Bot)}

    def _checked_render_mode(self, render_mode: str | None) -> str | None:
        """The render mode if supported; an unsupported one (vector-env helpers ask for `rgb_array`) is ignored with
        a warning, as most environments do, so that such helpers work with default arguments."""
        if render_mode is None or render_mode in self.metadata["render_modes"]:
            return render_mode
        warnings.warn(
            f"render_mode {render_mode!r} is not supported by Skald environments "
            f"(only {self.metadata['render_modes']}): rendering is off",
            stacklevel=3,
        )
        return None

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Who plays the other seats from the next reset on (self-play snapshots, opponent pools)."""
        self.opponents = opponent_list(opponents, self.num_players - 1, self.game)

    def _observation_for(self, seat: int, legal: Sequence[int]) -> tuple[Any, npt.NDArray[np.int8], bytearray]:
        """The observation `seat` gets (dict or tensor, as configured), its mask, and the mask's bytes, for the legal
        actions given (a bytearray fills faster than numpy for a few legal actions, and numpy takes it as is)."""
        mask_bytes = bytearray(self.num_actions)
        for action in legal:
            mask_bytes[action] = 1
        mask = np.frombuffer(mask_bytes, dtype=np.int8)
        tensor = self.game_state.observation_array(seat)
        if self.mask_in_observation:
            return {"observation": tensor, "action_mask": mask}, mask, mask_bytes
        return tensor, mask, mask_bytes

    def _opponent_acts(self, player: int) -> None:
        """The opponent in seat `player` chooses, and its action is applied: a Skald bot built from a spec names one
        of the legal actions it was handed, so it is applied unchecked; any other bot or policy is checked
        (`IllegalAction` names the rule)."""
        chooser, state = self.players[player], self.game_state
        if isinstance(chooser, Bot):
            action = chooser.step(state)
            if player in self._built:
                state.apply_legal(action)
                return
        else:
            observation, mask, _ = self._observation_for(player, state.legal_actions())
            action = int(chooser(observation, mask))
        state.apply(action)

    def _advance(self) -> None:
        """Let chance and the opponents act (and, with `skip_forced`, play the learner's forced moves) until the
        learner has a real choice or the game is over."""
        state = self.game_state
        while True:
            player = state.current_player()
            if player == CHANCE:
                state.apply_legal(sample_chance(state, self._chance))
            elif player >= 0 and player != self.seat:
                self._opponent_acts(player)
            elif player == self.seat:
                legal = state.legal_actions()
                if self.skip_forced and len(legal) == 1:
                    state.apply_legal(legal[0])
                    self.forced += 1
                    continue
                self._legal_now = legal
                return
            else:
                self._legal_now = []
                return

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        observation, mask, mask_bytes = self._observation_for(self.seat, self._legal_now)
        self._legal = known_legal(self.game_state, mask_bytes) if self._legal_now else None
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat}
        if self.game_state.is_terminal():
            info.update(final_info(self.game_state, self.decisions, self.forced))
        return observation, info

    def _new_game(self, draws: npt.NDArray[np.int64]) -> None:
        """A fresh game with this reset's opponents, advanced to the learner's first real choice."""
        others = [(self.seat + k) % self.num_players for k in range(1, self.num_players)]
        self.players = {}
        self._built = {seat for seat, opponent in zip(others, self.opponents, strict=True) if isinstance(opponent, str)}
        for seat, opponent in zip(others, self.opponents, strict=True):
            self.players[seat] = make_bot(opponent, int(draws[1 + seat])) if isinstance(opponent, str) else opponent
        self.game_state = self.game.new_initial_state(self.num_players, self.options)
        self.decisions = self.forced = 0
        self._advance()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game; `seed` fixes chance, the bots and (with `seat=None`) where the rotation of seats starts."""
        super().reset(seed=seed)
        if self.fixed_seat is not None:
            self.seat = self.fixed_seat
        else:
            if seed is not None or self._next_seat is None:
                self._next_seat = int(self.np_random.integers(0, self.num_players))
            self.seat = self._next_seat
            self._next_seat = (self.seat + 1) % self.num_players
        self._chance = random.Random()
        for _ in range(MAX_EMPTY_GAMES):
            draws = self.np_random.integers(0, 2**62, size=self.num_players + 1)
            self._chance.seed(int(draws[0]))
            self._new_game(draws)
            if not self.game_state.is_terminal():
                break
        else:
            raise RuntimeError(f"{MAX_EMPTY_GAMES} games in a row ended before the learner had a choice")
        self._started = True
        self._illegal_run = 0
        self._margin = margin(self.game_state, self.seat) if self.reward_kind == "margin" else 0
        return self._observe()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then chance and the opponents (and forced moves) until its next choice."""
        state = self.game_state
        if not self._started:
            raise RuntimeError("call reset() before step(): no game has been started")
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
        self.decisions += 1
        self._advance()
        observation, info = self._observe()
        terminated = state.is_terminal()
        reward = state.returns()[self.seat] if terminated else 0.0
        if self.reward_kind == "margin":
            now = margin(state, self.seat)
            reward += (now - self._margin) / self.margin_scale
            self._margin = now
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (the method name sb3-contrib's MaskablePPO looks for), from the mask handed
        out with the last observation while the game has not moved since."""
        known, state = self._legal, self.game_state
        if known is not None and known[0] is state and known[1] == len(state.history):
            return np.frombuffer(known[2], dtype=np.int8).astype(bool)
        return legal_mask(state, self.num_actions).astype(bool)

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
            gym.register(
                id=ids[-1],
                entry_point=f"{__name__}:SkaldGymEnv",
                kwargs={"game": name},
                max_episode_steps=longest_game(get_game(name)),
            )
    return ids


register_envs()
