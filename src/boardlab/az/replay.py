"""The replay buffer, and the board symmetries as data augmentation (NumPy only).

A ring of the last ``capacity`` samples (:class:`~boardlab.az.selfplay.Samples`);
a training batch is drawn uniformly from it and each sample is seen under
one of the symmetries it allows (``syms`` bit k: symmetry k of
:mod:`boardlab.core.symmetry`), chosen at random: the planes move with
their points (``symmetry.point_map``) and the policy and legal moves with
the game's static action map (``boardlab.games.<game>.tensors.action_map``).
"""

from __future__ import annotations

import numpy as np

from ..core import symmetry
from ..research import tensors
from .net import Spec
from .selfplay import Samples

FIELDS = ("planes", "policy", "legal", "z", "syms")


class ReplayBuffer:
    def __init__(self, spec: Spec, capacity: int) -> None:
        self.spec = spec
        self.capacity = capacity
        empty = Samples.empty(spec)
        self.data = {f: np.zeros((capacity, *getattr(empty, f).shape[1:]), getattr(empty, f).dtype)
                     for f in FIELDS}
        self.size = 0     # rows filled
        self.head = 0     # the next row written
        self.added = 0    # samples ever added
        module = tensors.tensors_module(spec.game)
        self._points = np.zeros((8, spec.points), np.int64)   # inverse point maps
        self._actions = np.zeros((8, spec.actions), np.int64)  # inverse action maps
        for k in range(8):
            pm = np.array(symmetry.point_map(spec.size, k))
            self._points[k, pm] = np.arange(spec.points)
            try:
                am = np.array(module.action_map(spec.size, k), np.int64)
            except (KeyError, ValueError, IndexError):
                am = np.arange(spec.actions)
            self._actions[k, am] = np.arange(spec.actions)

    def __len__(self) -> int:
        return self.size

    def add(self, samples: Samples) -> None:
        n = len(samples)
        if n > self.capacity:  # only the newest fit
            samples = Samples(*(getattr(samples, f)[n - self.capacity:] for f in FIELDS))
            n = self.capacity
        rows = (self.head + np.arange(n)) % self.capacity
        for f in FIELDS:
            self.data[f][rows] = getattr(samples, f)
        self.head = int((self.head + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.added += n

    def batch(self, count: int, rng: np.random.Generator,
              augment: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``count`` samples drawn uniformly, each under a random allowed symmetry:
        planes, policy, legal, z."""
        idx = rng.integers(self.size, size=count)
        planes = self.data["planes"][idx]
        policy = self.data["policy"][idx]
        legal = self.data["legal"][idx]
        z = self.data["z"][idx]
        if augment:
            bits = self.data["syms"][idx]
            allowed = ((bits[:, None] >> np.arange(8)) & 1).astype(bool)
            allowed[:, 0] |= ~allowed.any(axis=1)  # the identity always holds
            ks = np.argmax(np.where(allowed, rng.random((count, 8)), -1.0), axis=1)
            planes, policy, legal = self.transform(planes, policy, legal, ks)
        return planes, policy, legal, z

    def transform(self, planes: np.ndarray, policy: np.ndarray, legal: np.ndarray,
                  ks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each sample ``i`` under symmetry ``ks[i]``."""
        pts = self._points[ks]             # (B, points)
        acts = self._actions[ks]           # (B, actions)
        planes = np.take_along_axis(planes, pts[:, None, :], axis=2)
        policy = np.take_along_axis(policy, acts, axis=1)
        legal = np.take_along_axis(legal, acts, axis=1)
        return planes, policy, legal

    def state(self) -> dict[str, np.ndarray]:
        """Everything to restore the buffer exactly (checkpoints)."""
        out = {f"buf.{f}": self.data[f][:self.size] for f in FIELDS}
        out["buf.meta"] = np.array([self.size, self.head, self.added, self.capacity], np.int64)
        return out

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        size, head, added, capacity = (int(x) for x in arrays["buf.meta"])
        if capacity != self.capacity:
            raise ValueError(f"the checkpoint's buffer holds {capacity} samples, this run {self.capacity}")
        for f in FIELDS:
            self.data[f][:size] = arrays[f"buf.{f}"]
        self.size, self.head, self.added = size, head, added
