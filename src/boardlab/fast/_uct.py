"""Plain UCT on the compiled kernels: the yardstick every search is measured against.

Deliberately the textbook algorithm (Kocsis & Szepesvári) as an outside
engine author would write it in a hundred lines of numba on our kernels, and
nothing more: UCB1 with c = 1 on each color's +-1 returns, one node added per
simulation (the untried actions of a node taken in uniformly random order),
the kernel's own uniform ``playout`` from there, the most visited move at the
root. No priors, no tree reuse, no solver, no game knowledge. Two facts any
correct player needs are kept: a node is valued for the color that acts there
(so a color acting twice in a row is fine), and the pie ``swap`` edge is
valued for the *other* color, whose owner the swapping player becomes.

Flat arrays, one row per node. A node's legal actions are written once, when
the node is added, into a shared pool (``pool[start : start + count]``);
the first ``tried`` of them have children, whose node numbers sit at the same
places of ``kid``. Expansion swaps a uniformly random untried action into
place ``tried`` (a lazy Fisher-Yates shuffle).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from . import _loops
from ._rng import rand_below


class UCTTree:
    """The arrays of one plain-UCT tree: ``nodes`` nodes, ``pool`` action slots."""

    def __init__(self, nodes: int, pool: int, num_actions: int, state_len: int) -> None:
        self.start = np.zeros(nodes, dtype=np.int64)
        self.count = np.zeros(nodes, dtype=np.int64)
        self.tried = np.zeros(nodes, dtype=np.int64)
        self.player = np.zeros(nodes, dtype=np.int64)
        self.n = np.zeros(nodes, dtype=np.float64)
        self.w = np.zeros((nodes, 2), dtype=np.float64)
        self.pool = np.zeros(pool, dtype=np.int64)
        self.kid = np.zeros(pool, dtype=np.int64)
        self.meta = np.zeros(2, dtype=np.int64)   # [nodes used, pool slots used]
        self.scratch = np.zeros(state_len, dtype=np.int64)
        self.path = np.zeros(4096, dtype=np.int64)
        self.scores = np.zeros(2, dtype=np.float64)

    def arrays(self) -> tuple:
        return (self.start, self.count, self.tried, self.player, self.n, self.w, self.pool,
                self.kid, self.meta, self.scratch, self.path, self.scores)


@njit(cache=True)
def _add_node(legal_actions, current_player, s, start, count, tried, player, n, w, pool,
              meta):
    """A new node for position ``s`` (the caller checked there is room)."""
    i = meta[0]
    k = legal_actions(s, pool[meta[1]:])
    start[i] = meta[1]
    count[i] = k
    tried[i] = 0
    player[i] = current_player(s)
    n[i] = 0.0
    w[i, 0] = 0.0
    w[i, 1] = 0.0
    meta[0] = i + 1
    meta[1] += k
    return i


@njit(types.int64(types.Array(types.int64, 1, "C"), types.Array(types.int64, 1, "C"),
                  types.int64, types.int64, types.Array(types.uint64, 1, "C"), types.int64,
                  types.Array(types.int64, 1, "C"), types.Array(types.int64, 1, "C"),
                  types.Array(types.int64, 1, "C"), types.Array(types.int64, 1, "C"),
                  types.Array(types.float64, 1, "C"), types.Array(types.float64, 2, "C"),
                  types.Array(types.int64, 1, "C"), types.Array(types.int64, 1, "C"),
                  types.Array(types.int64, 1, "C"), types.Array(types.int64, 1, "C"),
                  types.Array(types.int64, 1, "C"), types.Array(types.float64, 1, "C")),
      cache=True, nogil=True)
def uct_chunk(fns, root_state, swap, headroom, rng, sims, start, count, tried, player, n, w, pool, kid,
              meta, scratch, path, scores):
    """``sims`` simulations of plain UCT from the root (node 0, position
    ``root_state``); returns the number done. ``headroom``: the most actions
    a position can have. Once the arrays are full no node is added:
    simulations play out from the leaf they reach."""
    legal_actions = _loops._make_legal(fns[2], fns[3])
    apply = _loops._make_apply(fns[6], fns[7])
    current_player = _loops._make_current(fns[8], fns[9])
    outcome = _loops._make_outcome(fns[10], fns[11])
    playout = _loops._make_playout(fns[12], fns[13])
    record = np.zeros(0, dtype=np.int64)
    if meta[0] == 0:
        scratch[:] = root_state
        _add_node(legal_actions, current_player, scratch, start, count, tried, player, n, w,
                  pool, meta)
    for _ in range(sims):
        s = scratch
        s[:] = root_state
        node = 0
        depth = 0
        path[0] = 0
        # selection: UCB1 while every action of the node has a child
        while player[node] >= 0 and tried[node] == count[node] and depth + 1 < path.shape[0]:
            mover = player[node]
            log_n = math.log(n[node])
            best = -1
            best_score = -1e300
            for j in range(start[node], start[node] + count[node]):
                child = kid[j]
                color = 1 - mover if pool[j] == swap else mover
                score = w[child, color] / n[child] + math.sqrt(log_n / n[child])
                if score > best_score:
                    best_score = score
                    best = j
            apply(s, pool[best])
            node = kid[best]
            depth += 1
            path[depth] = node
        # expansion: one untried action, in random order (while there is room
        # for a node and for any position's actions)
        room = meta[0] < start.shape[0] and meta[1] + headroom <= pool.shape[0]
        if room and player[node] >= 0 and tried[node] < count[node] and depth + 1 < path.shape[0]:
            t = start[node] + tried[node]
            r = t + rand_below(rng, count[node] - tried[node])
            a = pool[r]
            pool[r] = pool[t]
            pool[t] = a
            apply(s, a)
            child = _add_node(legal_actions, current_player, s, start, count, tried, player,
                              n, w, pool, meta)
            kid[t] = child
            tried[node] += 1
            depth += 1
            path[depth] = child
        # playout and backup
        if current_player(s) >= 0:
            playout(s, rng, record)
        winner, _ = outcome(s, scores)
        r0 = 1.0 if winner == 0 else (-1.0 if winner == 1 else 0.0)
        for d in range(depth + 1):
            i = path[d]
            n[i] += 1.0
            w[i, 0] += r0
            w[i, 1] -= r0
    return sims


@njit(cache=True)
def most_visited(start, count, tried, n, pool, kid):
    """The root's most visited action (the first on a tie), -1 with no child."""
    best = -1
    best_n = -1.0
    for j in range(start[0], start[0] + tried[0]):
        if n[kid[j]] > best_n:
            best_n = n[kid[j]]
            best = pool[j]
    return best
