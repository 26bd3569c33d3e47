"""Robble on bitboards: the search's own state for boards up to 8x8.

The one search restarts every simulation from a copy of its root state and
plays the tree's moves on it. On the kernel's state (``boardlab.fast._robble``)
that copy is the board, the empty list, the hash filter and the history
(about 130 ns at 7x7), and each move keeps all of them (about 40 ns); then
the playout turns the board into bitboards and back. Here the whole position
is two 64-bit words, one per color, plus the positions played so far for
the repetition rule, so a copy is a few cache lines and a move is
:func:`bb_place` and a record.

The rules are the kernel's, clause for clause (the kernel contract of
:mod:`boardlab.fast.kernels`, and ``tests/test_robble_bitstate.py`` plays
random games in both and compares every ply, repetition draws included):

* the pie rule: on the second turn ``swap`` (action ``n2``) is legal; it
  changes neither the board nor the color to move;
* repetition: a position (board and color to move) is recorded at the start
  and after every placement that does not fill the board; its third
  recording is a draw. The color to move alternates at every placement and
  a swap records nothing, so record ``j``'s mover is the start's when ``j``
  is even: two records can only be the same position when their indices
  have the same parity, and then they are when both words are equal. A
  512-bit filter of the recorded positions spares the scan of the history
  for a position never seen;
* the end: a full board is scored by the kernel's count of leftover groups
  (:func:`boardlab.fast._robble.bb_leftover_biggest`), a tie lost by the
  color that filled the board.

State layout (one ``int64`` row): the header words below, then the
recorded positions, two words each (black's, white's bitboard).

``POLICY_PLAYOUT`` is the search's playout on this state: uniform, as the
kernel's, but without the repetition record (see
:mod:`boardlab.games.robble.search`), and ``playout`` is the contract's exact
one (with it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, uint64
from numba.cpython.unsafe.numbers import trailing_zeros

from ....fast import _key
from ....fast import _robble as kernel
from ....fast._bits import kth_set_bit
from ....fast._rng import rand_below
from ....fast._robble import _NB
from ....fast.kernels import (
    SIG_APPLY,
    SIG_COPY_STATE,
    SIG_CURRENT_PLAYER,
    SIG_INIT,
    SIG_IS_LEGAL,
    SIG_LEGAL_ACTIONS,
    SIG_LIVE_SCORES,
    SIG_MID_TURN,
    SIG_OUTCOME,
    SIG_PLAYOUT,
    SIG_POSITION_KEY,
)

TERMINATIONS = kernel.TERMINATIONS
HAS_SCORES = kernel.HAS_SCORES
ALTERNATES = kernel.ALTERNATES
POLICY_ALTERNATES = True
MAX_SIZE = kernel.MAX_BB_SIZE

_PENDING, _OPEN, _CLOSED = kernel._PENDING, kernel._OPEN, kernel._CLOSED
_PLAYING, _FULL, _DRAWN = kernel._PLAYING, kernel._FULL, kernel._DRAWN
_T_SCORE, _T_LAST_MOVE, _T_REPETITION = kernel._T_SCORE, kernel._T_LAST_MOVE, kernel._T_REPETITION

# header words
_SIZE, _PLAYER, _PIE, _ENDED, _NEMPTY, _BLACK, _WHITE, _NPOS, _CAP = range(9)
_FILTER = 9        # 8 words: a 512-bit filter of the recorded positions
_FILTER_WORDS = 8
_HDR = 24          # the recorded positions start here, two words each
_SCRATCH = 2 * 65  # the row's last words: the count's groups by size (never copied)

#: compiled without reference counting, as the search's loop (see
#: boardlab.fast._tree._NO_RC): nothing here allocates an array
_NO_RC: dict[str, Any] = {"cache": True, "_nrt": False}

_ZERO, _ONE = uint64(0), uint64(1)
_K1 = uint64(0x9E3779B97F4A7C15)
_K2 = uint64(0xC2B2AE3D27D4EB4F)
_K3 = uint64(0x165667B19E3779F9)


def _masks() -> tuple[np.ndarray, np.ndarray]:
    """Per size, point and direction: the neighbour's bit and the bit of the
    point beyond it (0 where off the board)."""
    m1 = np.zeros((MAX_SIZE + 1, 64, 4), np.uint64)
    m2 = np.zeros_like(m1)
    for size in range(2, MAX_SIZE + 1):
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


def applies(size: int) -> bool:
    """Whether this state can hold a board of ``size`` (one word a color)."""
    return size <= MAX_SIZE


def capacity(size: int) -> int:
    """Positions the history holds: the kernel's capacity."""
    return kernel.capacity(size)


def state_len(size: int) -> int:
    return _HDR + 2 * capacity(size) + _SCRATCH


encode_options = kernel.encode_options


@njit(cache=True, inline="always")
def _full(n2):
    return (_ONE << uint64(n2)) - _ONE if n2 < 64 else ~_ZERO


@njit(cache=True, inline="always")
def _filter_bit(black, white, parity):
    """The filter bit (0..511) of a position: a multiplicative hash of both
    words and the mover's parity."""
    h = black * _K1 ^ (white * _K2) ^ (uint64(parity) * _K3)
    h ^= h >> uint64(29)
    return int((h * _K1) >> uint64(55))


@njit(**_NO_RC)
def _record(state, black, white):
    """Record the position now on the board as the next one; a draw if it
    is its third recording."""
    npos = state[_NPOS]
    if npos >= state[_CAP]:
        raise OverflowError("robble: the game outgrew the search state's position history")
    parity = npos & 1
    bit = _filter_bit(black, white, parity)
    word = _FILTER + (bit >> 6)
    mask = np.int64(1) << np.int64(bit & 63)
    b = np.int64(black)
    w = np.int64(white)
    if state[word] & mask:
        seen = 0
        for j in range(parity, npos, 2):
            if state[_HDR + 2 * j] == b and state[_HDR + 2 * j + 1] == w:
                seen += 1
        if seen >= 2:
            state[_ENDED] = _DRAWN
    state[word] |= mask
    state[_HDR + 2 * npos] = b
    state[_HDR + 2 * npos + 1] = w
    state[_NPOS] = npos + 1


@njit(SIG_INIT, **_NO_RC)
def init(state, size, opts):
    if size > MAX_SIZE:
        raise ValueError("robble bit state: boards above 8x8 do not fit a 64-bit word")
    for i in range(_HDR):
        state[i] = 0
    state[_SIZE] = size
    state[_PIE] = _PENDING if opts[0] else _CLOSED
    state[_NEMPTY] = size * size
    state[_CAP] = max(16 * size * size, 1024)
    _record(state, _ZERO, _ZERO)


@njit(**_NO_RC)
def from_kernel(dst, src):
    """``dst`` becomes the position of the kernel state ``src`` (size <= 8),
    history included: the start board replayed through the recorded
    placements, each position recorded as the kernel recorded it."""
    size = src[kernel._SIZE]
    n2 = size * size
    for i in range(_HDR):
        dst[i] = 0
    dst[_SIZE] = size
    dst[_CAP] = max(16 * n2, 1024)
    cap = src[kernel._CAP]
    hist = kernel._HDR + 3 * n2 + kernel._FILTER_WORDS
    moves = hist + cap
    start = moves + cap
    black = _ZERO
    white = _ZERO
    for p in range(n2):
        if src[start + p] == 1:
            black |= _ONE << uint64(p)
        elif src[start + p] == 2:
            white |= _ONE << uint64(p)
    player = src[kernel._START_PLAYER]
    _record(dst, black, white)
    npos = src[kernel._NPOS]
    for j in range(npos - 1):
        black, white, _ = bb_place(black, white, player, size, src[moves + j])
        player ^= 1
        _record(dst, black, white)
    # the board now: the last recorded position, or the full board the
    # last placement made (which is not recorded)
    now_black, now_white = kernel.board_bits(src, n2)
    dst[_BLACK] = np.int64(now_black)
    dst[_WHITE] = np.int64(now_white)
    dst[_PLAYER] = src[kernel._PLAYER]
    dst[_PIE] = src[kernel._PIE]
    dst[_ENDED] = src[kernel._ENDED]
    dst[_NEMPTY] = src[kernel._NEMPTY]


@njit(**_NO_RC)
def _place(state, p):
    size = state[_SIZE]
    player = state[_PLAYER]
    black, white, removed = bb_place(uint64(state[_BLACK]), uint64(state[_WHITE]), player,
                                     size, p)
    state[_BLACK] = np.int64(black)
    state[_WHITE] = np.int64(white)
    state[_PLAYER] = player ^ 1
    empties = state[_NEMPTY] + removed - 1
    state[_NEMPTY] = empties
    if empties == 0:  # the board is full: over, the position is not recorded
        state[_ENDED] = _FULL
        return
    _record(state, black, white)


@njit(SIG_APPLY, **_NO_RC)
def apply(state, action):
    pie = state[_PIE]
    if pie != _CLOSED:  # only the first two turns can involve the pie rule
        state[_PIE] = _OPEN if pie == _PENDING else _CLOSED
        if action == state[_SIZE] * state[_SIZE]:
            return  # a swap: colors change hands, board and mover do not
    _place(state, action)


@njit(SIG_COPY_STATE, **_NO_RC)
def copy_state(dst, src):
    """The header and the positions recorded so far."""
    for i in range(_HDR + 2 * src[_NPOS]):  # a loop: slice assignment needs reference counts
        dst[i] = src[i]


@njit(SIG_LEGAL_ACTIONS, **_NO_RC)
def legal_actions(state, out):
    if state[_ENDED] != _PLAYING:
        return 0
    n2 = state[_SIZE] * state[_SIZE]
    free = _full(n2) & ~(uint64(state[_BLACK]) | uint64(state[_WHITE]))
    k = 0
    while free:
        out[k] = trailing_zeros(free)
        free &= free - _ONE
        k += 1
    if state[_PIE] == _OPEN:
        out[k] = n2
        k += 1
    return k


@njit(SIG_IS_LEGAL, **_NO_RC)
def is_legal(state, action):
    if state[_ENDED] != _PLAYING:
        return False
    n2 = state[_SIZE] * state[_SIZE]
    if 0 <= action < n2:
        return ((uint64(state[_BLACK]) | uint64(state[_WHITE])) >> uint64(action)) & _ONE == _ZERO
    return action == n2 and state[_PIE] == _OPEN


@njit(SIG_CURRENT_PLAYER, **_NO_RC)
def current_player(state):
    return -1 if state[_ENDED] != _PLAYING else state[_PLAYER]


@njit(SIG_POSITION_KEY, **_NO_RC)
def position_key(state):
    """The two colors' words, the mover, the pie state and how the game
    stands (playing, full, drawn). Not the positions recorded for the
    repetition rule: a search sharing a node between move orders keeps the
    tree's moves exact by replaying them, and checks who is to move.
    (The kernel contract's ``position_key``.)"""
    h = _key.start()
    for i in (_PLAYER, _PIE, _ENDED, _BLACK, _WHITE):
        h = _key.mix(h, state[i])
    return _key.finish(h)


@njit(SIG_MID_TURN, **_NO_RC)
def mid_turn(state):
    return False


@njit(SIG_OUTCOME, **_NO_RC)
def outcome(state, scores):
    ended = state[_ENDED]
    if ended != _FULL:
        scores[0] = np.nan
        scores[1] = np.nan
        return (-1, -1) if ended == _PLAYING else (2, _T_REPETITION)
    size = state[_SIZE]
    counts = state[state.shape[0] - _SCRATCH:].reshape((2, 65))[:, :size * size + 1]
    for m in range(size * size + 1):
        counts[0, m] = 0
        counts[1, m] = 0
    kernel.bb_group_counts(uint64(state[_BLACK]), size, counts, 0)
    kernel.bb_group_counts(uint64(state[_WHITE]), size, counts, 1)
    best0, best1 = kernel.paired_biggest(counts)
    scores[0] = best0
    scores[1] = best1
    if best0 == best1:  # both 0: the color that filled the board loses
        return state[_PLAYER], _T_LAST_MOVE
    return (0 if best0 > best1 else 1), _T_SCORE


@njit(SIG_LIVE_SCORES, **_NO_RC)
def live_scores(state, out):
    if state[_ENDED] != _FULL:
        return False
    outcome(state, out)
    return True


@njit(SIG_PLAYOUT, **_NO_RC)
def playout(state, rng, record):
    """Uniform random actions until the game is over, the repetition rule
    kept (the contract's playout)."""
    n2 = state[_SIZE] * state[_SIZE]
    full = _full(n2)
    cap = record.shape[0]
    plies = 0
    while state[_ENDED] == _PLAYING:
        empties = state[_NEMPTY]
        r = rand_below(rng, empties + (1 if state[_PIE] == _OPEN else 0))
        if r == empties:
            action = n2
        else:
            action = kth_set_bit(full & ~(uint64(state[_BLACK]) | uint64(state[_WHITE])), r)
        if cap > 0:
            if plies >= cap:
                raise IndexError("robble playout: the game is longer than the record array")
            record[plies] = action
        apply(state, action)
        plies += 1
    return plies


@njit(SIG_PLAYOUT, **_NO_RC)
def policy_playout(state, rng, record):
    """The search's playout: uniform placements on the two words, no
    repetition record (a playout past ``16 * n2`` plies is a draw), the final
    board written back for :func:`outcome`. While the pie swap is still to
    come, the contract's playout."""
    if state[_PIE] != _CLOSED:
        return playout(state, rng, record)
    if state[_ENDED] != _PLAYING:
        return 0
    size = state[_SIZE]
    n2 = size * size
    full = _full(n2)
    black = uint64(state[_BLACK])
    white = uint64(state[_WHITE])
    player = state[_PLAYER]
    empties = state[_NEMPTY]
    cap = record.shape[0]
    limit = 16 * n2
    plies = 0
    while empties > 0 and plies < limit:
        p = kth_set_bit(full & ~(black | white), rand_below(rng, empties))
        black, white, removed = bb_place(black, white, player, size, p)
        empties += removed - 1
        if cap > 0:
            if plies >= cap:
                raise IndexError("robble policy playout: the game is longer than record")
            record[plies] = p
        player ^= 1
        plies += 1
    state[_BLACK] = np.int64(black)
    state[_WHITE] = np.int64(white)
    state[_PLAYER] = player
    state[_NEMPTY] = empties
    state[_ENDED] = _FULL if empties == 0 else _DRAWN
    return plies


POLICY_PLAYOUT = policy_playout
