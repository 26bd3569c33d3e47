"""Pilo compiled with numba: the kernel contract of ``boardlab.fast.kernels``.

The reference is ``boardlab.games.pilo`` (same actions, same order, same
outcome); ``boardlab.fast.check`` compares the two ply by ply.

Why it is fast
--------------
A capture lies on one line (a row or a column) and depends on that line only,
so, like the Python engine, the kernel keeps each line's captures for both
colors in the state and rescans only the lines a move touches (two for a
placement, three for a stack move: O(size) each). The empty squares are an
unordered list with a position index (removal is a swap with the last entry;
an emptied square never becomes empty again). A uniform random action is then
one draw over ``empties + captures of the mover (+ swap)``: an index into the
empty list, or a walk over the per-line capture counts. Nothing is allocated
per ply; the patch scoring at the end allocates its scratch once per call
(one flood fill per patch on a bordered board, see ``_patch_scores``).

State layout (``int64``, offsets for ``n = size²``, ``L = 2 * size`` lines,
``W = 2 * size`` capture slots per line and color)::

    [0] size            [1] color to move (0 blue, 1 orange)
    [2] pie state (core.pie: 0 pending, 1 open, 2 closed)
    [3] consecutive passes (2: over)    [4] color of the last board play or -1
    [5] number of empty squares         [6], [7] captures of blue, orange
    [8] pie option
    CELLS  = 16           n cells: 0 empty, +h blue stack, -h orange stack, BLOCK
    EMPTY  = 16 + n       n: the empty squares, unordered, first [5] valid
    EPOS   = 16 + 2n      n: index of each empty square in EMPTY
    CAPCNT = 16 + 3n      2L: captures per (color, line): color * L + line
    CAPS   = 16 + 3n + 2L 2LW: their entries, slot ((color * L + line) * W + j):
                          action | from << 15 | to << 20 (positions along the line)
    MASKS  = CAPS + 2LW   3L: bit masks of line positions, (kind * L + line),
                          kind 0 blue stacks, 1 orange stacks, 2 blocks

Lines 0..size-1 are the rows (west -> east), size..2size-1 the columns
(south -> north). A color has at most two captures per own stack on a line
(one forwards, one backwards), so W = 2 * size slots suffice. On a line
a stack stops at the first enemy stack or block either way (the mask of
stoppers, one trailing / leading zero count), so a rescan costs a few
operations per stack and no branch on the board's contents.

The game is bounded (at most 3n + 1 actions, see the Python engine), so no
history is kept.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import boolean, float64, int64, njit, types, uint64, void
from numba.extending import intrinsic

from ..errors import OptionError
from ..games.pilo import Pilo
from . import _key
from ._rng import rand_below

TERMINATIONS: tuple[str, ...] = ("score", "last-move")
ALTERNATES = True  # every action, a pass included, hands the turn over; the swap keeps it
HAS_SCORES = True

BLOCK = 1 << 30  # the Python engine's block value: no stack height reaches it
PENDING, OPEN, CLOSED = 0, 1, 2  # core.pie states

_HEAD = 16
_SIZE, _PLAYER, _PIE, _PASSES, _LAST, _NEMPTY, _NCAP, _PIEOPT = 0, 1, 2, 3, 4, 5, 6, 8
_SCORE, _LAST_MOVE = 0, 1
_ACTION_MASK = (1 << 15) - 1  # capture entries: action | from << 15 | to << 20


def state_len(size: int) -> int:
    """Length of a state at this size (see the module doc for the layout)."""
    n = size * size
    lines = 2 * size
    return _HEAD + 3 * n + 2 * lines + 2 * lines * (2 * size) + 3 * lines


def encode_options(options: dict[str, Any]) -> np.ndarray:
    """The options vector: ``[pie]`` (checked and defaulted like the Python game)."""
    opts = Pilo._check_options(dict(options))
    return np.array([1 if opts["pie"] else 0], dtype=np.int64)


# ---------------------------------------------------------------- offsets


@njit(cache=True, inline="always")
def _cells(size):
    return _HEAD


@njit(cache=True, inline="always")
def _empty(size):
    return _HEAD + size * size


@njit(cache=True, inline="always")
def _epos(size):
    return _HEAD + 2 * size * size


@njit(cache=True, inline="always")
def _capcnt(size):
    return _HEAD + 3 * size * size


@njit(cache=True, inline="always")
def _caps(size):
    return _HEAD + 3 * size * size + 4 * size


@njit(cache=True, inline="always")
def _masks(size):
    return _HEAD + 3 * size * size + 4 * size + 8 * size * size


# ---------------------------------------------------------------- line scan


@intrinsic
def _cttz(typingctx, src):
    """Trailing zero count (LLVM cttz; 64 for 0)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return src(src), codegen


@intrinsic
def _ctlz(typingctx, src):
    """Leading zero count (LLVM ctlz; 64 for 0)."""
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return src(src), codegen


@njit(cache=True, inline="always")
def _scan_color(state, own, stop, base, stride, last, n, m, dfw, dbw, slot):
    """The captures of one color on a line into ``state[slot:]``; returns
    their count. ``own``: the color's stacks, ``stop``: what stops them (enemy
    stacks and blocks), as bit masks of line positions. Each stack reaches
    the first stopper either way; it is a capture when that is an enemy stack
    of its height. Written without branches on the board's contents (the
    slot is written either way and kept only for a capture)."""
    cnt = 0
    mm = own
    while mm != 0:
        j = _cttz(mm)
        mm &= mm - 1
        pj = base + j * stride
        neg = -state[_HEAD + pj]
        above = stop & -(2 << j)
        t = min(_cttz(above), last)
        state[slot + cnt] = (n + (pj * 4 + dfw) * m + (t - j) - 1) | (j << 15) | (t << 20)
        cnt += (above != 0) & (state[_HEAD + base + t * stride] == neg)
        below = stop & ((1 << j) - 1)
        t = max(63 - _ctlz(below), 0)
        state[slot + cnt] = (n + (pj * 4 + dbw) * m + (j - t) - 1) | (j << 15) | (t << 20)
        cnt += (below != 0) & (state[_HEAD + base + t * stride] == neg)
    return cnt


@njit(cache=True)
def _scan_line(state, li):
    """Re-derive the captures of both colors on line ``li`` from its masks.

    Same result as the Python engine's run-based ``_scan_line``: a stack
    moves over empty squares and friendly stacks, so it stops at the first
    enemy stack or block either way, and takes it if it is an enemy stack of
    the same height."""
    size = state[0]
    n = size * size
    lines = 2 * size
    if li < size:
        base = li * size
        stride = 1
        dfw = 0  # east
        dbw = 2  # west
    else:
        base = li - size
        stride = size
        dfw = 1  # north
        dbw = 3  # south
    mk = _masks(size) + li
    lb = state[mk]
    lo = state[mk + lines]
    lk = state[mk + 2 * lines]
    cnt = _capcnt(size)
    w = 2 * size
    nb = _scan_color(state, lb, lo | lk, base, stride, size - 1, n, size - 1, dfw, dbw,
                     _caps(size) + li * w)
    no = _scan_color(state, lo, lb | lk, base, stride, size - 1, n, size - 1, dfw, dbw,
                     _caps(size) + (lines + li) * w)
    state[_NCAP] += nb - state[cnt + li]
    state[_NCAP + 1] += no - state[cnt + lines + li]
    state[cnt + li] = nb
    state[cnt + lines + li] = no


@njit(cache=True, inline="always")
def _set_bit(state, size, kind, li, pos):
    state[_masks(size) + kind * 2 * size + li] |= 1 << pos


@njit(cache=True, inline="always")
def _clear_bit(state, size, kind, li, pos):
    state[_masks(size) + kind * 2 * size + li] &= ~(1 << pos)


# ---------------------------------------------------------------- contract


@njit(void(int64[::1], int64, int64[::1]), cache=True)
def init(state, size, opts):
    """The empty board, blue to move (pie pending if the option is on)."""
    if size < 4 or size > 19:
        raise ValueError("pilo kernel: size must be 4..19")
    n = size * size
    need = _HEAD + 3 * n + 4 * size + 8 * size * size + 6 * size
    if state.shape[0] < need:
        raise ValueError("pilo kernel: state array shorter than state_len(size)")
    state[:] = 0
    state[_SIZE] = size
    state[_PLAYER] = 0
    state[_PIEOPT] = 1 if opts[0] != 0 else 0
    state[_PIE] = PENDING if opts[0] != 0 else CLOSED
    state[_PASSES] = 0
    state[_LAST] = -1
    state[_NEMPTY] = n
    e = _empty(size)
    ep = _epos(size)
    for p in range(n):
        state[e + p] = p
        state[ep + p] = p


@njit(void(int64[::1], int64[::1], int64, int64, int64, int64), cache=True)
def _load(state, cells, player, pie_state, passes, last):
    """Overwrite an ``init``-ed state with a position: every cache (empty
    list, masks, line captures) is derived from the cells."""
    size = state[0]
    n = size * size
    lines = 2 * size
    mk = _masks(size)
    for i in range(3 * lines):
        state[mk + i] = 0
    e = _empty(size)
    ep = _epos(size)
    ne = 0
    for p in range(n):
        x = cells[p]
        state[_HEAD + p] = x
        state[ep + p] = -1
        r = p // size
        c = p % size
        if x == 0:
            state[e + ne] = p
            state[ep + p] = ne
            ne += 1
            continue
        kind = 2 if x == BLOCK else (0 if x > 0 else 1)
        _set_bit(state, size, kind, r, c)
        _set_bit(state, size, kind, size + c, r)
    state[_NEMPTY] = ne
    state[_NCAP] = 0
    state[_NCAP + 1] = 0
    cnt = _capcnt(size)
    for li in range(2 * lines):
        state[cnt + li] = 0
    for li in range(lines):
        _scan_line(state, li)
    state[_PLAYER] = player
    state[_PIE] = pie_state
    state[_PASSES] = passes
    state[_LAST] = last


def from_game(game: Pilo) -> np.ndarray:
    """The kernel state of a Python Pilo game's current position (so a search
    can run compiled playouts from any position, and tests can start the
    kernel from a position text). Reads the engine's cells and scalars."""
    if not isinstance(game, Pilo):
        raise OptionError(f"pilo kernel: from_game needs a pilo game, got {type(game).__name__}")
    size = game.size
    state = np.zeros(state_len(size), dtype=np.int64)
    init(state, size, encode_options(game.options))
    last = -1 if game._last is None else game._last
    _load(state, np.array(game._cells, dtype=np.int64), game._player, game._pie,
          game._passes, last)
    return state


@njit(int64(int64[::1]), cache=True)
def current_player(state):
    return -1 if state[_PASSES] >= 2 else state[_PLAYER]


@njit(int64(int64[::1]), cache=True)
def position_key(state):
    """The cells (stacks and blocks), the mover, the pie state, the passes
    in a row and who made the last board play (the tie-break): the rest of
    the state (empty list, captures per line) follows from the cells (the
    kernel contract's ``position_key``)."""
    h = _key.start()
    for i in (_PLAYER, _PIE, _PASSES, _LAST):
        h = _key.mix(h, state[i])
    for p in range(state[_SIZE] * state[_SIZE]):
        h = _key.mix(h, state[_HEAD + p])
    return _key.finish(h)


@njit(boolean(int64[::1]), cache=True)
def mid_turn(state):
    """Pilo turns are one action each (a swap is a whole turn)."""
    return False


@njit(int64(int64[::1], int64[::1]), cache=True)
def legal_actions(state, out):
    """Empty squares ascending, then the mover's captures ascending (all
    captures are above every placement), ``pass`` alone when neither exists,
    ``swap`` last while the pie is open."""
    if state[_PASSES] >= 2:
        return 0
    size = state[0]
    n = size * size
    k = 0
    for p in range(n):  # branch-free (docs/engine.md, "Batched stepping")
        out[k] = p
        k += state[_HEAD + p] == 0
    start = k
    lines = 2 * size
    w = 2 * size
    player = state[_PLAYER]
    cnt = _capcnt(size) + player * lines
    caps = _caps(size) + player * lines * w
    for li in range(lines):
        c = state[cnt + li]
        base = caps + li * w
        for j in range(c):
            # insertion sort into out[start:k]
            a = state[base + j] & _ACTION_MASK
            i = k
            while i > start and out[i - 1] > a:
                out[i] = out[i - 1]
                i -= 1
            out[i] = a
            k += 1
    if k == 0:
        out[0] = n + 4 * n * (size - 1)
        return 1
    if state[_PIE] == OPEN:
        out[k] = n + 4 * n * (size - 1) + 1
        k += 1
    return k


@njit(boolean(int64[::1], int64), cache=True)
def is_legal(state, action):
    """Any int64: False out of range, after the end, or against the rules."""
    if state[_PASSES] >= 2 or action < 0:
        return False
    size = state[0]
    n = size * size
    m = size - 1
    pass_action = n + 4 * n * m
    if action > pass_action + 1:
        return False
    player = state[_PLAYER]
    if action < n:
        return state[_HEAD + action] == 0
    if action >= pass_action:
        some = state[_NEMPTY] > 0 or state[_NCAP + player] > 0
        if action == pass_action:
            return not some
        return some and state[_PIE] == OPEN
    rel = action - n
    t = rel % m + 1
    pd = rel // m
    d = pd % 4
    p = pd // 4
    x = state[_HEAD + p]
    if x == 0 or x == BLOCK or (x > 0) != (player == 0):
        return False
    r = p // size
    c = p % size
    if d == 0:
        ok = c + t < size
        step = 1
    elif d == 1:
        ok = r + t < size
        step = size
    elif d == 2:
        ok = c - t >= 0
        step = -1
    else:
        ok = r - t >= 0
        step = -size
    if not ok:
        return False
    q = p
    for _ in range(t - 1):
        q += step
        y = state[_HEAD + q]
        if y == BLOCK or (y != 0 and (y > 0) != (x > 0)):
            return False
    return state[_HEAD + q + step] == -x


@njit(cache=True, inline="always")
def _advance_pie(state):
    """core.pie.after_turn, applied by every action (swap and pass included)."""
    if state[_PIE] != CLOSED:
        state[_PIE] = OPEN if state[_PIE] == PENDING else CLOSED


@njit(cache=True)
def _place(state, p, player):
    """A one-disk stack of ``player`` on the empty square ``p``."""
    size = state[0]
    state[_HEAD + p] = -1 if player else 1
    e = _empty(size)
    ep = _epos(size)
    i = state[ep + p]
    last = state[_NEMPTY] - 1
    moved = state[e + last]
    state[e + i] = moved
    state[ep + moved] = i
    state[ep + p] = -1
    state[_NEMPTY] = last
    r = p // size
    c = p % size
    _set_bit(state, size, player, r, c)
    _set_bit(state, size, player, size + c, r)
    _scan_line(state, r)
    _scan_line(state, size + c)


@njit(cache=True)
def _capture(state, li, a, b, player):
    """The stack at position ``a`` of line ``li`` takes the enemy stack at
    position ``b``: one disk taller there, a block where it stood. The line
    and the two crossing lines through ``a`` and ``b`` are rescanned."""
    size = state[0]
    if li < size:  # a row: the crossing lines are columns
        x = li
        p = li * size + a
        q = li * size + b
        cross = size
    else:
        x = li - size
        p = a * size + x
        q = b * size + x
        cross = 0
    h = state[_HEAD + p]
    state[_HEAD + q] = h - 1 if player else h + 1
    state[_HEAD + p] = BLOCK
    enemy = player ^ 1
    _clear_bit(state, size, player, li, a)
    _set_bit(state, size, 2, li, a)
    _clear_bit(state, size, enemy, li, b)
    _set_bit(state, size, player, li, b)
    _clear_bit(state, size, player, cross + a, x)
    _set_bit(state, size, 2, cross + a, x)
    _clear_bit(state, size, enemy, cross + b, x)
    _set_bit(state, size, player, cross + b, x)
    _scan_line(state, li)
    _scan_line(state, cross + a)
    _scan_line(state, cross + b)


@njit(cache=True, inline="always")
def _board_play_done(state, player):
    state[_PASSES] = 0
    state[_LAST] = player
    state[_PLAYER] = player ^ 1


@njit(void(int64[::1], int64), cache=True)
def apply(state, action):
    """Play a legal action (unchecked: the public API validates first)."""
    size = state[0]
    n = size * size
    m = size - 1
    pass_action = n + 4 * n * m
    _advance_pie(state)
    player = state[_PLAYER]
    if action < n:
        _place(state, action, player)
    elif action < pass_action:
        rel = action - n
        t = rel % m + 1
        pd = rel // m
        d = pd % 4
        p = pd // 4
        r = p // size
        c = p % size
        if d == 0:
            _capture(state, r, c, c + t, player)
        elif d == 1:
            _capture(state, size + c, r, r + t, player)
        elif d == 2:
            _capture(state, r, c, c - t, player)
        else:
            _capture(state, size + c, r, r - t, player)
    else:
        if action == pass_action:
            state[_PASSES] += 1
            state[_PLAYER] = player ^ 1
        # swap: the colors change hands, the same color moves on
        return
    _board_play_done(state, player)


@njit(cache=True, inline="always")
def _push_group(w, gstack, gt, nb, col):
    if (w[nb] & 11) == col:  # same color (bits 0-1), not yet in a group (bit 3)
        w[nb] |= 8
        gstack[gt] = nb
        return gt + 1
    return gt


@njit(cache=True, inline="always")
def _push_patch(w, stack, top, nb):
    if (w[nb] & 7) < 3:  # not a block or the border (3), not yet in a patch (bit 2)
        w[nb] |= 4
        stack[top] = nb
        return top + 1
    return top


@njit(cache=True)
def _patch_scores(state, owner):
    """(blue, orange) territory: per patch (non-block component), equal-size
    blue/orange group pairs cancel and the color with the biggest leftover
    group owns all its squares (the Python engine's ``patch_scores``).

    One flood fill per patch on a bordered copy of the board (codes 0 empty,
    1 blue, 2 orange, 3 block or border, plus visit bits), so a neighbour
    test is one mask compare; a stack not yet in a group starts that group's
    fill, which stays inside the patch. If ``owner`` is not empty (length
    n), every square gets its patch's owner: 1 blue, -1 orange, 0 neither."""
    mem = np.empty(owner.shape[0], dtype=np.int64)  # this patch's squares, for owner
    size = state[0]
    n = size * size
    wd = size + 2
    scratch = np.empty(wd * wd + 4 * n + 1, dtype=np.int64)
    w = scratch[:wd * wd]
    stack = scratch[wd * wd:wd * wd + n]
    gstack = scratch[wd * wd + n:wd * wd + 2 * n]
    gl = scratch[wd * wd + 2 * n:wd * wd + 3 * n]  # signed group sizes of this patch
    diff = scratch[wd * wd + 3 * n:]                # blue minus orange groups per size
    w[:] = 3
    diff[:] = 0
    for r in range(size):
        for c in range(size):
            x = state[_HEAD + r * size + c]
            w[(r + 1) * wd + c + 1] = 0 if x == 0 else (3 if x == BLOCK else (1 if x > 0 else 2))
    sb = 0
    so = 0
    for r in range(size):
        for c in range(size):
            i = (r + 1) * wd + c + 1
            if (w[i] & 7) >= 3:
                continue
            w[i] |= 4
            stack[0] = i
            top = 1
            squares = 0
            kg = 0
            while top > 0:
                top -= 1
                q = stack[top]
                if mem.shape[0]:
                    mem[squares] = q
                squares += 1
                v = w[q]
                col = v & 3
                if col != 0 and (v & 8) == 0:
                    w[q] = v | 8
                    gstack[0] = q
                    gt = 1
                    count = 0
                    while gt > 0:
                        gt -= 1
                        g = gstack[gt]
                        count += 1
                        gt = _push_group(w, gstack, gt, g + 1, col)
                        gt = _push_group(w, gstack, gt, g - 1, col)
                        gt = _push_group(w, gstack, gt, g + wd, col)
                        gt = _push_group(w, gstack, gt, g - wd, col)
                    gl[kg] = count if col == 1 else -count
                    kg += 1
                top = _push_patch(w, stack, top, q + 1)
                top = _push_patch(w, stack, top, q - 1)
                top = _push_patch(w, stack, top, q + wd)
                top = _push_patch(w, stack, top, q - wd)
            for j in range(kg):
                g = gl[j]
                if g > 0:
                    diff[g] += 1
                else:
                    diff[-g] -= 1
            best_b = 0
            best_o = 0
            for j in range(kg):
                g = gl[j]
                if g < 0:
                    g = -g
                d = diff[g]
                if d > 0 and g > best_b:
                    best_b = g
                elif d < 0 and g > best_o:
                    best_o = g
            for j in range(kg):
                g = gl[j]
                diff[g if g > 0 else -g] = 0
            if best_b > best_o:
                sb += squares
            elif best_o > best_b:
                so += squares
            if mem.shape[0]:
                o = 1 if best_b > best_o else -1 if best_o > best_b else 0
                for j in range(squares):
                    q = mem[j]
                    owner[(q // wd - 1) * size + q % wd - 1] = o
    return sb, so


@njit("void(int64[::1], int64[::1])", cache=True)
def owner(state, out):
    """Who each square scores for if the game ended now: ``out[p]`` 1 blue,
    -1 orange, 0 neither (a block, or a patch no one owns). The squares of
    each color are its score, exactly as :func:`outcome` counts;
    ``boardlab.fast.ownership`` averages it over playouts into a heat map."""
    out[:] = 0
    _patch_scores(state, out)


@njit(types.UniTuple(int64, 2)(int64[::1], float64[::1]), cache=True)
def outcome(state, scores):
    """Higher territory wins (score); equal: the last board play loses (last-move)."""
    sb, so = _patch_scores(state, np.empty(0, dtype=np.int64))
    scores[0] = sb
    scores[1] = so
    if sb != so:
        return (0 if sb > so else 1), _SCORE
    last = state[_LAST]
    if last < 0:  # unreachable: a finished game has had a board play
        return 2, _SCORE
    return 1 - last, _LAST_MOVE


@njit(boolean(int64[::1], float64[::1]), cache=True)
def live_scores(state, out):
    """What the patches would score if the game ended now (always shown)."""
    sb, so = _patch_scores(state, np.empty(0, dtype=np.int64))
    out[0] = sb
    out[1] = so
    return True


@njit(cache=True)
def playout_by(state, rng, record, captures_first):
    """Random actions until the game is over; returns the plies.

    Uniform (``captures_first`` False): each ply is one draw over ``empties
    + captures of the mover (+ swap)`` (``pass`` when both are none); the
    capture entries carry their line positions, so no action is decoded.
    With ``captures_first`` (pilo's informed playout,
    :mod:`boardlab.games.pilo.search`) the swap keeps its uniform share and
    otherwise a capture is taken whenever the mover has one."""
    size = state[0]
    n = size * size
    pass_action = n + 4 * n * (size - 1)
    lines = 2 * size
    w = 2 * size
    empty = _empty(size)
    capcnt = _capcnt(size)
    caps = _caps(size)
    plies = 0
    cap = record.shape[0]
    while state[_PASSES] < 2:
        swap_ok = state[_PIE] == OPEN
        _advance_pie(state)
        player = state[_PLAYER]
        ne = state[_NEMPTY]
        nc = state[_NCAP + player]
        total = ne + nc
        if total == 0:
            action = pass_action
            state[_PASSES] += 1
            state[_PLAYER] = player ^ 1
        else:
            if not captures_first:
                r = np.int64(rand_below(rng, total + 1 if swap_ok else total))
            elif swap_ok and rand_below(rng, total + 1) == total:
                r = total
            elif nc > 0:
                r = ne + np.int64(rand_below(rng, nc))
            else:
                r = np.int64(rand_below(rng, ne))
            if r < ne:
                action = state[empty + r]
                _place(state, action, player)
                _board_play_done(state, player)
            elif r == total:
                action = pass_action + 1  # swap: the same color moves on
            else:
                r -= ne
                cnt = capcnt + player * lines
                li = 0
                while r >= state[cnt + li]:
                    r -= state[cnt + li]
                    li += 1
                entry = state[caps + (player * lines + li) * w + r]
                action = entry & _ACTION_MASK
                _capture(state, li, (entry >> 15) & 31, (entry >> 20) & 31, player)
                _board_play_done(state, player)
        if cap > 0:
            if plies >= cap:
                raise ValueError("pilo playout: the game is longer than record")
            record[plies] = action
        plies += 1
    return plies


@njit(int64(int64[::1], uint64[::1], int64[::1]), cache=True)
def playout(state, rng, record):
    """Uniform random actions until the game is over; returns the plies."""
    return playout_by(state, rng, record, False)
