"""PUCT search guided by a learned network (AlphaZero's search), for 2 or more seats with chance and hidden hands.

Every iteration descends one tree from the root, choosing at each decision the edge that maximises, for the seat to
act, `Q + c · P · sqrt(N) / (1 + n)`: `Q` that seat's mean value through the edge (the parent's mean before it is
tried), `P` the network's prior for it, `N` the visits of the edges legal here and `n` the edge's own. A decision
reached for the first time is a leaf: the network reads the observation of the seat to act there and gives the
priors of its legal actions and one value per seat, which is backed up the path (each seat maximises its own
value, as in max^n). Chance nodes are sampled by their probabilities; the end of the game is scored by `returns()`.
Leaves are evaluated several at a time (`batch`): the descents of one batch meet a "virtual loss" on the edges
already taken, so that they spread out, and their observations go through the network together.

With hidden information the tree is the information-set tree of `skald.bots.mcts` (its edges, their merging of the
actions the searching seat cannot tell apart, and the pass through a decision that seat sees as forced): each
iteration first draws a determinization from the searching seat's information state, and descends through the
edges legal in it. The network there reads the observation of the seat to act in that determinization, so the
true hidden state is never read. A merged edge's prior is the sum of its actions' priors.

`value_mix` blends the game's own heuristic into each leaf's value (a softmax over `game.evaluate`, as the MCTS
rollouts end), which gives an untrained or young network a useful search.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

import numpy as np

from skald.bots.base import Bot
from skald.bots.evaluation import evaluations, softmax_rewards
from skald.bots.mcts import Edge, _edge, _edges, _pick
from skald.bots.model import ModelError, Network, check_fits, load_model
from skald.engine import CHANCE, PERFECT, TERMINAL, Game, State, get_game, sample_chance

#: A search setting as a spec names it (an int, a float, or None for no limit).
Setting = Any

#: Where the models shipped with Skald live: `<game>-<players>p.npz`.
MODELS: Final = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class PUCTConfig:
    """A search budget and its knobs; `iterations` keeps a bot deterministic, `seconds` does not."""

    iterations: int | None = 160
    seconds: float | None = None
    exploration: float = 1.5
    batch: int = 8
    value_mix: float = 0.0
    #: Dirichlet noise at the root (self-play): its weight and concentration; 0 for none.
    noise: float = 0.0
    noise_alpha: float = 0.3

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("learned: give a budget in iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"learned: iters must be at least 1, not {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"learned: seconds must be positive, not {self.seconds}")
        if self.batch < 1:
            raise ValueError(f"learned: batch must be at least 1, not {self.batch}")
        if not 0.0 <= self.value_mix <= 1.0:
            raise ValueError(f"learned: mix must lie in [0, 1], not {self.value_mix}")
        if self.exploration < 0:
            raise ValueError(f"learned: c must be at least 0, not {self.exploration}")
        if not 0.0 <= self.noise <= 1.0:
            raise ValueError(f"learned: noise must lie in [0, 1], not {self.noise}")


class _Node:
    """A sequence of edges from the root: its children and their priors, visits, summed values, and the descents of
    the current batch now passing through it (each counted as a visit worth nothing until it is backed up)."""

    __slots__ = ("children", "pending", "priors", "value", "visits")

    def __init__(self, num_players: int) -> None:
        self.visits = 0
        self.pending = 0
        self.value = [0.0] * num_players
        self.children: dict[Edge, _Node] = {}
        #: The prior of each edge, set when the node is first evaluated (None before: the node is a leaf).
        self.priors: dict[Edge, float] | None = None


class SearchResult:
    """What a search found: the visits of each root action, each seat's mean value, and the iterations run."""

    __slots__ = ("iterations", "values", "visits")

    def __init__(self, visits: dict[int, int], values: list[float], iterations: int) -> None:
        self.visits = visits
        self.values = values
        self.iterations = iterations

    def best(self, legal: list[int], player: int, root_values: dict[int, float]) -> int:
        """The most visited action (ties: the higher value for `player`, then the lower id)."""
        return max(legal, key=lambda a: (self.visits.get(a, 0), root_values.get(a, 0.0), -a))


class _Leaf:
    """A descent waiting for the network: its path, the determinization it stopped in and the edges there."""

    __slots__ = ("edges", "mover", "path", "state")

    def __init__(self, path: list[_Node], state: State, mover: int, edges: dict[Edge, list[int]]) -> None:
        self.path = path
        self.state = state
        self.mover = mover
        self.edges = edges


class Search:
    """One PUCT search from a position for the seat `player` (who is to act there)."""

    def __init__(self, network: Network, config: PUCTConfig, player: int, rng: random.Random) -> None:
        self.network = network
        self.config = config
        self.player = player
        self.rng = rng
        self.scale_total = 0.0
        self.scale_count = 0

    def run(self, state: State, legal: list[int]) -> tuple[SearchResult, dict[int, float]]:
        """Search from `state` (the seat to act is `player`, with `legal` actions); also each root action's mean
        value for `player`."""
        num_players = state.num_players
        hidden = state.game.information != PERFECT
        root = _Node(num_players)
        config = self.config
        deadline = None if config.seconds is None else time.perf_counter() + config.seconds
        done = 0
        while True:
            if config.iterations is not None and done >= config.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            size = config.batch if config.iterations is None else min(config.batch, config.iterations - done)
            leaves: list[_Leaf] = []
            for _ in range(size):
                if hidden:
                    try:
                        world = state.resample_from_infostate(self.player, self.rng)
                    except RuntimeError:
                        continue  # no world found this time: the iteration is spent
                else:
                    world = state.clone()
                leaf = self._descend(root, world, hidden, done == 0 and not leaves)
                if leaf is not None:
                    leaves.append(leaf)
            done += size
            if leaves:
                self._evaluate(leaves, root)
        values = [value / max(root.visits, 1) for value in root.value]
        visits: dict[int, int] = {}
        means: dict[int, float] = {}
        for action in legal:
            child = root.children.get(action)
            if child is not None and child.visits:
                visits[action] = child.visits
                means[action] = child.value[self.player] / child.visits
        return SearchResult(visits, values, done), means

    def _descend(self, root: _Node, state: State, hidden: bool, first: bool) -> _Leaf | None:
        """Walk down from the root in `state` to a leaf; an end of the game is backed up at once (None)."""
        node = root
        path = [root]
        root.pending += 1
        num_players = state.num_players
        while True:
            mover = state.current_player()
            if mover == TERMINAL:
                self._backup(path, win_shares(state.returns()))
                return None
            if mover == CHANCE:
                outcome = sample_chance(state, self.rng)
                edge = _edge(state, outcome, mover, self.player) if hidden else outcome
                state.apply_legal(outcome)
                node = _child(node, edge, num_players)
                node.pending += 1
                path.append(node)
                continue
            legal = state.legal_actions()
            edges = _edges(state, legal, mover, self.player) if hidden else _own_edges(legal)
            if not edges:
                self._backup(path, self.heuristic(state))
                return None
            if len(edges) == 1:
                # Forced as far as the searching seat can tell: passed through as a chance node is.
                edge = next(iter(edges))
                state.apply_legal(_pick(edges[edge], self.rng))
                node = _child(node, edge, num_players)
                node.pending += 1
                path.append(node)
                continue
            if node.priors is None:
                return _Leaf(path, state, mover, edges)
            edge = self._select(node, edges, mover, noise=first and node is root)
            state.apply_legal(_pick(edges[edge], self.rng))
            node = _child(node, edge, num_players)
            node.pending += 1
            path.append(node)

    def _select(self, node: _Node, edges: dict[Edge, list[int]], seat: int, noise: bool) -> Edge:
        """The edge best for `seat` by PUCT among those legal here (pending descents count as visits worth 0)."""
        priors = node.priors
        assert priors is not None
        children = node.children
        total = 0
        for edge in edges:
            child = children.get(edge)
            if child is not None:
                total += child.visits + child.pending
        root_share = math.sqrt(total + 1)
        seen = node.visits + node.pending
        parent_mean = node.value[seat] / seen if seen else 0.0
        c = self.config.exploration
        fallback = 1.0 / len(edges)
        best: Edge | None = None
        best_score = -math.inf
        for edge in edges:
            prior = priors.get(edge, fallback)
            child = children.get(edge)
            if child is None:
                score = parent_mean + c * prior * root_share
            else:
                count = child.visits + child.pending
                mean = child.value[seat] / count if count else parent_mean
                score = mean + c * prior * root_share / (1 + count)
            if score > best_score:
                best, best_score = edge, score
        assert best is not None
        return best

    def _evaluate(self, leaves: list[_Leaf], root: _Node) -> None:
        """Run the leaves' observations through the network together, then expand and back up each."""
        observations = np.stack([leaf.state.observation_array(leaf.mover).reshape(-1) for leaf in leaves])
        legal = [[action for actions in leaf.edges.values() for action in actions] for leaf in leaves]
        priors, values = self.network.evaluate(observations, legal)
        mix = self.config.value_mix
        for index, leaf in enumerate(leaves):
            node = leaf.path[-1]
            if node.priors is None:
                edge_priors: dict[Edge, float] = {}
                at = 0
                policy = priors[index]
                for edge, actions in leaf.edges.items():
                    edge_priors[edge] = float(policy[at : at + len(actions)].sum())
                    at += len(actions)
                if node is root and self.config.noise > 0:
                    edge_priors = self._noisy(edge_priors)
                node.priors = edge_priors
            num_players = leaf.state.num_players
            row = values[index]
            # The value head speaks in the observation's order (the viewer first): turned back to seats.
            value = [float(row[(seat - leaf.mover) % num_players]) for seat in range(num_players)]
            if mix > 0:
                heuristic = self.heuristic(leaf.state)
                value = [(1 - mix) * v + mix * h for v, h in zip(value, heuristic, strict=True)]
            self._backup(leaf.path, value)

    def _noisy(self, priors: dict[Edge, float]) -> dict[Edge, float]:
        """The root's priors blended with Dirichlet noise (self-play explores moves the network does not favour)."""
        weight = self.config.noise
        draws = [self.rng.gammavariate(self.config.noise_alpha, 1.0) for _ in priors]
        total = sum(draws) or 1.0
        return {edge: (1 - weight) * p + weight * d / total for (edge, p), d in zip(priors.items(), draws, strict=True)}

    def heuristic(self, state: State) -> list[float]:
        """The game's heuristic as win shares (a softmax over `game.evaluate`, its temperature adapted as MCTS's)."""
        values = evaluations(state)
        mean = sum(values) / len(values)
        self.scale_total += sum(abs(v - mean) for v in values) / len(values)
        self.scale_count += 1
        return softmax_rewards(values, max(self.scale_total / self.scale_count, 1e-6))

    @staticmethod
    def _backup(path: list[_Node], value: list[float]) -> None:
        for node in path:
            node.pending -= 1
            node.visits += 1
            summed = node.value
            for seat, share in enumerate(value):
                summed[seat] += share


def _own_edges(legal: list[int]) -> dict[Edge, list[int]]:
    """Each legal action as its own edge (perfect information: every action is seen by every seat)."""
    return {action: [action] for action in legal}


def _child(node: _Node, edge: Edge, num_players: int) -> _Node:
    child = node.children.get(edge)
    if child is None:
        child = node.children[edge] = _Node(num_players)
    return child


def win_shares(returns: list[float]) -> list[float]:
    """`returns()` as win shares summing to 1 (a game whose returns do not sum to 1 is shifted and scaled)."""
    low = min(returns)
    shifted = [r - low for r in returns]
    total = sum(shifted)
    if total <= 0:
        return [1.0 / len(returns)] * len(returns)
    return [r / total for r in shifted]


def shipped_model_exists(game: Game, num_players: int) -> bool:
    """Whether a model is shipped for `game` at `num_players` seats."""
    return (MODELS / f"{game.name}-{num_players}p.npz").exists()


def shipped_model(game: Game, num_players: int) -> Path:
    """The model shipped for `game` at `num_players` seats, or `ModelError` saying how to train one."""
    path = MODELS / f"{game.name}-{num_players}p.npz"
    if not path.exists():
        raise ModelError(
            f"learned: no model is shipped for {game.name} with {num_players} players; seat a model file as "
            'learned:PATH (docs/bots.md, "Learned bot")'
        )
    return path


class LearnedBot(Bot):
    """PUCT search guided by a model: the one shipped for the game and player count, or one read from a file."""

    def __init__(
        self,
        spec: str,
        seed: int = 0,
        path: Path | None = None,
        config: PUCTConfig | None = None,
        given: dict[str, Setting] | None = None,
    ) -> None:
        super().__init__(spec, seed)
        self.path = path
        #: The search settings named in the spec; the rest come from the model card's `search`, then the defaults.
        self.given: dict[str, Setting] = dict(given or {})
        self.config = config
        #: A cut-off on the clock set by `within`, over whatever budget the settings give.
        self.cap: float | None = None
        #: Iterations run by the last `step` that searched.
        self.last_iterations = 0

    def within(self, seconds: float) -> LearnedBot:
        """The same bot with its search cut off after `seconds` at most."""
        bot = LearnedBot(self.spec, self.seed, self.path, self.config, self.given)
        bot.cap = seconds if self.cap is None else min(seconds, self.cap)
        return bot

    def model_for(self, game: Game, num_players: int) -> Network:
        """The model this bot plays `game` with at `num_players` seats, checked to fit it (`ModelError` if not)."""
        path = self.path if self.path is not None else shipped_model(game, num_players)
        network = load_model(path)
        check_fits(
            network.card,
            str(path),
            game.name,
            num_players,
            game.num_distinct_actions,
            game.observation_tensor_shape(num_players),
        )
        return network

    def check_for(self, game: Game, num_players: int) -> None:
        """`ModelError` if this bot has no usable model for `game` at `num_players` seats."""
        if not game.provides_observation_tensor:
            raise ModelError(f"{self.spec}: {game.name} encodes no observation tensor, so no network can read it")
        self.model_for(game, num_players)

    def search_config(self, network: Network) -> PUCTConfig:
        """The search settings: those named in the spec over the model card's over the defaults."""
        if self.config is not None:
            config = replace(self.config, **self.given) if self.given else self.config
        else:
            known = {"iterations", "seconds", "exploration", "batch", "value_mix"}
            settings = {key: value for key, value in network.card.search.items() if key in known}
            settings.update(self.given)
            if "seconds" in self.given and "iterations" not in self.given:
                settings["iterations"] = None  # `learned:seconds=S` is a pure time budget
            try:
                config = replace(PUCTConfig(), **settings)
            except (TypeError, ValueError) as error:
                raise ModelError(f"{self.path or 'the shipped model'}: card field 'search': {error}") from None
        if self.cap is not None:
            config = replace(config, seconds=self.cap if config.seconds is None else min(self.cap, config.seconds))
        return config

    def _needs_world(self, state: State, player: int, legal: list[int]) -> bool:
        """Never: with hidden information every iteration draws its own world from the seat's information state."""
        return False

    def _choose(self, state: State, player: int, legal: list[int]) -> int:
        network = self.model_for(get_game(state.game.name), state.num_players)
        if state.game.information != PERFECT:
            rng = random.Random(int.from_bytes(self._infostate_digest(state, player, "choose"), "big"))
        else:
            rng = self.rng_for(state)
        result, means = Search(network, self.search_config(network), player, rng).run(state, legal)
        self.last_iterations = result.iterations
        return result.best(legal, player, means)
