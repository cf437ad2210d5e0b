"""Vikings by Michael Kiesling: the base game for 2–4 players, exact to the Z-Man rulebook, and the advanced game.

Importing the package registers the game (`game`), as the `skald.games` entry point expects.
"""

from skald.games.vikings import game  # noqa: F401  (registers "vikings")
