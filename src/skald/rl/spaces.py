"""The Gymnasium spaces that the PettingZoo and Gymnasium adapters share."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces


def tensor_space(shape: tuple[int, ...], bounds: tuple[float, float]) -> spaces.Box:
    """The observation tensor: float32 within the bounds the game declares (unbounded when it declares none)."""
    low, high = bounds
    return spaces.Box(low=np.float32(low), high=np.float32(high), shape=shape, dtype=np.float32)


def mask_space(num_actions: int) -> spaces.Box:
    """The legal-action mask: int8, 1 for each legal action id."""
    return spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8)


def observation_space(
    shape: tuple[int, ...],
    num_actions: int,
    bounds: tuple[float, float] = (-np.inf, np.inf),
    mask_in_observation: bool = True,
) -> spaces.Space[Any]:
    """What every seat observes: a Dict of the tensor and the mask, or (`mask_in_observation=False`) the tensor
    alone as a Box, so that a network is not fed thousands of mask bits (the mask then travels in `info`)."""
    if not mask_in_observation:
        return tensor_space(shape, bounds)
    return spaces.Dict({"observation": tensor_space(shape, bounds), "action_mask": mask_space(num_actions)})
