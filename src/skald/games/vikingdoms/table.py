"""What the text table and the observation tensor read of a Vikingdoms position, as a protocol.

`VikingdomsState` has all of it; `render` and `tensor` take a `Table`, so the state that calls them is not imported
back by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from skald.games.vikingdoms.tiles import Tile


class Table(Protocol):
    """The public table of a Vikingdoms position: board, islands, territories, allies, troop and phase."""

    @property
    def tiles(self) -> Sequence[Tile]:
        """The territory tiles of this game, by index."""

    @property
    def dealt(self) -> Sequence[int]:
        """The tiles drawn so far, in the order they were drawn."""

    @property
    def board(self) -> Sequence[tuple[int, ...]]:
        """Each square's stack, bottom to top, as the seats owning the Vikings."""

    @property
    def islands(self) -> Sequence[int]:
        """Island position i (0 = upper) holds slots 2i and 2i+1; -1 when not drawn yet or already taken."""

    @property
    def raided(self) -> Sequence[bool]:
        """Whether each island has been raided."""

    @property
    def territory(self) -> Sequence[tuple[int, ...]]:
        """Each seat's territory tiles, in the order they were collected."""

    @property
    def camp(self) -> Sequence[int]:
        """Each seat's Vikings in its camp."""

    @property
    def lockup(self) -> Sequence[int]:
        """lockup[p] counts the opponent's Vikings that p holds prisoner."""

    @property
    def allies(self) -> Sequence[int]:
        """Owner of each ally tile (Freya, Völund, Gunnar, Löke), -1 while it lies by the board."""

    @property
    def troop(self) -> tuple[int, ...]:
        """The raiding troop, bottom to top, as the seats owning its Vikings."""

    @property
    def taken(self) -> Sequence[int]:
        """The tile taken by each seat in the current raid (-1 outside a raid)."""

    @property
    def pending_allies(self) -> Sequence[tuple[int, str]]:
        """Seats owed an ally, in choosing order, with the building that earned it."""

    @property
    def phase(self) -> str:
        """The phase the game is in ("recruitment", "taking tiles", ...)."""

    @property
    def raids(self) -> int:
        """How many raids are over."""

    @property
    def marker(self) -> int:
        """The island the raid marker stands by, -1 before the start is chosen."""

    @property
    def direction(self) -> int:
        """The way the raid marker moves: 1 down from the upper island, -1 up from the lower, 0 before the start."""

    @property
    def leader(self) -> int:
        """The seat whose Viking leads the troop, -1 without a troop."""

    @property
    def rioter(self) -> int:
        """The seat that took a rioter in this raid (its opponent takes a tile from it), -1 if none."""

    @property
    def winner(self) -> int:
        """The seat that built the VI. Kingdom, -1 before the end."""

    @property
    def ending(self) -> str:
        """Why the game ended ("" before the end)."""

    def current_player(self) -> int:
        """The seat to act, or the engine's `CHANCE` or `TERMINAL`."""

    def island_tiles(self, position: int) -> list[int]:
        """The tiles still lying on island `position` (0 = upper)."""

    def coins(self, seat: int) -> int:
        """The coins in `seat`'s territory."""

    def count(self, seat: int, building: str) -> int:
        """How many tiles of `building` stand in `seat`'s territory."""
