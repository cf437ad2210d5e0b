"""Simulation: tournaments of bots over many seeded games, on a process pool or a Ray cluster."""

from skald.sim.backends import BACKENDS, default_workers, run_tasks
from skald.sim.match import GameResult, GameTask, derive_seed, play_game
from skald.sim.report import to_dict, write_all
from skald.sim.stats import EntrantStats, SeatStats, wilson
from skald.sim.tournament import TournamentConfig, TournamentResult, run_tournament

__all__ = [
    "BACKENDS",
    "EntrantStats",
    "GameResult",
    "GameTask",
    "SeatStats",
    "TournamentConfig",
    "TournamentResult",
    "default_workers",
    "derive_seed",
    "play_game",
    "run_tasks",
    "run_tournament",
    "to_dict",
    "wilson",
    "write_all",
]
