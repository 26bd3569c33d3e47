"""Robble's search advice (the one search's contract: :mod:`boardlab.fast.advice`).

``POLICY_PLAYOUT``: the kernel's uniform playout, about twice as fast a
ply, and what ``mcts`` plays with (``SEARCH_SETTINGS``). At equal time the
searches' strength follows their simulations (the plain ``uct`` with four
times the time scores 15-1 against itself): no knowledge tried has helped
(docs/ai.md), speed has. With this playout, the count on bitboards (the
kernel's) and the search restarting each simulation from a partial copy
of the root state (the kernel's ``copy_state``), the search runs about
1.5x the simulations of ``uct`` a CPU second, and scored 31-9 against it
at 0.25 s a move (bench/tries). Two things make the playout fast:

* **Bitboards.** While the board has at most 64 points (sizes up to 8)
  the playout keeps each color's stones in one 64-bit word and applies the
  placement rule with masks, without branching on what each neighbour
  holds (those branches are coin flips for the processor's predictor):
  for each direction the neighbour ``A`` and the point beyond it ``B``
  come from a table (0 where off the board), and a stone on ``A`` is
  removed (no ``B``), flipped (``B`` occupied) or pushed to ``B`` (``B``
  empty), exactly as the kernel's ``_place`` does.
* **No repetition bookkeeping.** The kernel hashes every position and
  records it, to declare the threefold-repetition draw. A playout ignores
  that rule: a random game almost never repeats a position at these sizes
  (the rules' own note: believed impossible above 5x5); a playout that
  runs past ``16 * n2`` plies (random 7x7 games take about ``2 * n2``) is
  scored a draw. The tree's moves stay exact: they go through the kernel.

A point is drawn uniformly among the empty ones (by rejection while a
quarter or more of the board is empty, else by counting down the set bits).
The pie-rule plies and boards above 8x8 use the kernel's playout. The
playout ends with the final board written back into the state, so the
kernel's ``outcome`` scores it (a draw's board too).

(Tried and dropped: a playout preferring placements that gain stones, and
a static evaluation of the board, the final count taken now: it does not
predict who wins a random continuation at all, correlation 0.01 over 60
positions. Searches with either lost nearly every game against ``uct``;
docs/ai.md has the table of tries.)
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64
from numba.cpython.unsafe.numbers import trailing_zeros

from ...fast._rng import rand_below
from ...fast._robble import (
    _CLOSED,
    _DRAWN,
    _ENDED,
    _FULL,
    _HDR,
    _NB,
    _NEMPTY,
    _PIE,
    _PLAYER,
    _PLAYING,
    MAX_BB_SIZE,
    board_bits,
    playout,
)
from ...fast.kernels import SIG_PLAYOUT

_ZERO, _ONE = uint64(0), uint64(1)


def _masks() -> tuple[np.ndarray, np.ndarray]:
    """Per size, point and direction: the neighbour's bit and the bit of the
    point beyond it (0 where off the board)."""
    m1 = np.zeros((MAX_BB_SIZE + 1, 64, 4), np.uint64)
    m2 = np.zeros_like(m1)
    for size in range(2, MAX_BB_SIZE + 1):
        for p in range(size * size):
            for d in range(4):
                a = _NB[size, p, d]
                if a >= 0:
                    m1[size, p, d] = np.uint64(1) << np.uint64(a)
                    b = _NB[size, a, d]
                    if b >= 0:
                        m2[size, p, d] = np.uint64(1) << np.uint64(b)
    return m1, m2


_M1, _M2 = _masks()


@njit(cache=True, inline="always")
def _all_if(cond):
    """Every bit set if ``cond``, else none (a mask from a comparison)."""
    return _ZERO - uint64(cond)


@njit(cache=True, inline="always")
def _direction(black, white, occupied, a, b):
    """One direction of a placement, read off the board before it: the
    neighbour's bit ``a`` if a stone is there, split by what lies beyond
    (``b``: 0 off the board): removed, flipped, or pushed (with the bit it
    lands on, for black's board and for white's)."""
    stone = a & occupied
    off = _all_if(b == _ZERO)
    behind = _all_if((b & occupied) != _ZERO)
    push = stone & ~off & ~behind
    to_black = b & _all_if((push & black) != _ZERO)
    to_white = b & _all_if((push & white) != _ZERO)
    return stone & off, stone & behind, push, to_black, to_white


@njit(cache=True, inline="always")
def bb_place(black, white, player, size, p):
    """The placement rule on bitboards: ``player`` (0 black, 1 white) places
    on the empty point ``p``; returns the new boards and how many stones
    were removed at the edge (each leaves a point empty).

    The four directions are independent (their neighbours, and the points
    beyond them, are eight distinct points), so each is read off the board
    as it was before any moved and the results are combined at once: no
    direction waits for another's, and the processor overlaps them."""
    bit = _ONE << uint64(p)
    mine = _all_if(player == 0)
    black |= bit & mine
    white |= bit & ~mine
    occupied = black | white
    r0, f0, s0, b0, w0 = _direction(black, white, occupied, _M1[size, p, 0], _M2[size, p, 0])
    r1, f1, s1, b1, w1 = _direction(black, white, occupied, _M1[size, p, 1], _M2[size, p, 1])
    r2, f2, s2, b2, w2 = _direction(black, white, occupied, _M1[size, p, 2], _M2[size, p, 2])
    r3, f3, s3, b3, w3 = _direction(black, white, occupied, _M1[size, p, 3], _M2[size, p, 3])
    gone = r0 | r1 | r2 | r3 | s0 | s1 | s2 | s3
    flip = f0 | f1 | f2 | f3
    black = ((black & ~gone) ^ flip) | b0 | b1 | b2 | b3
    white = ((white & ~gone) ^ flip) | w0 | w1 | w2 | w3
    removed = (r0 != _ZERO) + (r1 != _ZERO) + (r2 != _ZERO) + (r3 != _ZERO)
    return black, white, removed


@njit(SIG_PLAYOUT, cache=True)
def policy_playout(state, rng, record):
    size = state[0]
    if size > MAX_BB_SIZE or state[_PIE] != _CLOSED:
        return playout(state, rng, record)
    if state[_ENDED] != _PLAYING:
        return 0
    n2 = size * size
    black, white = board_bits(state, n2)
    full = (_ONE << uint64(n2)) - _ONE if n2 < 64 else ~_ZERO
    player = state[_PLAYER]
    empties = state[_NEMPTY]
    cap = record.shape[0]
    limit = 16 * n2
    plies = 0
    while empties > 0 and plies < limit:
        free = full & ~(black | white)
        if 4 * empties >= n2:
            p = rand_below(rng, n2)
            while not ((free >> uint64(p)) & _ONE):
                p = rand_below(rng, n2)
        else:
            for _ in range(rand_below(rng, empties)):
                free &= free - _ONE
            p = trailing_zeros(free)
        black, white, removed = bb_place(black, white, player, size, p)
        empties += removed - 1
        if cap > 0:
            if plies >= cap:
                raise IndexError("robble policy playout: the game is longer than record")
            record[plies] = p
        player ^= 1
        plies += 1
    for p in range(n2):
        state[_HDR + p] = ((black >> uint64(p)) & _ONE) + 2 * ((white >> uint64(p)) & _ONE)
    state[_PLAYER] = player
    state[_NEMPTY] = empties
    # a board left unfilled after the limit is endless: a draw (the kernel
    # would have found a repetition); the empty list is not kept, and nothing
    # reads it once the game is over
    state[_ENDED] = _FULL if empties == 0 else _DRAWN
    return plies


POLICY_PLAYOUT = policy_playout

#: the one search's settings for robble (``mcts`` and the levels): its playout
SEARCH_SETTINGS = {"evaluator": "policy"}

#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (robble 7x7, one core;
#: 120,000 before the bitboard playout made the search about 1.3x faster).
LEVELS = (16, 256, 2048, 16384, 320_000)
