"""One self-play game: every seat is the same network-guided search, and each of its decisions becomes a training
position (the seat's observation, the search's visit shares over its legal actions, the final win shares).

A task carries the model as the bytes of its file, so that a worker anywhere (a process of this machine or a Ray
node) needs nothing but the task. Only the searching seat's observation is kept: with hidden information the network
never learns from what its seat cannot see, and the search draws its worlds from that seat's information state.
"""

from __future__ import annotations

import hashlib
import io
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from skald.bots.model import Array, Network, read_model_file
from skald.bots.puct import PUCTConfig, Search, win_shares
from skald.engine import CHANCE, TERMINAL, get_game, sample_chance


@dataclass(frozen=True)
class SelfPlayTask:
    """One game to play: the table, the model (its file's bytes), the search and its seed."""

    game: str
    players: int
    options: dict[str, Any]
    model: bytes
    seed: int
    iterations: int
    value_mix: float
    noise: float = 0.25
    noise_alpha: float = 0.3
    #: Decisions of each seat drawn in proportion to the visits before the most visited is taken.
    sampled_moves: int = 12
    #: A game still running after this many actions is cut off and scored by the game's heuristic.
    max_actions: int = 20_000


@dataclass
class SelfPlayGame:
    """A played game's positions: observations (flattened), the legal ids and visit shares of each, the seat to
    act, and the win shares each seat ended with (viewer first, as the value head reads them)."""

    observations: list[Array] = field(default_factory=list)
    legal: list[list[int]] = field(default_factory=list)
    policies: list[list[float]] = field(default_factory=list)
    values: list[list[float]] = field(default_factory=list)
    #: The seat that acted at each position, and how many actions of the history came before it.
    movers: list[int] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)
    #: Every action of the game, chance outcomes included (a record's actions).
    history: list[int] = field(default_factory=list)
    actions: int = 0
    decisions: int = 0
    seconds: float = 0.0
    #: The final win shares by seat.
    shares: list[float] = field(default_factory=list)


_networks: dict[bytes, Network] = {}


def network_of(model: bytes) -> Network:
    """The network in a model file's bytes, read once a process."""
    key = hashlib.sha256(model).digest()
    network = _networks.get(key)
    if network is None:
        _networks.clear()  # one model at a time: a new round's model replaces the last one
        network = _networks[key] = read_model_file(io.BytesIO(model), "the self-play model")
    return network


def play_selfplay(task: SelfPlayTask) -> SelfPlayGame:
    """Play the game of `task` with the search on every seat and return its positions."""
    started = time.perf_counter()
    network = network_of(task.model)
    game = get_game(task.game)
    state = game.new_initial_state(task.players, task.options)
    rng = random.Random(task.seed)
    config = PUCTConfig(
        iterations=task.iterations,
        value_mix=task.value_mix,
        noise=task.noise,
        noise_alpha=task.noise_alpha,
    )
    played = SelfPlayGame()
    movers = played.movers
    moves_by_seat = [0] * task.players
    search_of = [Search(network, config, seat, rng) for seat in range(task.players)]
    while played.actions < task.max_actions:
        player = state.current_player()
        if player == TERMINAL:
            break
        played.actions += 1
        if player == CHANCE:
            state.apply_legal(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_legal(legal[0])
            continue
        result, _ = search_of[player].run(state, legal)
        visits = [result.visits.get(action, 0) for action in legal]
        total = sum(visits)
        if total == 0:
            visits, total = [1] * len(legal), len(legal)
        played.observations.append(state.observation_array(player).reshape(-1).astype(np.float32))
        played.legal.append(list(legal))
        played.policies.append([count / total for count in visits])
        movers.append(player)
        played.plies.append(len(state.history))
        played.decisions += 1
        if moves_by_seat[player] < task.sampled_moves:
            action = rng.choices(legal, weights=visits)[0]
        else:
            action = max(zip(visits, legal, strict=True))[1]
        moves_by_seat[player] += 1
        state.apply_legal(action)
    ended = state.current_player() == TERMINAL
    shares = win_shares(state.returns()) if ended else search_of[0].heuristic(state)
    played.shares = shares
    played.history = list(state.history)
    n = task.players
    played.values = [[shares[(mover + i) % n] for i in range(n)] for mover in movers]
    played.seconds = time.perf_counter() - started
    return played
