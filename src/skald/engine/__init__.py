"""The game contract every Skald game speaks: states, actions, chance, records and the registry."""

from skald.engine.game import Game, OptionError, PositionError, RuleOption, WithdrawnOption
from skald.engine.play import play_random_game, sample_chance
from skald.engine.presentation import CardFace, Presentation, StandingAnswer, target_key
from skald.engine.record import Record, RecordError, Seat
from skald.engine.registry import game_names, get_game, listed_games, register
from skald.engine.standings import Departures, StandingRow, Standings, final_standings
from skald.engine.state import CHANCE, IMPERFECT, PERFECT, TERMINAL, GameLike, IllegalAction, JSONDict, State
from skald.engine.undo import Step, TakeBack, step_of, steps_of, take_back

__all__ = [
    "CHANCE",
    "IMPERFECT",
    "PERFECT",
    "TERMINAL",
    "CardFace",
    "Departures",
    "Game",
    "GameLike",
    "IllegalAction",
    "JSONDict",
    "OptionError",
    "PositionError",
    "Presentation",
    "Record",
    "RecordError",
    "RuleOption",
    "Seat",
    "StandingAnswer",
    "StandingRow",
    "Standings",
    "State",
    "Step",
    "TakeBack",
    "WithdrawnOption",
    "final_standings",
    "game_names",
    "get_game",
    "listed_games",
    "play_random_game",
    "register",
    "sample_chance",
    "step_of",
    "steps_of",
    "take_back",
    "target_key",
]
