"""Building bots from spec strings: `random`, `greedy`, `mcts`, `mcts:hard`, `mcts:iters=500:depth=2`."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from skald.bots.base import Bot
from skald.bots.greedy import GreedyBot
from skald.bots.mcts import LEVELS, MCTSBot, MCTSConfig
from skald.bots.random_bot import RandomBot
from skald.engine.messages import shown, shown_key

#: The bot kinds a spec may start with.
KINDS = ("random", "greedy", "mcts")

#: MCTS spec keys and the config fields they set.
_MCTS_KEYS: dict[str, tuple[str, type]] = {
    "iters": ("iterations", int),
    "seconds": ("seconds", float),
    "c": ("exploration", float),
    "depth": ("rollout_depth", int),
    "temp": ("temperature", float),
}


class SpecError(ValueError):
    """A bot spec that cannot be understood; the message says which part and what is allowed."""


def parse_mcts(spec: str, parts: list[str]) -> MCTSConfig:
    """The MCTS config for the `:`-separated parts after `mcts` (a level and/or `key=value` settings)."""
    where = shown_key(spec)
    config = LEVELS["normal"]
    level_named = False
    changes: dict[str, Any] = {}
    for part in parts:
        if part in LEVELS:
            config = LEVELS[part]
            level_named = True
            continue
        key, sep, raw = part.partition("=")
        if not sep or key not in _MCTS_KEYS:
            raise SpecError(
                f"{where}: {shown(part)} is neither a level ({', '.join(LEVELS)}) "
                f"nor a setting ({', '.join(k + '=' for k in _MCTS_KEYS)})"
            )
        name, kind = _MCTS_KEYS[key]
        if raw == "none" and name in ("iterations", "seconds", "rollout_depth"):
            changes[name] = None
            continue
        changes[name] = _setting(where, key, kind, raw)
    # `mcts:seconds=S` is a pure time budget; `mcts:hard:seconds=S` keeps hard's iterations and adds a time cap.
    if "seconds" in changes and "iterations" not in changes and not level_named:
        changes["iterations"] = None
    try:
        return replace(config, **changes)
    except ValueError as error:
        raise SpecError(f"{where}: {error}") from None


def _setting(where: str, key: str, kind: type, raw: str) -> int | float:
    """One `key=raw` setting as a number. NaN and infinity are refused: a time budget of either never ends, NaN as
    `c` or `temp` leaves the search comparing NaNs, and infinity makes either meaningless. (`MCTSConfig` checks
    the other bounds.)"""
    try:
        value: int | float = kind(raw)
    except ValueError:
        raise SpecError(f"{where}: {key}= expects {kind.__name__}, not {shown(raw)}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise SpecError(f"{where}: {key}= expects a finite number, not {shown(raw)}")
    if key == "depth" and value < 0:
        raise SpecError(
            f"{where}: depth= is a count of random decisions, at least 0 (or none: to the end), not {shown(raw)}"
        )
    if key == "c" and value < 0:
        raise SpecError(f"{where}: c= is an exploration weight, at least 0, not {shown(raw)}")
    return value


def check_spec(spec: str) -> str:
    """Return `spec` unchanged if it builds a bot; raise `SpecError` otherwise."""
    make_bot(spec)
    return spec


def make_bot(spec: str, seed: int = 0) -> Bot:
    """The bot described by `spec`, seeded with `seed`."""
    kind, *parts = spec.strip().split(":")
    if kind == "random" and not parts:
        return RandomBot(spec, seed)
    if kind == "greedy" and not parts:
        return GreedyBot(spec, seed)
    if kind == "mcts":
        return MCTSBot(spec, seed, parse_mcts(spec, parts))
    if kind in KINDS:
        raise SpecError(f"{shown_key(spec)}: {kind} takes no settings")
    raise SpecError(f"{shown_key(spec)}: unknown bot {shown(kind)}; known: {', '.join(KINDS)}")
