"""Robble's observation planes from compiled states (batched, numba).

The planes of ``boardlab.games.robble_tensors`` (same order, same values),
computed from ``boardlab.fast._robble`` states, so that the vector env and the
adapters' observations need no Python game and no NumPy call per plane.
``tests/test_vector.py`` and ``tests/test_adapter_observer.py`` hold them to
``boardlab.research.tensors.observe``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
    apply,
    current_player,
    init,
    is_legal,
    legal_actions,
    mid_turn,
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


@njit(cache=True)
def planes(states, players, out):
    """``out[b]`` (C, n) float32: the planes of ``states[b]`` seen by color
    ``players[b]`` (a color index; -1, a game over, means 0 as in tensors.observe)."""
    for b in range(states.shape[0]):
        planes_of(states[b], max(players[b], 0), out[b])


@njit(cache=True)
def observe_one(state, player, out, mask, buf):
    """The planes of one state into ``out`` (C, n) and its legal actions into
    the int8 ``mask`` (one compiled call for an adapter's observation)."""
    planes_of(state, player, out)
    mask[:] = 0
    for j in range(legal_actions(state, buf)):
        mask[buf[j]] = 1


@njit(cache=True)
def replay(state, size, opts, actions):
    """``state`` set to the start then every action of ``actions`` (legal ones) applied."""
    init(state, size, opts)
    for a in actions:
        apply(state, a)


@njit(cache=True)
def try_apply(state, action):
    """Apply ``action`` (any int64) if it is legal: -2 if not (nothing
    changes), else the color to act next (-1 once over), plus 2 while that
    color is inside a multi-action turn. One compiled call for an adapter's step."""
    if not is_legal(state, action):
        return -2
    apply(state, action)
    player = current_player(state)
    if player >= 0 and mid_turn(state):
        player += 2
    return player
