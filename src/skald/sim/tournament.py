"""A tournament: bots seated in rotation over many seeded games, then summarised."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from skald.bots import check_spec
from skald.engine import get_game
from skald.engine.registry import import_game_modules
from skald.sim.backends import Progress, run_tasks
from skald.sim.lineup import entrant_names, lineups, spec_of
from skald.sim.match import GameResult, GameTask, derive_seed
from skald.sim.stats import EntrantStats, SeatStats, summarise_entrants, summarise_seats


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: the game, the bots, how many seats and games, and the master seed."""

    game: str
    bots: tuple[str, ...]
    num_players: int
    games: int
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    imports: tuple[str, ...] = ()

    def entrants(self) -> list[str]:
        """The entrant names, one per bot (the last bot repeated to fill the seats)."""
        return entrant_names(list(self.bots), self.num_players)

    def check(self) -> None:
        """Raise `ValueError` naming the setting at fault."""
        import_game_modules(self.imports)
        rules = get_game(self.game)
        rules.check_players(self.num_players)
        if self.games < 1:
            raise ValueError(f"games: play at least one game, not {self.games}")
        for spec in self.bots:
            check_spec(spec, rules, self.num_players)

    def tasks(self) -> list[GameTask]:
        """One task per game: game `g` takes seating `g` of the rotation and a seed derived from (seed, g)."""
        cycle = lineups(self.entrants(), self.num_players)
        return [self.task(index, cycle) for index in range(self.games)]

    def task(self, index: int, cycle: list[tuple[str, ...]] | None = None) -> GameTask:
        """Game `index`'s task (whether or not this run plays that many games)."""
        rotation = cycle if cycle is not None else lineups(self.entrants(), self.num_players)
        seating = rotation[index % len(rotation)]
        return GameTask(
            game=self.game,
            num_players=self.num_players,
            index=index,
            seed=derive_seed(self.seed, "game", index),
            specs=tuple(spec_of(name) for name in seating),
            entrants=seating,
            options=self.options,
            imports=self.imports,
        )


@dataclass
class TournamentResult:
    """Every game's result with the per-entrant and per-seat summaries."""

    config: TournamentConfig
    games: list[GameResult]
    entrants: list[EntrantStats] = field(default_factory=list)
    seats: list[SeatStats] = field(default_factory=list)
    backend: str = "local"
    workers: int | None = None


def run_tournament(
    config: TournamentConfig,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    on_result: Progress | None = None,
    finished: Mapping[int, GameResult] | None = None,
) -> TournamentResult:
    """Play the tournament on `backend` and summarise it; identical results for the same config and seed.

    Games already `finished` (by index, from a stopped run's journal) are not played again."""
    config.check()
    done = dict(finished or {})
    left = [task for task in config.tasks() if task.index not in done]
    played = run_tasks(left, backend, workers, address, on_result)
    games = sorted([*played, *(done[index] for index in done if index < config.games)], key=lambda game: game.index)
    return TournamentResult(
        config=config,
        games=games,
        entrants=summarise_entrants(games, config.entrants()),
        seats=summarise_seats(games, config.num_players),
        backend=backend,
        workers=workers,
    )
