"""Leaf evaluation by the network, in plain NumPy: what the search's external evaluator calls.

:class:`NetEvaluator` turns a batch of kernel states (what
:meth:`boardlab.fast.search.Search.collect` returns) into the observation
planes of the color to move there (compiled, ``boardlab.fast._observe``),
runs :func:`boardlab.az.net.forward` on them with NumPy and hands back what
:meth:`~boardlab.fast.search.Search.deliver` takes: a value for the color to
move and a row of move probabilities over the whole action space (the
search reads only the legal entries and renormalises them).
"""

from __future__ import annotations

import importlib

import numpy as np

from ..research import tensors
from .net import Spec, forward


def plane_scale(game: str, size: int) -> np.ndarray:
    """Per plane, the factor that brings it into [-1, 1] (pilo's heights,
    yugo's komi; 1 for the 0/1 planes), from :func:`boardlab.research.tensors.plane_bounds`."""
    low, high = tensors.plane_bounds(game, size)
    bound = np.maximum(np.abs(low[:, 0, 0]), np.abs(high[:, 0, 0]))
    return (1.0 / np.maximum(bound, 1e-9)).astype(np.float32)


class NetEvaluator:
    """A network's answers for kernel states, batched (NumPy only)."""

    def __init__(self, params: dict[str, np.ndarray], spec: Spec) -> None:
        self.params = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
        self.spec = spec
        module = importlib.import_module(f"boardlab.fast._{spec.game}_planes")
        self._planes = module.planes
        # Planes are only ever appended to a game's list, so a network trained
        # when the game had fewer reads the first ``spec.planes`` of today's.
        self._all = int(module.NUM_PLANES)
        if spec.planes > self._all:
            raise ValueError(f"the network reads {spec.planes} planes; {spec.game} has {self._all}")
        self.scale = plane_scale(spec.game, spec.size)[None, :spec.planes, None]
        self.calls = 0
        self.positions = 0

    def planes(self, states: np.ndarray, players: np.ndarray) -> np.ndarray:
        """``(B, planes, size*size)`` float32: each state seen by ``players[b]``, scaled."""
        full = np.zeros((len(states), self._all, self.spec.points), np.float32)
        if len(states):
            self._planes(np.ascontiguousarray(states, dtype=np.int64),
                         np.ascontiguousarray(players, dtype=np.int64), full)
        return full[:, :self.spec.planes] * self.scale

    def logits_values(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The raw network outputs of planes ``x``."""
        self.calls += 1
        self.positions += len(x)
        logits, values = forward(self.params, x, self.spec, np)
        return logits, values

    def __call__(self, states: np.ndarray, players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(values (B,), priors (B, actions))`` in float64, for :meth:`Search.deliver`."""
        if not len(states):
            return np.zeros(0), np.zeros((0, self.spec.actions))
        logits, values = self.logits_values(self.planes(states, players))
        return np.asarray(values, np.float64), softmax(np.asarray(logits, np.float64))


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
