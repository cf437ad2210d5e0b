"""Simulation: designers' runs and tournaments of bots over many seeded games, on a process pool or a Ray cluster."""

from skald.sim.backends import BACKENDS, default_workers, run_each, run_tasks
from skald.sim.match import GameResult, GameTask, derive_seed, play_game
from skald.sim.report import to_dict, write_all
from skald.sim.simulation import GameSummary, Simulation, Variant, simulate, variants
from skald.sim.stats import EntrantStats, SeatStats, wilson
from skald.sim.tournament import TournamentConfig, TournamentResult, run_tournament

__all__ = [
    "BACKENDS",
    "EntrantStats",
    "GameResult",
    "GameSummary",
    "GameTask",
    "SeatStats",
    "Simulation",
    "TournamentConfig",
    "TournamentResult",
    "Variant",
    "default_workers",
    "derive_seed",
    "play_game",
    "run_each",
    "run_tasks",
    "run_tournament",
    "simulate",
    "to_dict",
    "variants",
    "wilson",
    "write_all",
]
