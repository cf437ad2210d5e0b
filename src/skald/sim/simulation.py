"""A designer's simulation: many seeded games of one game under one or more rule variants, random or by bots.

Game `i` of a run is seeded with `seed + i` whatever the variant, the backend or the number of workers, so two
variants are compared on the same seeds and any single game can be replayed on its own (`skald simulate GAME
--seed S+i --games 1 --show`). Games travel to workers in batches of consecutive indices; a batch is only a unit of
transport, never of randomness.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from skald.bots import make_bot
from skald.engine import CHANCE, TERMINAL, get_game
from skald.engine.registry import import_game_modules
from skald.sim.backends import default_workers, run_each
from skald.sim.match import derive_seed

#: A batch never holds more games than this, so the progress bar moves and the pool stays balanced.
MAX_BATCH = 50


@dataclass(frozen=True)
class Variant:
    """One set of rule options under test, with the label it is reported by (e.g. `ship_row=touching`)."""

    label: str
    options: tuple[tuple[str, Any], ...] = ()


def variants(base: dict[str, Any], compare: list[tuple[str, list[Any]]]) -> list[Variant]:
    """Every combination of the compared options' values over the `base` options, the first values first."""
    fixed = tuple(sorted(base.items()))
    if not compare:
        return [Variant("as given", fixed)]
    found = []
    for values in product(*(choices for _, choices in compare)):
        chosen = {name: value for (name, _), value in zip(compare, values, strict=True)}
        label = " ".join(f"{name}={_text(value)}" for name, value in chosen.items())
        found.append(Variant(label, tuple(sorted((base | chosen).items()))))
    return found


def _text(value: Any) -> str:
    """An option value as it is typed: `true` for True, as JSON reads it back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Batch:
    """What a worker needs to play games `first .. first + count - 1` of one variant."""

    game: str
    num_players: int
    variant: int
    options: tuple[tuple[str, Any], ...]
    seed: int
    first: int
    count: int
    bots: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()
    #: The position every game starts from, as JSON text ("": the game's setup).
    position: str = ""


@dataclass
class GameSummary:
    """What one game came to: its length, scores, winners and how often each kind of action was chosen."""

    index: int
    seed: int
    decisions: int
    actions: int
    scores: list[int]
    winners: list[int]
    returns: list[float]
    kinds: dict[str, int] = field(default_factory=dict)
    #: A short fingerprint of the game's actions, chance's included: two variants played the same game on a seed
    #: exactly when their digests agree.
    digest: str = ""

    @property
    def margin(self) -> int:
        """The best score minus the second best (0 when the top is shared)."""
        ranked = sorted(self.scores, reverse=True)
        return ranked[0] - ranked[1] if len(ranked) > 1 else 0

    @property
    def top_tied(self) -> bool:
        """Whether two or more seats share the best score."""
        return self.scores.count(max(self.scores)) > 1

    @property
    def shared(self) -> bool:
        """Whether the victory is shared (the tie-breaks left more than one winner)."""
        return len(self.winners) > 1

    def row(self) -> dict[str, Any]:
        """The game as JSON-ready data (the action kinds are in the totals, not repeated per game)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "decisions": self.decisions,
            "actions": self.actions,
            "scores": self.scores,
            "winners": self.winners,
            "digest": self.digest,
        }


def play_one(
    game: str, num_players: int, options: dict[str, Any], seed: int, bots: tuple[str, ...], position: str = ""
) -> GameSummary:
    """Play one game from `seed`: random legal play (the games `play_random_game` plays) or the bots in `bots`;
    from the setup, or from `position` (a position's JSON text) with `options` laid over its rule options."""
    state = start_state(game, num_players, options, position)
    rng = random.Random(seed)
    players = [make_bot(spec, derive_seed(seed, "seat", seat)) for seat, spec in enumerate(bots)]
    kinds: dict[str, int] = {}
    decisions = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            state.apply_legal(state.sample_chance_outcome(rng))
            continue
        # rng.choice draws exactly as play_random_game does, so random play here is the same game for the seed.
        action = players[player].step(state) if players else rng.choice(state.legal_actions())
        # The kind is read before the action is applied: an action's JSON may depend on the position.
        kind = state.action_kind(action)
        kinds[kind] = kinds.get(kind, 0) + 1
        decisions += 1
        if players:
            state.apply(action)  # a bot's choice is checked like any other seat's
        else:
            state.apply_legal(action)
    return GameSummary(
        index=0,
        seed=seed,
        decisions=decisions,
        actions=len(state.history),
        scores=[int(score) for score in state.scores()],
        winners=sorted(state.winners()),
        returns=[float(share) for share in state.returns()],
        kinds=kinds,
        digest=history_digest(state.history),
    )


def start_state(game: str, num_players: int, options: dict[str, Any], position: str = "") -> Any:
    """The state a simulated game starts from: the setup, or `position` with `options` over its own."""
    if not position:
        return get_game(game).new_initial_state(num_players, options)
    data = json.loads(position)
    data["options"] = {**(data.get("options") or {}), **options}
    return get_game(game).state_from_position(data)


def history_digest(history: list[int]) -> str:
    """A game's actions as 16 hex digits (BLAKE2b), the same on every machine."""
    return hashlib.blake2b(",".join(map(str, history)).encode(), digest_size=8).hexdigest()


def play_batch(batch: Batch) -> tuple[int, list[GameSummary]]:
    """Play every game of `batch`; returns the variant's number with the games in index order."""
    import_game_modules(batch.imports)
    options = dict(batch.options)
    games = []
    for index in range(batch.first, batch.first + batch.count):
        summary = play_one(batch.game, batch.num_players, options, batch.seed + index, batch.bots, batch.position)
        summary.index = index
        games.append(summary)
    return batch.variant, games


@dataclass(frozen=True)
class Simulation:
    """What to simulate: the game, seats, number of games, first seed, the variants and who plays."""

    game: str
    num_players: int
    games: int
    seed: int = 0
    variants: tuple[Variant, ...] = (Variant("as given"),)
    bots: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()
    #: The position every game starts from, as JSON text ("": the game's setup).
    position: str = ""

    def seat_bots(self) -> tuple[str, ...]:
        """One bot spec per seat (the last spec fills the rest), or () for random play."""
        if not self.bots:
            return ()
        return tuple(self.bots) + (self.bots[-1],) * max(0, self.num_players - len(self.bots))

    def batches(self, workers: int) -> list[Batch]:
        """The games cut into batches: one game each on a single worker, else a few batches a worker."""
        size = 1 if workers <= 1 else max(1, min(MAX_BATCH, -(-self.games // (8 * workers))))
        return [
            Batch(
                game=self.game,
                num_players=self.num_players,
                variant=number,
                options=variant.options,
                seed=self.seed,
                first=first,
                count=min(size, self.games - first),
                bots=self.seat_bots(),
                imports=self.imports,
                position=self.position,
            )
            for number, variant in enumerate(self.variants)
            for first in range(0, self.games, size)
        ]


def simulate(
    simulation: Simulation,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    on_games: Callable[[int], None] | None = None,
) -> list[list[GameSummary]]:
    """Play every game of every variant on `backend`; per variant, the games in index order, whatever the workers."""
    advance = on_games or (lambda _count: None)

    def arrived(result: tuple[int, list[GameSummary]]) -> None:
        advance(len(result[1]))

    # Without a worker count, a cluster's size is unknown: batches as for eight workers keep it busy.
    spread = workers or (default_workers() if backend == "local" else 8)
    batches = simulation.batches(spread)
    played = run_each(play_batch, batches, backend, workers, address, arrived)
    per_variant: list[list[GameSummary]] = [[] for _ in simulation.variants]
    for number, games in played:
        per_variant[number].extend(games)
    return per_variant
