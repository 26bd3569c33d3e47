"""Yugo's compiled kernel (the contract is in ``boardlab.fast.kernels``).

The reference is the pure-Python engine ``boardlab.games.yugo``; this module
must agree with it at every ply (``boardlab.fast.check``). It is written like
a C Go engine because a playout is mostly placements:

* The board is padded: ``W = size + 2`` columns and rows, point ``x = (row +
  1) * W + col + 1``, the frame holds ``BORDER``, so the four neighbours of a
  point are ``x - 1, x + 1, x - W, x + W`` with no bounds test. Row-major order
  is kept, so "smallest point" means the same thing in both numberings.
* Groups are labelled per point (``GID``, the id is one stone of the group)
  with a circular stone list (``NXT``); merging relabels the smaller group.
* Liberties are pseudo-liberties: per group the count, sum and sum of squares
  of the (stone, empty neighbour) adjacencies. The group is surrounded iff the
  count is 0 and has exactly one liberty iff ``sum**2 == count * sum2`` (all
  adjacencies then name the same point), which is all the rules need: a king
  is legal exactly on the single liberty of an enemy group, a pawn on any
  other empty point next to an empty point or a friendly group with two or
  more liberties.
* The empty points are kept in an unordered list with each point's position
  in it, so a playout picks uniformly by rejection: draw one of the empty
  points or the button/pass slot (always exactly one of the two is legal in
  play), retry if the point is legal for neither piece. Every empty point is
  legal for at most one piece, so this is uniform over the legal actions.
* King removals touch only the removed points' neighbours; the kings left
  behind by a group that lost its pawns are regrouped by a flood fill.
* Scores (``outcome``, ``live_scores``) are counted from the board by flood
  fill: they are needed once per game, not per ply.

During a proposal (phase MARK) the board is fixed: the groups' smallest
points are listed once, ascending (``MLIST``, with ``MIDX`` giving each
point's index there or -1), and a mark is an index into that list, so the
legal marks are the indices after the last one chosen.

Yugo has no history rule and every game is finite (see
``Yugo.max_game_length_for``), so the state holds no history.

Beyond the contract, ``from_game(game)`` builds a state for any Python
Yugo position (tests start from hand-built positions with it; a search can
start from a live game).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..errors import OptionError
from ..games.yugo import Yugo
from ._rng import rand_below

TERMINATIONS: tuple[str, ...] = ("score",)
HAS_SCORES = True

# phases, as in the Python engine
PLAY, MARK, ANSWER, OVER = 0, 1, 2, 3
BORDER = 3  # COL value of the frame (0 empty, 1 black, 2 white)

# header fields
H_SIZE = 0
H_W = 1           # size + 2
H_NP = 2          # W * W, the length of every per-point array
H_PLAYER = 3      # 0 black, 1 white (the color to act while not over)
H_BUTTON = 4      # -1 not taken, else the color that took it
H_PASSES = 5      # 0/1 consecutive passes just made in play
H_PHASE = 6
H_REJECTED = 7    # 1 once a proposal was rejected
H_KOMI = 8
H_NEMPTY = 9      # entries in EMPL
H_G = 10          # groups listed in MLIST (phase MARK)
H_NMARKS = 11     # marks chosen so far (indices into MLIST, in MARKS)
H_STAMP = 12      # last stamp used in SEEN
HEADER = 16

# per-point arrays, each H_NP long, in this order after the header
# GLIB holds group g's liberty count, sum and sum of squares (pseudo-liberties,
# with repetition) packed in one word at g: see _lib. What the legal-move scan
# reads comes first (COL, GID, GLIB), so a batch's step touches as few cache
# lines of a state as it can (docs/engine.md, "Batched stepping").
A_COL, A_GID, A_GLIB, A_KING, A_NXT, A_GSIZE = 0, 1, 2, 3, 4, 5
A_EMPL, A_EMPP, A_MLIST, A_MIDX, A_MARKS, A_STK, A_STK2, A_SEEN = 6, 7, 8, 9, 10, 11, 12, 13
N_ARRAYS = 14

# GLIB's packing: count in bits 0-10, sum in 11-31, sum of squares from 32.
# At 19x19 (W = 21, points below 441) a group has at most 4 * 361 = 1,444
# pseudo-liberties, so the sum is below 1444 * 441 < 2^20 and the sum of
# squares below 1444 * 441^2 < 2^29: no field can reach the next, and as all
# three are sums, adding or subtracting packed words adds or subtracts each.
_S1, _S2 = 11, 32
_M_CNT, _M_S1 = (1 << _S1) - 1, (1 << (_S2 - _S1)) - 1


def state_len(size: int) -> int:
    """Length of a state at ``size`` (OptionError outside the game's sizes)."""
    size = Yugo._check_size(size)
    return HEADER + N_ARRAYS * (size + 2) ** 2


def encode_options(options: dict[str, Any]) -> np.ndarray:
    """The options as ``[komi]`` (the komi must fit a 64-bit integer)."""
    opts = Yugo._check_options(dict(options))
    komi = opts["komi"]
    if not -(2 ** 63) <= komi < 2 ** 63:
        raise OptionError(f"yugo: option 'komi' = {komi} does not fit a 64-bit integer")
    return np.array([komi], dtype=np.int64)


# ------------------------------------------------------------------ helpers


@njit(cache=True, inline="always")
def _to_x(state: np.ndarray, p: int) -> int:
    """Action point (row-major, a1 = 0) -> padded point."""
    s = state[H_SIZE]
    return (p // s + 1) * state[H_W] + p % s + 1


@njit(cache=True, inline="always")
def _to_p(state: np.ndarray, x: int) -> int:
    w = state[H_W]
    return (x // w - 1) * state[H_SIZE] + x % w - 1


@njit(cache=True, inline="always")
def _lib(y: int) -> int:
    """The packed GLIB word of one pseudo-liberty at point y."""
    return 1 + (y << _S1) + ((y * y) << _S2)


@njit(cache=True, inline="always")
def _single(packed: int) -> bool:
    """True iff a packed GLIB word counts exactly one distinct liberty: some,
    and sum^2 == count * sum of squares (equality in Cauchy-Schwarz: all the
    same point)."""
    c = packed & _M_CNT
    s1 = (packed >> _S1) & _M_S1
    return (c > 0) & (s1 * s1 == c * (packed >> _S2))


@njit(cache=True, inline="always")
def _look(state: np.ndarray, col: int, gid: int, gc: int, y: int,
          mine: int) -> tuple[bool, bool]:
    """One neighbour y of an empty point, for the mover (color value mine):
    (an enemy group whose last liberty is the point, a liberty for the mover's
    new group: y empty or a friendly group with another liberty). Branch-free:
    an empty or border point's GID is -1, so its GLIB read lands on GID's last
    word, one cache line for all of them, and the color tests mask it."""
    v = state[col + y]
    single = _single(state[gc + state[gid + y]])
    return (v == 3 - mine) & single, (v == 0) | ((v == mine) & ~single)


@njit(cache=True, inline="always")
def _looks(state: np.ndarray, x: int, mine: int) -> tuple[bool, bool]:
    """The four neighbours of the empty point x seen by :func:`_look`, for
    the mover (color value ``mine``): (x is some enemy group's last
    liberty, a stone there would have a liberty)."""
    np_ = state[H_NP]
    col = HEADER + A_COL * np_
    gid = HEADER + A_GID * np_
    gc = HEADER + A_GLIB * np_
    w = state[H_W]
    k0, f0 = _look(state, col, gid, gc, x - 1, mine)
    k1, f1 = _look(state, col, gid, gc, x + 1, mine)
    k2, f2 = _look(state, col, gid, gc, x - w, mine)
    k3, f3 = _look(state, col, gid, gc, x + w, mine)
    return k0 | k1 | k2 | k3, f0 | f1 | f2 | f3


@njit(cache=True, inline="always")
def _kind(state: np.ndarray, x: int, mine: int) -> int:
    """What the mover (color value ``mine``) may place on the empty point x:
    0 nothing, 1 a pawn, 2 a king (never both: see the module docstring).
    The four looks are written out here rather than taken from
    :func:`_looks`: with the helper, LLVM laid the playout's loop out
    differently and playouts ran 3-5% slower (kernel_playouts, 2026-12-08)."""
    np_ = state[H_NP]
    col = HEADER + A_COL * np_
    gid = HEADER + A_GID * np_
    gc = HEADER + A_GLIB * np_
    w = state[H_W]
    k0, f0 = _look(state, col, gid, gc, x - 1, mine)
    k1, f1 = _look(state, col, gid, gc, x + 1, mine)
    k2, f2 = _look(state, col, gid, gc, x - w, mine)
    k3, f3 = _look(state, col, gid, gc, x + w, mine)
    if k0 | k1 | k2 | k3:
        return 2
    return 1 if f0 | f1 | f2 | f3 else 0


@njit(cache=True, inline="always")
def _kind_bits(state: np.ndarray, x: int, mine: int) -> int:
    """:func:`_kind` without a branch, for :func:`legal_actions`'s scan (a
    playout's draw branches on the answer anyway, and is quicker with
    :func:`_kind`'s early answer)."""
    king, free = _looks(state, x, mine)
    k = np.int64(king)
    return 2 * k | (np.int64(free) & (1 - k))


@njit(cache=True, inline="always")
def _empty_remove(state: np.ndarray, x: int) -> None:
    np_ = state[H_NP]
    empl = HEADER + A_EMPL * np_
    empp = HEADER + A_EMPP * np_
    k = state[H_NEMPTY] - 1
    i = state[empp + x]
    last = state[empl + k]
    state[empl + i] = last
    state[empp + last] = i
    state[H_NEMPTY] = k


@njit(cache=True, inline="always")
def _empty_add(state: np.ndarray, x: int) -> None:
    np_ = state[H_NP]
    k = state[H_NEMPTY]
    state[HEADER + A_EMPL * np_ + k] = x
    state[HEADER + A_EMPP * np_ + x] = k
    state[H_NEMPTY] = k + 1


@njit(cache=True, inline="always")
def _merge(state: np.ndarray, a: int, b: int) -> int:
    """Join groups a and b (different ids, one color); returns the kept id."""
    np_ = state[H_NP]
    gid = HEADER + A_GID * np_
    nxt = HEADER + A_NXT * np_
    glib = HEADER + A_GLIB * np_
    gsize = HEADER + A_GSIZE * np_
    if state[gsize + a] < state[gsize + b]:
        a, b = b, a
    z = b
    while True:
        state[gid + z] = a
        z = state[nxt + z]
        if z == b:
            break
    na = state[nxt + a]
    state[nxt + a] = state[nxt + b]
    state[nxt + b] = na
    state[gsize + a] += state[gsize + b]
    state[glib + a] += state[glib + b]
    return a


@njit(cache=True)
def _flood_group(state: np.ndarray, z0: int, stk: int) -> None:
    """Make the stones connected to ``z0`` (not yet in a group: ``gid`` < 0)
    one group with id ``z0``: its ring in ``nxt``, its size, and the count,
    sum and sum of squares of its liberties (with repetition). ``stk`` is the
    offset of a free stack array in ``state``."""
    np_ = state[H_NP]
    w = state[H_W]
    col = HEADER + A_COL * np_
    gid = HEADER + A_GID * np_
    nxt = HEADER + A_NXT * np_
    c0 = state[col + z0]
    state[gid + z0] = z0
    state[nxt + z0] = z0
    libs = 0
    size = 0
    top = 1
    state[stk] = z0
    while top:
        top -= 1
        z = state[stk + top]
        size += 1
        for k in range(4):
            y = z + (-1 if k == 0 else 1 if k == 1 else -w if k == 2 else w)
            v = state[col + y]
            if v == 0:
                libs += _lib(y)
            elif v == c0 and state[gid + y] < 0:
                state[gid + y] = z0
                state[nxt + y] = state[nxt + z0]
                state[nxt + z0] = y
                state[stk + top] = y
                top += 1
    state[HEADER + A_GLIB * np_ + z0] = libs
    state[HEADER + A_GSIZE * np_ + z0] = size


@njit(cache=True)
def _strip_pawns(state: np.ndarray, g: int) -> None:
    """Remove every pawn of the (surrounded) group g: the removed points give
    pseudo-liberties to the groups next to them, and the kings left behind
    are regrouped (they may fall apart into several groups)."""
    np_ = state[H_NP]
    w = state[H_W]
    col = HEADER + A_COL * np_
    king = HEADER + A_KING * np_
    gid = HEADER + A_GID * np_
    nxt = HEADER + A_NXT * np_
    glib = HEADER + A_GLIB * np_
    stk = HEADER + A_STK * np_      # removed pawns from the bottom, kings from the top
    stk2 = HEADER + A_STK2 * np_    # flood-fill stack
    nr = 0
    nk = 0
    z = g
    while True:
        if state[king + z]:
            nk += 1
            state[stk + np_ - nk] = z
        else:
            state[stk + nr] = z
            nr += 1
        z = state[nxt + z]
        if z == g:
            break
    if nr == 0:
        return
    for i in range(nk):
        state[gid + state[stk + np_ - 1 - i]] = -1    # to regroup
    for i in range(nr):
        r = state[stk + i]
        state[col + r] = 0
        state[gid + r] = -1    # an empty point's group is -1 (see _look)
        _empty_add(state, r)
    for i in range(nr):
        r = state[stk + i]
        for k in range(4):
            y = r + (-1 if k == 0 else 1 if k == 1 else -w if k == 2 else w)
            v = state[col + y]
            if v != 0 and v != BORDER:
                h = state[gid + y]
                if h >= 0:
                    state[glib + h] += _lib(r)
    for i in range(nk):
        z0 = state[stk + np_ - 1 - i]
        if state[gid + z0] >= 0:
            continue
        _flood_group(state, z0, stk2)


@njit(cache=True)
def _place(state: np.ndarray, x: int, is_king: bool) -> None:
    """The mover places a pawn or a king on the empty point x (legal)."""
    np_ = state[H_NP]
    w = state[H_W]
    col = HEADER + A_COL * np_
    gid = HEADER + A_GID * np_
    nxt = HEADER + A_NXT * np_
    glib = HEADER + A_GLIB * np_
    me = state[H_PLAYER]
    mine = me + 1
    _empty_remove(state, x)
    state[col + x] = mine
    state[HEADER + A_KING * np_ + x] = 1 if is_king else 0
    state[gid + x] = x
    state[nxt + x] = x
    state[HEADER + A_GSIZE * np_ + x] = 1
    state[glib + x] = 0
    # one pass over the neighbours: x's own liberties are summed here and
    # added to whatever group x ends up in (merges add the counters up)
    libs = 0
    root = x
    ncap = 0
    cap0 = cap1 = cap2 = cap3 = -1
    lx = _lib(x)
    for k in range(4):
        y = x + (-1 if k == 0 else 1 if k == 1 else -w if k == 2 else w)
        v = state[col + y]
        if v == 0:
            libs += _lib(y)
            continue
        if v == BORDER:
            continue
        g = state[gid + y]
        left = state[glib + g] - lx       # y's group loses the liberty x
        state[glib + g] = left
        c = left & _M_CNT
        if v == mine:
            if g != root:
                root = _merge(state, root, g)
        elif c == 0:       # x was its last liberty (reached once, at its last adjacency)
            if ncap == 0:
                cap0 = g
            elif ncap == 1:
                cap1 = g
            elif ncap == 2:
                cap2 = g
            else:
                cap3 = g
            ncap += 1
    state[glib + root] += libs
    if is_king:
        for i in range(ncap):
            g = cap0 if i == 0 else cap1 if i == 1 else cap2 if i == 2 else cap3
            _strip_pawns(state, g)
        own = state[gid + x]
        if (state[glib + own] & _M_CNT) == 0:
            _strip_pawns(state, own)
    state[H_PLAYER] = 1 - me
    state[H_PASSES] = 0


@njit(cache=True)
def _list_groups(state: np.ndarray) -> None:
    """Entering a proposal: list the groups' smallest points ascending in MLIST,
    each board point's index there (or -1) in MIDX."""
    np_ = state[H_NP]
    s = state[H_SIZE]
    w = state[H_W]
    col = HEADER + A_COL * np_
    gid = HEADER + A_GID * np_
    mlist = HEADER + A_MLIST * np_
    midx = HEADER + A_MIDX * np_
    seen = HEADER + A_SEEN * np_
    stamp = state[H_STAMP] + 1
    state[H_STAMP] = stamp
    g_count = 0
    for r in range(1, s + 1):
        for c in range(1, s + 1):
            x = r * w + c
            state[midx + x] = -1
            if state[col + x] != 0:
                g = state[gid + x]
                if state[seen + g] != stamp:
                    state[seen + g] = stamp
                    state[midx + x] = g_count
                    state[mlist + g_count] = x
                    g_count += 1
    state[H_G] = g_count
    state[H_NMARKS] = 0


@njit(cache=True)
def _pass(state: np.ndarray) -> None:
    state[H_PLAYER] ^= 1
    if state[H_PASSES] == 0:
        state[H_PASSES] = 1
    elif state[H_REJECTED]:           # second double pass: the game ends as is
        state[H_PASSES] = 0
        state[H_PHASE] = OVER
    else:                             # first double pass: the mover proposes removals
        state[H_PASSES] = 0
        state[H_PHASE] = MARK
        _list_groups(state)


@njit(cache=True)
def _accept(state: np.ndarray) -> None:
    """Remove the marked groups entirely; the game is over (the group tables
    are not kept up to date any more: scores are counted from the board)."""
    np_ = state[H_NP]
    col = HEADER + A_COL * np_
    king = HEADER + A_KING * np_
    nxt = HEADER + A_NXT * np_
    mlist = HEADER + A_MLIST * np_
    marks = HEADER + A_MARKS * np_
    for i in range(state[H_NMARKS]):
        g = state[mlist + state[marks + i]]
        z = g
        while True:
            state[col + z] = 0
            state[king + z] = 0
            z = state[nxt + z]
            if z == g:
                break
    state[H_NMARKS] = 0
    state[H_PHASE] = OVER


@njit(cache=True)
def _last_mark(state: np.ndarray) -> int:
    m = state[H_NMARKS]
    if m == 0:
        return -1
    return state[HEADER + A_MARKS * state[H_NP] + m - 1]


@njit(cache=True)
def _tally(state: np.ndarray, out: np.ndarray, owner: np.ndarray) -> None:
    """Both scores for the board as it stands, counted from scratch. If
    ``owner`` is not empty (length n), each point's share of them too: 1 a
    point black scores, -1 one white scores, 0 neither (see :func:`owner`)."""
    mem = np.empty(owner.shape[0], dtype=np.int64)  # a region's points, for owner
    np_ = state[H_NP]
    s = state[H_SIZE]
    w = state[H_W]
    col = HEADER + A_COL * np_
    king = HEADER + A_KING * np_
    stk = HEADER + A_STK * np_
    seen = HEADER + A_SEEN * np_
    stamp = state[H_STAMP] + 1
    state[H_STAMP] = stamp
    pts0 = 0
    pts1 = 0
    for r in range(1, s + 1):
        for c in range(1, s + 1):
            x0 = r * w + c
            if state[seen + x0] == stamp:
                continue
            v0 = state[col + x0]
            state[seen + x0] = stamp
            state[stk] = x0
            top = 1
            size = 0
            kings = 0
            tb = False     # a region touches black / white
            tw = False
            lib = False    # a group has a liberty
            while top:
                top -= 1
                z = state[stk + top]
                if mem.shape[0]:
                    mem[size] = z
                size += 1
                kings += state[king + z]
                for k in range(4):
                    y = z + (-1 if k == 0 else 1 if k == 1 else -w if k == 2 else w)
                    v = state[col + y]
                    if v == v0:
                        if state[seen + y] != stamp:
                            state[seen + y] = stamp
                            state[stk + top] = y
                            top += 1
                    elif v == 0:
                        lib = True
                    elif v == 1:
                        tb = True
                    elif v == 2:
                        tw = True
            if v0 == 0:
                if tb and not tw:
                    pts0 += size
                elif tw and not tb:
                    pts1 += size
            elif lib:
                if v0 == 1:
                    pts0 += size
                else:
                    pts1 += size
            elif v0 == 1:      # a surrounded group: its kings score for the enemy
                pts1 += kings
            else:
                pts0 += kings
            if mem.shape[0]:
                _own_region(state, mem, size, owner, v0, tb, tw, lib)
    b = float(pts0)
    wt = float(pts1)
    if state[H_BUTTON] == 0:
        b += 0.5
    elif state[H_BUTTON] == 1:
        wt += 0.5
    wt += float(state[H_KOMI])
    out[0] = b
    out[1] = wt


@njit(cache=True)
def _own_region(state: np.ndarray, mem: np.ndarray, count: int, owner: np.ndarray, v0: int,
                tb: bool, tw: bool, lib: bool) -> None:
    """Write a region's points into ``owner`` as :func:`_tally` scored them."""
    s = state[H_SIZE]
    w = state[H_W]
    king = HEADER + A_KING * state[H_NP]
    if v0 == 0:
        o = 1 if tb and not tw else -1 if tw and not tb else 0
    elif lib:
        o = 1 if v0 == 1 else -1
    else:
        o = -1 if v0 == 1 else 1  # only the kings of a surrounded group score
    for i in range(count):
        z = mem[i]
        owner[(z // w - 1) * s + z % w - 1] = o if v0 == 0 or lib or state[king + z] else 0


@njit("void(int64[::1], int64[::1])", cache=True)
def owner(state: np.ndarray, out: np.ndarray) -> None:
    """Who each point scores for if the game ended now: ``out[p]`` 1 black,
    -1 white, 0 neither (a neutral region; a pawn of a surrounded group). The
    points of each color plus the button's half point and komi are its score,
    exactly the count of :func:`outcome`; ``boardlab.fast.ownership``
    averages it over playouts into the analysis heat map."""
    scores = np.empty(2, dtype=np.float64)
    _tally(state, scores, out)


# ------------------------------------------------------------------ the contract


@njit("void(int64[::1], int64, int64[::1])", cache=True)
def init(state: np.ndarray, size: int, opts: np.ndarray) -> None:
    """The empty board at ``size``, black to move; ``opts`` from encode_options."""
    if size < 4 or size > 19:
        raise ValueError("yugo kernel: size must be 4..19")
    w = size + 2
    np_ = w * w
    if state.shape[0] < HEADER + N_ARRAYS * np_:
        raise ValueError("yugo kernel: state array shorter than state_len(size)")
    if opts.shape[0] < 1:
        raise ValueError("yugo kernel: opts must hold [komi] (encode_options)")
    state[:] = 0
    state[H_SIZE] = size
    state[H_W] = w
    state[H_NP] = np_
    state[H_BUTTON] = -1
    state[H_KOMI] = opts[0]
    col = HEADER + A_COL * np_
    gid = HEADER + A_GID * np_
    midx = HEADER + A_MIDX * np_
    for x in range(np_):
        state[col + x] = BORDER
        state[gid + x] = -1
        state[midx + x] = -1
    for r in range(1, size + 1):
        for c in range(1, size + 1):
            x = r * w + c
            state[col + x] = 0
            _empty_add(state, x)


@njit("int64(int64[::1], int64[::1])", cache=True)
def legal_actions(state: np.ndarray, out: np.ndarray) -> int:
    """The legal actions ascending in out[:k]; returns k (0 once over)."""
    phase = state[H_PHASE]
    s = state[H_SIZE]
    n = s * s
    if phase == PLAY:
        np_ = state[H_NP]
        w = state[H_W]
        mine = state[H_PLAYER] + 1
        # Without a branch on the board: each empty point (from the list of
        # them) sets its bit in one of two bitmaps at out's tail (out holds
        # every action, far more than the k written), pawns and kings, and
        # the bitmaps are read back in order. A scan of the board testing
        # each point is mispredicted wherever the predictor has not seen that
        # board before: at a batch of 64 games it remembers each one's from
        # the step before, at 1,024 it cannot (docs/engine.md, "Batched
        # stepping").
        words = (n + 63) >> 6
        pawns = out.shape[0] - 2 * words
        kings = pawns + words
        out[pawns:] = 0
        empl = HEADER + A_EMPL * np_
        # x's row is x // w, taken without a division (dozens of them, each
        # tens of cycles): (x + 0.5) / w lies at least 0.5 / w from an integer
        inv_w = 1.0 / w
        for j in range(state[H_NEMPTY]):
            x = state[empl + j]
            kind = _kind_bits(state, x, mine)
            p = x - w + 1 - 2 * np.int64((x + 0.5) * inv_w)  # (row - 1) * s + col - 1
            word = p >> 6
            bit = p & 63
            out[pawns + word] |= (kind & 1) << bit
            out[kings + word] |= (kind >> 1) << bit
        k = 0
        for bitmap, first in ((pawns, 0), (kings, n)):  # pawn p is action p, king p n + p
            for word in range(words):
                m = out[bitmap + word]
                while m != 0:
                    out[k] = first + 64 * word + trailing_zeros(m)
                    k += 1
                    m &= m - 1
        out[k] = n + n if state[H_BUTTON] < 0 else n + n + 1
        return k + 1
    if phase == MARK:
        mlist = HEADER + A_MLIST * state[H_NP]
        k = 0
        for j in range(_last_mark(state) + 1, state[H_G]):
            out[k] = n + n + 2 + _to_p(state, state[mlist + j])
            k += 1
        out[k] = 3 * n + 2
        return k + 1
    if phase == ANSWER:
        out[0] = 3 * n + 3
        out[1] = 3 * n + 4
        return 2
    return 0


@njit("boolean(int64[::1], int64)", cache=True)
def is_legal(state: np.ndarray, action: int) -> bool:
    """Whether ``action`` (any int64) is legal now."""
    phase = state[H_PHASE]
    s = state[H_SIZE]
    n = s * s
    if action < 0 or action >= 3 * n + 5 or phase == OVER:
        return False
    np_ = state[H_NP]
    if phase == PLAY:
        if action < n + n:
            king = action >= n
            x = _to_x(state, action - n if king else action)
            if state[HEADER + A_COL * np_ + x] != 0:
                return False
            return _kind(state, x, state[H_PLAYER] + 1) == (2 if king else 1)
        if action == n + n:
            return state[H_BUTTON] < 0
        if action == n + n + 1:
            return state[H_BUTTON] >= 0
        return False
    if phase == MARK:
        if action == 3 * n + 2:
            return True
        if n + n + 2 <= action < 3 * n + 2:
            x = _to_x(state, action - n - n - 2)
            return state[HEADER + A_MIDX * np_ + x] > _last_mark(state)
        return False
    return action == 3 * n + 3 or action == 3 * n + 4


@njit("void(int64[::1], int64)", cache=True)
def apply(state: np.ndarray, action: int) -> None:
    """Play a legal action (precondition: is_legal(state, action))."""
    n = state[H_SIZE] * state[H_SIZE]
    if action < n + n:
        if action >= n:
            _place(state, _to_x(state, action - n), True)
        else:
            _place(state, _to_x(state, action), False)
    elif action == n + n:
        state[H_BUTTON] = state[H_PLAYER]
        state[H_PLAYER] ^= 1
        state[H_PASSES] = 0
    elif action == n + n + 1:
        _pass(state)
    elif action < 3 * n + 2:
        x = _to_x(state, action - n - n - 2)
        m = state[H_NMARKS]
        np_ = state[H_NP]
        state[HEADER + A_MARKS * np_ + m] = state[HEADER + A_MIDX * np_ + x]
        state[H_NMARKS] = m + 1
    elif action == 3 * n + 2:
        state[H_PHASE] = ANSWER
        state[H_PLAYER] ^= 1
    elif action == 3 * n + 3:
        _accept(state)
    else:
        state[H_NMARKS] = 0
        state[H_PHASE] = PLAY
        state[H_REJECTED] = 1
        state[H_PLAYER] ^= 1


@njit("int64(int64[::1])", cache=True)
def current_player(state: np.ndarray) -> int:
    """0 black, 1 white, -1 once over."""
    return -1 if state[H_PHASE] == OVER else state[H_PLAYER]


@njit("boolean(int64[::1])", cache=True)
def mid_turn(state: np.ndarray) -> bool:
    """Always False: the Python engine has no ``_mid_turn`` hook for yugo, so
    each mark and ``done`` count as turns of their own there too."""
    return False


@njit("UniTuple(int64, 2)(int64[::1], float64[::1])", cache=True)
def outcome(state: np.ndarray, scores: np.ndarray) -> tuple[int, int]:
    """(winner 0/1/2, termination 0 = score) and the final scores; call once over."""
    _tally(state, scores, np.empty(0, dtype=np.int64))
    if scores[0] > scores[1]:
        return 0, 0
    if scores[1] > scores[0]:
        return 1, 0
    return 2, 0


@njit("boolean(int64[::1], float64[::1])", cache=True)
def live_scores(state: np.ndarray, out: np.ndarray) -> bool:
    """The running scores of the board as it stands (the engine always shows them)."""
    _tally(state, out, np.empty(0, dtype=np.int64))
    return True


@njit("int64(int64[::1], uint64[::1], int64[::1])", cache=True)
def playout(state: np.ndarray, rng: np.ndarray, record: np.ndarray) -> int:
    """Uniform random actions until the game is over; returns the plies played
    (recorded in ``record`` when it is not empty; ValueError if it is too short)."""
    s = state[H_SIZE]
    n = s * s
    np_ = state[H_NP]
    empl = HEADER + A_EMPL * np_
    cap = record.shape[0]
    plies = 0
    while True:
        phase = state[H_PHASE]
        if phase == OVER:
            return plies
        if phase == PLAY:
            mine = state[H_PLAYER] + 1
            e = state[H_NEMPTY]
            while True:
                r = rand_below(rng, e + 1)
                if r == e:
                    x = -1
                    kind = 0
                    break
                x = state[empl + r]
                kind = _kind(state, x, mine)
                if kind:
                    break
            if x < 0:
                if state[H_BUTTON] < 0:
                    action = n + n
                    state[H_BUTTON] = state[H_PLAYER]
                    state[H_PLAYER] ^= 1
                else:
                    action = n + n + 1
                    _pass(state)
            else:
                _place(state, x, kind == 2)
                if cap > 0:    # (two divisions: only when recording)
                    action = _to_p(state, x) + (n if kind == 2 else 0)
                else:
                    action = 0
        elif phase == MARK:
            last = _last_mark(state)
            left = state[H_G] - 1 - last
            r = rand_below(rng, left + 1)
            if r == left:
                action = 3 * n + 2
                state[H_PHASE] = ANSWER
                state[H_PLAYER] ^= 1
            else:
                j = last + 1 + r
                action = n + n + 2 + _to_p(state, state[HEADER + A_MLIST * np_ + j])
                m = state[H_NMARKS]
                state[HEADER + A_MARKS * np_ + m] = j
                state[H_NMARKS] = m + 1
        else:
            action = 3 * n + 3 + rand_below(rng, 2)
            apply(state, action)
        if cap > 0:
            if plies >= cap:
                raise ValueError("yugo kernel: playout longer than the record array")
            record[plies] = action
        plies += 1


# ------------------------------------------------------------------ positions


@njit("void(int64[::1], int64[::1], int64[::1], int64, int64, int64, int64, int64, int64[::1])",
      cache=True)
def _load(state: np.ndarray, colors: np.ndarray, kings: np.ndarray, player: int, button: int,
          passes: int, phase: int, rejected: int, marks: np.ndarray) -> None:
    """Put a position on an ``init`` state: ``colors[p]`` 0/1/2 and ``kings[p]``
    0/1 per action point, then the scalar fields and the marks (points)."""
    s = state[H_SIZE]
    np_ = state[H_NP]
    w = state[H_W]
    col = HEADER + A_COL * np_
    king = HEADER + A_KING * np_
    gid = HEADER + A_GID * np_
    stk = HEADER + A_STK * np_
    state[H_NEMPTY] = 0
    p = 0
    for r in range(1, s + 1):
        for c in range(1, s + 1):
            x = r * w + c
            state[col + x] = colors[p]
            state[king + x] = kings[p]
            state[gid + x] = -1
            if colors[p] == 0:
                _empty_add(state, x)
            p += 1
    for x0 in range(np_):
        c0 = state[col + x0]
        if c0 == 0 or c0 == BORDER or state[gid + x0] >= 0:
            continue
        _flood_group(state, x0, stk)
    state[H_PLAYER] = player
    state[H_BUTTON] = button
    state[H_PASSES] = passes
    state[H_REJECTED] = rejected
    state[H_PHASE] = phase
    if phase == MARK or phase == ANSWER:
        _list_groups(state)
        midx = HEADER + A_MIDX * np_
        for i in range(marks.shape[0]):
            state[HEADER + A_MARKS * np_ + i] = state[midx + _to_x(state, marks[i])]
        state[H_NMARKS] = marks.shape[0]


def from_game(game: Yugo) -> np.ndarray:
    """A kernel state for the position of a Python Yugo game, so compiled
    playouts or searches can start from any position (and tests can start
    from hand-built ones). Reads the engine's board and scalar fields."""
    if not isinstance(game, Yugo):
        raise OptionError(f"yugo kernel: from_game needs a yugo game, got {game.name}")
    size = game.size
    state = np.zeros(state_len(size), dtype=np.int64)
    init(state, size, encode_options(game.options))
    cells = game._cell_tokens()
    colors = np.array([0 if t is None else 1 + "xoXO".index(t) % 2 for t in cells], np.int64)
    kings = np.array([0 if t is None else int(t.isupper()) for t in cells], np.int64)
    over = game.current_player is None
    _load(state, colors, kings, 0 if over else game._player, game._button, game._passes,
          OVER if over else game._phase, int(game._rejected),
          np.array(game._marks, dtype=np.int64))
    return state
