"""Bots that speak only the game contract: `random`, `greedy`, `mcts` and `learned`, built from spec strings."""

from skald.bots.base import Bot
from skald.bots.greedy import GreedyBot
from skald.bots.mcts import LEVELS, MCTSBot, MCTSConfig
from skald.bots.puct import LearnedBot, PUCTConfig
from skald.bots.random_bot import RandomBot
from skald.bots.spec import KINDS, SpecError, check_spec, make_bot

__all__ = [
    "KINDS",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "LearnedBot",
    "MCTSBot",
    "MCTSConfig",
    "PUCTConfig",
    "RandomBot",
    "SpecError",
    "check_spec",
    "make_bot",
]
