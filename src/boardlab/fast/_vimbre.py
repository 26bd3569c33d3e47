"""Vimbre's rules compiled with numba: the contract of ``boardlab.fast.kernels``.

The reference is ``boardlab.games.vimbre`` (rules, action numbers, the
``ok`` / ``rescue`` flags are the same ideas); this module keeps, inside one
flat ``int64`` state, everything a uniform random playout needs in O(1) per
choice, so a playout never builds the (quadratic) list of legal pairs:

* per color, the indexable set of points where it may place one stone
  ("ok" points: empty, no diagonal pair of own stones left without an own
  corner). A random pair of distinct ok points is a legal two-stone move
  unless the two touch diagonally with no own corner, which is rare, so the
  playout draws from "singles + ok pairs + rescue pairs + flips" and redraws
  on such a pair: uniform over the legal actions, with no list built;
* per color, the rescue bits of each empty point it may not fill alone (the
  directions of empty orthogonal neighbours whose stone, placed in the same
  turn, supplies every missing corner), and the indexable set of the
  orthogonal pairs that are legal only thanks to a rescue;
* per color, the indexable set of enemy stones it may flip;
* per color, a union-find of its stones with the edge bits of each group, so
  the win test after a move is a few ``find`` calls. A stone lost to a flip
  cannot be taken out of a union-find, so the loser's one is marked dirty and
  rebuilt from the board the next time that color moves.

A placement or flip changes these flags only in the 3x3 blocks around the
changed points (flips: the point and its orthogonal neighbours), so ``apply``
is a bounded amount of work at every board size.

State layout (``n = size * size``), all ``int64``::

    [0] size  [1] color to move (-1 once over)  [2] Black's first turn (1/0)
    [3] winner (-1 while playing)  [4] plies played
    [6 + c] union-find of color c dirty   [8 + c] ok count
    [10 + c] rescue-pair count   [12 + c] flip count
    board (n): 0 empty, 1 black, 2 white
    rescue (2n), ok list (2n), ok pos (2n, -1 when absent),
    rescue-pair list (4n), rescue-pair pos (4n; pair id 2p + d, d 0 east 1 north),
    flip list (2n), flip pos (2n), union-find parent (2n), edge mask (2n)

Vimbre has no repetition rule and no history; it also has no proven bound
on the game length (flips do not fill the board), so ``playout`` raises
after ``_MAX_PLIES_PER_POINT * n`` plies rather than loop for ever (random
games take about 0.5 n plies).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..errors import OptionError
from ..games.vimbre import Vimbre
from ._rng import rand_below

TERMINATIONS: tuple[str, ...] = ("connection",)
ALTERNATES = True  # every action hands the turn over; the swap keeps it
HAS_SCORES = False

_MIN_SIZE = 4
_MAX_SIZE = 19
_HEADER = 16
_MAX_PLIES_PER_POINT = 64

# Directions: 0 east, 1 north, 2 west, 3 south (bit 1 << d, as the Python
# engine's _E/_N/_W/_S). Diagonals: 0 NE, 1 NW, 2 SW, 3 SE; the two corners
# of diagonal k are the orthogonal neighbours in directions _CA[k], _CB[k].
_CA = np.array([0, 2, 2, 0], dtype=np.int64)
_CB = np.array([1, 1, 3, 3], dtype=np.int64)


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per size, flat: the 4 orthogonal and 4 diagonal neighbours of each
    point (-1 off the board) and each color's edge bits (1 first edge, 2 the
    other); ``base[size]`` is where that size's rows start (in points)."""
    base = np.zeros(_MAX_SIZE + 1, dtype=np.int64)
    total = 0
    for s in range(_MIN_SIZE, _MAX_SIZE + 1):
        base[s] = total
        total += s * s
    orth = np.full(4 * total, -1, dtype=np.int32)
    diag = np.full(4 * total, -1, dtype=np.int32)
    edge = np.zeros(2 * total, dtype=np.int32)
    for s in range(_MIN_SIZE, _MAX_SIZE + 1):
        b = int(base[s])
        for p in range(s * s):
            row, col = divmod(p, s)
            e, north, w, south = col < s - 1, row < s - 1, col > 0, row > 0
            o = 4 * (b + p)
            orth[o:o + 4] = [p + 1 if e else -1, p + s if north else -1,
                             p - 1 if w else -1, p - s if south else -1]
            diag[o:o + 4] = [p + s + 1 if north and e else -1,
                             p + s - 1 if north and w else -1,
                             p - s - 1 if south and w else -1,
                             p - s + 1 if south and e else -1]
            edge[2 * (b + p)] = (1 if row == 0 else 0) | (2 if row == s - 1 else 0)
            edge[2 * (b + p) + 1] = (1 if col == 0 else 0) | (2 if col == s - 1 else 0)
    return base, orth, diag, edge


_BASE, _ORTH, _DIAG, _EDGE = _tables()


def _blocks() -> tuple[np.ndarray, np.ndarray]:
    """Per size and point (rows of 9 and 5, -1 padded at the end): the 3x3
    block around the point (whose ok / rescue flags a change of the point can
    alter) and the point with its orthogonal neighbours (whose flip flags)."""
    total = int(_BASE[_MAX_SIZE]) + _MAX_SIZE * _MAX_SIZE
    king = np.full(9 * total, -1, dtype=np.int32)
    cross = np.full(5 * total, -1, dtype=np.int32)
    for s in range(_MIN_SIZE, _MAX_SIZE + 1):
        for p in range(s * s):
            i = int(_BASE[s]) + p
            o = [int(x) for x in _ORTH[4 * i:4 * i + 4] if x >= 0]
            d = [int(x) for x in _DIAG[4 * i:4 * i + 4] if x >= 0]
            king[9 * i:9 * i + 1 + len(o) + len(d)] = [p, *o, *d]
            cross[5 * i:5 * i + 1 + len(o)] = [p, *o]
    return king, cross


_KING, _CROSS = _blocks()


# ---------------------------------------------------------------- layout
def state_len(size: int) -> int:
    """Length of a state at this size (header + 25 words per point)."""
    return _HEADER + 25 * size * size


def hot_words(size: int) -> int:
    """All of it: a batch's step lists every legal pair (microseconds), reading
    the whole row, so fetching the next rows ahead pays here (docs/engine.md)."""
    return state_len(size)


def encode_options(options: dict[str, Any]) -> np.ndarray:
    """Vimbre has no options: checks that none is given, returns an empty vector."""
    Vimbre._check_options(dict(options))  # OptionError names an unknown option
    return np.zeros(0, dtype=np.int64)


@njit(cache=True, inline="always")
def _off_rescue(n):
    return _HEADER + n


@njit(cache=True, inline="always")
def _off_okl(n):
    return _HEADER + 3 * n


@njit(cache=True, inline="always")
def _off_okp(n):
    return _HEADER + 5 * n


@njit(cache=True, inline="always")
def _off_rpl(n):
    return _HEADER + 7 * n


@njit(cache=True, inline="always")
def _off_rpp(n):
    return _HEADER + 11 * n


@njit(cache=True, inline="always")
def _off_fl(n):
    return _HEADER + 15 * n


@njit(cache=True, inline="always")
def _off_fp(n):
    return _HEADER + 17 * n


@njit(cache=True, inline="always")
def _off_up(n):
    return _HEADER + 19 * n


@njit(cache=True, inline="always")
def _off_um(n):
    return _HEADER + 21 * n


# ---------------------------------------------------------------- flags
@njit(cache=True, inline="always")
def _is_ok(state, n, c, p):
    return state[_off_okp(n) + c * n + p] >= 0


@njit(cache=True)
def _resync(state, n, tb, x):
    """Recompute every flag a change of the cell on x can affect: both
    colors' ok flag and rescue bits in the 3x3 block around x (and the
    rescue pairs at a point whose flags changed), and the flip flags of x
    and its orthogonal neighbours, keeping the indexable sets in step.

    Written as one function with no helper taking the state: numba
    reference-counts an array on every (even inlined) call, and those atomic
    counts cost more than the work here. A set is a list plus a position per
    item (-1: absent); removal moves the last item into the hole."""
    board = _HEADER
    rs = _off_rescue(n)
    okl = _off_okl(n)
    okp = _off_okp(n)
    rpl = _off_rpl(n)
    rpp = _off_rpp(n)
    kb = 9 * (tb + x)
    for i in range(9):
        e = np.int64(_KING[kb + i])
        if e < 0:
            break
        o1 = 1
        o2 = 1
        r1 = 15
        r2 = 15
        o = 4 * (tb + e)
        if state[board + e] != 0:
            o1 = 0
            o2 = 0
            r1 = 0
            r2 = 0
        else:
            for k in range(4):
                d = _DIAG[o + k]
                if d < 0:
                    continue
                xd = state[board + d]
                if xd == 0:
                    continue
                y1 = state[board + _ORTH[o + _CA[k]]]
                y2 = state[board + _ORTH[o + _CB[k]]]
                if y1 != xd and y2 != xd:
                    r = (0 if y1 else (1 << _CA[k])) | (0 if y2 else (1 << _CB[k]))
                    if xd == 1:
                        o1 = 0
                        r1 &= r
                    else:
                        o2 = 0
                        r2 &= r
        if o1:
            r1 = 0
        if o2:
            r2 = 0
        for c in range(2):
            ok = o1 if c == 0 else o2
            r = r1 if c == 0 else r2
            changed = False
            at = state[okp + c * n + e]
            if (at >= 0) != (ok == 1):
                changed = True
                if ok:  # add e to c's ok set
                    cnt = state[8 + c]
                    state[okp + c * n + e] = cnt
                    state[okl + c * n + cnt] = e
                    state[8 + c] = cnt + 1
                else:  # remove e
                    cnt = state[8 + c] - 1
                    last = state[okl + c * n + cnt]
                    state[okl + c * n + at] = last
                    state[okp + c * n + last] = at
                    state[okp + c * n + e] = -1
                    state[8 + c] = cnt
            if state[rs + c * n + e] != r:
                state[rs + c * n + e] = r
                changed = True
            if not changed:
                continue
            # c's rescue pairs with e as an end: (e, east), (e, north),
            # (west, e), (south, e); pair id 2a + dd for a pair a-b with b
            # east (dd 0) or north (dd 1) of a
            for dir_ in range(4):
                q = np.int64(_ORTH[o + dir_])
                if q < 0:
                    continue
                if dir_ < 2:
                    pa = e
                    pb = q
                    dd = dir_
                else:
                    pa = q
                    pb = e
                    dd = dir_ - 2
                ra = state[rs + c * n + pa]
                rb = state[rs + c * n + pb]
                ba = 1 if dd == 0 else 2   # a's rescuer b: east / north
                bb = 4 if dd == 0 else 8   # b's rescuer a: west / south
                oka = state[okp + c * n + pa] >= 0
                okb = state[okp + c * n + pb] >= 0
                member = ((ra & ba) != 0 and ((rb & bb) != 0 or okb)) or ((rb & bb) != 0 and oka)
                pid = 2 * pa + dd
                lst = rpl + 2 * n * c
                pos = rpp + 2 * n * c
                at = state[pos + pid]
                if member and at < 0:
                    cnt = state[10 + c]
                    state[pos + pid] = cnt
                    state[lst + cnt] = pid
                    state[10 + c] = cnt + 1
                elif at >= 0 and not member:
                    cnt = state[10 + c] - 1
                    last = state[lst + cnt]
                    state[lst + at] = last
                    state[pos + last] = at
                    state[pos + pid] = -1
                    state[10 + c] = cnt
    fl = _off_fl(n)
    fp = _off_fp(n)
    cb = 5 * (tb + x)
    for i in range(5):
        e = np.int64(_CROSS[cb + i])
        if e < 0:
            break
        xe = state[board + e]
        o = 4 * (tb + e)
        ne = _ORTH[o]
        nn = _ORTH[o + 1]
        nw = _ORTH[o + 2]
        ns = _ORTH[o + 3]
        ve = state[board + ne] if ne >= 0 else -5  # off the board: no color
        vn = state[board + nn] if nn >= 0 else -5
        vw = state[board + nw] if nw >= 0 else -5
        vs = state[board + ns] if ns >= 0 else -5
        has_empty = ve == 0 or vn == 0 or vw == 0 or vs == 0
        for c in range(2):
            v = c + 1
            can = (xe == 2 - c and has_empty
                   and ((ve == v and vw == v) or (vn == v and vs == v)))
            at = state[fp + c * n + e]
            if can and at < 0:
                cnt = state[12 + c]
                state[fp + c * n + e] = cnt
                state[fl + c * n + cnt] = e
                state[12 + c] = cnt + 1
            elif at >= 0 and not can:
                cnt = state[12 + c] - 1
                last = state[fl + c * n + cnt]
                state[fl + c * n + at] = last
                state[fp + c * n + last] = at
                state[fp + c * n + e] = -1
                state[12 + c] = cnt


# ---------------------------------------------------------------- union-find
@njit(cache=True, inline="always")
def _find(state, up, x):
    while state[up + x] != x:
        g = state[up + state[up + x]]
        state[up + x] = g
        x = g
    return x


@njit(cache=True, inline="always")
def _uf_add(state, n, tb, c, p, skip):
    """Add c's new stone on p to c's union-find; the edge mask of its group.
    ``skip``: the other stone of the same turn, not in the union-find yet."""
    up = _off_up(n) + c * n
    um = _off_um(n) + c * n
    v = c + 1
    state[up + p] = p
    m = _EDGE[2 * (tb + p) + c]
    o = 4 * (tb + p)
    for k in range(4):
        q = _ORTH[o + k]
        if q >= 0 and q != skip and state[_HEADER + q] == v:
            r = _find(state, up, q)
            if r != p:
                m |= state[um + r]
                state[up + r] = p
    state[um + p] = m
    return m


@njit(cache=True)
def _uf_rebuild(state, n, tb, c):
    """c's union-find from the board (after c lost a stone to a flip)."""
    up = _off_up(n) + c * n
    um = _off_um(n) + c * n
    v = c + 1
    for p in range(n):
        if state[_HEADER + p] == v:
            state[up + p] = p
            state[um + p] = _EDGE[2 * (tb + p) + c]
    for p in range(n):
        if state[_HEADER + p] != v:
            continue
        o = 4 * (tb + p)
        for k in range(2, 4):  # west and south: each edge of the graph once
            q = _ORTH[o + k]
            if q >= 0 and state[_HEADER + q] == v:
                a = _find(state, up, p)
                b = _find(state, up, q)
                if a != b:
                    state[up + b] = a
                    state[um + a] |= state[um + b]


@njit(cache=True, inline="always")
def _group_mask(state, n, c, p):
    up = _off_up(n) + c * n
    return state[_off_um(n) + c * n + _find(state, up, p)]


# ---------------------------------------------------------------- moves
@njit(cache=True, inline="always")
def _finish(state, c, won):
    state[2] = 0
    state[4] += 1
    if won:
        state[3] = c
        state[1] = -1
    else:
        state[1] = 1 - c


@njit(cache=True)
def _move(state, p, q, flip):
    """The mover places a stone on p and, if q >= 0, one on q; or, if flip,
    flips the enemy stone on p. Then every flag the change can affect is
    resynced and the mover's chain is looked for."""
    s = state[0]
    n = s * s
    tb = _BASE[s]
    c = state[1]
    v = c + 1
    state[_HEADER + p] = v
    if q >= 0:
        state[_HEADER + q] = v
    if flip:
        state[6 + (1 - c)] = 1  # the loser's union-find still holds p
    _resync(state, n, tb, p)
    if q >= 0:
        _resync(state, n, tb, q)
    won = False
    if state[6 + c]:
        _uf_rebuild(state, n, tb, c)
        state[6 + c] = 0
        for t in range(2):
            x = p if t == 0 else q
            if x >= 0 and _group_mask(state, n, c, x) == 3:
                won = True
    else:
        for t in range(2):
            x = p if t == 0 else q
            if x < 0:
                break
            # q is not in the union-find while p is added; when q touches
            # p's group, q's mask then includes p's
            if _uf_add(state, n, tb, c, x, q if t == 0 else -1) == 3:
                won = True
    _finish(state, c, won)


@njit(cache=True, inline="always")
def _pass(state):
    state[4] += 1
    state[1] = 1 - state[1]


@njit(cache=True, inline="always")
def _pair_start(n, i):
    """The action of the pair (i, i + 1)."""
    return n + i * n - i * (i + 1) // 2


@njit(cache=True)
def _decode_pair(n, a):
    """(i, j) of a two-stone action a (n <= a < flip base)."""
    lo = 0
    hi = n - 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _pair_start(n, mid) <= a:
            lo = mid
        else:
            hi = mid - 1
    return lo, a - _pair_start(n, lo) + lo + 1


@njit(cache=True, inline="always")
def _diag_bad(state, n, tb, c, i, j):
    """Whether own stones on i and j (i < j) would touch diagonally with no own corner."""
    o = 4 * (tb + i)
    v = c + 1
    for k in range(2):  # the forward diagonals NE, NW
        if _DIAG[o + k] == j:
            return (state[_HEADER + _ORTH[o + _CA[k]]] != v
                    and state[_HEADER + _ORTH[o + _CB[k]]] != v)
    return False


@njit(cache=True)
def _pair_legal(state, n, tb, c, i, j):
    """Whether placing on i and j (i < j) is legal for c (not the first turn)."""
    if _is_ok(state, n, c, i) and _is_ok(state, n, c, j):
        return not _diag_bad(state, n, tb, c, i, j)
    pos = _off_rpp(n) + 2 * n * c
    o = 4 * (tb + i)
    if j == _ORTH[o]:
        return state[pos + 2 * i] >= 0
    if j == _ORTH[o + 1]:
        return state[pos + 2 * i + 1] >= 0
    return False


@njit(cache=True, inline="always")
def _rand(rng, k):
    """rand_below as an int64 (it computes in uint64, which mixed with
    int64 indexes would make floats)."""
    return np.int64(rand_below(rng, k))


# ---------------------------------------------------------------- the contract
@njit("void(int64[::1], int64, int64[::1])", cache=True)
def init(state, size, opts):
    """The empty board, Black to move on the first turn (one stone only).
    ``opts`` is ignored (vimbre has no options); a wrong size or a state
    shorter than ``state_len(size)`` raises ValueError."""
    if size < _MIN_SIZE or size > _MAX_SIZE:
        raise ValueError("vimbre init: size outside 4..19")
    n = size * size
    if state.shape[0] < _HEADER + 25 * n:
        raise ValueError("vimbre init: state shorter than state_len(size)")
    state[:] = 0
    state[0] = size
    state[1] = 0
    state[2] = 1
    state[3] = -1
    okl = _off_okl(n)
    okp = _off_okp(n)
    for c in range(2):
        for p in range(n):
            state[okl + c * n + p] = p
            state[okp + c * n + p] = p
        state[8 + c] = n
    state[_off_rpp(n):_off_rpp(n) + 4 * n] = -1
    state[_off_fp(n):_off_fp(n) + 2 * n] = -1


@njit("int64(int64[::1], int64[::1])", cache=True)
def legal_actions(state, out):
    """Ascending: singles, pairs in (i, j) order, flips, else ``pass``
    (the Python engine's order). Quadratic in the board for the pairs: for
    checks and front ends, not playouts."""
    c = state[1]
    if c < 0:
        return 0
    s = state[0]
    n = s * s
    tb = _BASE[s]
    k = 0
    okp = _off_okp(n) + c * n
    for p in range(n):
        if state[okp + p] >= 0:
            out[k] = p
            k += 1
    if state[2]:
        return k
    rpp = _off_rpp(n) + 2 * n * c
    for i in range(n - 1):
        start = _pair_start(n, i) - i - 1  # action of (i, j) is start + j
        if state[okp + i] >= 0:
            o = 4 * (tb + i)
            east = _ORTH[o]
            north = _ORTH[o + 1]
            for j in range(i + 1, n):
                if state[okp + j] >= 0:
                    if (j == _DIAG[o] or j == _DIAG[o + 1]) and _diag_bad(state, n, tb, c, i, j):
                        continue
                elif not ((j == east and state[rpp + 2 * i] >= 0)
                          or (j == north and state[rpp + 2 * i + 1] >= 0)):
                    continue
                out[k] = start + j
                k += 1
        else:
            if state[rpp + 2 * i] >= 0:
                out[k] = start + i + 1
                k += 1
            if state[rpp + 2 * i + 1] >= 0:
                out[k] = start + i + s
                k += 1
    flip_base = n + n * (n - 1) // 2
    fp = _off_fp(n) + c * n
    for p in range(n):
        if state[fp + p] >= 0:
            out[k] = flip_base + p
            k += 1
    if k == 0:
        out[0] = flip_base + n
        k = 1
    return k


@njit("boolean(int64[::1], int64)", cache=True)
def is_legal(state, action):
    """Any int64: False out of range or once the game is over. O(1) but for
    a pair's (i, j), found by binary search on the triangular numbering."""
    c = state[1]
    if c < 0 or action < 0:
        return False
    s = state[0]
    n = s * s
    flip_base = n + n * (n - 1) // 2
    if action > flip_base + n:
        return False
    if action < n:
        return _is_ok(state, n, c, action)
    if action < flip_base:
        if state[2]:
            return False
        i, j = _decode_pair(n, action)
        return _pair_legal(state, n, _BASE[s], c, i, j)
    if action < flip_base + n:
        return state[_off_fp(n) + c * n + action - flip_base] >= 0
    return (state[2] == 0 and state[8 + c] == 0 and state[10 + c] == 0
            and state[12 + c] == 0)


@njit("void(int64[::1], int64)", cache=True)
def apply(state, action):
    """Play a legal action (precondition: ``is_legal``; not checked here).
    Vimbre keeps no history, so nothing in the state can overflow."""
    s = state[0]
    n = s * s
    flip_base = n + n * (n - 1) // 2
    if action < n:
        _move(state, action, -1, False)
    elif action < flip_base:
        i, j = _decode_pair(n, action)
        _move(state, i, j, False)
    elif action < flip_base + n:
        _move(state, action - flip_base, -1, True)
    else:
        _pass(state)


@njit("int64(int64[::1])", cache=True)
def current_player(state):
    return state[1]


@njit("boolean(int64[::1])", cache=True)
def mid_turn(state):
    """A vimbre turn is always one action."""
    return False


@njit("UniTuple(int64, 2)(int64[::1], float64[::1])", cache=True)
def outcome(state, scores):
    """(winner, 0 = connection) once over, (-1, -1) before; vimbre keeps no
    scores, so both are NaN."""
    scores[0] = np.nan
    scores[1] = np.nan
    if state[1] >= 0:
        return -1, -1
    return state[3], 0


@njit("boolean(int64[::1], float64[::1])", cache=True)
def live_scores(state, out):
    """Vimbre shows no scores during play."""
    return False


@njit("int64(int64[::1], uint64[::1], int64[::1])", cache=True)
def playout(state, rng, record):
    """Uniform random actions until a chain wins (see the module docstring
    for the draw); raises ValueError past ``_MAX_PLIES_PER_POINT * n`` plies
    or when ``record`` is non-empty and too short."""
    s = state[0]
    n = s * s
    tb = _BASE[s]
    flip_base = n + n * (n - 1) // 2
    okl = _off_okl(n)
    rpl = _off_rpl(n)
    fl = _off_fl(n)
    keep = record.shape[0] > 0
    limit = _MAX_PLIES_PER_POINT * n
    plies = 0
    while state[1] >= 0:
        if plies >= limit:
            raise ValueError("vimbre playout: over 64 * size**2 plies (endless flipping?)")
        if keep and plies >= record.shape[0]:
            raise ValueError("vimbre playout: the game is longer than record")
        c = state[1]
        k = state[8 + c]
        q = -1
        flip = False
        if state[2]:
            p = state[okl + c * n + _rand(rng, k)]
            action = p
        else:
            kk = k * (k - 1) // 2
            nr = state[10 + c]
            nf = state[12 + c]
            total = k + kk + nr + nf
            if total == 0:
                p = -1
                action = flip_base + n
            else:
                while True:
                    q = -1  # (a rejected pair must not leave its second stone)
                    r = _rand(rng, total)
                    if r < k:
                        p = state[okl + c * n + r]
                        action = p
                        break
                    r -= k
                    if r < kk:
                        a = _rand(rng, k)
                        b = _rand(rng, k - 1)
                        if b >= a:
                            b += 1
                        p = state[okl + c * n + a]
                        q = state[okl + c * n + b]
                        if p > q:
                            p, q = q, p
                        if _diag_bad(state, n, tb, c, p, q):
                            continue  # not a legal pair: draw again
                        action = _pair_start(n, p) - p - 1 + q
                        break
                    r -= kk
                    if r < nr:
                        pid = state[rpl + 2 * n * c + r]
                        p = pid >> 1
                        q = p + 1 if pid & 1 == 0 else p + s
                        action = _pair_start(n, p) - p - 1 + q
                        break
                    p = state[fl + c * n + r - nr]
                    action = flip_base + p
                    flip = True
                    break
        if p < 0:
            _pass(state)
        else:
            _move(state, p, q, flip)
        if keep:
            record[plies] = action
        plies += 1
    return plies


# ---------------------------------------------------------------- set-up and self-check
@njit(cache=True)
def load(state, size, cells, player, first):
    """A position from a board (``cells``: n values, 0 empty, 1 black, 2
    white) with ``player`` (0/1) to move and Black's first turn or not;
    beyond the contract, for tests and search set-up. The caller vouches that
    the position is one the rules allow (Python's ``from_position`` checks
    that) and that no chain exists yet."""
    init(state, size, np.zeros(0, dtype=np.int64))
    n = size * size
    if cells.shape[0] != n:
        raise ValueError("vimbre load: cells must hold size * size values")
    tb = _BASE[size]
    for p in range(n):
        x = cells[p]
        if x < 0 or x > 2:
            raise ValueError("vimbre load: a cell value is not 0, 1 or 2")
        state[_HEADER + p] = x
    for p in range(n):
        _resync(state, n, tb, p)
    state[1] = player
    state[2] = 1 if first else 0
    state[6] = 1  # union-finds built on first use
    state[7] = 1


@njit(cache=True)
def _set_ok(state, lst, pos, cnt_idx, universe):
    """Whether a set's list and positions agree (each member once)."""
    k = state[cnt_idx]
    if k < 0 or k > universe:
        return False
    members = 0
    for x in range(universe):
        i = state[pos + x]
        if i >= 0:
            members += 1
            if i >= k or state[lst + i] != x:
                return False
    return members == k


@njit(cache=True)
def invariants_hold(state):
    """Whether the incremental sets are self-consistent and equal to those
    of a fresh ``load`` of the same board (tests call this after playouts)."""
    s = state[0]
    n = s * s
    for c in range(2):
        if not (_set_ok(state, _off_okl(n) + c * n, _off_okp(n) + c * n, 8 + c, n)
                and _set_ok(state, _off_rpl(n) + 2 * n * c, _off_rpp(n) + 2 * n * c,
                            10 + c, 2 * n)
                and _set_ok(state, _off_fl(n) + c * n, _off_fp(n) + c * n, 12 + c, n)):
            return False
    fresh = np.zeros(state.shape[0], dtype=np.int64)
    load(fresh, s, state[_HEADER:_HEADER + n].copy(), max(state[1], 0), state[2] == 1)
    rs = _off_rescue(n)
    for x in range(2 * n):
        if state[rs + x] != fresh[rs + x]:
            return False
        if (state[_off_okp(n) + x] >= 0) != (fresh[_off_okp(n) + x] >= 0):
            return False
        if (state[_off_fp(n) + x] >= 0) != (fresh[_off_fp(n) + x] >= 0):
            return False
    for x in range(4 * n):
        if (state[_off_rpp(n) + x] >= 0) != (fresh[_off_rpp(n) + x] >= 0):
            return False
    return True


@njit(cache=True)
def _load(state, size, board, player, first, plies):
    """The state of a set-up position: each stone placed by the move code
    (so every flag, list and union-find is built as play builds them), then
    the mover, the first-turn flag and the ply count set."""
    init(state, size, state[:0])
    n = size * size
    for p in range(n):
        if board[p]:
            state[1] = board[p] - 1
            state[2] = 0
            _move(state, p, -1, False)
            if state[1] < 0:   # that stone completed a chain: the position is won
                return
    state[1] = player
    state[2] = first
    state[4] = plies


def from_game(game: Vimbre) -> np.ndarray:
    """The kernel state of a Python vimbre game that started from a set-up
    position (``boardlab.from_position``): the start loaded, then its moves."""
    start = game.copy()
    while len(start):
        start.undo()
    if start.current_player is None:
        raise OptionError("vimbre: a finished set-up position has nothing to search")
    codes = {"X": 1, "O": 2}
    board = np.array([codes.get(c, 0) if c else 0 for c in start.cells()], dtype=np.int64)
    state = np.zeros(state_len(game.size), dtype=np.int64)
    _load(state, game.size, board, start.current_player, 1 if start.first_turn else 0,
          int(np.count_nonzero(board)))
    for a in game.action_history:
        apply(state, a)
    return state
