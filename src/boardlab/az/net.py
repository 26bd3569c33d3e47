"""The policy-value network: one definition, run by NumPy to play and by JAX to train.

A small residual convolutional network in the AlphaZero mould, sized for a
CPU (a few blocks of 32-64 channels). Its input is a game's observation
planes (:mod:`boardlab.research.tensors`; for kernel states ``boardlab.fast._observe``),
seen by the color to move, plus one plane of ones so that the zero padding of
the convolutions shows where the board ends. It answers:

* ``logits``: one per integer action of the game (a dense layer over two
  1x1-convolved planes, as AlphaZero's Go head), masked to the legal moves
  by whoever reads them;
* ``value``: the expected return of the color to move, in [-1, 1].

Why one definition for two array libraries: the shipped weights are played
by plain NumPy (``make run`` and the web need no training framework), and
the only way to be sure training and play compute the same function is to
have written it once. :func:`forward` takes the array module (``numpy`` or
``jax.numpy``) as an argument; the convolutions are im2col products (nine
shifted copies of the padded board side by side, then one matrix product),
which both libraries run well at these sizes. There is no batch
normalisation (nothing that differs between training and play): each
residual branch is scaled by a learnt gate that starts at zero (ReZero,
Bachlechner et al. 2020), so a deep stack starts as the identity and trains
without normalisation.

Parameters are a flat ``{name: float32 array}`` dict (NumPy's ``.npz`` as it
is, a JAX pytree as it is).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Spec:
    """The shape of a network: which game and board it reads, and its size."""

    game: str
    size: int
    planes: int        # observation planes of the game (the ones plane is added here)
    actions: int       # the game's integer actions at this size
    channels: int = 32
    blocks: int = 4
    value_hidden: int = 64

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def points(self) -> int:
        return self.size * self.size


def init_params(spec: Spec, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """He-initialised weights (zero biases and gates) drawn from ``rng``."""
    c, n2 = spec.channels, spec.points

    def he(shape: tuple[int, ...], fan_in: int) -> np.ndarray:
        return (rng.standard_normal(shape) * math.sqrt(2.0 / fan_in)).astype(np.float32)

    def zeros(*shape: int) -> np.ndarray:
        return np.zeros(shape, np.float32)

    cin = spec.planes + 1
    p = {"stem.w": he((9 * cin, c), 9 * cin), "stem.b": zeros(c)}
    for i in range(spec.blocks):
        p[f"b{i}.w1"] = he((9 * c, c), 9 * c)
        p[f"b{i}.b1"] = zeros(c)
        p[f"b{i}.w2"] = he((9 * c, c), 9 * c)
        p[f"b{i}.b2"] = zeros(c)
        p[f"b{i}.g"] = zeros(1)
    p["p.w"] = he((c, 2), c)
    p["p.b"] = zeros(2)
    p["p.fw"] = (rng.standard_normal((2 * n2, spec.actions)) * 0.01).astype(np.float32)
    p["p.fb"] = zeros(spec.actions)
    p["v.w"] = he((c, 2), c)
    p["v.b"] = zeros(2)
    p["v.fw"] = he((c + 2 * n2, spec.value_hidden), c + 2 * n2)
    p["v.fb"] = zeros(spec.value_hidden)
    p["v.ow"] = (rng.standard_normal((spec.value_hidden, 1)) * 0.01).astype(np.float32)
    p["v.ob"] = zeros(1)
    return p


def _conv3(xp: Any, h: Any, w: Any, b: Any) -> Any:
    """A 3x3 'same' convolution of NHWC ``h`` with ``w`` (9*Cin, Cout) as im2col."""
    batch, n, _, c = h.shape
    if xp is np:  # the same zero padding and columns, without np.pad's overhead
        hp = np.zeros((batch, n + 2, n + 2, c), h.dtype)
        hp[:, 1:-1, 1:-1] = h
        cols = np.empty((batch, n, n, 9 * c), h.dtype)
        for k in range(9):
            i, j = divmod(k, 3)
            cols[..., k * c:(k + 1) * c] = hp[:, i:i + n, j:j + n]
    else:
        hp = xp.pad(h, ((0, 0), (1, 1), (1, 1), (0, 0)))
        cols = xp.concatenate([hp[:, i:i + n, j:j + n, :] for i in range(3) for j in range(3)],
                              axis=-1)
    return cols @ w + b


def _relu(xp: Any, x: Any) -> Any:
    return xp.maximum(x, 0)


def forward(params: dict[str, Any], x: Any, spec: Spec, xp: Any = np) -> tuple[Any, Any]:
    """``(logits (B, actions), values (B,))`` of planes ``x`` (B, planes, size*size),
    float32, seen by the color to move. ``xp``: ``numpy`` or ``jax.numpy``."""
    batch, n = x.shape[0], spec.size
    h = xp.transpose(x.reshape(batch, spec.planes, n, n), (0, 2, 3, 1))
    h = xp.concatenate([h, xp.ones((batch, n, n, 1), dtype=h.dtype)], axis=-1)
    h = _relu(xp, _conv3(xp, h, params["stem.w"], params["stem.b"]))
    for i in range(spec.blocks):
        r = _relu(xp, _conv3(xp, h, params[f"b{i}.w1"], params[f"b{i}.b1"]))
        r = _conv3(xp, r, params[f"b{i}.w2"], params[f"b{i}.b2"])
        h = _relu(xp, h + params[f"b{i}.g"] * r)
    ph = _relu(xp, h @ params["p.w"] + params["p.b"]).reshape(batch, -1)
    logits = ph @ params["p.fw"] + params["p.fb"]
    vh = _relu(xp, h @ params["v.w"] + params["v.b"]).reshape(batch, -1)
    feats = xp.concatenate([h.mean(axis=(1, 2)), vh], axis=-1)
    hidden = _relu(xp, feats @ params["v.fw"] + params["v.fb"])
    value = xp.tanh(hidden @ params["v.ow"] + params["v.ob"])[:, 0]
    return logits, value


def count(params: dict[str, np.ndarray]) -> int:
    """The number of weights."""
    return int(sum(np.asarray(v).size for v in params.values()))
