"""Robble's search advice (the one search's contract: :mod:`boardlab.fast.advice`).

``POLICY_PLAYOUT``: a playout that prefers placements that gain stones. A
placement's *gain* for the mover counts what it does to its four
neighbours (the rules' pushes, removals and flips): an enemy stone removed
at the edge +1, an own one -1; an enemy stone flipped to the mover's color
+2, an own one flipped away -2; a push changes no count. Each ply draws two
empty points at random and plays the one of greater gain (ties: the first
drawn), so playouts stay varied but stop throwing stones away. The pie
swap stays a uniform choice, as in the kernel's playout.

(A static evaluation of the board, the final count taken now, was tried
and dropped: it does not predict who wins a random continuation at all,
correlation 0.01 over 60 positions, and searches that used it lost every
game against ``uct``.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...fast._rng import rand_below
from ...fast._robble import (
    _CLOSED,
    _ENDED,
    _HDR,
    _NB,
    _NEMPTY,
    _OPEN,
    _PENDING,
    _PIE,
    _PLAYER,
    _PLAYING,
    _place,
)
from ...fast.kernels import SIG_PLAYOUT


@njit(cache=True)
def _gain(state, size, p, mine):
    g = 0
    for d in range(4):
        a = _NB[size, p, d]
        if a < 0:
            continue
        stone = state[_HDR + a]
        if stone == 0:
            continue
        b = _NB[size, a, d]
        sign = 1 if stone != mine else -1
        if b < 0:
            g += sign
        elif state[_HDR + b] != 0:
            g += 2 * sign
    return g


@njit(SIG_PLAYOUT, cache=True)
def policy_playout(state, rng, record):
    size = state[0]
    n2 = size * size
    emp = _HDR + n2
    cap = record.shape[0]
    plies = 0
    while state[_ENDED] == _PLAYING:
        empties = state[_NEMPTY]
        pie = state[_PIE]
        if pie == _OPEN and rand_below(rng, empties + 1) == empties:
            action = n2
        else:
            mine = state[_PLAYER] + 1
            action = state[emp + np.int64(rand_below(rng, empties))]
            if empties > 1:
                other = state[emp + np.int64(rand_below(rng, empties))]
                if _gain(state, size, other, mine) > _gain(state, size, action, mine):
                    action = other
        if pie != _CLOSED:
            state[_PIE] = _OPEN if pie == _PENDING else _CLOSED
            if action != n2:
                _place(state, size, action)
        else:
            _place(state, size, action)
        if cap > 0:
            if plies >= cap:
                raise IndexError("robble policy playout: the game is longer than record")
            record[plies] = action
        plies += 1
    return plies


POLICY_PLAYOUT = policy_playout

#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (robble 7x7, one core).
LEVELS = (16, 256, 2048, 16384, 120_000)
