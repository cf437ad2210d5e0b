"""Vikingdoms, the two-player raid game: recruitment on a 4×4 board, raids on five islands.

Importing the package registers the game (`game`), as the `skald.games` entry point expects.
"""

from skald.games.vikingdoms import game  # noqa: F401  (registers "vikingdoms")
