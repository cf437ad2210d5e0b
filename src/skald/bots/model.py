"""A learned model for one game and player count: a small network in numpy and the card that says what it is.

The network is a multilayer perceptron over the observation tensor of the seat to act (`State.observation_array`,
never the true hidden state): its inputs are standardised (`(x - input_mean) * input_scale`), pass through hidden
layers with ReLU, and end in two heads. The policy head has one logit per id of the game's fixed action space; it is
masked to the legal actions and normalised (a softmax over them alone). The value head has one logit per seat, in
the order of the observation (the viewer first, then the seats after it round the table); its softmax is each
seat's expected share of the win (`State.returns()`: 1/k to each of k winners).

A model file is one `.npz` holding the arrays and, under `card`, the model card as JSON text: game, players,
options, action-space size, tensor shape, hidden widths, the search settings it plays with, and how it was trained
and measured (command, seed, games, positions, wall time, results). Nothing is pickled.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Final

import numpy as np
import numpy.typing as npt

#: The version of the file format this module reads and writes.
FORMAT: Final = 1

#: Hidden widths of a model when none are asked for.
DEFAULT_HIDDEN: Final = (128, 128)

Array = npt.NDArray[np.float32]


class ModelError(ValueError):
    """A model file that cannot be used: unreadable, malformed, or for another game; the message names the field."""


@dataclass(frozen=True)
class ModelCard:
    """What a model is for, how it plays and how it was made: the JSON stored beside its weights."""

    game: str
    players: int
    num_actions: int
    tensor_shape: tuple[int, ...]
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    options: dict[str, Any] = field(default_factory=dict)
    #: The search settings the model plays with by default (`skald.bots.puct.PUCTConfig` fields).
    search: dict[str, Any] = field(default_factory=dict)
    #: How it was trained: command, seed, games, positions, rounds, wall seconds.
    training: dict[str, Any] = field(default_factory=dict)
    #: What was measured with it (tournaments: opponent, games, win rate and its interval).
    results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def inputs(self) -> int:
        """The length of the flattened observation tensor."""
        return int(np.prod(self.tensor_shape))

    def to_json(self) -> dict[str, Any]:
        """The card as JSON data."""
        return {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "num_actions": self.num_actions,
            "tensor_shape": list(self.tensor_shape),
            "hidden": list(self.hidden),
            "options": self.options,
            "search": self.search,
            "training": self.training,
            "results": self.results,
        }

    @staticmethod
    def from_json(data: Any, where: str) -> ModelCard:
        """The card in `data`, or `ModelError` naming the field at fault (`where` names the file)."""
        if not isinstance(data, dict):
            raise ModelError(f"{where}: the card is not a JSON object")
        if data.get("format") != FORMAT:
            raise ModelError(f"{where}: card field 'format' is {data.get('format')!r}; this Skald reads {FORMAT}")

        def number(name: str) -> int:
            value = data.get(name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ModelError(f"{where}: card field {name!r} must be a positive integer, not {value!r}")
            return value

        def numbers(name: str) -> tuple[int, ...]:
            value = data.get(name)
            if not isinstance(value, list) or not all(isinstance(v, int) and v >= 1 for v in value):
                raise ModelError(f"{where}: card field {name!r} must be a list of positive integers, not {value!r}")
            return tuple(value)

        def mapping(name: str) -> dict[str, Any]:
            value = data.get(name, {})
            if not isinstance(value, dict):
                raise ModelError(f"{where}: card field {name!r} must be a JSON object, not {value!r}")
            return value

        game = data.get("game")
        if not isinstance(game, str) or not game:
            raise ModelError(f"{where}: card field 'game' must be a game's name, not {game!r}")
        results = data.get("results", [])
        if not isinstance(results, list):
            raise ModelError(f"{where}: card field 'results' must be a list, not {results!r}")
        shape = numbers("tensor_shape")
        if not shape:
            raise ModelError(f"{where}: card field 'tensor_shape' is empty")
        return ModelCard(
            game=game,
            players=number("players"),
            num_actions=number("num_actions"),
            tensor_shape=shape,
            hidden=numbers("hidden"),
            options=mapping("options"),
            search=mapping("search"),
            training=mapping("training"),
            results=results,
        )


def layer_shapes(card: ModelCard) -> dict[str, tuple[int, ...]]:
    """The name and shape of every array a model with `card` holds, in order."""
    shapes: dict[str, tuple[int, ...]] = {"input_mean": (card.inputs,), "input_scale": (card.inputs,)}
    width = card.inputs
    for index, hidden in enumerate(card.hidden):
        shapes[f"hidden{index}.weight"] = (width, hidden)
        shapes[f"hidden{index}.bias"] = (hidden,)
        width = hidden
    shapes["policy.weight"] = (width, card.num_actions)
    shapes["policy.bias"] = (card.num_actions,)
    shapes["value.weight"] = (width, card.players)
    shapes["value.bias"] = (card.players,)
    return shapes


_blas_limited = False


def one_blas_thread() -> None:
    """Keep numpy's BLAS to one thread in this process (once). The network's products are a few rows by a few
    hundred columns: threads cost more than they give there, and several bots or self-play workers on one machine
    would oversubscribe its cores."""
    global _blas_limited
    if not _blas_limited:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
        _blas_limited = True


class Network:
    """The model's network in numpy: a masked policy and a per-seat value for a batch of observations."""

    def __init__(self, card: ModelCard, arrays: dict[str, Array]) -> None:
        one_blas_thread()
        self.card = card
        self.mean = arrays["input_mean"]
        self.scale = arrays["input_scale"]
        self.hidden = [
            (arrays[f"hidden{index}.weight"], arrays[f"hidden{index}.bias"]) for index in range(len(card.hidden))
        ]
        self.policy = (arrays["policy.weight"], arrays["policy.bias"])
        self.value = (arrays["value.weight"], arrays["value.bias"])

    def arrays(self) -> dict[str, Array]:
        """Every array by the name it is stored under."""
        found = {"input_mean": self.mean, "input_scale": self.scale}
        for index, (weight, bias) in enumerate(self.hidden):
            found[f"hidden{index}.weight"] = weight
            found[f"hidden{index}.bias"] = bias
        found["policy.weight"], found["policy.bias"] = self.policy
        found["value.weight"], found["value.bias"] = self.value
        return found

    def features(self, observations: Array) -> Array:
        """The last hidden layer for a batch of flattened observations (shape: batch × inputs)."""
        x: Array = (observations - self.mean) * self.scale
        for weight, bias in self.hidden:
            x = np.maximum(x @ weight + bias, np.float32(0.0))
        return x

    def evaluate(self, observations: Array, legal: list[list[int]]) -> tuple[list[Array], Array]:
        """For each observation (a row) and its legal action ids: the policy over those actions (same order, summing
        to 1) and the value per seat, viewer first (a row of the second array, summing to 1)."""
        if len(legal) != observations.shape[0]:
            raise ValueError(f"{len(legal)} lists of legal actions for {observations.shape[0]} observations")
        x = self.features(observations)
        values = _softmax(x @ self.value[0] + self.value[1])
        weight, bias = self.policy
        priors: list[Array] = []
        for row, actions in enumerate(legal):
            if not actions:
                raise ValueError("an observation without a legal action has no policy")
            # Only the legal actions' logits are computed: a few columns of the policy head, not all of them.
            ids = np.asarray(actions, dtype=np.intp)
            logits = x[row] @ weight[:, ids] + bias[ids]
            priors.append(_softmax(logits[np.newaxis, :])[0])
        return priors, values

    def policy_value(self, observations: Array, mask: npt.NDArray[np.bool_]) -> tuple[Array, Array]:
        """The whole masked policy (batch × actions; 0 off the mask) and the values (batch × seats)."""
        if not mask.any(axis=1).all():
            raise ValueError("an observation without a legal action has no policy")
        x = self.features(observations)
        logits = np.where(mask, x @ self.policy[0] + self.policy[1], -np.inf).astype(np.float32)
        return _softmax(logits), _softmax(x @ self.value[0] + self.value[1])


def _softmax(logits: Array) -> Array:
    """Softmax of each row (entries of -inf get 0)."""
    top = logits.max(axis=1, keepdims=True)
    weights = np.exp(logits - top)
    result: Array = (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)
    return result


def random_network(card: ModelCard, seed: int = 0) -> Network:
    """An untrained network for `card` (He-initialised hidden layers, small heads, inputs taken as they come)."""
    rng = np.random.default_rng(seed)
    arrays: dict[str, Array] = {}
    for name, shape in layer_shapes(card).items():
        if name == "input_mean" or name.endswith(".bias"):
            arrays[name] = np.zeros(shape, dtype=np.float32)
        elif name == "input_scale":
            arrays[name] = np.ones(shape, dtype=np.float32)
        else:
            spread = np.sqrt(2.0 / shape[0]) if name.startswith("hidden") else 0.01
            arrays[name] = (rng.standard_normal(shape) * spread).astype(np.float32)
    return Network(card, arrays)


def save_model(network: Network, path: Path) -> None:
    """Write `network` and its card to `path` (an `.npz`), replacing it whole (written aside, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".part")
    temporary.write_bytes(model_file_bytes(network))
    os.replace(temporary, path)


def model_file_bytes(network: Network) -> bytes:
    """`network` and its card as the bytes of a model file."""
    out = io.BytesIO()
    arrays: dict[str, Any] = {"card": np.array(json.dumps(network.card.to_json())), **network.arrays()}
    np.savez_compressed(out, **arrays)
    return out.getvalue()


def read_model(path: Path) -> Network:
    """The network stored at `path`, checked: `ModelError` names the field or array at fault."""
    try:
        with path.open("rb") as stored:
            return read_model_file(stored, str(path))
    except FileNotFoundError:
        raise ModelError(f"{path}: no such model file") from None
    except OSError as error:
        raise ModelError(f"{path}: not a model file ({error})") from None


def read_model_file(source: BinaryIO, where: str) -> Network:
    """The network in the model file open as `source` (`where` names it in errors), checked as `read_model`."""
    try:
        with np.load(source, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise ModelError(f"{where}: not a model file ({error})") from None
    if "card" not in arrays:
        raise ModelError(f"{where}: no 'card' in the file (a model file holds its card as JSON under 'card')")
    try:
        data = json.loads(str(arrays.pop("card")))
    except ValueError as error:
        raise ModelError(f"{where}: the card is not JSON ({error})") from None
    card = ModelCard.from_json(data, where)
    checked: dict[str, Array] = {}
    for name, shape in layer_shapes(card).items():
        if name not in arrays:
            raise ModelError(
                f"{where}: array {name!r} is missing (the card's hidden widths {list(card.hidden)} need it)"
            )
        array = arrays.pop(name)
        if array.shape != shape:
            raise ModelError(f"{where}: array {name!r} has shape {list(array.shape)}, the card needs {list(shape)}")
        if not np.issubdtype(array.dtype, np.floating) or not np.isfinite(array).all():
            raise ModelError(f"{where}: array {name!r} must hold finite floating-point numbers")
        checked[name] = array.astype(np.float32)
    if arrays:
        raise ModelError(f"{where}: arrays the card does not describe: {', '.join(sorted(arrays))}")
    return Network(card, checked)


#: The models loaded in this process, by resolved path, with the file's modification time and size when read.
_loaded: dict[str, tuple[tuple[int, int], Network]] = {}


def load_model(path: Path) -> Network:
    """The network at `path`, read once a process (again only if the file changed since)."""
    resolved = str(path.resolve())
    try:
        stat = os.stat(resolved)
    except OSError:
        raise ModelError(f"{path}: no such model file") from None
    stamp = (stat.st_mtime_ns, stat.st_size)
    known = _loaded.get(resolved)
    if known is not None and known[0] == stamp:
        return known[1]
    network = read_model(path)
    _loaded[resolved] = (stamp, network)
    return network


def check_fits(card: ModelCard, where: str, game: str, players: int, num_actions: int, shape: tuple[int, ...]) -> None:
    """`ModelError` naming the card field that does not fit the table (game, players, actions, tensor shape)."""
    wanted: list[tuple[str, object, object]] = [
        ("game", card.game, game),
        ("players", card.players, players),
        ("num_actions", card.num_actions, num_actions),
        ("tensor_shape", list(card.tensor_shape), list(shape)),
    ]
    for name, has, needs in wanted:
        if has != needs:
            raise ModelError(f"{where}: card field {name!r} is {has!r}, but this table needs {needs!r}")
