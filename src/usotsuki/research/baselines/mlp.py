"""A small actor-critic network in numpy: two hidden layers, a policy head over a masked
action set and a value head, with hand-written backpropagation and Adam.

Numpy because PyTorch from PyPI pulls the CUDA libraries on Linux (``uv pip install
--dry-run torch`` lists the ``nvidia-*`` wheels, gigabytes); the CPU-only wheel lives on
PyTorch's own index, which an extra of this package cannot name. At these sizes (a few
hundred inputs, 64 units) numpy's matrix products are all the network needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.floating[Any]]  # float32 in training; tests check in float64
BoolArray = npt.NDArray[np.bool_]

PARAMS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


@dataclass
class Forward:
    """What a forward pass keeps for the backward one."""

    x: Array
    h1: Array
    h2: Array
    probs: Array  # masked softmax over the legal actions
    value: Array  # (n,)


@dataclass
class MLP:
    """``inputs -> hidden -> hidden`` (tanh) ``-> (policy logits, value)``."""

    params: dict[str, Array]
    adam_m: dict[str, Array] = field(default_factory=dict)
    adam_v: dict[str, Array] = field(default_factory=dict)
    steps: int = 0

    @classmethod
    def create(cls, inputs: int, actions: int, hidden: int, seed: int) -> MLP:
        rng = np.random.default_rng(seed)

        def layer(n_in: int, n_out: int, scale: float = 1.0) -> Array:
            w: Array = (rng.standard_normal((n_in, n_out)) * (scale / np.sqrt(n_in))
                        ).astype(np.float32)
            return w

        def zeros(n: int) -> Array:
            return np.zeros(n, np.float32)

        return cls({"w1": layer(inputs, hidden), "b1": zeros(hidden),
                    "w2": layer(hidden, hidden), "b2": zeros(hidden),
                    "wp": layer(hidden, actions, 0.01), "bp": zeros(actions),
                    "wv": layer(hidden, 1), "bv": zeros(1)})

    def forward(self, x: Array, mask: BoolArray) -> Forward:
        p = self.params
        h1 = np.tanh(x @ p["w1"] + p["b1"])
        h2 = np.tanh(h1 @ p["w2"] + p["b2"])
        logits = np.where(mask, h2 @ p["wp"] + p["bp"], -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        probs = e / e.sum(axis=1, keepdims=True)
        value = (h2 @ p["wv"] + p["bv"])[:, 0]
        return Forward(x, h1, h2, probs, value)

    def backward(self, f: Forward, d_logits: Array, d_value: Array) -> dict[str, Array]:
        """Gradients of a loss given its gradient in the logits and in the values."""
        p = self.params
        d_h2 = d_logits @ p["wp"].T + d_value[:, None] @ p["wv"].T
        d_z2 = d_h2 * (1.0 - f.h2 ** 2)
        d_h1 = d_z2 @ p["w2"].T
        d_z1 = d_h1 * (1.0 - f.h1 ** 2)
        return {"wp": f.h2.T @ d_logits, "bp": d_logits.sum(axis=0),
                "wv": f.h2.T @ d_value[:, None], "bv": np.atleast_1d(d_value.sum()),
                "w2": f.h1.T @ d_z2, "b2": d_z2.sum(axis=0),
                "w1": f.x.T @ d_z1, "b1": d_z1.sum(axis=0)}

    def adam(self, grads: dict[str, Array], lr: float, max_norm: float = 0.5,
             beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        """One Adam step (gradients clipped to ``max_norm`` overall)."""
        norm = float(np.sqrt(sum(float((g ** 2).sum()) for g in grads.values())))
        scale = min(1.0, max_norm / (norm + 1e-12))
        self.steps += 1
        for k, g in grads.items():
            g = g * scale
            m = self.adam_m.setdefault(k, np.zeros_like(g))
            v = self.adam_v.setdefault(k, np.zeros_like(g))
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            m_hat = m / (1 - beta1 ** self.steps)
            v_hat = v / (1 - beta2 ** self.steps)
            self.params[k] -= (lr * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **self.params)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> MLP:
        with np.load(path) as arrays:
            return cls({k: arrays[k] for k in PARAMS})
