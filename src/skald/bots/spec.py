"""Building bots from spec strings: `random`, `greedy`, `mcts`, `mcts:hard`, `mcts:iters=500:depth=2`, `learned`,
`learned:PATH`, `learned:PATH:iters=400`."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from skald.bots.base import Bot
from skald.bots.greedy import GreedyBot
from skald.bots.mcts import LEVELS, MCTSBot, MCTSConfig
from skald.bots.model import ModelError, load_model
from skald.bots.puct import LearnedBot, PUCTConfig, Setting
from skald.bots.random_bot import RandomBot
from skald.engine import Game
from skald.engine.messages import shown, shown_key

#: The bot kinds a spec may start with.
KINDS = ("random", "greedy", "mcts", "learned")

#: Learned-bot spec keys and the `PUCTConfig` fields they set.
_LEARNED_KEYS: dict[str, tuple[str, type]] = {
    "iters": ("iterations", int),
    "seconds": ("seconds", float),
    "c": ("exploration", float),
    "batch": ("batch", int),
    "mix": ("value_mix", float),
}

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


def parse_learned(spec: str, parts: list[str]) -> tuple[Path | None, dict[str, Setting]]:
    """The model file (None: the one shipped for the game) and the search settings after `learned`: a part
    `key=value` with a known key is a setting, and the rest, joined by `:`, is the path."""
    where = shown_key(spec)
    settings: dict[str, Setting] = {}
    path_parts: list[str] = []
    for part in parts:
        key, sep, raw = part.partition("=")
        if sep and key in _LEARNED_KEYS:
            name, kind = _LEARNED_KEYS[key]
            if raw == "none" and name in ("iterations", "seconds"):
                settings[name] = None
                continue
            value = _setting(where, key, kind, raw)
            if value < 0 or (key in ("iters", "batch") and value < 1):
                raise SpecError(f"{where}: {key}= must be {'at least 1' if kind is int else 'positive'}, not {raw}")
            settings[name] = value
        else:
            path_parts.append(part)
    path = Path(":".join(path_parts)) if path_parts else None
    if path is not None and not str(path).strip():
        raise SpecError(f"{where}: an empty model path; give learned (the shipped model) or learned:PATH")
    try:
        replace(PUCTConfig(), **settings)
    except ValueError as error:
        raise SpecError(f"{where}: {error}") from None
    return path, settings


def check_spec(spec: str, game: Game | None = None, players: int | None = None) -> str:
    """Return `spec` unchanged if it builds a bot (and, given a game and player count, one that can play it: a
    learned bot then has a model for that table); raise `SpecError` otherwise."""
    bot = make_bot(spec)
    if game is not None and players is not None:
        check_bot_for(bot, game, players)
    return spec


def check_bot_for(bot: Bot, game: Game, players: int) -> None:
    """`SpecError` if `bot` cannot play `game` at `players` seats (a learned bot without a model that fits)."""
    if isinstance(bot, LearnedBot):
        try:
            bot.check_for(game, players)
        except ModelError as error:
            raise SpecError(str(error)) from None


def make_bot(spec: str, seed: int = 0) -> Bot:
    """The bot described by `spec`, seeded with `seed`."""
    kind, *parts = spec.strip().split(":")
    if kind == "random" and not parts:
        return RandomBot(spec, seed)
    if kind == "greedy" and not parts:
        return GreedyBot(spec, seed)
    if kind == "mcts":
        return MCTSBot(spec, seed, parse_mcts(spec, parts))
    if kind == "learned":
        path, settings = parse_learned(spec, parts)
        if path is not None:
            try:
                load_model(path)  # read once a process, and a bad file refused before any game starts
            except ModelError as error:
                raise SpecError(str(error)) from None
        return LearnedBot(spec, seed, path, given=settings)
    if kind in KINDS:
        raise SpecError(f"{shown_key(spec)}: {kind} takes no settings")
    raise SpecError(f"{shown_key(spec)}: unknown bot {shown(kind)}; known: {', '.join(KINDS)}")
