"""Monte Carlo tree search for 2–4 players with chance nodes: each seat maximises its own reward (max^n).

Chance nodes are sampled by their outcome probabilities. Rollouts play the game's rollout moves (uniformly random
legal ones unless the game says otherwise, `Game.rollout_action`) for a few plies, then stop and turn the game's
heuristic into a per-seat reward vector (a softmax over `game.evaluate`), or take `returns()` when the game ends first.
Each node keeps the sum of those vectors; a seat choosing at a node picks the child best for itself by UCT on its own
component.

In an imperfect-information game the search is single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley &
Whitehouse 2012, "Information Set Monte Carlo Tree Search"): one tree of action sequences from the root, and each
iteration draws a determinization from the bot's information state (`resample_from_infostate`), descends only
through the children whose actions are legal in it, and scores them by UCB with availability counts (how often a
child could have been chosen) in place of the parent's visits. The true hidden state is never searched. An action the
searching seat cannot see (a card dealt to another seat, another seat's secret bid) is an edge named by what the seat
sees of it (`notation_for`), so all such actions share one edge and the seat's later decisions are never told apart by
information it will not have (the merge of partially observable moves in the same paper); at such an edge the acting
seat's actual move is drawn uniformly among those in the determinization that look alike to the searching seat. A
decision with a single edge in the determinization (a holder asked in a card window with nothing to play) is passed
through as a chance node is, so that the iteration's expansion comes at a decision where the searching seat can tell
choices apart.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace

from skald.bots.base import Bot
from skald.bots.evaluation import evaluations, softmax_rewards
from skald.engine import CHANCE, PERFECT, TERMINAL, State, sample_chance


@dataclass(frozen=True)
class MCTSConfig:
    """A search budget and its knobs; `iterations` keeps a bot deterministic, `seconds` does not."""

    iterations: int | None = 1000
    seconds: float | None = None
    exploration: float = 0.7
    rollout_depth: int | None = 4
    temperature: float = 1.0

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("mcts: give a budget in iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"mcts: iters must be at least 1, not {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"mcts: seconds must be positive, not {self.seconds}")
        if self.rollout_depth is not None and self.rollout_depth < 0:
            raise ValueError(f"mcts: depth must be at least 0, not {self.rollout_depth}")
        if self.temperature <= 0:
            raise ValueError(f"mcts: temp must be positive, not {self.temperature}")


#: The named levels; typical seconds a move on Vikings are measured by `benchmarks/bench_mcts.py`.
LEVELS: dict[str, MCTSConfig] = {
    "easy": MCTSConfig(iterations=100),
    "normal": MCTSConfig(iterations=300),
    "hard": MCTSConfig(iterations=2000),
}


class Analysis:
    """What one search found: the action it chooses for the seat to act (-1 where it chooses none) and each seat's
    mean reward over the search, which is the bot's estimate of that seat's chances (a share of the win, 0–1)."""

    __slots__ = ("action", "values")

    def __init__(self, action: int, values: list[float]) -> None:
        self.action = action
        self.values = values


# The compiled build compiles this module (skald.build.COMPILED): the nodes become native classes with typed fields,
# and MCTSBot, whose base Bot stays interpreted, an ordinary class whose methods are compiled.
class _Node:
    """One position in the tree: who acts there, its children by action, and the summed reward vector."""

    __slots__ = ("children", "player", "untried", "value", "visits")

    def __init__(self, player: int, num_players: int) -> None:
        self.player = player
        self.visits = 0
        self.value = [0.0] * num_players
        self.children: dict[int, _Node] = {}
        #: The actions not expanded yet, listed on the first visit that chooses here (None before).
        self.untried: list[int] | None = None


#: An edge of the information-set tree: an action id, or, for an action hidden from the searching seat, its notation
#: as that seat sees it (so actions that seat cannot tell apart share one edge).
Edge = int | str


class _InfoNode:
    """One sequence of actions as the searching seat sees them, from the root of an information-set tree: its
    children by edge, the summed reward vector, and how often it was available to choose (legal in the
    determinization)."""

    __slots__ = ("available", "children", "value", "visits")

    def __init__(self, num_players: int) -> None:
        self.visits = 0
        self.available = 1
        self.value = [0.0] * num_players
        self.children: dict[Edge, _InfoNode] = {}


class _Budget:
    """How many iterations a search may still run: a count, a deadline on the clock, or both."""

    __slots__ = ("deadline", "done", "limit")

    def __init__(self, config: MCTSConfig) -> None:
        self.limit = config.iterations
        self.deadline = None if config.seconds is None else time.perf_counter() + config.seconds
        self.done = 0

    def more(self) -> bool:
        """Whether another iteration may run (the first always does, however short the time budget)."""
        if self.limit is not None and self.done >= self.limit:
            return False
        return self.deadline is None or self.done == 0 or time.perf_counter() < self.deadline

    def decided(self, visits: list[int]) -> bool:
        """Whether a search counted in iterations alone can no longer change its choice, given the root children's
        visit counts: each iteration adds at most one visit to one child, so once the most visited child leads every
        other by more than the iterations left, it is chosen however they go (strictly more: a tie is never
        reachable). A time budget as well only ends the search sooner, when the leader could not have changed
        either; with a time budget alone the iterations left are not known, and the search runs to the clock."""
        if self.limit is None:
            return False
        first = second = 0
        for count in visits:
            if count > first:
                first, second = count, first
            elif count > second:
                second = count
        return first - second > self.limit - self.done


class _Scale:
    """The softmax temperature, adapted to how far apart the seats' evaluations are seen to be."""

    __slots__ = ("count", "factor", "total")

    def __init__(self, factor: float) -> None:
        self.factor = factor
        self.total = 0.0
        self.count = 0

    def observe(self, values: list[float]) -> float:
        mean = sum(values) / len(values)
        self.total += sum(abs(v - mean) for v in values) / len(values)
        self.count += 1
        return max(self.factor * self.total / self.count, 1e-6)


class MCTSBot(Bot):
    """UCT search over a max^n tree with sampled chance nodes and evaluation-terminated rollouts."""

    def __init__(self, spec: str, seed: int = 0, config: MCTSConfig | None = None) -> None:
        super().__init__(spec, seed)
        self.config = config or LEVELS["normal"]
        #: Iterations run by the last `step` that searched (for benchmarks).
        self.last_iterations = 0

    def within(self, seconds: float) -> MCTSBot:
        """The same search (seed, spec and knobs) with its clock budget no longer than `seconds`."""
        cap = seconds if self.config.seconds is None else min(seconds, self.config.seconds)
        return MCTSBot(self.spec, self.seed, replace(self.config, seconds=cap))

    def _needs_world(self, state: State, player: int, legal: list[int]) -> bool:
        """Never: with hidden information every iteration draws its own world from the seat's information state
        (`_search_information_sets`), so one drawn before the search would only be searched from again."""
        return False

    def _choose(self, state: State, player: int, legal: list[int]) -> int:
        if state.game.information != PERFECT:
            return self._search_information_sets(state, player, legal, decide=True).action
        return self._search(state, legal, decide=True).action

    def analyse(self, state: State, perspective: int | None = None) -> Analysis:
        """Search from `state` as a move would, and tell what was found: the action chosen for the seat to act (-1
        at a chance node or the end) and each seat's mean reward over the search.

        `state` may be a decision, a chance node or the end (then the rewards are the returns). In a game with
        hidden information the search sees only the information state of `perspective` (by default the seat to
        act; it must be given at a chance node): every iteration draws its own determinization from it, and where
        `perspective` is not the seat to act no action is chosen (-1). In a game without hidden information
        `perspective` changes nothing: the search is the same from every point of view."""
        mover = state.current_player()
        if mover == TERMINAL:
            return Analysis(-1, [float(r) for r in state.returns()])
        if state.game.information == PERFECT:
            return self._search(state, state.legal_actions() if mover >= 0 else [])
        seat = mover if perspective is None else perspective
        if seat < 0:
            raise ValueError("mcts: analysing a chance node of a game with hidden information needs a perspective")
        return self._search_information_sets(state, seat, state.legal_actions() if seat == mover else [])

    def _search(self, state: State, legal: list[int], decide: bool = False) -> Analysis:
        """UCT from `state` (a decision whose `legal` actions are given, or a chance node with none). With `decide`
        only the action is wanted, so the search stops as soon as more iterations cannot change it (the values it
        returns then come from fewer iterations)."""
        rng = self.rng_for(state)
        root = _Node(state.current_player(), state.num_players)
        if legal:
            root.untried = list(legal)
        scale = _Scale(self.config.temperature)
        budget = _Budget(self.config)
        while budget.more():
            self._iterate(root, state.clone(), rng, scale)
            budget.done += 1
            if decide and budget.decided([child.visits for child in root.children.values()]):
                break
        self.last_iterations = budget.done
        values = [value / max(root.visits, 1) for value in root.value]
        if not legal:
            return Analysis(-1, values)
        player = root.player
        best = max(
            root.children.items(),
            key=lambda item: (item[1].visits, item[1].value[player] / max(item[1].visits, 1), -item[0]),
        )[0]
        return Analysis(best, values)

    def _search_information_sets(self, state: State, player: int, legal: list[int], decide: bool = False) -> Analysis:
        """SO-ISMCTS for `player` from `state` (only its information state for `player` is used: every iteration
        draws a determinization from it); `legal` are `player`'s actions when it is to move, else none. `decide` stops
        early, as `_search`'s does."""
        # Seeded by what `player` knows (for the seat to act, as `rng_for`), so that its estimates never depend on
        # what it cannot see, even through the draws of the search.
        rng = random.Random(int.from_bytes(self._infostate_digest(state, player, "choose"), "big"))
        root = _InfoNode(state.num_players)
        scale = _Scale(self.config.temperature)
        budget = _Budget(self.config)
        while budget.more():
            budget.done += 1
            try:
                world = state.resample_from_infostate(player, rng)
            except RuntimeError:
                continue  # no world found this time (the game's resampler gave up): the iteration is spent
            self._iterate_information_sets(root, world, player, rng, scale)
            if decide and budget.decided([root.children[a].visits for a in legal if a in root.children]):
                break
        self.last_iterations = budget.done
        values = [value / max(root.visits, 1) for value in root.value]
        if not legal:
            return Analysis(-1, values)
        # The root's actions are legal in every determinization, since the mover knows its own legal actions; the
        # seat's own actions are edges by id.
        tried = [(action, root.children[action]) for action in legal if action in root.children]
        if not tried:
            return Analysis(legal[self.draw(state, len(legal))], values)
        best = max(
            tried,
            key=lambda item: (item[1].visits, item[1].value[player] / max(item[1].visits, 1), -item[0]),
        )[0]
        return Analysis(best, values)

    def _iterate_information_sets(
        self, root: _InfoNode, state: State, player: int, rng: random.Random, scale: _Scale
    ) -> None:
        """One SO-ISMCTS iteration on the determinization `state` for the searching seat `player`: selection among
        the edges legal in it, expansion, rollout and backup."""
        node = root
        path = [root]
        c = self.config.exploration
        num_players = state.num_players
        while True:
            mover = state.current_player()
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                outcome = sample_chance(state, rng)
                edge = _edge(state, outcome, mover, player)
                state.apply_legal(outcome)
                child = node.children.get(edge)
                if child is None:
                    child = node.children[edge] = _InfoNode(num_players)
                node = child
                path.append(node)
                continue
            edges = _edges(state, state.legal_actions(), mover, player)
            if not edges:
                break  # a decision without a choice in this determinization (a game's fault): score it as it stands
            children = node.children
            if len(edges) == 1:
                # Forced, as far as the searching seat can tell (nothing it could tell apart is chosen here), so the
                # descent goes on to the next decision as through a chance node, instead of spending the iteration's
                # expansion on this one.
                edge = next(iter(edges))
                child = children.get(edge)
                if child is None:
                    child = children[edge] = _InfoNode(num_players)
                else:
                    child.available += 1
                state.apply_legal(_pick(edges[edge], rng))
                node = child
                path.append(node)
                continue
            untried = [edge for edge in edges if edge not in children]
            if untried:
                edge = untried[rng.randrange(len(untried))]
                # Expansion: the siblings legal in this determinization were available too (the paper counts
                # them in its backpropagation), as the new child is by being created.
                for sibling in edges:
                    if sibling in children:
                        children[sibling].available += 1
                state.apply_legal(_pick(edges[edge], rng))
                node = children[edge] = _InfoNode(num_players)
                path.append(node)
                break
            edge, node = self._select_available(children, edges, mover, c)
            state.apply_legal(_pick(edges[edge], rng))
            path.append(node)
        rewards = self._rollout(state, rng, scale)
        for visited in path:
            visited.visits += 1
            value = visited.value
            for seat, reward in enumerate(rewards):
                value[seat] += reward

    @staticmethod
    def _select_available(
        children: dict[Edge, _InfoNode], edges: dict[Edge, list[int]], seat: int, c: float
    ) -> tuple[Edge, _InfoNode]:
        """Among the edges legal here, the best for `seat` by UCB with availability counts; each of them was
        available this time, so each count rises."""
        best: tuple[Edge, _InfoNode] | None = None
        best_score = -float("inf")
        for edge in edges:
            child = children[edge]
            score = child.value[seat] / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = (edge, child), score
            child.available += 1
        assert best is not None
        return best

    def _iterate(self, root: _Node, state: State, rng: random.Random, scale: _Scale) -> None:
        """One selection, expansion, rollout and backup."""
        node = root
        path = [root]
        c = self.config.exploration
        num_players = state.num_players
        while True:
            player = node.player
            if player == TERMINAL:
                break
            if player == CHANCE:
                outcome = state.sample_chance_outcome(rng)
                state.apply_legal(outcome)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = _Node(state.current_player(), num_players)
                node = child
                path.append(node)
                continue
            untried = node.untried
            if untried is None:
                untried = node.untried = state.legal_actions()
            if untried:
                action = untried.pop(rng.randrange(len(untried)))
                state.apply_legal(action)
                child = _Node(state.current_player(), num_players)
                node.children[action] = child
                path.append(child)
                break
            action, node = self._select(node, c)
            state.apply_legal(action)
            path.append(node)
        rewards = self._rollout(state, rng, scale)
        for visited in path:
            visited.visits += 1
            value = visited.value
            for seat in range(num_players):
                value[seat] += rewards[seat]

    @staticmethod
    def _select(node: _Node, c: float) -> tuple[int, _Node]:
        """The action and child best for the seat acting at `node` by UCT on that seat's own reward."""
        seat = node.player
        log_visits = math.log(node.visits)
        best: tuple[int, _Node] | None = None
        best_score = -float("inf")
        for action, child in node.children.items():
            score = child.value[seat] / child.visits + c * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best, best_score = (action, child), score
        assert best is not None
        return best

    def _rollout(self, state: State, rng: random.Random, scale: _Scale) -> list[float]:
        """The game's rollout play (`Game.rollout_action`, uniform unless the game says otherwise) for up to
        `rollout_depth` decisions, then a per-seat reward vector."""
        depth = self.config.rollout_depth
        limit = -1 if depth is None else depth
        policy = state.game.rollout_action
        moves = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return [float(r) for r in state.returns()]
            if player == CHANCE:
                state.apply_legal(state.sample_chance_outcome(rng))
                continue
            if moves == limit:
                break
            legal = state.legal_actions()
            if not legal:
                # A seat to act with no legal action is the game's fault; the true game raises there (`Bot.step`),
                # but a search may reach it in a determinization of its own, so it scores the position instead.
                break
            state.apply_legal(policy(state, legal, rng))
            moves += 1
        values = evaluations(state)
        return softmax_rewards(values, scale.observe(values))


def _edge(state: State, action: int, mover: int, player: int) -> Edge:
    """The edge `action` (by `mover`, or chance) takes in `player`'s tree: its id, unless `player` may not learn
    which action it is; then what `player` sees of it. A seat always knows its own choices."""
    if mover != player and state.action_hidden_from(action, player):
        return state.notation_for(action, player)
    return action


def _edges(state: State, legal: list[int], mover: int, player: int) -> dict[Edge, list[int]]:
    """The edges legal here in `player`'s tree, each with the legal actions it stands for, in the order listed."""
    edges: dict[Edge, list[int]] = {}
    for action in legal:
        edge = _edge(state, action, mover, player)
        actions = edges.get(edge)
        if actions is None:
            edges[edge] = [action]
        else:
            actions.append(action)
    return edges


def _pick(actions: list[int], rng: random.Random) -> int:
    """One of the actions an edge stands for: the only one, or one drawn uniformly (no draw for a single one, so a
    search whose edges are all single actions draws as it did before edges could merge)."""
    return actions[0] if len(actions) == 1 else actions[rng.randrange(len(actions))]
