"""The positions training learns from: the most recent self-play decisions, kept as flat numpy arrays.

Each position is a flattened observation (stored as float16: the tensors lie in [-1, 1] at steps of 1/78 or
coarser), its legal action ids with the search's visit shares (a sparse policy: `offsets` marks where each
position's ids begin in `ids` and `shares`), and the win shares per seat, viewer first. When the buffer holds more
than its capacity, the oldest positions go first. It is stored as an `.npz` of these arrays, nothing pickled.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import numpy as np
import numpy.typing as npt

from skald.train.selfplay import SelfPlayGame

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]


class BufferError(ValueError):
    """A buffer file that cannot be read back, or that belongs to another table; the message names the array."""


class Buffer:
    """The last `capacity` positions of self-play, oldest first."""

    def __init__(self, inputs: int, players: int, capacity: int) -> None:
        self.inputs = inputs
        self.players = players
        self.capacity = capacity
        self.observations = np.zeros((0, inputs), dtype=np.float16)
        self.offsets: IntArray = np.zeros(1, dtype=np.int64)
        self.ids = np.zeros(0, dtype=np.int32)
        self.shares: FloatArray = np.zeros(0, dtype=np.float32)
        self.values: FloatArray = np.zeros((0, players), dtype=np.float32)

    def __len__(self) -> int:
        return int(self.observations.shape[0])

    def add(self, games: list[SelfPlayGame]) -> int:
        """Append every position of `games` (dropping the oldest beyond the capacity); the number added."""
        observations = [row for played in games for row in played.observations]
        if not observations:
            return 0
        legal = [ids for played in games for ids in played.legal]
        policies = [shares for played in games for shares in played.policies]
        values = [value for played in games for value in played.values]
        lengths = np.array([len(ids) for ids in legal], dtype=np.int64)
        self.observations = np.concatenate([self.observations, np.stack(observations).astype(np.float16)])
        self.offsets = np.concatenate([self.offsets, self.offsets[-1] + np.cumsum(lengths)])
        self.ids = np.concatenate([self.ids, np.array([i for ids in legal for i in ids], dtype=np.int32)])
        self.shares = np.concatenate([self.shares, np.array([p for ps in policies for p in ps], dtype=np.float32)])
        self.values = np.concatenate([self.values, np.array(values, dtype=np.float32)])
        self._trim()
        return len(observations)

    def _trim(self) -> None:
        extra = len(self) - self.capacity
        if extra <= 0:
            return
        cut = int(self.offsets[extra])
        self.observations = self.observations[extra:]
        self.offsets = self.offsets[extra:] - cut
        self.ids = self.ids[cut:]
        self.shares = self.shares[cut:]
        self.values = self.values[extra:]

    def batch(
        self, rows: IntArray, num_actions: int
    ) -> tuple[FloatArray, npt.NDArray[np.bool_], FloatArray, FloatArray]:
        """The positions at `rows` as dense arrays: observations, legal mask, policy targets, value targets."""
        count = len(rows)
        mask = np.zeros((count, num_actions), dtype=np.bool_)
        policy = np.zeros((count, num_actions), dtype=np.float32)
        for at, row in enumerate(rows):
            start, end = self.offsets[row], self.offsets[row + 1]
            ids = self.ids[start:end]
            mask[at, ids] = True
            policy[at, ids] = self.shares[start:end]
        return self.observations[rows].astype(np.float32), mask, policy, self.values[rows]

    def save(self, path: Path) -> None:
        """Write the buffer to `path` whole (written aside, then renamed)."""
        temporary = path.with_name(path.name + ".part")
        with temporary.open("wb") as out:
            np.savez_compressed(
                out,
                observations=self.observations,
                offsets=self.offsets,
                ids=self.ids,
                shares=self.shares,
                values=self.values,
            )
        os.replace(temporary, path)

    @staticmethod
    def load(path: Path, inputs: int, players: int, capacity: int) -> Buffer:
        """The buffer stored at `path` for a table of `inputs` observation entries and `players` seats."""
        buffer = Buffer(inputs, players, capacity)
        try:
            with np.load(path, allow_pickle=False) as stored:
                arrays = {name: stored[name] for name in stored.files}
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            raise BufferError(f"{path}: not a buffer file ({error})") from None
        for name in ("observations", "offsets", "ids", "shares", "values"):
            if name not in arrays:
                raise BufferError(f"{path}: array {name!r} is missing")
        rows = arrays["observations"].shape[0]
        checks = [
            ("observations", arrays["observations"].shape == (rows, inputs), f"{rows} × {inputs}"),
            ("offsets", arrays["offsets"].shape == (rows + 1,), f"{rows + 1} entries"),
            ("values", arrays["values"].shape == (rows, players), f"{rows} × {players}"),
            ("ids", arrays["ids"].shape == arrays["shares"].shape, "as many entries as 'shares'"),
        ]
        for name, good, needs in checks:
            if not good:
                raise BufferError(f"{path}: array {name!r} has shape {list(arrays[name].shape)}, it needs {needs}")
        buffer.observations = arrays["observations"].astype(np.float16)
        buffer.offsets = arrays["offsets"].astype(np.int64)
        buffer.ids = arrays["ids"].astype(np.int32)
        buffer.shares = arrays["shares"].astype(np.float32)
        buffer.values = arrays["values"].astype(np.float32)
        buffer._trim()
        return buffer
