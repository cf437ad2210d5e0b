"""Learning interfaces: OpenSpiel registration, a PettingZoo AEC environment and a Gymnasium single-agent wrapper.

Each lives in its own module (`skald.rl.openspiel`, `skald.rl.pettingzoo_env`, `skald.rl.gymnasium_env`) so that
importing one needs only its own library; all three come with the `skald[rl]` extra.
"""

from skald.rl.common import learnable_games, max_game_length

__all__ = ["learnable_games", "max_game_length"]
