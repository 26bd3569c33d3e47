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

import os

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
from ...fast.kernels import SIG_PLAYOUT, SIG_PRIOR


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


# ------------------------------------------------------------------ move priors
#: How a placement at p looks to the mover, in two local codes.
#: *cross*: per direction d (``_NB``'s order, a quarter turn apart) the
#: neighbour a and the point b beyond it, which is what the rules act on (a
#: stone at a is pushed to an empty b, removed when b is off the board,
#: flipped when b holds a stone): 0 when a is off the board, else
#: 1 + 4 * a's state (empty, mine, theirs) + b's (off, empty, mine, theirs):
#: 13 states a direction, 13**4 codes. *diag*: the four diagonal points
#: (between direction d and d + 1), each off, empty, mine or theirs: 4**4.
CROSS_CODES = 13 ** 4
DIAG_CODES = 4 ** 4


@njit(cache=True, inline="always")
def _look(state, q, mine):
    """0 off the board, 1 empty, 2 the mover's stone, 3 the other's."""
    if q < 0:
        return 0
    v = state[_HDR + q]
    return 1 if v == 0 else (2 if v == mine else 3)


@njit(cache=True)
def move_codes(state, size, p, mine):
    """(cross, diag): the local codes above of a placement at ``p`` by the
    color whose board value is ``mine``."""
    cross = 0
    diag = 0
    for d in range(4):
        a = _NB[size, p, d]
        if a < 0:
            s = 0
        else:
            s = 1 + 4 * (_look(state, a, mine) - 1) + _look(state, _NB[size, a, d], mine)
        cross = cross * 13 + s
        g = _NB[size, a, (d + 1) % 4] if a >= 0 else -1
        diag = diag * 4 + _look(state, g, mine)
    return cross, diag


def _load_weights() -> tuple[np.ndarray, np.ndarray, float]:
    path = os.path.join(os.path.dirname(__file__), "prior_weights.npz")
    with np.load(path) as z:
        return (np.ascontiguousarray(z["cross"], dtype=np.float64),
                np.ascontiguousarray(z["diag"], dtype=np.float64), float(z["swap"]))


#: the fitted weights (bench/robble_priors.py; numba keeps them in the compiled
#: code, so a new file needs this module touched for the cache to see it)
_W_CROSS, _W_DIAG, _W_SWAP = _load_weights()


@njit(SIG_PRIOR, cache=True)
def prior(state, actions, k, out):
    """A move's log-potential: the fitted weights of its two local codes; the
    pie swap its own weight."""
    size = state[0]
    n2 = size * size
    mine = state[_PLAYER] + 1
    for j in range(k):
        a = actions[j]
        if a >= n2:
            out[j] = _W_SWAP
        else:
            cross, diag = move_codes(state, size, a, mine)
            out[j] = _W_CROSS[cross] + _W_DIAG[diag]


PRIOR = prior

#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (robble 7x7, one core).
LEVELS = (16, 256, 2048, 16384, 120_000)
