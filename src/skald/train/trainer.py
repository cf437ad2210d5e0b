"""The network in PyTorch, fitted to self-play positions, and turned into the numpy model the bots play with.

`PolicyValueNet` has the layers of `skald.bots.model.Network` (same names, torch's `(out, in)` weights transposed
on the way out), so a trained network is exported to a model file without loss, and a model file is read back
into one to go on training. The loss is AlphaZero's: the cross-entropy of the masked policy against the search's
visit shares, plus that of the value head's softmax against the win shares; weight decay by AdamW.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import torch
from torch import nn

from skald.bots.model import Array, ModelCard, Network

#: A logit far below any a network gives: what an illegal action's logit is replaced by.
_MASKED = -1.0e9


def pick_device(asked: str) -> torch.device:
    """The device to train on: `auto` takes CUDA when there is one, else the CPU."""
    if asked == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if asked == "cuda" and not torch.cuda.is_available():
        raise ValueError("device: cuda was asked for, but PyTorch sees no CUDA device")
    return torch.device(asked)


class PolicyValueNet(nn.Module):
    """Standardised inputs, hidden ReLU layers, a policy logit per action id and a value logit per seat."""

    def __init__(self, card: ModelCard) -> None:
        super().__init__()
        self.card = card
        self.register_buffer("input_mean", torch.zeros(card.inputs))
        self.register_buffer("input_scale", torch.ones(card.inputs))
        widths = [card.inputs, *card.hidden]
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(widths))
        self.policy = nn.Linear(widths[-1], card.num_actions)
        self.value = nn.Linear(widths[-1], card.players)

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Policy logits (batch × actions) and value logits (batch × seats)."""
        x = (observations - self.input_mean) * self.input_scale
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.policy(x), self.value(x)

    def named_layers(self) -> list[tuple[str, nn.Linear]]:
        """Each linear layer under the name its arrays have in a model file (`hidden0`, …, `policy`, `value`)."""
        layers: list[tuple[str, nn.Linear]] = [(f"hidden{i}", layer) for i, layer in enumerate(self.hidden)]
        return [*layers, ("policy", self.policy), ("value", self.value)]

    @staticmethod
    def from_network(network: Network) -> PolicyValueNet:
        """A torch network holding `network`'s weights."""
        module = PolicyValueNet(network.card)
        arrays = network.arrays()
        with torch.no_grad():
            module.input_mean.copy_(torch.from_numpy(arrays["input_mean"]))
            module.input_scale.copy_(torch.from_numpy(arrays["input_scale"]))
            for name, layer in module.named_layers():
                layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(arrays[f"{name}.weight"].T)))
                layer.bias.copy_(torch.from_numpy(arrays[f"{name}.bias"]))
        return module

    def to_network(self, card: ModelCard | None = None) -> Network:
        """The numpy network with these weights (under `card`, or the card it was built from)."""

        def numpy(tensor: torch.Tensor) -> Array:
            result: Array = tensor.detach().cpu().numpy().astype(np.float32)
            return result

        arrays: dict[str, Array] = {"input_mean": numpy(self.input_mean), "input_scale": numpy(self.input_scale)}
        for name, layer in self.named_layers():
            arrays[f"{name}.weight"] = np.ascontiguousarray(numpy(layer.weight).T)
            arrays[f"{name}.bias"] = numpy(layer.bias)
        return Network(card or self.card, arrays)


class Trainer:
    """AdamW over a `PolicyValueNet` on one device; each `step` fits one batch."""

    def __init__(self, network: Network, device: torch.device, learning_rate: float, weight_decay: float) -> None:
        self.device = device
        self.module = PolicyValueNet.from_network(network).to(device)
        self.optimizer = torch.optim.AdamW(self.module.parameters(), lr=learning_rate, weight_decay=weight_decay)

    def set_standardisation(self, observations: Array) -> None:
        """Standardise the inputs by `observations`' mean and spread (an entry that never varies is left as is)."""
        mean = observations.mean(axis=0)
        spread = observations.std(axis=0)
        scale = np.where(spread > 1e-3, 1.0 / np.maximum(spread, 1e-3), 1.0).astype(np.float32)
        with torch.no_grad():
            self.module.input_mean.copy_(torch.from_numpy(mean.astype(np.float32)))
            self.module.input_scale.copy_(torch.from_numpy(scale))

    def step(self, observations: Array, mask: Any, policy: Array, values: Array) -> tuple[float, float]:
        """One gradient step on a batch; its policy and value losses."""
        module = self.module
        module.train()
        x = torch.from_numpy(observations).to(self.device)
        legal = torch.from_numpy(mask).to(self.device)
        policy_target = torch.from_numpy(policy).to(self.device)
        value_target = torch.from_numpy(values).to(self.device)
        policy_logits, value_logits = module(x)
        policy_logits = policy_logits.masked_fill(~legal, _MASKED)
        policy_loss = -(policy_target * torch.log_softmax(policy_logits, dim=1)).sum(dim=1).mean()
        value_loss = -(value_target * torch.log_softmax(value_logits, dim=1)).sum(dim=1).mean()
        loss = policy_loss + value_loss
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        return float(policy_loss.item()), float(value_loss.item())

    def network(self, card: ModelCard) -> Network:
        """The current weights as a numpy network under `card`."""
        self.module.eval()
        network: Network = self.module.to_network(card)
        return network

    def state(self) -> dict[str, Any]:
        """What a checkpoint keeps of the trainer: the weights and the optimizer's moments."""
        return {"module": self.module.state_dict(), "optimizer": self.optimizer.state_dict()}

    def restore(self, state: dict[str, Any]) -> None:
        """Go on from a checkpoint's `state()`."""
        self.module.load_state_dict(state["module"])
        self.optimizer.load_state_dict(state["optimizer"])
