"""Implo's complete rules compiled with numba (the contract: ``boardlab.fast.kernels``).

The pure-Python engine ``boardlab.games.implo`` is the reference; this module
plays the same game on one flat ``int64`` array so that a playout runs
entirely in compiled code, with no allocation per ply.

Actions are the Python API's (``n = size * size``): ``p`` places on point
``p``; ``n + p`` resolves the patch whose smallest point is ``p`` (``@p``);
``2n + p*n + g`` resolves it removing the owner's tied biggest group whose
smallest point is ``g`` (``@p/g``); ``2n + n*n`` is ``swap``.

State layout (``H`` header words, then regions of ``n`` words each)
------------------------------------------------------------------
Header: size, n, mover, pie state (PENDING / OPEN / CLOSED as in
``core.pie``), ended flag, pie option, number of empty points, number of
pending patches, number of legal resolution actions (the sum over pending
patches of max(1, tied groups)), and the empty points as a bitboard (six
words, bit p of word p // 64). Once the game is over the mover word keeps
the color that made the last turn (the LAST_MOVE tie-break needs it).

Why these structures (the same reasoning as the Python engine's docstring):

* Stone groups never split (only whole groups are removed), so a group is a
  label (one of its points) per stone, a size and a smallest point per label,
  and a circular linked list of members; a merge relabels the smaller group.
* The empty points are an unordered list with a position index, so a
  placement is O(1) and a playout picks a uniform placement without sorting.
* A patch can only appear next to the placed stone or where a group was
  removed, and is found with a flood fill that gives up at five points; on
  boards of up to 128 points (11x11) instead by growing the start point four
  steps on a bitboard of the empty points (header words ``_EBITS``), with no
  branch on the board: in a random playout the flood's branches are
  mispredicted about half the time, and the bitboard made playouts a third
  faster (docs/engine.md, "Branches in playouts").
  Pending patches are keyed by their smallest point: points, owner, the group
  ``@p`` removes (-1: none) and, when the owner has tied biggest groups, the
  smallest points of those groups ascending. Owner and candidates never change
  while a patch is pending (no stone is placed during resolution, and removing
  a group that touches a patch merges the patch into a new territory).
* ``patch_of`` maps each point of a pending patch to the patch's key, so a
  removal finds the patches it merges by looking at the removed stones'
  neighbours.

The last ``4n + 64`` words are scratch (flood buffers, marker scoring): two
states of the same position may differ there, and nothing reads them across
calls.

Implo is finite (at most ``n*n + 1`` actions, see ``Implo.max_game_length_for``)
and has no repetition rule, so the state keeps no history.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros

from ..errors import OptionError
from ..games.implo import Implo
from . import _key
from ._bits import popcount
from ._rng import rand_below

TERMINATIONS = ("score", "stones", "last-move")
HAS_SCORES = True

_TERM_SCORE, _TERM_STONES, _TERM_LAST = 0, 1, 2
_PENDING, _OPEN, _CLOSED = 0, 1, 2  # core.pie
_MARKER = 3  # a marker of color c is c + 3, a stone c + 1
_MAXCH = 10  # a 4-point patch has at most 10 neighbours, so at most 10 tied groups

# header words; _EBITS.._EBITS + 5: the empty points as a bitboard (bit p of
# word p // 64), for the territory test of boards up to 128 points
_SIZE, _NP, _PLAYER, _PIE, _ENDED, _PIEOPT, _NEMPTY, _NPEND, _NRES, _EBITS = range(10)
_H = 16
# regions, in units of n words from _H; region 0 is the board (cell values
# as in the Python engine: 0 empty, c + 1 a stone of color c, c + 3 a marker)
_GID, _GSIZE, _GNEXT, _GMIN, _EMP, _EPOS, _POF, _PLIST, _PIDX = range(1, 10)
_PCNT, _POWNER, _PLABEL, _PNCH = 10, 11, 12, 13
_PPTS = 14   # 4 words per key
_PCHM = 18   # _MAXCH words per key
_SCR = 28    # scratch: 64 small words (floods, label lists), then 4n (marker scoring)
_SCR_SMALL = 64


def state_len(size: int) -> int:
    """Words of a state at this size (OptionError for a size outside 4..19)."""
    size = Implo._check_size(size)
    n = size * size
    return _H + (_SCR + 4) * n + _SCR_SMALL


def encode_options(options: dict[str, Any]) -> np.ndarray:
    """The options as ``[pie]`` (checked and defaulted like ``Implo``'s)."""
    opts = Implo._check_options(options)
    return np.array([1 if opts["pie"] else 0], dtype=np.int64)


_STATE = types.int64[::1]


_CELL_VALUES = {None: 0, "X": 1, "O": 2, "x": 3, "o": 4}


def from_game(game: Implo) -> np.ndarray:
    """A kernel state holding the position of a Python ``Implo`` game (its
    history is not kept: only the position matters to the rules). Lets
    compiled playouts start from any position the library can express."""
    if not isinstance(game, Implo):
        raise OptionError(f"implo kernel: from_game needs an Implo game, got {type(game).__name__}")
    cells = np.array([_CELL_VALUES[token] for token in game.cells()], dtype=np.int64)
    fields = game.position_fields()
    color = game.to_move if game.to_move is not None else fields["last"]
    state = np.zeros(state_len(game.size), dtype=np.int64)
    load(state, game.size, encode_options(game.options), cells,
         game.colors.index(color), 1 if fields.get("swap") == "yes" else 0)
    return state


# ---------------------------------------------------------------- helpers
def _neighbour_table() -> np.ndarray:
    """``[size, 4*p + d]``: the neighbour of p in direction d (south, west,
    east, north; -1 off the board), for every size 4..19. A compiled-in
    constant, so no ply divides by the board size."""
    table = np.full((20, 4 * 361), -1, dtype=np.int64)
    for size in range(4, 20):
        for p in range(size * size):
            row, col = divmod(p, size)
            if row > 0:
                table[size, 4 * p] = p - size
            if col > 0:
                table[size, 4 * p + 1] = p - 1
            if col < size - 1:
                table[size, 4 * p + 2] = p + 1
            if row < size - 1:
                table[size, 4 * p + 3] = p + size
    return table


_NBR = _neighbour_table()


def _edge_masks() -> np.ndarray:
    """``[size, 0 or 1, word]``: the points of the first (0) or last (1)
    column as a two-word bitboard, for the sizes whose n fits 128 bits."""
    masks = np.zeros((12, 2, 2), dtype=np.uint64)
    for size in range(4, 12):
        for p in range(size * size):
            col = p % size
            for side, edge in ((0, 0), (1, size - 1)):
                if col == edge:
                    masks[size, side, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    return masks


_EDGES = _edge_masks()
_U1 = np.uint64(1)


@njit(cache=True, inline="always")
def _shl(lo, hi, k):
    """The two-word bitboard (lo, hi) shifted up k bits (0 < k < 64)."""
    return lo << k, (hi << k) | (lo >> (np.uint64(64) - k))


@njit(cache=True, inline="always")
def _shr(lo, hi, k):
    return (lo >> k) | (hi << (np.uint64(64) - k)), hi >> k


@njit(cache=True, inline="always")
def _point_bit(p):
    """Point p (below 128) as a two-word bitboard."""
    one = _U1 << np.uint64(p & 63)
    return one * np.uint64(p < 64), one * np.uint64(p >= 64)


@njit(cache=True, inline="always")
def _grow(s: np.ndarray, start: int) -> tuple[np.uint64, np.uint64]:
    """The empty points reached from the empty point ``start`` in at most
    four steps, as a two-word bitboard, without a branch on the board (boards
    of at most 128 points). A territory of at most four points is found
    whole (its points are at most three steps apart); a bigger one shows five
    or more points (each step adds one until the territory is exhausted)."""
    size = s[_SIZE]
    k1 = np.uint64(1)
    ks = np.uint64(size)
    elo = np.uint64(s[_EBITS])
    ehi = np.uint64(s[_EBITS + 1])
    not_first_lo = ~_EDGES[size, 0, 0]
    not_first_hi = ~_EDGES[size, 0, 1]
    not_last_lo = ~_EDGES[size, 1, 0]
    not_last_hi = ~_EDGES[size, 1, 1]
    lo, hi = _point_bit(start)
    for _ in range(4):
        elo1, ehi1 = _shl(lo, hi, k1)      # east: not into the first column
        wlo1, whi1 = _shr(lo, hi, k1)      # west: not into the last column
        nlo, nhi = _shl(lo, hi, ks)
        slo, shi = _shr(lo, hi, ks)
        lo = (lo | (elo1 & not_first_lo) | (wlo1 & not_last_lo) | nlo | slo) & elo
        hi = (hi | (ehi1 & not_first_hi) | (whi1 & not_last_hi) | nhi | shi) & ehi
    return lo, hi


@njit(cache=True)
def _region_points(s: np.ndarray, lo: np.uint64, hi: np.uint64, at: int) -> int:
    """Up to four points of the bitboard (lo, hi) into s[at:at+4]; returns
    its size if at most four, else -1 (as :func:`_small_region`)."""
    cnt = popcount(lo) + popcount(hi)
    k = 0
    while lo != 0 and k < 4:
        s[at + k] = trailing_zeros(lo)
        lo &= lo - _U1
        k += 1
    while hi != 0 and k < 4:
        s[at + k] = 64 + trailing_zeros(hi)
        hi &= hi - _U1
        k += 1
    return cnt if cnt <= 4 else -1


@njit(cache=True)
def _small_region(s: np.ndarray, start: int, at: int) -> int:
    """The territory of the empty point ``start`` into s[at:at+4] if it has at
    most four points (returns the count), else -1 (s[at:at+4] then holds four
    points of that big territory). Visits at most five points."""
    if s[_NP] <= 128:
        lo, hi = _grow(s, start)
        return _region_points(s, lo, hi, at)
    nbr = _NBR[s[_SIZE]]
    board = _H
    s[at] = start
    cnt = 1
    i = 0
    while i < cnt:
        p = s[at + i]
        i += 1
        for j in range(4 * p, 4 * p + 4):
            r = nbr[j]
            if r < 0 or s[board + r] != 0:
                continue
            seen = False
            for m in range(cnt):
                if s[at + m] == r:
                    seen = True
                    break
            if seen:
                continue
            if cnt == 4:
                return -1
            s[at + cnt] = r
            cnt += 1
    return cnt


@njit(cache=True)
def _empty_remove(s: np.ndarray, n: int, p: int) -> None:
    emp = _H + _EMP * n
    epos = _H + _EPOS * n
    i = s[epos + p]
    last = s[_NEMPTY] - 1
    q = s[emp + last]
    s[emp + i] = q
    s[epos + q] = i
    s[_NEMPTY] = last
    s[_EBITS + (p >> 6)] &= ~(1 << (p & 63))


@njit(cache=True)
def _empty_add(s: np.ndarray, n: int, p: int) -> None:
    k = s[_NEMPTY]
    s[_H + _EMP * n + k] = p
    s[_H + _EPOS * n + p] = k
    s[_NEMPTY] = k + 1
    s[_EBITS + (p >> 6)] |= 1 << (p & 63)


@njit(cache=True)
def _add_patch(s: np.ndarray, at: int, cnt: int) -> None:
    """Register the patch whose points are s[at:at+cnt] (any order) as pending,
    with its owner and removal candidates for the current mover."""
    size = s[_SIZE]
    n = s[_NP]
    board = _H
    gid = _H + _GID * n
    gsize = _H + _GSIZE * n
    gmin = _H + _GMIN * n
    # sort the points (insertion sort, at most 4)
    for i in range(1, cnt):
        v = s[at + i]
        j = i - 1
        while j >= 0 and s[at + j] > v:
            s[at + j + 1] = s[at + j]
            j -= 1
        s[at + j + 1] = v
    key = s[at]
    pof = _H + _POF * n
    ppts = _H + _PPTS * n + 4 * key
    for i in range(cnt):
        q = s[at + i]
        s[ppts + i] = q
        s[pof + q] = key
    s[_H + _PCNT * n + key] = cnt
    # the distinct stone groups adjacent to the patch
    labels = _H + _SCR * n + 40  # up to 10
    nbr = _NBR[size]
    nl = 0
    best0 = 0
    best1 = 0
    for i in range(cnt):
        q = s[ppts + i]
        for j in range(4 * q, 4 * q + 4):
            r = nbr[j]
            if r < 0:
                continue
            v = s[board + r]
            if v == 1 or v == 2:
                lab = s[gid + r]
                dup = False
                for m in range(nl):
                    if s[labels + m] == lab:
                        dup = True
                        break
                if not dup:
                    s[labels + nl] = lab
                    nl += 1
                    g = s[gsize + lab]
                    if v == 1:
                        if g > best0:
                            best0 = g
                    elif g > best1:
                        best1 = g
    mover = s[_PLAYER]
    if best0 > best1:
        owner = 0
        best = best0
    elif best1 > best0:
        owner = 1
        best = best1
    else:
        owner = 1 - mover  # no stone, or a tie: the mover's opponent
        best = best0
    s[_H + _POWNER * n + key] = owner
    label = -1
    nch = 0
    if best > 0:
        stone = owner + 1
        chm = _H + _PCHM * n + _MAXCH * key
        for m in range(nl):
            lab = s[labels + m]
            if s[board + lab] == stone and s[gsize + lab] == best:
                label = lab
                # insert the group's smallest point, ascending
                g = s[gmin + lab]
                j = nch - 1
                while j >= 0 and s[chm + j] > g:
                    s[chm + j + 1] = s[chm + j]
                    j -= 1
                s[chm + j + 1] = g
                nch += 1
        if nch == 1:
            nch = 0
        else:
            label = -1
    s[_H + _PLABEL * n + key] = label
    s[_H + _PNCH * n + key] = nch
    npend = s[_NPEND]
    s[_H + _PLIST * n + npend] = key
    s[_H + _PIDX * n + key] = npend
    s[_NPEND] = npend + 1
    s[_NRES] += nch if nch > 0 else 1


@njit(cache=True)
def _remove_patch(s: np.ndarray, key: int) -> None:
    n = s[_NP]
    pof = _H + _POF * n
    ppts = _H + _PPTS * n + 4 * key
    for i in range(s[_H + _PCNT * n + key]):
        s[pof + s[ppts + i]] = -1
    plist = _H + _PLIST * n
    pidx = _H + _PIDX * n
    i = s[pidx + key]
    last = s[_NPEND] - 1
    other = s[plist + last]
    s[plist + i] = other
    s[pidx + other] = i
    s[_NPEND] = last
    nch = s[_H + _PNCH * n + key]
    s[_NRES] -= nch if nch > 0 else 1


@njit(cache=True)
def _end_turn(s: np.ndarray) -> None:
    if s[_NEMPTY] == 0:
        s[_ENDED] = 1  # the mover word stays: the color that made the last turn
        return
    if s[_PIE] == _PENDING:
        s[_PIE] = _OPEN
    s[_PLAYER] ^= 1


@njit(cache=True)
def _join(s: np.ndarray, p: int, stone: int) -> None:
    """Put the stone just placed on p into a group with its friendly
    neighbours (merging their groups: the smaller one is relabelled)."""
    n = s[_NP]
    board = _H
    gid = _H + _GID * n
    gsize = _H + _GSIZE * n
    gnext = _H + _GNEXT * n
    gmin = _H + _GMIN * n
    nbr = _NBR[s[_SIZE]]
    label = -1
    for j in range(4 * p, 4 * p + 4):
        q = nbr[j]
        if q < 0 or s[board + q] != stone:
            continue
        lq = s[gid + q]
        if label < 0:
            label = lq
        elif lq != label:
            a = label
            b = lq
            if s[gsize + a] < s[gsize + b]:
                a, b = b, a
            # relabel b's members, splice the two circular lists
            q2 = b
            while True:
                s[gid + q2] = a
                q2 = s[gnext + q2]
                if q2 == b:
                    break
            na = s[gnext + a]
            s[gnext + a] = s[gnext + b]
            s[gnext + b] = na
            s[gsize + a] += s[gsize + b]
            if s[gmin + b] < s[gmin + a]:
                s[gmin + a] = s[gmin + b]
            label = a
    if label < 0:
        s[gid + p] = p
        s[gsize + p] = 1
        s[gnext + p] = p
        s[gmin + p] = p
    else:
        s[gid + p] = label
        s[gnext + p] = s[gnext + label]
        s[gnext + label] = p
        s[gsize + label] += 1
        if p < s[gmin + label]:
            s[gmin + label] = p


@njit(cache=True)
def _new_patches_bits(s: np.ndarray, p: int) -> None:
    """:func:`_place`'s search for new patches next to p on the bitboard
    (boards of at most 128 points): each empty neighbour's territory grown
    four steps, once per territory (a neighbour inside a territory already
    grown is skipped), a patch registered for each of at most four points."""
    n = s[_NP]
    nbr = _NBR[s[_SIZE]]
    reg = _H + _SCR * n + 4
    seen_lo = np.uint64(0)
    seen_hi = np.uint64(0)
    found = 0
    for d in range(4):
        q = nbr[4 * p + d]
        if q < 0 or s[_H + q] != 0:
            continue
        qlo, qhi = _point_bit(q)
        if (seen_lo & qlo) | (seen_hi & qhi):
            continue
        lo, hi = _grow(s, q)
        seen_lo |= lo
        seen_hi |= hi
        if popcount(lo) + popcount(hi) <= 4:
            _add_patch(s, reg, _region_points(s, lo, hi, reg))
            found += 1
    if found == 0:
        _end_turn(s)


@njit(cache=True)
def _place(s: np.ndarray, p: int) -> None:
    size = s[_SIZE]
    n = s[_NP]
    board = _H
    stone = s[_PLAYER] + 1
    s[board + p] = stone
    _empty_remove(s, n, p)
    if s[_PIE] == _OPEN:
        s[_PIE] = _CLOSED  # white's first action was a placement
    nbr = _NBR[size]
    _join(s, p, stone)
    if n <= 128:
        _new_patches_bits(s, p)
        return
    # --- new patches: only the territories next to p have shrunk
    # A neighbour q_d whose territory is known to be big, and an empty diagonal
    # point shared with a later perpendicular neighbour, put that neighbour in
    # the same big territory without a flood (the shortcut the Python engine's
    # _placement_links takes).
    vis = _H + _SCR * n + 8   # points seen by this placement's floods (<= 16)
    reg = _H + _SCR * n + 4   # one flood's points (4 words)
    nvis = 0
    found = 0
    big = 0  # bit d: the territory of neighbour d is known to be big
    for d in range(4):
        q = nbr[4 * p + d]
        if q < 0 or s[board + q] != 0:
            continue
        # directions: 0 south, 1 west, 2 east, 3 north; perpendicular pairs share
        # the diagonal point q + (q_e - p)
        linked = False
        for e in range(d):
            if big & (1 << e) and (e ^ d) != 3:  # (0,3) and (1,2) are opposite
                qe = nbr[4 * p + e]
                if s[board + q + qe - p] == 0:
                    linked = True
                    break
        if linked:
            big |= 1 << d
            continue
        seen = False
        for m in range(nvis):
            if s[vis + m] == q:
                seen = True
                break
        if seen:
            continue  # in a territory already looked at
        cnt = _small_region(s, q, reg)
        for m in range(4 if cnt < 0 else cnt):
            s[vis + nvis] = s[reg + m]
            nvis += 1
        if cnt < 0:
            big |= 1 << d
        else:
            _add_patch(s, reg, cnt)
            found += 1
    if found == 0:
        _end_turn(s)


@njit(cache=True)
def _resolve(s: np.ndarray, action: int) -> None:
    size = s[_SIZE]
    n = s[_NP]
    board = _H
    if action < 2 * n:
        key = action - n
        label = s[_H + _PLABEL * n + key]
    else:
        key = (action - 2 * n) // n
        label = s[_H + _GID * n + (action - 2 * n) % n]
    marker = s[_H + _POWNER * n + key] + _MARKER
    ppts = _H + _PPTS * n + 4 * key
    _remove_patch(s, key)
    for i in range(s[_H + _PCNT * n + key]):
        q = s[ppts + i]
        s[board + q] = marker
        _empty_remove(s, n, q)
    if label >= 0:
        gnext = _H + _GNEXT * n
        pof = _H + _POF * n
        nbr = _NBR[size]
        q = label
        while True:
            s[board + q] = 0
            _empty_add(s, n, q)
            for j in range(4 * q, 4 * q + 4):
                r = nbr[j]
                if r < 0:
                    continue
                key2 = s[pof + r]
                if key2 >= 0:  # a pending patch merges into the new territory
                    _remove_patch(s, key2)
            q = s[gnext + q]
            if q == label:
                break
        reg = _H + _SCR * n + 4
        cnt = _small_region(s, label, reg)
        if cnt > 0:
            _add_patch(s, reg, cnt)
    if s[_NPEND] == 0:
        _end_turn(s)


@njit(cache=True)
def _marker_scores(s: np.ndarray) -> tuple[int, int]:
    """(black, white): the largest size s at which a color has strictly more
    marker groups of size s than the other (0 if none)."""
    size = s[_SIZE]
    n = s[_NP]
    board = _H
    scr = _H + _SCR * n + _SCR_SMALL
    seen = scr           # n words
    stack = scr + n      # n words
    cnt0 = scr + 2 * n   # n words: black marker groups by size - 1
    cnt1 = scr + 3 * n   # n words: white
    for i in range(4 * n):
        s[scr + i] = 0
    nbr = _NBR[size]
    for i in range(n):
        v = s[board + i]
        if v < _MARKER or s[seen + i] != 0:
            continue
        s[seen + i] = 1
        s[stack] = i
        top = 1
        gs = 0
        while top > 0:
            top -= 1
            p = s[stack + top]
            gs += 1
            for j in range(4 * p, 4 * p + 4):
                r = nbr[j]
                if r >= 0 and s[board + r] == v and s[seen + r] == 0:
                    s[seen + r] = 1
                    s[stack + top] = r
                    top += 1
        if v == _MARKER:
            s[cnt0 + gs - 1] += 1
        else:
            s[cnt1 + gs - 1] += 1
    b0 = 0
    b1 = 0
    for g in range(n):
        d = s[cnt0 + g] - s[cnt1 + g]
        if d > 0:
            b0 = g + 1
        elif d < 0:
            b1 = g + 1
    return b0, b1


# ---------------------------------------------------------------- the contract
@njit(types.none(_STATE, types.int64, _STATE), cache=True)
def init(state, size, opts):
    """The initial position: empty board, black to move."""
    if size < 4 or size > 19:
        raise ValueError("implo init: size must be 4..19")
    n = size * size
    if state.shape[0] < _H + (_SCR + 4) * n + _SCR_SMALL:
        raise ValueError("implo init: state array shorter than state_len(size)")
    if opts.shape[0] < 1:
        raise ValueError("implo init: opts must hold [pie] (encode_options)")
    state[:] = 0
    state[_SIZE] = size
    state[_NP] = n
    state[_PIEOPT] = 1 if opts[0] != 0 else 0
    state[_PIE] = _PENDING if opts[0] != 0 else _CLOSED
    for p in range(n):
        state[_H + _EMP * n + p] = p
        state[_H + _EPOS * n + p] = p
        state[_H + _POF * n + p] = -1
        state[_EBITS + (p >> 6)] |= 1 << (p & 63)
    state[_NEMPTY] = n


@njit(types.none(_STATE, types.int64, _STATE, _STATE, types.int64, types.int64), cache=True)
def load(state, size, opts, cells, mover, swap_open):
    """Set up a position: ``cells[p]`` 0 empty, 1/2 black/white stone, 3/4
    black/white marker; ``mover`` the color to move (once the board has no
    empty point: the color that made the last turn); ``swap_open`` 1 when
    ``swap`` is legal now. Patches on the board are pending (the mover is
    resolving), as in the Python engine's position text. The position's
    consistency is the caller's (``from_game`` loads a checked Python game)."""
    init(state, size, opts)
    n = size * size
    if cells.shape[0] != n:
        raise ValueError("implo load: cells must hold size*size values")
    if mover != 0 and mover != 1:
        raise ValueError("implo load: mover must be 0 or 1")
    state[_PLAYER] = mover
    for p in range(n):
        v = cells[p]
        if v < 0 or v > 4:
            raise ValueError("implo load: a cell value is outside 0..4")
        if v != 0:
            state[_H + p] = v
            _empty_remove(state, n, p)
            if v <= 2:
                _join(state, p, v)
    if swap_open != 0:
        state[_PIE] = _OPEN
    elif state[_PIEOPT] == 0 or state[_NEMPTY] < n:
        state[_PIE] = _CLOSED
    if state[_NEMPTY] == 0:
        state[_ENDED] = 1
        return
    reg = _H + _SCR * n + 4
    pof = _H + _POF * n
    for p in range(n):
        if state[_H + p] == 0 and state[pof + p] < 0:
            cnt = _small_region(state, p, reg)
            if cnt > 0:
                _add_patch(state, reg, cnt)


@njit(types.int64(_STATE, _STATE), cache=True)
def legal_actions(state, out):
    """The legal actions ascending in out[:k]; returns k (0 iff over)."""
    if state[_ENDED] != 0:
        return 0
    n = state[_NP]
    k = 0
    if state[_NPEND] > 0:
        pof = _H + _POF * n
        pnch = _H + _PNCH * n
        for p in range(n):  # @p (n + p) before every @p/g (2n + ...)
            out[k] = n + p
            k += (state[pof + p] == p) & (state[pnch + p] == 0)
        for p in range(n):
            if state[pof + p] == p and state[pnch + p] > 0:
                chm = _H + _PCHM * n + _MAXCH * p
                base = 2 * n + p * n
                for j in range(state[pnch + p]):
                    out[k] = base + state[chm + j]
                    k += 1
        return k
    for p in range(n):  # branch-free (docs/engine.md, "Batched stepping")
        out[k] = p
        k += state[_H + p] == 0
    if state[_PIE] == _OPEN:
        out[k] = 2 * n + n * n
        k += 1
    return k


@njit(types.boolean(_STATE, types.int64), cache=True)
def is_legal(state, action):
    """Whether ``action`` (any int64) is legal now."""
    if state[_ENDED] != 0:
        return False
    n = state[_NP]
    if action < 0 or action > 2 * n + n * n:
        return False
    if state[_NPEND] > 0:
        if action < n or action == 2 * n + n * n:
            return False
        if action < 2 * n:
            p = action - n
            return state[_H + _POF * n + p] == p and state[_H + _PNCH * n + p] == 0
        p = (action - 2 * n) // n
        g = (action - 2 * n) % n
        if state[_H + _POF * n + p] != p:
            return False
        chm = _H + _PCHM * n + _MAXCH * p
        for j in range(state[_H + _PNCH * n + p]):
            if state[chm + j] == g:
                return True
        return False
    if action < n:
        return state[_H + action] == 0
    if action == 2 * n + n * n:
        return state[_PIE] == _OPEN
    return False


@njit(types.none(_STATE, types.int64), cache=True)
def apply(state, action):
    """Play a legal action (precondition: is_legal(state, action))."""
    n = state[_NP]
    if action < n:
        _place(state, action)
    elif action == 2 * n + n * n:
        state[_PIE] = _CLOSED  # the players exchange colors; board and mover stay
    else:
        _resolve(state, action)


@njit(types.int64(_STATE), cache=True)
def current_player(state):
    """The color to act (the mover while resolving), -1 once over."""
    if state[_ENDED] != 0:
        return -1
    return state[_PLAYER]


@njit(types.int64(_STATE), cache=True)
def position_key(state):
    """The board (stones and markers), the mover, the pie state and whether
    the game is over: the pending patches, their owners and the groups they
    may remove all follow from the board and the mover (the kernel
    contract's ``position_key``)."""
    h = _key.start()
    for i in (_PLAYER, _PIE, _ENDED):
        h = _key.mix(h, state[i])
    for p in range(state[_NP]):
        h = _key.mix(h, state[_H + p])
    return _key.finish(h)


@njit(types.boolean(_STATE), cache=True)
def mid_turn(state):
    """Resolutions are pending: the next action continues the mover's turn."""
    return state[_NPEND] > 0


@njit(types.UniTuple(types.int64, 2)(_STATE, types.float64[::1]), cache=True)
def outcome(state, scores):
    """(winner, termination) of a finished game; scores[0..1] the marker scores."""
    sb, sw = _marker_scores(state)
    scores[0] = sb
    scores[1] = sw
    if sb != sw:
        return (0 if sb > sw else 1), _TERM_SCORE
    n = state[_NP]
    nb = 0
    nw = 0
    for p in range(n):
        v = state[_H + p]
        if v == 1:
            nb += 1
        elif v == 2:
            nw += 1
    if nb != nw:
        return (0 if nb > nw else 1), _TERM_STONES
    return 1 - state[_PLAYER], _TERM_LAST  # the color that made the last turn loses


@njit(types.boolean(_STATE, types.float64[::1]), cache=True)
def live_scores(state, out):
    """The marker scores of the board now (Implo always shows them)."""
    sb, sw = _marker_scores(state)
    out[0] = sb
    out[1] = sw
    return True


@njit(types.int64(_STATE, types.uint64[::1], _STATE), cache=True)
def playout(state, rng, record):
    """Uniform random actions until the game is over; returns the plies.

    A placement is drawn from the unordered empty list (plus ``swap`` when it
    is legal); a resolution from the pending patches, each weighted by its
    number of legal actions, so every ply is uniform over its legal actions."""
    n = state[_NP]
    swap = 2 * n + n * n
    plist = _H + _PLIST * n
    pnch = _H + _PNCH * n
    chm0 = _H + _PCHM * n
    cap = record.shape[0]
    plies = 0
    while state[_ENDED] == 0:
        if state[_NPEND] == 0:
            ne = state[_NEMPTY]
            k = ne + 1 if state[_PIE] == _OPEN else ne
            r = np.int64(rand_below(rng, k))
            if r == ne:
                action = swap
                state[_PIE] = _CLOSED
            else:
                action = state[_H + _EMP * n + r]
                _place(state, action)
        else:
            r = np.int64(rand_below(rng, state[_NRES]))
            i = 0
            while True:
                key = state[plist + i]
                nch = state[pnch + key]
                if nch == 0:
                    if r == 0:
                        action = n + key
                        break
                    r -= 1
                elif r < nch:
                    action = 2 * n + key * n + state[chm0 + _MAXCH * key + r]
                    break
                else:
                    r -= nch
                i += 1
            _resolve(state, action)
        if cap > 0:
            if plies >= cap:
                raise ValueError("implo playout: the game is longer than record")
            record[plies] = action
        plies += 1
    return plies
