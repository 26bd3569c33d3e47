"""Vimbre's search advice (the one search's contract: :mod:`boardlab.fast.advice`).

Mid-game vimbre has thousands of legal moves (every pair of legal points),
far more than a search can try once each, so the search needs to know which
are worth trying first.

**Move priors** (``PRIOR``): every point gets the length of the shortest
chain *through it* joining the mover's two edges, and the opponent's (0-1
breadth-first search: own stone costs 0, empty point 1, enemy stone is a
wall); its *slack* for a color is how much longer that is than the color's
shortest chain. A point is worth ``max(0, 4 - slack)`` by the smaller of
the two slacks (a point on either color's shortest chain extends one's own
chain or blocks the opponent's), a pair the sum of its points, a flip its
point plus one. The search orders each node's moves by these and keeps the
best (``maxkids``), which is what makes vimbre searchable at all.

**Evaluation** (``EVALUATE``): the difference of the two colors' shortest
chains (the stones each still needs), through ``tanh``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...fast._vimbre import _HEADER
from ...fast.kernels import SIG_EVALUATE, SIG_PRIOR

# ---------------------------------------------------------------- compiled advice
# (the one search's contract: boardlab.fast.advice). Point values come from
# two-sided shortest chains, as the candidate moves above: a point on either
# color's shortest chain is worth most (it extends one's own chain or blocks
# the other's), and a point's value falls with its slack.

_BIG = 1 << 20
#: a point's value is max(0, _REACH - slack): points more than this off
#: both colors' shortest chains are worth nothing
_REACH = 4.0


@njit(cache=True)
def _bfs(board, n, size, v, dist, queue, from_high):
    """0-1 BFS costs (points entered, source included) from one edge of color
    value ``v`` (1 black: rows, 2 white: columns); enemy stones are walls."""
    for p in range(n):
        dist[p] = _BIG
    head = n  # a deque in queue[0 : 2n]: push front at head-1, back at tail
    tail = n
    for t in range(size):
        if v == 1:
            p = t + (n - size if from_high else 0)
        else:
            p = t * size + (size - 1 if from_high else 0)
        x = board[p]
        if x == v:
            dist[p] = 0
            head -= 1
            queue[head] = p
        elif x == 0:
            dist[p] = 1
            queue[tail] = p
            tail += 1
    while head < tail:
        p = queue[head]
        head += 1
        d = dist[p]
        r = p // size
        c = p - r * size
        for k in range(4):
            if k == 0:
                if c == size - 1:
                    continue
                q = p + 1
            elif k == 1:
                if c == 0:
                    continue
                q = p - 1
            elif k == 2:
                if r == size - 1:
                    continue
                q = p + size
            else:
                if r == 0:
                    continue
                q = p - size
            x = board[q]
            if x == v:
                if d < dist[q]:
                    dist[q] = d
                    head -= 1
                    queue[head] = q
            elif x == 0 and d + 1 < dist[q]:
                dist[q] = d + 1
                queue[tail] = q
                tail += 1


@njit(cache=True)
def _through(state, color, out):
    """Per point, the length of ``color``'s shortest chain through it (_BIG
    where none passes); returns the shortest overall."""
    size = state[0]
    n = size * size
    board = state[_HEADER:_HEADER + n]
    v = color + 1
    d1 = np.empty(n, dtype=np.int64)
    d2 = np.empty(n, dtype=np.int64)
    queue = np.empty(2 * n + 2, dtype=np.int64)
    _bfs(board, n, size, v, d1, queue, False)
    _bfs(board, n, size, v, d2, queue, True)
    best = _BIG
    for p in range(n):
        x = board[p]
        if (x != 0 and x != v) or d1[p] >= _BIG or d2[p] >= _BIG:
            out[p] = _BIG
            continue
        t = d1[p] + d2[p] - (0 if x else 1)
        out[p] = t
        if t < best:
            best = t
    return best


@njit(cache=True)
def _point_values(state, out):
    """Each point's value for the color to move (see _REACH)."""
    size = state[0]
    n = size * size
    me = state[1]
    tm = np.empty(n, dtype=np.int64)
    to = np.empty(n, dtype=np.int64)
    bm = _through(state, me, tm)
    bo = _through(state, 1 - me, to)
    for p in range(n):
        sm = tm[p] - bm if tm[p] < _BIG else _BIG
        so = to[p] - bo if to[p] < _BIG else _BIG
        s = sm if sm < so else so
        out[p] = max(0.0, _REACH - s) + 0.05 * max(0.0, _REACH - (sm + so) / 2.0)


@njit(SIG_PRIOR, cache=True)
def prior(state, actions, k, out):
    """Singles score their point's value, pairs the sum of theirs, flips
    their point's value plus one (the stone changes sides), pass nothing."""
    size = state[0]
    n = size * size
    flip_base = n + n * (n - 1) // 2
    pv = np.empty(n, dtype=np.float64)
    _point_values(state, pv)
    i = 0  # pairs come in ascending (i, j) order: follow i along
    for j in range(k):
        a = actions[j]
        if a < n:
            out[j] = pv[a]
        elif a < flip_base:
            while i + 1 < n - 1 and n + (i + 1) * n - (i + 1) * (i + 2) // 2 <= a:
                i += 1
            q = a - (n + i * n - i * (i + 1) // 2) + i + 1
            out[j] = pv[i] + pv[q]
        elif a < flip_base + n:
            out[j] = pv[a - flip_base] + 1.0
        else:
            out[j] = 0.0


@njit(SIG_EVALUATE, cache=True)
def evaluate(state):
    """Color 0's value: the difference of the two colors' shortest chains
    (stones still to place), through tanh."""
    size = state[0]
    n = size * size
    t = np.empty(n, dtype=np.int64)
    d0 = _through(state, 0, t)
    d1 = _through(state, 1, t)
    if d0 >= _BIG:
        return -1.0 if d1 < _BIG else 0.0
    if d1 >= _BIG:
        return 1.0
    return math.tanh(0.5 * (d1 - d0))


PRIOR = prior
EVALUATE = evaluate

#: The one search's settings for vimbre (measured: docs/ai.md): the move
#: priors order each node's moves and only the 40 best are kept; with them
#: ``mcts`` won 12-0 against ``uct`` at 0.1 s a move where uniform search lost.
SEARCH_SETTINGS = {"priors": True, "maxkids": 40}
#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (vimbre 11x11, one core).
LEVELS = (8, 64, 512, 4096, 20_000)
