"""Robble's compiled kernel (the contract: ``boardlab.fast.kernels``).

The reference is ``boardlab.games.robble``; ``boardlab.fast.check`` holds the
two to the same legal actions, turn order, outcome and scores at every ply.

State layout (one flat ``int64`` row; ``n2 = size * size``)::

    [0] size   [1] color to move   [2] pie state (PENDING/OPEN/CLOSED)
    [3] ended: 0 playing, 1 board full, 2 draw by repetition
    [4] empty points   [5] Zobrist hash of board + color to move
    [6] positions recorded   [7] pie option   [8] history capacity
    [9] the color to move at the start
    [16 ..]            board, n2 cells (0 empty, 1 black, 2 white)
    then               the empty points, unordered (a playout draws from it in O(1))
    then               each point's index in that list
    then               a 4096-bit filter of the recorded hashes (64 words)
    then               the recorded hashes, in order (capacity words)
    then               the placements, in order (capacity words)
    then               the board at the start (n2 words: empty, or a set-up
                       position's, :func:`from_game`)

Repetition, exactly as the Python engine rules it (docs/rules.md, robble-4.1): a position is
recorded at the start and after every placement that does not fill the board
(a swap records nothing), and its third recording is a draw. Each recording
tests one bit of the filter and scans the hashes only when the bit is set;
a hash match is only a candidate, so before a draw is declared the
placements are replayed on a scratch board and every candidate is compared
cell by cell. A hash collision therefore can never end a game.

The history has room for ``max(16 * n2, 1024)`` positions, far beyond any
random game seen (the longest of 3,000 random 4x4 games took 6.3 * n2
plies, at 7x7 1.9 * n2); a game that outgrows it raises OverflowError in
``apply`` instead of losing track of repetitions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, uint64

from ..core import grid
from ..errors import OptionError
from . import _key
from ._bits import popcount
from ._rng import rand_below
from .kernels import (
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

TERMINATIONS: tuple[str, ...] = ("score", "last-move", "repetition")
ALTERNATES = True  # every action, a pass included, hands the turn over; the swap keeps it
HAS_SCORES = True
_T_SCORE, _T_LAST_MOVE, _T_REPETITION = 0, 1, 2

_PENDING, _OPEN, _CLOSED = 0, 1, 2  # boardlab.core.pie's values
_PLAYING, _FULL, _DRAWN = 0, 1, 2

_SIZE, _PLAYER, _PIE, _ENDED, _NEMPTY, _HASH, _NPOS, _PIE_OPT, _CAP, _START_PLAYER = range(10)
_HDR = 16
_FILTER_WORDS = 64  # 4096 bits


def _neighbour_table() -> np.ndarray:
    """``NB[size, p, d]``: the neighbour of p in direction d, -1 off the board
    (grid.steps, for every size at once, so one constant serves all sizes)."""
    table = np.full((grid.MAX_SIZE + 1, grid.MAX_SIZE ** 2, 4), -1, dtype=np.int64)
    for size in range(grid.MIN_SIZE, grid.MAX_SIZE + 1):
        for d, step in enumerate(grid.steps(size)):
            table[size, :size * size, d] = step
    return table


_NB = _neighbour_table()
# Zobrist keys: _ZOB[color, p] for color 1 (black) and 2 (white); row 0 is
# unused, and _ZOB[0, 0] is the key of "white to move". Fixed seed: every
# process, and numba's cached code, sees the same keys.
_ZOB = np.random.default_rng(0x526F62626C65).integers(
    np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=(3, grid.MAX_SIZE ** 2),
    dtype=np.int64, endpoint=True)
_ZOB_MOVER = _ZOB[0, 0]


def capacity(size: int) -> int:
    """Positions the history has room for at this size."""
    return max(16 * size * size, 1024)


def state_len(size: int) -> int:
    n2 = size * size
    return _HDR + 4 * n2 + _FILTER_WORDS + 2 * capacity(size)


def encode_options(options: dict[str, Any]) -> np.ndarray:
    return np.array([1 if options["pie"] else 0], dtype=np.int64)


@njit(SIG_INIT, cache=True)
def init(state, size, opts):
    n2 = size * size
    state[:_HDR + n2] = 0
    state[_SIZE] = size
    state[_PIE] = _PENDING if opts[0] else _CLOSED
    state[_PIE_OPT] = opts[0]
    state[_NEMPTY] = n2
    state[_CAP] = max(16 * n2, 1024)
    emp = _HDR + n2
    pos = emp + n2
    for p in range(n2):
        state[emp + p] = p
        state[pos + p] = p
    filt = pos + n2
    state[filt:filt + _FILTER_WORDS] = 0
    # position 0: the empty board, black to move; its hash is 0
    state[filt] = 1
    state[filt + _FILTER_WORDS] = 0
    state[_NPOS] = 1
    start = filt + _FILTER_WORDS + 2 * state[_CAP]
    state[start:start + n2] = 0


@njit(cache=True)
def _load(state, size, opts, board, player, pie):
    """The state of a set-up position: ``board`` (n2 cells), ``player`` to
    move, the pie state; recorded as position 0 (the Python engine records a
    loaded position once, as it records the start)."""
    init(state, size, opts)
    n2 = size * size
    emp = _HDR + n2
    pos = emp + n2
    h = 0
    for p in range(n2):
        if board[p]:
            state[_HDR + p] = board[p]
            h ^= _ZOB[board[p], p]
            _drop_empty(state, emp, pos, p)
    if player == 1:
        h ^= _ZOB_MOVER
    state[_PLAYER] = player
    state[_START_PLAYER] = player
    state[_PIE] = pie
    state[_HASH] = h
    filt = pos + n2
    state[filt] = 0
    bit = (h >> 52) & 4095
    state[filt + (bit >> 6)] |= np.int64(1) << (bit & 63)
    state[filt + _FILTER_WORDS] = h
    start = filt + _FILTER_WORDS + 2 * state[_CAP]
    state[start:start + n2] = board


def from_game(game: Any) -> np.ndarray:
    """The kernel state of a Python robble game that started from a set-up
    position (``boardlab.from_position``): its start loaded, then its moves
    applied, so repetitions count from the start as the Python engine counts."""
    start = game.copy()
    while len(start):
        start.undo()
    size = game.size
    if start.current_player is None:
        raise OptionError("robble: a finished set-up position has nothing to search")
    codes = {"X": 1, "O": 2}
    board = np.array([codes.get(c, 0) if c else 0 for c in start.cells()], dtype=np.int64)
    state = np.zeros(state_len(size), dtype=np.int64)
    _load(state, size, encode_options(dict(game.options)), board, start.current_player,
          start._pie)
    for a in game.action_history:
        apply(state, a)
    return state


@njit(cache=True)
def _drop_empty(state, emp, pos, p):
    """Remove point p from the unordered empty list (swap with the last)."""
    last = state[_NEMPTY] - 1
    i = state[pos + p]
    q = state[emp + last]
    state[emp + i] = q
    state[pos + q] = i
    state[_NEMPTY] = last


@njit(cache=True)
def _add_empty(state, emp, pos, p):
    k = state[_NEMPTY]
    state[emp + k] = p
    state[pos + p] = k
    state[_NEMPTY] = k + 1


@njit(cache=True)
def _place_on(board, size, p, color):
    """The placement rule on a bare board (the replay used to verify a repetition)."""
    board[p] = color
    for d in range(4):
        a = _NB[size, p, d]
        if a < 0 or board[a] == 0:
            continue
        b = _NB[size, a, d]
        if b < 0:
            board[a] = 0
        elif board[b] != 0:
            board[a] = 3 - board[a]
        else:
            board[b] = board[a]
            board[a] = 0


@njit(cache=True)
def _exact_repeats(state, size, n2, npos, h):
    """How many recorded positions equal the current board and mover, by
    replaying the placements from the start board (only called when the
    hashes say two or more)."""
    hist = _HDR + 3 * n2 + _FILTER_WORDS
    moves = hist + state[_CAP]
    start = moves + state[_CAP]
    board = state[start:start + n2].copy()
    first = state[_START_PLAYER]
    count = 0
    for j in range(npos):
        if state[hist + j] == h and j % 2 == npos % 2:
            same = True
            for p in range(n2):
                if board[p] != state[_HDR + p]:
                    same = False
                    break
            if same:
                count += 1
        if j < npos - 1:
            _place_on(board, size, state[moves + j], (first + j) % 2 + 1)
    return count


@njit(cache=True)
def _place(state, size, p):
    n2 = size * size
    emp = _HDR + n2
    pos = emp + n2
    player = state[_PLAYER]
    color = player + 1
    h = state[_HASH] ^ _ZOB[color, p] ^ _ZOB_MOVER
    state[_HDR + p] = color
    _drop_empty(state, emp, pos, p)
    for d in range(4):
        a = _NB[size, p, d]
        if a < 0:
            continue
        stone = state[_HDR + a]
        if stone == 0:
            continue
        b = _NB[size, a, d]
        if b < 0:                       # edge behind: remove
            state[_HDR + a] = 0
            h ^= _ZOB[stone, a]
            _add_empty(state, emp, pos, a)
        elif state[_HDR + b] != 0:      # stone behind: flip
            state[_HDR + a] = 3 - stone
            h ^= _ZOB[stone, a] ^ _ZOB[3 - stone, a]
        else:                           # empty behind: push
            state[_HDR + b] = stone
            state[_HDR + a] = 0
            h ^= _ZOB[stone, a] ^ _ZOB[stone, b]
            _drop_empty(state, emp, pos, b)
            _add_empty(state, emp, pos, a)
    state[_PLAYER] = player ^ 1
    state[_HASH] = h
    if state[_NEMPTY] == 0:  # the board is full: over, the position is not recorded
        state[_ENDED] = _FULL
        return
    npos = state[_NPOS]
    cap = state[_CAP]
    if npos >= cap:
        raise OverflowError("robble: the game outgrew the compiled core's position history")
    filt = pos + n2
    hist = filt + _FILTER_WORDS
    bit = (h >> 52) & 4095
    word = filt + (bit >> 6)
    mask = np.int64(1) << (bit & 63)
    if state[word] & mask:
        seen = 0
        for j in range(npos):
            if state[hist + j] == h:
                seen += 1
        if seen >= 2 and _exact_repeats(state, size, n2, npos, h) >= 2:
            state[_ENDED] = _DRAWN
    state[word] |= mask
    state[hist + npos] = h
    state[hist + cap + npos - 1] = p
    state[_NPOS] = npos + 1


@njit(SIG_APPLY, cache=True)
def apply(state, action):
    size = state[_SIZE]
    pie = state[_PIE]
    if pie != _CLOSED:  # only the first two turns can involve the pie rule
        state[_PIE] = _OPEN if pie == _PENDING else _CLOSED
        if action == size * size:
            return  # a swap: colors change hands, board and mover do not
    _place(state, size, action)


@njit(SIG_COPY_STATE, cache=True)
def copy_state(dst, src):
    """The words play reads: the header, board, empty list and filter, the
    recorded hashes and placements so far, and the start board (the
    history's unused capacity, nine tenths of a 7x7 row, is skipped)."""
    n2 = src[_SIZE] * src[_SIZE]
    npos = src[_NPOS]
    cap = src[_CAP]
    hist = _HDR + 3 * n2 + _FILTER_WORDS
    dst[:hist + npos] = src[:hist + npos]
    placed = hist + cap
    dst[placed:placed + npos] = src[placed:placed + npos]
    start = placed + cap
    dst[start:start + n2] = src[start:start + n2]


@njit(SIG_LEGAL_ACTIONS, cache=True)
def legal_actions(state, out):
    if state[_ENDED] != _PLAYING:
        return 0
    n2 = state[_SIZE] * state[_SIZE]
    k = 0
    for p in range(n2):
        if state[_HDR + p] == 0:
            out[k] = p
            k += 1
    if state[_PIE] == _OPEN:
        out[k] = n2
        k += 1
    return k


@njit(SIG_IS_LEGAL, cache=True)
def is_legal(state, action):
    if state[_ENDED] != _PLAYING:
        return False
    n2 = state[_SIZE] * state[_SIZE]
    if 0 <= action < n2:
        return state[_HDR + action] == 0
    return action == n2 and state[_PIE] == _OPEN


@njit(SIG_POSITION_KEY, cache=True)
def position_key(state):
    """The Zobrist hash of the board and the mover, with the pie state and
    how the game stands (the kernel contract's ``position_key``). Not the
    positions recorded for the repetition rule, as the search state's key
    (``boardlab.games.robble.search.bitstate.position_key``)."""
    h = _key.mix(_key.start(), state[_HASH])
    h = _key.mix(h, state[_PIE])
    return _key.finish(_key.mix(h, state[_ENDED]))


@njit(SIG_CURRENT_PLAYER, cache=True)
def current_player(state):
    return -1 if state[_ENDED] != _PLAYING else state[_PLAYER]


@njit(SIG_MID_TURN, cache=True)
def mid_turn(state):
    return False


#: boards up to this size are counted on bitboards (one 64-bit word a color)
MAX_BB_SIZE = 8


def _edge_columns() -> tuple[np.ndarray, np.ndarray]:
    """Per size: the bits of the points off the first column, and off the last."""
    first = np.zeros(MAX_BB_SIZE + 1, np.uint64)
    last = np.zeros(MAX_BB_SIZE + 1, np.uint64)
    for size in range(2, MAX_BB_SIZE + 1):
        for p in range(size * size):
            if p % size != 0:
                first[size] |= np.uint64(1) << np.uint64(p)
            if p % size != size - 1:
                last[size] |= np.uint64(1) << np.uint64(p)
    return first, last


_NOT_FIRST, _NOT_LAST = _edge_columns()


@njit(cache=True)
def bb_group_counts(stones, size, counts, row):
    """Count the groups of the stones in bitboard ``stones`` by size into
    ``counts[row]``. The lone stones (no neighbour of their color: about a
    third of a random full board's groups) are counted at once; every other
    group is grown from its lowest stone by shifting the whole group a step
    in every direction at once, until it stops growing."""
    one = uint64(1)
    step = uint64(size)
    not_first = _NOT_FIRST[size]
    not_last = _NOT_LAST[size]
    linked = stones & (((stones << one) & not_first) | ((stones >> one) & not_last)
                       | (stones << step) | (stones >> step))
    counts[row, 1] += popcount(stones & ~linked)
    stones = linked
    while stones:
        group = stones & (~stones + one)  # the lowest stone
        while True:
            grown = (group | ((group << one) & not_first) | ((group >> one) & not_last)
                     | (group << step) | (group >> step)) & stones
            if grown == group:
                break
            group = grown
        stones &= ~group
        counts[row, popcount(group)] += 1


@njit(cache=True, inline="always")
def board_bits(state, n2):
    """The board as two bitboards, black's and white's (n2 <= 64)."""
    black = uint64(0)
    white = uint64(0)
    for p in range(n2):
        cell = state[_HDR + p]
        if cell == 1:
            black |= uint64(1) << uint64(p)
        elif cell == 2:
            white |= uint64(1) << uint64(p)
    return black, white


@njit(cache=True)
def bb_leftover_biggest(black, white, size):
    """:func:`_leftover_biggest` of a board held as two bitboards (size <= 8)."""
    counts = np.zeros((2, size * size + 1), dtype=np.int64)
    bb_group_counts(black, size, counts, 0)
    bb_group_counts(white, size, counts, 1)
    return paired_biggest(counts)


@njit(cache=True)
def paired_biggest(counts):
    """Each color's biggest group size left once groups of equal size are
    removed in black/white pairs, from the group counts by size."""
    best0 = 0
    best1 = 0
    for m in range(1, counts.shape[1]):
        diff = counts[0, m] - counts[1, m]
        if diff > 0:
            best0 = m
        elif diff < 0:
            best1 = m
    return best0, best1


@njit(cache=True)
def _leftover_biggest(state, size):
    """The biggest group of each color left once equal-size black/white
    groups are removed in pairs (grid.largest_majority_sizes)."""
    n2 = size * size
    if size <= MAX_BB_SIZE:
        black, white = board_bits(state, n2)
        return bb_leftover_biggest(black, white, size)
    label = np.zeros(n2, dtype=np.int64)
    stack = np.empty(n2, dtype=np.int64)
    counts = np.zeros((2, n2 + 1), dtype=np.int64)
    for s in range(n2):
        color = state[_HDR + s]
        if color == 0 or label[s]:
            continue
        label[s] = 1
        stack[0] = s
        top = 1
        members = 0
        while top:
            top -= 1
            q = stack[top]
            members += 1
            for d in range(4):
                r = _NB[size, q, d]
                if r >= 0 and not label[r] and state[_HDR + r] == color:
                    label[r] = 1
                    stack[top] = r
                    top += 1
        counts[color - 1, members] += 1
    return paired_biggest(counts)


@njit(SIG_OUTCOME, cache=True)
def outcome(state, scores):
    ended = state[_ENDED]
    if ended == _PLAYING:
        scores[0] = np.nan
        scores[1] = np.nan
        return -1, -1
    if ended == _DRAWN:
        scores[0] = np.nan
        scores[1] = np.nan
        return 2, _T_REPETITION
    best0, best1 = _leftover_biggest(state, state[_SIZE])
    scores[0] = best0
    scores[1] = best1
    if best0 == best1:  # both 0: the color that filled the board loses
        return state[_PLAYER], _T_LAST_MOVE
    return (0 if best0 > best1 else 1), _T_SCORE


@njit(SIG_LIVE_SCORES, cache=True)
def live_scores(state, out):
    # Robble shows no score during play; once over, the final scores (if any).
    if state[_ENDED] != _FULL:
        return False
    outcome(state, out)
    return True


@njit(SIG_PLAYOUT, cache=True)
def playout(state, rng, record):
    size = state[_SIZE]
    n2 = size * size
    emp = _HDR + n2
    limit = len(record)
    plies = 0
    while state[_ENDED] == _PLAYING:
        empties = state[_NEMPTY]
        pie = state[_PIE]
        r = rand_below(rng, empties + (1 if pie == _OPEN else 0))
        action = n2 if r == empties else state[emp + r]
        if limit:
            if plies >= limit:
                raise IndexError("robble playout: the game is longer than the record array")
            record[plies] = action
        if pie != _CLOSED:
            state[_PIE] = _OPEN if pie == _PENDING else _CLOSED
            if action != n2:
                _place(state, size, action)
        else:
            _place(state, size, action)
        plies += 1
    return plies
