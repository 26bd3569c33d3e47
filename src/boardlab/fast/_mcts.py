"""Monte Carlo tree search compiled with numba, generic over the game kernels.

The tree lives in flat arrays (one row per node), so a search is one
compiled loop with no Python per simulation; the kernel's functions arrive as
a table of addresses (``_loops.kernel_table``) and are called indirectly, so
this file never names a game and stays in numba's on-disk cache.

A node is created for every legal action when its parent is first expanded
(the children of a node are contiguous and in ascending action order); a
child is *visited* the first time a simulation steps into it, and that
simulation then plays out from there (one new visited node per simulation,
as in UCT). Each node stores the color to act there and the sum of each
color's return, so a color acting twice in a row (implo's resolutions,
yugo's marks) needs no alternation assumption, and the pie swap edge is
valued for the other color (who swaps takes it over).

Enhancements, each switchable (``params``) so a match can measure it:

* MCTS-solver: a child whose step ends the game is exact; a node with a
  child that wins for its mover is a proven win, a node whose children all
  lose is a proven loss, and both propagate up. Selection takes a proven win
  and avoids proven losses.
* Tree reuse: a search may continue from any visited node (``root``), so
  the subtree under the position actually reached is kept between moves.
* First-play urgency: an unvisited child's value is ``fpu`` instead of
  infinity, so a wide node is not forced to try every move once before
  deepening (it matters at thousands of moves: vimbre).
* RAVE (rapid action value estimation, Gelly & Silver): every child also
  keeps all-moves-as-first statistics, the returns of the simulations in
  which its mover played its action *later* (in the tree or the playout),
  mixed into its value with weight ``b = na / (n + na + bias * n * na)``
  (Silver's schedule; ``bias`` is 4 x the square of his b). The playout's
  movers come from replaying its recorded actions on a copy of its start
  (exact for multi-action turns and the pie swap, at the price of a second
  pass over the playout).

Simulations run in chunks (``search_chunk``): numba cannot read the clock,
so Python calls chunks until the time or simulation budget is spent, which
also lets it stream snapshots and stop on request.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from . import _loops
from ._rng import rand_below, rand_unit

UNVISITED = -2
TERMINAL = -1
UNKNOWN = -1          # node_proven: not proven
DRAW = 2

# params: [c, fpu, solver (0/1), rave (0/1), rave bias]
P_C, P_FPU, P_SOLVER, P_RAVE, P_RAVE_BIAS = 0, 1, 2, 3, 4


class Tree:
    """The node arrays of one search tree (capacity ``nodes``)."""

    def __init__(self, nodes: int, num_actions: int, state_len: int, plies: int = 0) -> None:
        """``plies``: the longest playout to record for RAVE (0: no RAVE)."""
        self.action = np.zeros(nodes, dtype=np.int64)
        self.parent = np.zeros(nodes, dtype=np.int64)
        self.first = np.zeros(nodes, dtype=np.int64)
        self.kids = np.zeros(nodes, dtype=np.int64)
        self.player = np.zeros(nodes, dtype=np.int64)
        self.proven = np.zeros(nodes, dtype=np.int64)
        self.n = np.zeros(nodes, dtype=np.float64)
        self.w = np.zeros((nodes, 2), dtype=np.float64)
        self.meta = np.zeros(4, dtype=np.int64)     # [nodes used, ...]
        self.scratch = np.zeros(state_len, dtype=np.int64)
        self.buf = np.zeros(num_actions + 1, dtype=np.int64)
        self.path = np.zeros(4096, dtype=np.int64)
        self.scores = np.zeros(2, dtype=np.float64)
        self.record = np.zeros(plies, dtype=np.int64)
        rave = 1 if plies else 0   # RAVE's arrays, empty without it
        self.amaf_n = np.zeros(nodes * rave, dtype=np.float64)
        self.amaf_w = np.zeros((nodes * rave, 2), dtype=np.float64)
        self.seq = np.zeros(2 * (plies + self.path.shape[0]) * rave, dtype=np.int64)  # action, mover
        self.mark = np.zeros(4 * num_actions * rave, dtype=np.int64)  # stamp, first index per (mover, action)
        self.replay = np.zeros(state_len * rave, dtype=np.int64)

    def arrays(self) -> tuple:
        return (self.action, self.parent, self.first, self.kids, self.player, self.proven,
                self.n, self.w, self.meta, self.scratch, self.buf, self.path, self.scores,
                self.record, self.amaf_n, self.amaf_w, self.seq, self.mark, self.replay)


@njit(cache=True)
def reset_tree(root_player, action, parent, first, kids, player, proven, n, w, meta, amaf_n, amaf_w):
    action[0] = -1
    parent[0] = -1
    first[0] = -1
    kids[0] = 0
    player[0] = root_player
    proven[0] = UNKNOWN
    n[0] = 0.0
    w[0, 0] = 0.0
    w[0, 1] = 0.0
    if amaf_n.shape[0]:
        amaf_n[0] = 0.0
        amaf_w[0, 0] = 0.0
        amaf_w[0, 1] = 0.0
    meta[0] = 1


@njit(cache=True)
def _owned(mover, a, swap):
    return 1 - mover if a == swap else mover


@njit(cache=True)
def _update_proof(node, swap, first, kids, action, player, proven):
    """Re-derive ``node``'s proof from its children's (solver)."""
    m = player[node]
    f = first[node]
    k = kids[node]
    if f < 0 or k == 0:
        return
    all_known = True
    any_draw = False
    for j in range(f, f + k):
        if action[j] == swap:
            all_known = False  # a swap changes who owns which color: never proven
            continue
        pv = proven[j]
        if pv == m:
            proven[node] = m
            return
        if pv == UNKNOWN:
            all_known = False
        elif pv == DRAW:
            any_draw = True
    if all_known:
        proven[node] = DRAW if any_draw else 1 - m


@njit(cache=True)
def _simulate(legal_actions, apply, current_player, outcome, playout, root_state, root, swap,
              params, rng, action, parent, first, kids, player, proven, n, w, meta,
              scratch, buf, path, scores, record, amaf_n, amaf_w, seq, mark, replay):
    """One simulation; False when the tree is full and nothing could be added."""
    c = params[P_C]
    fpu = params[P_FPU]
    solver = params[P_SOLVER] > 0.5
    rave = params[P_RAVE] > 0.5 and amaf_n.shape[0] > 0
    bias = params[P_RAVE_BIAS]
    s = scratch
    s[:] = root_state
    node = root
    depth = 0
    path[0] = root
    cap = action.shape[0]
    exact = UNKNOWN
    while True:
        m = player[node]
        if m == TERMINAL:
            break
        if solver and proven[node] != UNKNOWN and node != root:
            exact = proven[node]  # an exact value: no need to look further
            break
        if first[node] < 0:
            k = legal_actions(s, buf)
            used = meta[0]
            if used + k > cap:
                break  # full: play out from here
            first[node] = used
            kids[node] = k
            for j in range(k):
                i = used + j
                action[i] = buf[j]
                parent[i] = node
                first[i] = -1
                kids[i] = 0
                player[i] = UNVISITED
                proven[i] = UNKNOWN
                n[i] = 0.0
                w[i, 0] = 0.0
                w[i, 1] = 0.0
                if rave:
                    amaf_n[i] = 0.0
                    amaf_w[i, 0] = 0.0
                    amaf_w[i, 1] = 0.0
            meta[0] = used + k
        f = first[node]
        k = kids[node]
        # selection: UCB1 on the mover's mean return; proven wins first
        logn = c * math.sqrt(math.log(n[node] + 1.0))
        best = -1
        best_v = -1e300
        offset = rand_below(rng, k)  # ties (unvisited children) broken at random
        for jj in range(k):
            j = f + (jj + offset) % k
            col = _owned(m, action[j], swap)
            pv = proven[j]
            if solver and pv != UNKNOWN and action[j] != swap:
                if pv == col:
                    best = j
                    break
                if pv != DRAW:
                    v = -1e200  # a proven loss: only if nothing else is left
                    if v > best_v:
                        best_v = v
                        best = j
                    continue
            nj = n[j]
            if rave and amaf_n[j] > 0.0:
                na = amaf_n[j]
                qa = amaf_w[j, col] / na
                if nj == 0.0:
                    v = qa + logn
                else:
                    beta = na / (nj + na + bias * nj * na)
                    v = (1.0 - beta) * (w[j, col] / nj) + beta * qa + logn / math.sqrt(nj)
            elif nj == 0.0:
                v = fpu if fpu < 1e9 else 1e100 + rand_unit(rng)
            else:
                v = w[j, col] / nj + logn / math.sqrt(nj)
            if v > best_v:
                best_v = v
                best = j
        apply(s, action[best])
        node = best
        depth += 1
        if depth >= path.shape[0]:
            break
        path[depth] = node
        if player[node] == UNVISITED:
            p = current_player(s)
            player[node] = p
            if p == TERMINAL and solver:
                winner, _ = outcome(s, scores)
                proven[node] = winner
            break
    plies = 0
    if exact != UNKNOWN:
        winner = exact
    else:
        if current_player(s) >= 0:
            if rave:
                replay[:] = s
            plies = playout(s, rng, record)  # records only for RAVE (else record is empty)
        winner, _ = outcome(s, scores)
    r0 = 0.0
    r1 = 0.0
    if winner == 0:
        r0, r1 = 1.0, -1.0
    elif winner == 1:
        r0, r1 = -1.0, 1.0
    for d in range(depth, -1, -1):
        i = path[d]
        n[i] += 1.0
        w[i, 0] += r0
        w[i, 1] += r1
        if solver and d < depth and proven[i] == UNKNOWN:
            _update_proof(i, swap, first, kids, action, player, proven)
    if rave:
        _amaf_update(apply, current_player, depth, plies, swap, path, action, first, kids, player,
                     record, replay, seq, mark, meta, amaf_n, amaf_w, r0, r1)
    return True


@njit(cache=True)
def _amaf_update(apply, current_player, depth, plies, swap, path, action, first, kids, player,
                 record, replay, seq, mark, meta, amaf_n, amaf_w, r0, r1):
    """RAVE's backup: the simulation's (action, mover) sequence (the tree's
    steps, then the playout's, its movers found by replaying it on ``replay``),
    the first index at which each mover played each action, then for every
    node of the path each child whose mover played its action at or after the
    node's own step gets the simulation's returns."""
    num = mark.shape[0] // 4   # actions
    meta[1] += 1
    stamp = meta[1]
    length = 0
    for d in range(depth):
        seq[2 * length] = action[path[d + 1]]
        seq[2 * length + 1] = player[path[d]]
        length += 1
    for t in range(plies):
        seq[2 * length] = record[t]
        seq[2 * length + 1] = current_player(replay)
        apply(replay, record[t])
        length += 1
    for t in range(length):
        a = seq[2 * t]
        m = seq[2 * t + 1]
        if a == swap or m < 0:
            continue
        key = m * num + a
        if mark[key] != stamp:
            mark[key] = stamp
            mark[2 * num + key] = t
    for d in range(depth):
        node = path[d]
        m = player[node]
        f = first[node]
        if f < 0 or m < 0:
            continue
        for j in range(f, f + kids[node]):
            a = action[j]
            if a == swap:
                continue
            key = m * num + a
            if mark[key] == stamp and mark[2 * num + key] >= d:
                amaf_n[j] += 1.0
                amaf_w[j, 0] += r0
                amaf_w[j, 1] += r1


_F = (_loops._LEGAL, _loops._APPLY, _loops._CURRENT, _loops._OUTCOME, _loops._PLAYOUT)
_A1 = types.Array(types.int64, 1, "C")
_F1 = types.Array(types.float64, 1, "C")
_F2 = types.Array(types.float64, 2, "C")
_U1 = types.Array(types.uint64, 1, "C")


@njit(types.int64(_A1, _A1, types.int64, types.int64, _F1, _U1, types.int64,
                  _A1, _A1, _A1, _A1, _A1, _A1, _F1, _F2, _A1, _A1, _A1, _A1, _F1, _A1,
                  _F1, _F2, _A1, _A1, _A1),
      cache=True, nogil=True)  # nogil: root-parallel trees search in threads at once
def search_chunk(fns, root_state, root, swap, params, rng, sims, action, parent, first, kids,
                 player, proven, n, w, meta, scratch, buf, path, scores, record,
                 amaf_n, amaf_w, seq, mark, replay):
    """Up to ``sims`` simulations from node ``root``, whose position is
    ``root_state``; the number done (fewer once the root is proven)."""
    legal = _loops._make_legal(fns[2], fns[3])
    apply = _loops._make_apply(fns[6], fns[7])
    current = _loops._make_current(fns[8], fns[9])
    outcome = _loops._make_outcome(fns[10], fns[11])
    playout = _loops._make_playout(fns[12], fns[13])
    done = 0
    for _ in range(sims):
        if params[P_SOLVER] > 0.5 and proven[root] != UNKNOWN:
            break
        _simulate(legal, apply, current, outcome, playout, root_state, root, swap, params, rng,
                  action, parent, first, kids, player, proven, n, w, meta, scratch, buf,
                  path, scores, record, amaf_n, amaf_w, seq, mark, replay)
        done += 1
    return done
