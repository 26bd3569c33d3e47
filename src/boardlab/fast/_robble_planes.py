"""Robble's observation planes from compiled states (batched, numba).

The planes of ``boardlab.games.robble.tensors`` (same order, same values),
computed from ``boardlab.fast._robble`` states, so that the vector env and the
adapters' observations need no Python game and no NumPy call per plane
(the batched and one-call steps around ``planes_of`` are ``fast._observe``'s).
``tests/test_vector.py`` and ``tests/test_adapter_observer.py`` hold them to
``boardlab.research.tensors.observe``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import _robble
from ._observe import compiled_ops
from ._robble import (
    _DRAWN,
    _ENDED,
    _FILTER_WORDS,
    _FULL,
    _HASH,
    _HDR,
    _NB,
    _NEMPTY,
    _NPOS,
    _OPEN,
    _PIE,
    _PLAYER,
    _PLAYING,
    _SIZE,
    _ZOB,
    _ZOB_MOVER,
    _exact_repeats,
    _place,
)

NUM_PLANES = 8


@njit(cache=True)
def _hash_count(s, n2, h):
    """How many recorded positions have hash ``h`` (the filter first: most
    hashes were never recorded, and then no scan is needed)."""
    filt = _HDR + 3 * n2
    bit = (h >> 52) & 4095
    if not s[filt + (bit >> 6)] & (np.int64(1) << (bit & 63)):
        return 0
    hist = filt + _FILTER_WORDS
    count = 0
    for j in range(s[_NPOS]):
        if s[hist + j] == h:
            count += 1
    return count


@njit(cache=True)
def _times_recorded(s, size, n2):
    """How many times the position now was recorded (as Robble.repetitions)."""
    if s[_ENDED] == _FULL:
        return 0
    if s[_ENDED] == _DRAWN:
        return 3
    h = s[_HASH]
    count = _hash_count(s, n2, h)  # the position now is the last one recorded
    if count > 1:  # a hash match is only a candidate: compare the earlier ones exactly
        count = 1 + _exact_repeats(s, size, n2, s[_NPOS] - 1, h)
    return count


@njit(cache=True)
def _draws_into(s, size, n2, row):
    """``row[p]`` 1 where the placement on empty point p would record a
    position for the third time (a draw at once), else 0 (stones, and
    everywhere once the game is over). The
    four directions never touch the same squares, so the hash after the
    placement is read off the board without playing it; only a hash seen
    twice already is checked by playing the placement on a copy."""
    row[:n2] = 0.0
    if s[_ENDED] != _PLAYING:
        return
    color = s[_PLAYER] + 1
    for p in range(n2):
        if s[_HDR + p] != 0:
            continue
        h = s[_HASH] ^ _ZOB[color, p] ^ _ZOB_MOVER
        removed = 0
        for d in range(4):
            a = _NB[size, p, d]
            if a < 0:
                continue
            stone = s[_HDR + a]
            if stone == 0:
                continue
            b = _NB[size, a, d]
            if b < 0:
                h ^= _ZOB[stone, a]
                removed += 1
            elif s[_HDR + b] != 0:
                h ^= _ZOB[stone, a] ^ _ZOB[3 - stone, a]
            else:
                h ^= _ZOB[stone, a] ^ _ZOB[stone, b]
        if s[_NEMPTY] - 1 + removed == 0:
            continue  # the board fills: the game ends by its score, nothing is recorded
        if _hash_count(s, n2, h) >= 2:
            probe = s.copy()
            _place(probe, size, p)
            if probe[_ENDED] == _DRAWN:
                row[p] = 1.0


@njit(cache=True)
def planes_of(s, me, out):
    """``out`` (C, n) float32: the planes of state ``s`` seen by color ``me`` (0 or 1)."""
    size = s[_SIZE]
    n = size * size
    mine = me + 1
    for p in range(n):
        v = s[_HDR + p]
        out[0, p] = 1.0 if v == mine else 0.0
        out[1, p] = 1.0 if v != 0 and v != mine else 0.0
    to_move = 1.0 if s[_ENDED] == _PLAYING and s[_PLAYER] == me else 0.0
    first = 1.0 if me == 0 else 0.0
    swap = 1.0 if s[_PIE] == _OPEN else 0.0
    out[2, :n] = to_move
    out[3, :n] = first
    out[4, :n] = swap
    out[5, :n] = max(_times_recorded(s, size, n) - 1, 0) / 2.0
    # a placement always leaves its own stone, so a stone on the board means one was made
    out[6, :n] = 1.0 if s[_NEMPTY] < n and s[_PLAYER] == 1 - me else 0.0
    _draws_into(s, size, n, out[7])


planes, observe_one, replay, try_apply = compiled_ops("robble", _robble, planes_of)
