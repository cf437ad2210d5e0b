"""Building bots from spec strings: `random`, `greedy`, `mcts`, `mcts:hard`, `mcts:iters=500:depth=2`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from skald.bots.base import Bot
from skald.bots.greedy import GreedyBot
from skald.bots.mcts import LEVELS, MCTSBot, MCTSConfig
from skald.bots.random_bot import RandomBot

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
                f"{spec}: {part!r} is neither a level ({', '.join(LEVELS)}) "
                f"nor a setting ({', '.join(k + '=' for k in _MCTS_KEYS)})"
            )
        name, kind = _MCTS_KEYS[key]
        if raw == "none" and name in ("iterations", "seconds", "rollout_depth"):
            changes[name] = None
            continue
        try:
            changes[name] = kind(raw)
        except ValueError:
            raise SpecError(f"{spec}: {key}= expects {kind.__name__}, not {raw!r}") from None
    # `mcts:seconds=S` is a pure time budget; `mcts:hard:seconds=S` keeps hard's iterations and adds a time cap.
    if "seconds" in changes and "iterations" not in changes and not level_named:
        changes["iterations"] = None
    try:
        return replace(config, **changes)
    except ValueError as error:
        raise SpecError(f"{spec}: {error}") from None


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
        raise SpecError(f"{spec}: {kind} takes no settings")
    raise SpecError(f"{spec}: unknown bot {kind!r}; known: {', '.join(KINDS)}")
