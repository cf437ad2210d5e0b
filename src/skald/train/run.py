"""A training run: rounds of self-play games, each followed by training on the positions kept, until the time
budget is spent; everything a stopped run needs to go on lives in its directory.

The run directory holds `model.npz` (the model after the last round, which `learned:PATH` plays), `checkpoint.pt`
(the trainer's weights and optimizer, the settings and the counts so far), `buffer.npz` (the positions kept) and
`progress.jsonl` (one line a round), and with a curve its snapshots and points (`skald.train.curve`). Each is
written aside and renamed, so a run killed at any moment resumes from its last finished round. A round is never
started when the last one's duration says it would overrun the budget.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from skald.bots.model import ModelCard, model_file_bytes, random_network, save_model
from skald.engine import get_game
from skald.sim.backends import run_each
from skald.train.buffer import Buffer
from skald.train.curve import SNAPSHOTS, CurvePoint, CurveSettings, due, measure, read_points, record
from skald.train.selfplay import SelfPlayGame, SelfPlayTask, play_selfplay

MODEL_NAME = "model.npz"
CHECKPOINT_NAME = "checkpoint.pt"
BUFFER_NAME = "buffer.npz"
PROGRESS_NAME = "progress.jsonl"


class TrainError(ValueError):
    """A run that cannot start or go on; the message names the setting or file at fault."""


@dataclass(frozen=True)
class TrainSettings:
    """Everything that decides a run: the table, the network, the search in self-play, the training, the budget."""

    game: str
    players: int
    out: Path
    seconds: float
    options: dict[str, Any] = field(default_factory=dict)
    hidden: tuple[int, ...] = (128, 128)
    seed: int = 0
    games_per_round: int = 16
    iterations: int = 64
    value_mix: float = 0.5
    buffer: int = 50_000
    batch: int = 256
    #: Gradient steps a round: this many passes over the round's new positions, in batches.
    epochs: float = 2.0
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    workers: int = 0
    backend: str = "local"
    address: str | None = None
    device: str = "auto"
    #: The training curve's points: when they are taken and what they play (none by default).
    curve: CurveSettings = field(default_factory=CurveSettings)

    def fixed(self) -> dict[str, Any]:
        """The settings a resumed run must keep, as JSON data."""
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "hidden": list(self.hidden),
            "seed": self.seed,
        }


@dataclass
class RoundReport:
    """One finished round, as `progress.jsonl` records it."""

    round: int
    games: int
    positions: int
    buffer: int
    policy_loss: float
    value_loss: float
    seconds: float
    total_games: int
    total_positions: int
    total_seconds: float
    #: Win shares by seat over the round's games (how even self-play is).
    seat_shares: list[float]


@dataclass
class Counts:
    """What the run has done over all its sessions."""

    rounds: int = 0
    games: int = 0
    positions: int = 0
    seconds: float = 0.0


def game_seed(seed: int, round_index: int, game_index: int) -> int:
    """The seed of one self-play game, from the run's seed, the round and the game's place in it."""
    digest = hashlib.sha256(f"skald-train:{seed}:{round_index}:{game_index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Run:
    """A training run in its directory: started fresh or resumed, then advanced round by round."""

    def __init__(self, settings: TrainSettings, resume: bool) -> None:
        from skald.train.trainer import Trainer, pick_device

        self.settings = settings
        game = get_game(settings.game)
        if not game.provides_observation_tensor:
            raise TrainError(f"{settings.game} encodes no observation tensor, so no network can read it")
        game.check_players(settings.players)
        self.options = game.resolve_options(settings.options)
        self.card = ModelCard(
            game=game.name,
            players=settings.players,
            num_actions=game.num_distinct_actions,
            tensor_shape=tuple(game.observation_tensor_shape(settings.players)),
            hidden=settings.hidden,
            options=self.options,
            search={"iterations": settings.iterations, "value_mix": settings.value_mix},
        )
        try:
            device = pick_device(settings.device)
        except (RuntimeError, ValueError) as error:
            raise TrainError(f"--device: {error}") from None
        self.trainer = Trainer(
            random_network(self.card, settings.seed), device, settings.learning_rate, settings.weight_decay
        )
        self.buffer = Buffer(self.card.inputs, settings.players, settings.buffer)
        self.counts = Counts()
        self.standardised = False
        out = settings.out
        if resume:
            self._resume()
        elif (out / CHECKPOINT_NAME).exists():
            raise TrainError(f"--out {out}: a run is already there; go on with --resume, or choose another --out")
        out.mkdir(parents=True, exist_ok=True)
        self.points = read_points(out) if resume else []

    def _resume(self) -> None:
        import torch

        out = self.settings.out
        path = out / CHECKPOINT_NAME
        if not path.exists():
            raise TrainError(f"--resume: no run to go on in {out} (no {CHECKPOINT_NAME})")
        try:
            saved = torch.load(path, map_location=self.trainer.device, weights_only=True)
        except Exception as error:  # a torn or foreign file: torch raises several kinds
            raise TrainError(f"--resume: {path} cannot be read ({error})") from None
        fixed = json.loads(saved["fixed"])
        for name, value in self.settings.fixed().items():
            if fixed.get(name) != value:
                raise TrainError(
                    f"--resume: the run in {out} has {name} {fixed.get(name)!r}, not {value!r}; give the same {name}"
                )
        self.trainer.restore(saved["trainer"])
        self.counts = Counts(**json.loads(saved["counts"]))
        self.standardised = True
        if (out / BUFFER_NAME).exists():
            self.buffer = Buffer.load(out / BUFFER_NAME, self.card.inputs, self.settings.players, self.settings.buffer)

    def model_card(self, report: RoundReport | None) -> ModelCard:
        """The card of the model as it stands: the table, the search, and how it was trained so far."""
        settings = self.settings
        training: dict[str, Any] = {
            "command": "skald train " + shlex.join(sys.argv[2:]) if sys.argv[1:2] == ["train"] else "",
            "seed": settings.seed,
            "rounds": self.counts.rounds,
            "games": self.counts.games,
            "positions": self.counts.positions,
            "seconds": round(self.counts.seconds, 1),
            "self_play": {"iterations": settings.iterations, "value_mix": settings.value_mix},
        }
        if report is not None:
            training["last_round"] = {"policy_loss": report.policy_loss, "value_loss": report.value_loss}
        return replace(self.card, training=training)

    def model_bytes(self) -> bytes:
        """The current model as a model file's bytes (what each self-play task carries)."""
        return model_file_bytes(self.trainer.network(self.model_card(None)))

    def play_round(self, on_game: Callable[[SelfPlayGame], None]) -> list[SelfPlayGame]:
        """The self-play games of the next round."""
        settings = self.settings
        model = self.model_bytes()
        tasks = [
            SelfPlayTask(
                game=settings.game,
                players=settings.players,
                options=self.options,
                model=model,
                seed=game_seed(settings.seed, self.counts.rounds, index),
                iterations=settings.iterations,
                value_mix=settings.value_mix,
            )
            for index in range(settings.games_per_round)
        ]
        return run_each(play_selfplay, tasks, settings.backend, settings.workers or None, settings.address, on_game)

    def fit(self, added: int) -> tuple[float, float]:
        """Train on the buffer after a round that added `added` positions; the mean policy and value losses."""
        settings = self.settings
        if not self.standardised:
            self.trainer.set_standardisation(self.buffer.observations.astype(np.float32))
            self.standardised = True
        steps = max(1, math.ceil(added * settings.epochs / settings.batch))
        rng = np.random.default_rng(game_seed(settings.seed, self.counts.rounds, -1))
        losses: list[tuple[float, float]] = []
        for _ in range(steps):
            rows = rng.integers(0, len(self.buffer), size=min(settings.batch, len(self.buffer)))
            losses.append(self.trainer.step(*self.buffer.batch(rows, self.card.num_actions)))
        return float(np.mean([p for p, _ in losses])), float(np.mean([v for _, v in losses]))

    def round(self, on_game: Callable[[SelfPlayGame], None]) -> RoundReport:
        """Play a round, train on it, and save everything."""
        started = time.perf_counter()
        games = self.play_round(on_game)
        added = self.buffer.add(games)
        policy_loss, value_loss = self.fit(added) if len(self.buffer) else (0.0, 0.0)
        seconds = time.perf_counter() - started
        self.counts.rounds += 1
        self.counts.games += len(games)
        self.counts.positions += added
        self.counts.seconds += seconds
        shares = [sum(g.shares[s] for g in games) / max(len(games), 1) for s in range(self.settings.players)]
        report = RoundReport(
            round=self.counts.rounds,
            games=len(games),
            positions=added,
            buffer=len(self.buffer),
            policy_loss=round(policy_loss, 4),
            value_loss=round(value_loss, 4),
            seconds=round(seconds, 2),
            total_games=self.counts.games,
            total_positions=self.counts.positions,
            total_seconds=round(self.counts.seconds, 1),
            seat_shares=[round(s, 3) for s in shares],
        )
        self.save(report)
        return report

    def train(
        self,
        on_game: Callable[[SelfPlayGame], None] | None = None,
        on_round: Callable[[RoundReport], None] | None = None,
        on_point: Callable[[CurvePoint], None] | None = None,
    ) -> None:
        """Play and train round after round until `settings.seconds` are spent (at least one round), never starting
        a round that the last one's duration (its curve point included) says would overrun them."""
        started = time.perf_counter()
        self.curve_point(on_point)
        last = 0.0
        rounds = 0
        while True:
            elapsed = time.perf_counter() - started
            if rounds and elapsed + last > self.settings.seconds:
                break
            rounds += 1
            before = time.perf_counter()
            report = self.round(on_game or (lambda _game: None))
            if on_round is not None:
                on_round(report)
            self.curve_point(on_point)
            last = time.perf_counter() - before

    def curve_point(self, on_point: Callable[[CurvePoint], None] | None = None) -> None:
        """Take the training curve's point if one is due: keep the model as it stands and play it."""
        settings = self.settings
        seconds = self.counts.seconds
        if not due(settings.curve, self.points, seconds, self.counts.rounds):
            return
        out = settings.out
        snapshot = out / SNAPSHOTS / f"model-round-{self.counts.rounds:04d}.npz"
        save_model(self.trainer.network(self.model_card(None)), snapshot)
        point = measure(
            settings.curve,
            settings.game,
            settings.players,
            self.options,
            snapshot,
            seconds,
            self.counts.rounds,
            settings.seed,
            settings.backend,
            settings.workers or None,
            settings.address,
        )
        record(out, point, self.points, f"{settings.game} {settings.players}p")
        self.points.append(point)
        if on_point is not None:
            on_point(point)

    def save(self, report: RoundReport) -> None:
        """Write the model, the buffer, the checkpoint and the round's line, each whole."""
        import torch

        out = self.settings.out
        save_model(self.trainer.network(self.model_card(report)), out / MODEL_NAME)
        self.buffer.save(out / BUFFER_NAME)
        checkpoint = {
            "fixed": json.dumps(self.settings.fixed()),
            "counts": json.dumps(asdict(self.counts)),
            "trainer": self.trainer.state(),
        }
        temporary = out / (CHECKPOINT_NAME + ".part")
        torch.save(checkpoint, temporary)
        os.replace(temporary, out / CHECKPOINT_NAME)
        with (out / PROGRESS_NAME).open("a", encoding="utf-8") as log:
            log.write(json.dumps(asdict(report)) + "\n")


def train(
    settings: TrainSettings,
    resume: bool = False,
    on_game: Callable[[SelfPlayGame], None] | None = None,
    on_round: Callable[[RoundReport], None] | None = None,
    on_point: Callable[[CurvePoint], None] | None = None,
) -> Run:
    """Start (or, with `resume`, go on with) the run of `settings` and train until its time is spent."""
    run = Run(settings, resume)
    run.train(on_game, on_round, on_point)
    return run
