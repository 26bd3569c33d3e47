"""A small seeded PRNG for compiled code: xorshift64* on a one-word state.

Why not ``np.random`` inside numba: its state is per thread and global, so two
batched games (or two searches) would share one stream and a result would
depend on what else ran before it. Here every caller owns its state array
(``np.ndarray`` of one ``uint64``), which travels with the game or batch, and
a seed gives the same stream on every platform.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_MUL = uint64(0x2545F4914F6CDD1D)


@njit(cache=True)
def _splitmix(x: np.uint64) -> np.uint64:
    x = x + _GOLDEN
    z = x
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


def new_rng(seed: int) -> np.ndarray:
    """A fresh generator state for ``seed`` (any int; negative seeds wrap)."""
    state = np.zeros(1, dtype=np.uint64)
    seed_rng(state, np.uint64(seed & 0xFFFFFFFFFFFFFFFF))
    return state


@njit(cache=True)
def seed_rng(state: np.ndarray, seed: np.uint64) -> None:
    """Seed in place (splitmix64 of the seed, never the all-zero state)."""
    z = _splitmix(uint64(seed))
    if z == uint64(0):
        z = _GOLDEN
    state[0] = z


@njit(cache=True)
def next_u64(state: np.ndarray) -> np.uint64:
    x = state[0]
    x ^= x >> uint64(12)
    x ^= x << uint64(25)
    x ^= x >> uint64(27)
    state[0] = x
    return x * _MUL


@njit(cache=True)
def rand_below(state: np.ndarray, k: int) -> int:
    """A uniform integer in ``0..k-1`` (k >= 1). Uses the high 32 bits times k
    (Lemire's multiply-shift without the rejection step: the bias is below
    k / 2**32, far under anything a playout could show)."""
    hi = next_u64(state) >> uint64(32)
    return int((hi * uint64(k)) >> uint64(32))


@njit(cache=True)
def rand_unit(state: np.ndarray) -> float:
    """A uniform float in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)
