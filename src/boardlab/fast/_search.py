"""The one search: Monte Carlo tree search compiled with numba, handed an evaluator.

Shaped like OpenSpiel's ``MCTSBot``: the tree and the selection rule are
generic, and what a leaf is worth comes from an *evaluator*:

* ``EVAL_PLAYOUT``: the kernel's uniform random playout (the textbook);
* ``EVAL_POLICY``: the game's own informed playout, compiled in its plug-in
  (``boardlab.games.<game>_search``; :mod:`boardlab.fast.advice`);
* ``EVAL_MAST``: a generic playout biased by MAST (move-average sampling:
  each color's mean return of each action over the simulations so far,
  played epsilon-greedily);
* ``EVAL_HEURISTIC``: the game's static evaluation of the leaf, no playout;
* ``EVAL_EXTERNAL``: the search stops at a batch of leaves
  (:func:`collect`), Python evaluates them (priors and values, e.g. a
  neural network) and hands the results back (:func:`deliver`).

This file never names a game: the kernel's functions and the game's advice
arrive as tables of addresses (``_loops.kernel_table``,
``advice.advice_table``) and are called indirectly, so one compiled loop
serves every game and stays in numba's on-disk cache.

The tree lives in flat arrays: one row per *node* (a position some
simulation reached) and one per *edge* (an action of an expanded node: its
action, prior and child node + 1, 0 until a simulation takes it). A node's
edges are written together when it is first expanded, contiguous, ordered
so that the best *unvisited* edge is always the first unvisited one: by the
game's move priors (descending) when it gives priors, else in a random order
(drawn lazily, one random number per expansion step). Then ``tried[node]``
edges have children, they are the first ``tried``, and selection scores
those plus the next one only: a node with thousands of moves (vimbre) costs
what its visited children cost, which is progressive widening in the
prior's order, and an untaken move costs an edge row (16 bytes), not a
node. A node may keep only its ``maxkids`` best edges.

Each node stores the color to act there and the sum of *color 0's* returns
(returns are zero-sum: color 1's is the negation), so a color acting twice in
a row (implo's resolutions, yugo's marking) needs no alternation rule, and
the pie swap edge is valued for the other color, whose owner the swapping
player becomes.

Selection (the mover's view of child j, owned by color ``col``)::

    Q_j = (1 - alpha) * mean return + alpha * minimax of heuristic values
    score = Q_j + c * sqrt(ln N / n_j) + cpuct * P_j * sqrt(N) / (1 + n_j)
            + pb * P_j / (1 + n_j)

with an unvisited child taken at once when ``fpu`` is "infinite" (UCB1:
try every child once), else valued ``fpu`` or, with ``fpu_red`` >= 0, the
parent's mean for the mover minus ``fpu_red`` (as Leela Zero does).

Enhancements, each switchable in ``params`` so a match can measure it:
score-aware returns (a win by a wider margin is worth a little more, where
the game keeps scores), implicit minimax backups (Lanctot et al. 2014: the
heuristic values of the visited leaves backed up by minimax and mixed into
Q), playout cut-off (a playout stops after ``cutoff`` plies and the
heuristic judges it), the MCTS-solver (proven wins and losses), GRAVE
(Cazenave 2015: each move's all-moves-as-first statistics from an ancestor
with enough visits blended into its mean; :func:`_select_grave`), forced
moves passed through (a new node with one legal move is expanded and
followed in the same simulation), and tree reuse (a search may continue
from any visited node).

Simulations run in chunks: numba cannot read the clock, so Python calls
chunks until the budget (:class:`boardlab.ai.limit.Limit`) is spent.
"""

from __future__ import annotations

import math
import mmap
from typing import Any

import numpy as np
from numba import njit, types

from . import _loops
from ._rng import rand_below, rand_unit

#: how the simulation loop and its helpers are compiled: without reference
#: counting. Numba counts references to the arrays a compiled function is
#: passed (an atomic increment on entry and decrement on exit, for each
#: array), and the loop's helpers take a dozen arrays each: in robble that
#: was about a quarter of a simulation's time. These functions allocate
#: nothing and return no array, and every array they see is owned by their
#: caller for the whole call, so there is nothing to count.
_NO_RC: dict[str, Any] = {"cache": True, "_nrt": False}

UNVISITED = -2        # player[]: not used for nodes (a node exists once visited)
TERMINAL = -1
UNKNOWN = -1          # proven: not proven
DRAW = 2
WAITING = -3          # first[]: a leaf collected for an outside evaluation
INF_FPU = 1e9         # an fpu at or above this: try every child once first

EVAL_PLAYOUT, EVAL_POLICY, EVAL_MAST, EVAL_HEURISTIC, EVAL_EXTERNAL = 0, 1, 2, 3, 4

# params (float64 vector)
(P_C, P_CPUCT, P_FPU, P_FPU_RED, P_SOLVER, P_SCORE, P_SCORE_SCALE, P_IMPLICIT, P_EVAL,
 P_CUTOFF, P_MAST_EPS, P_PRIORS, P_MAXKIDS, P_PRIOR_TEMP, P_PB, P_VLOSS, P_GRAVE, P_GRAVE_REF,
 P_GRAVE_BIAS, P_ALTERNATES, P_FORCED, P_GRAVE_MAX, P_LEAF, P_TRANSPOSE) = range(24)
NUM_PARAMS = 24


def default_params() -> np.ndarray:
    """Plain UCB1 (c = 1), every child tried once, uniform playouts."""
    p = np.zeros(NUM_PARAMS, dtype=np.float64)
    p[P_C] = 1.0
    p[P_LEAF] = 1.0
    p[P_FPU] = 2 * INF_FPU
    p[P_FPU_RED] = -1.0
    p[P_SCORE_SCALE] = 1.0
    p[P_PRIOR_TEMP] = 1.0
    p[P_VLOSS] = 1.0
    return p


#: the transposition table's slots (``transpose``): 2 MB, 65,536 positions
TABLE_SLOTS = 1 << 17

#: a node's row: what selection and backup read and write at each step
NODE_ROW = np.dtype([("n", np.float64), ("w", np.float64), ("first", np.int64),
                     ("kids", np.int64), ("tried", np.int64), ("player", np.int64),
                     ("parent", np.int64), ("pedge", np.int64)])
#: an edge's row: what a step reads and writes of the edge it takes
EDGE_ROW = np.dtype([("en", np.float64), ("ew", np.float64), ("action", np.int32),
                     ("child", np.int32)])


def small_pages(shape: int | tuple[int, ...], dtype) -> np.ndarray:
    """A zeroed array whose memory the OS hands out in small (4 KB) pages.

    NumPy asks Linux for 2 MB pages for every large array. A tree grows
    row by row into such an array, and each 2 MB page is zeroed whole when
    the search first writes into it: 2 MB of zeros, the size of a core's L2
    cache, pushed out before the search reads them back. With 4 KB pages the
    zeroing comes in steps of 4 KB, each just before the rows written on it,
    which then hit the cache: over a game's moves robble's search ran about
    12% more simulations a CPU second (docs/ai.md). Elsewhere (no
    ``MADV_NOHUGEPAGE``), a plain ``np.zeros``."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape))
    nbytes = count * dtype.itemsize
    advice = getattr(mmap, "MADV_NOHUGEPAGE", None)
    if advice is None or nbytes < 1 << 21:
        return np.zeros(shape, dtype=dtype)
    area = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    area.madvise(advice)
    return np.frombuffer(area, dtype=dtype, count=count).reshape(shape)


class Tree:
    """The arrays of one search tree: ``nodes`` node rows, ``edges`` edge
    rows (allocated lazily by the OS: an unused row costs nothing). A tree
    is used once: rows are appended, never reused, so the search writes only
    a new row's non-zero fields."""

    def __init__(self, nodes: int, edges: int, num_actions: int, state_len: int,
                 transpose: bool = False) -> None:
        # What one step of a simulation reads of a node, and of the edge it
        # takes, lies together: one 64-byte row a node (NODE_ROW) and one
        # 24-byte row an edge (EDGE_ROW), read through strided views with
        # the names below. An array per field puts each field of a node on
        # a cache line of its own, and below the top of a big tree each is a
        # miss (robble 7x7: 729,000 simulations a second while the tree
        # fits the caches, 475,000 once it does not).
        self._nodes = small_pages(nodes, NODE_ROW)
        self.n = self._nodes["n"]
        self.w = self._nodes["w"]            # color 0's summed returns
        self.first = self._nodes["first"]    # first edge; -1 unexpanded
        self.kids = self._nodes["kids"]      # edges kept
        self.tried = self._nodes["tried"]    # edges with a child (a prefix)
        self.player = self._nodes["player"]
        self.parent = self._nodes["parent"]
        self.pedge = self._nodes["pedge"]    # the edge that leads here
        self.nlegal = small_pages(nodes, np.int64)   # legal actions (>= kids)
        self.proven = small_pages(nodes, np.int64)
        self.hv = small_pages(nodes, np.float64)     # implicit minimax value (color 0)
        self._edges = small_pages(edges, EDGE_ROW)
        self.en = self._edges["en"]          # the child's visits and color 0's
        self.ew = self._edges["ew"]          # returns, kept on the edge too
        self.action = self._edges["action"]
        self.child = self._edges["child"]    # the child node + 1; 0: not taken yet
        self.prior = small_pages(edges, np.float32)
        # [nodes used, edges used, pending leaves, GRAVE's simulation stamp,
        #  the node whose edges gtab[2 + color] indexes, per color]
        self.meta = np.array([0, 0, 0, 0, -1, -1], dtype=np.int64)
        self.scratch = np.zeros(state_len, dtype=np.int64)
        self.buf = np.zeros(num_actions + 1, dtype=np.int64)
        self.fbuf = np.zeros(num_actions + 1, dtype=np.float64)
        self.path = np.zeros(4096, dtype=np.int64)
        self.scores = np.zeros(2, dtype=np.float64)
        # MAST: per color and action, visits and summed returns
        self.mast = np.zeros((2, 2, num_actions + 1), dtype=np.float64)
        self.seq = np.zeros((2, 1 << 16), dtype=np.int64)  # a simulation's (action, mover)s
        # plain UCB1's terms per edge, kept by the simulation loop's backup
        # (:func:`_simulate`; an external evaluator's tree leaves them alone):
        # the mean return for the color choosing the edge, and 1 / sqrt(visits),
        # so that a selection costs a multiply-add a child, not a division and
        # a square root
        self.eq = small_pages((edges, 2), np.float64)
        # GRAVE (:func:`_select_grave`): per edge, the all-moves-as-first
        # visits and color 0's summed returns of its action for the node's
        # mover; per color and action, the stamp of the last simulation that
        # played it (rows 0-1) and its edge in the reference node (rows 2-3)
        self.amaf = small_pages((edges, 2), np.float64)
        self.gtab = np.full((4, num_actions + 1), -1, dtype=np.int64)
        self.order = np.zeros(num_actions + 1, dtype=np.int64)  # a node's moves, best first
        # transpositions (``transpose``): an open-addressing table of (position
        # key, node) pairs (key 0: an empty slot), so a position reached by
        # another move order finds its node; its last row counts the entries.
        # Small enough to stay in the processor's cache (with 64 MB, twice the
        # node rows, the lookups alone cost robble's search a fifth of its
        # speed), so it holds the first TABLE_SLOTS / 2 positions made, the top
        # of the tree; emptied when the root moves on (Search.advance)
        slots = TABLE_SLOTS if transpose else 2
        self.table = np.zeros((slots + 1, 2), np.int64)

    def arrays(self) -> tuple:
        return (self.parent, self.pedge, self.first, self.kids, self.tried, self.nlegal,
                self.player, self.proven, self.n, self.w, self.hv, self.action, self.prior,
                self.child, self.en, self.ew, self.meta, self.scratch, self.buf, self.fbuf, self.path,
                self.scores, self.mast, self.seq, self.eq, self.amaf, self.gtab, self.order,
                self.table)


@njit(**_NO_RC)
def _new_node(i, par, e, p, parent, pedge, first, kids, tried, nlegal, player, proven, n, w,
              hv):
    """Row ``i`` for a position just reached (its other fields are zero: a
    tree's arrays start zeroed and every row is written once)."""
    parent[i] = par
    pedge[i] = e
    first[i] = -1
    player[i] = p
    proven[i] = UNKNOWN


@njit(cache=True)
def reset_tree(root_player, parent, pedge, first, kids, tried, nlegal, player, proven, n, w,
               hv, meta):
    _new_node(0, -1, -1, root_player, parent, pedge, first, kids, tried, nlegal, player,
              proven, n, w, hv)
    meta[0] = 1
    meta[1] = 0
    meta[2] = 0
    meta[4] = -1
    meta[5] = -1


@njit(cache=True, inline="always")
def _owner(mover, a, swap):
    """The color whose value an edge is chosen for (the swapper takes the other)."""
    return 1 - mover if a == swap else mover


@njit(cache=True, inline="always")
def _sign(col):
    return 1.0 if col == 0 else -1.0


@njit(**_NO_RC)
def _returns(outcome, s, scores, params):
    """Color 0's return at a finished position ``s``: +-1 (0 for a draw),
    moved towards +-(1 + margin) with score-aware values, scaled back into
    [-1, 1]."""
    winner, _ = outcome(s, scores)
    if winner != 0 and winner != 1:
        return 0.0
    r = 1.0 if winner == 0 else -1.0
    lam = params[P_SCORE]
    if lam > 0.0:
        margin = abs(scores[0] - scores[1])
        if margin == margin:  # not NaN: the game keeps scores
            m = min(1.0, margin / params[P_SCORE_SCALE])
            r = r * (1.0 + lam * m) / (1.0 + lam)
    return r


@njit(**_NO_RC)
def _heuristic(evaluate, has_eval, live, s, scores, params):
    """Color 0's heuristic value of a position in play: the game's own
    evaluation where its plug-in has one, else its live score margin
    (``tanh(margin / scale)``), else 0."""
    if has_eval:
        return evaluate(s)
    if live(s, scores):
        return math.tanh((scores[0] - scores[1]) / params[P_SCORE_SCALE])
    return 0.0


@njit(**_NO_RC)
def _sift_down(scores, heap, i, size):
    """Restore the min-heap order of ``heap[:size]`` (by ``scores``) below ``i``."""
    while True:
        low = i
        left = 2 * i + 1
        if left < size and scores[heap[left]] < scores[heap[low]]:
            low = left
        if left + 1 < size and scores[heap[left + 1]] < scores[heap[low]]:
            low = left + 1
        if low == i:
            return
        t = heap[i]
        heap[i] = heap[low]
        heap[low] = t
        i = low


@njit(**_NO_RC)
def _best_first(scores, k, keep, out):
    """The indices of the ``keep`` highest of ``scores[:k]`` into
    ``out[:keep]``, highest first: a min-heap of the best so far over one
    pass, then sorted in place (no array allocated: see _NO_RC)."""
    for j in range(keep):
        out[j] = j
    for j in range(keep // 2 - 1, -1, -1):
        _sift_down(scores, out, j, keep)
    for j in range(keep, k):
        if scores[j] > scores[out[0]]:
            out[0] = j
            _sift_down(scores, out, 0, keep)
    for end in range(keep - 1, 0, -1):  # the smallest to the back, one by one
        t = out[0]
        out[0] = out[end]
        out[end] = t
        _sift_down(scores, out, 0, end)


@njit(**_NO_RC)
def _write_edges(node, k, keep, used, order, sorted_scores, buf, fbuf, rng, first, kids, tried,
                 nlegal, action, prior, child, en, ew, meta):
    """``node``'s edges: ``keep`` of its ``k`` legal actions ``buf``, in
    ``order`` (None-like: an empty order keeps a random subset in legal
    order) with softmax priors of ``fbuf`` (``sorted_scores``) or uniform."""
    if sorted_scores:
        top = fbuf[order[0]] if keep else 0.0
        total = 0.0
        for j in range(keep):
            total += math.exp(fbuf[order[j]] - top)
        for j in range(keep):
            e = used + j
            action[e] = buf[order[j]]
            prior[e] = math.exp(fbuf[order[j]] - top) / total
    else:
        if keep < k:  # a random subset
            for j in range(keep):
                r = j + rand_below(rng, k - j)
                t = buf[r]
                buf[r] = buf[j]
                buf[j] = t
        for j in range(keep):  # (a uniform prior is not stored: read as 1 / kids)
            action[used + j] = buf[j]
    first[node] = used
    kids[node] = keep
    nlegal[node] = k
    tried[node] = 0
    meta[1] = used + keep


@njit(**_NO_RC)
def _expand(node, s, legal_actions, prior_fn, rng, params, first, kids, tried, nlegal, action,
            prior, child, en, ew, meta, buf, fbuf, order):
    """Write ``node``'s edges for its position ``s``. False when the edge
    arrays have no room left (nothing changed)."""
    k = legal_actions(s, buf)
    keep = k
    maxkids = int(params[P_MAXKIDS])
    if maxkids > 0 and keep > maxkids:
        keep = maxkids
    used = meta[1]
    if used + keep > action.shape[0]:
        return False
    if params[P_PRIORS] > 0.5:
        prior_fn(s, buf, k, fbuf)
        temp = params[P_PRIOR_TEMP]
        for j in range(k):
            fbuf[j] = fbuf[j] / temp + 1e-9 * rand_unit(rng)  # ties: random order
        _best_first(fbuf, k, keep, order)
        _write_edges(node, k, keep, used, order, True, buf, fbuf, rng, first, kids, tried,
                     nlegal, action, prior, child, en, ew, meta)
    else:
        _write_edges(node, k, keep, used, order[:0], False, buf, fbuf, rng, first, kids, tried,
                     nlegal, action, prior, child, en, ew, meta)
    return True


@njit(**_NO_RC)
def _select(node, swap, rng, params, first, kids, tried, player, proven, n, w, hv, action,
            prior, child, en, ew):
    """The edge of ``node`` to follow, by the rule in the module doc."""
    m = player[node]
    f = first[node]
    t = tried[node]
    k = kids[node]
    fpu = params[P_FPU]
    if t < k and fpu >= INF_FPU:
        if params[P_PRIORS] < 0.5:  # random order, drawn now
            r = f + t + rand_below(rng, k - t)
            a = action[r]
            action[r] = action[f + t]
            action[f + t] = a
        return f + t
    solver = params[P_SOLVER] > 0.5
    c = params[P_C]
    cpuct = params[P_CPUCT]
    pb = params[P_PB]
    alpha = params[P_IMPLICIT]
    nn = n[node]
    logn = c * math.sqrt(math.log(nn + 1.0)) if c > 0.0 else 0.0
    sqrtn = cpuct * math.sqrt(nn + 1.0)
    best = -1
    best_v = -1e300
    for e in range(f, f + t):
        a = action[e]
        col = _owner(m, a, swap)
        if solver:
            pv = proven[child[e] - 1]
            if pv != UNKNOWN and a != swap:
                if pv == col:
                    return e
                if pv != DRAW:
                    if -1e200 > best_v:
                        best_v = -1e200
                        best = e
                    continue
        nj = en[e]
        sg = _sign(col)
        q = sg * ew[e] / nj if nj > 0.0 else 0.0
        if alpha > 0.0:
            q = (1.0 - alpha) * q + alpha * sg * hv[child[e] - 1]
        v = q + logn / math.sqrt(nj + 1e-9) + (sqrtn + pb) * prior[e] / (1.0 + nj)
        if v > best_v:
            best_v = v
            best = e
    if t < k:
        e = f + t
        if params[P_FPU_RED] >= 0.0:
            q = (_sign(m) * w[node] / nn if nn > 0.0 else 0.0) - params[P_FPU_RED]
        else:
            q = fpu
        v = q + logn + (sqrtn + pb) * prior[e]
        if v > best_v:
            best = e
    return best


@njit(**_NO_RC)
def _grave_index(node, m, first, kids, action, gtab, meta):
    """Make ``gtab[2 + m]`` map each action to its edge of ``node`` (the
    reference whose all-moves-as-first statistics ``m``'s nodes below read)."""
    if meta[4 + m] == node:
        return
    f = first[node]
    for e in range(f, f + kids[node]):
        gtab[2 + m, action[e]] = e
    meta[4 + m] = node


@njit(**_NO_RC)
def _select_grave(node, ref, swap, rng, params, first, kids, tried, player, proven, n, action,
                  prior, child, en, eq, amaf, gtab, meta):
    """The edge of ``node`` to follow by GRAVE (Cazenave 2015): each move's
    mean return blended with its all-moves-as-first mean in ``ref`` (the
    closest node above with the same mover and more than ``P_GRAVE_REF``
    visits, else ``node`` itself), weight ``b = na / (na + n + bias na n)``,
    plus ``c sqrt(ln N / (n + 1))``. Every kept move is scored, tried or not
    (the statistics rank the untried ones); an untried winner is moved to
    the front of the untried ones so the tried ones stay a prefix. With the
    solver, proofs come first as in :func:`_select`: a proven win is taken,
    a proven loss only when nothing else is left."""
    m = player[node]
    f = first[node]
    t = tried[node]
    k = kids[node]
    solver = params[P_SOLVER] > 0.5
    c = params[P_C]
    bias = params[P_GRAVE_BIAS]
    logn = c * math.sqrt(math.log(n[node] + 1.0))
    rf = first[ref]
    rk = kids[ref]
    best = f
    best_v = -1e300
    for e in range(f, f + k):
        a = action[e]
        col = _owner(m, a, swap)
        sg = _sign(col)
        if solver and e < f + t and a != swap:
            pv = proven[child[e] - 1]
            if pv == col:
                return e
            if pv != UNKNOWN and pv != DRAW:
                if -1e200 > best_v:
                    best_v = -1e200
                    best = e
                continue
        nj = en[e] if e < f + t else 0.0
        q = eq[e, 0] if nj > 0.0 else 0.0  # the mean return for col, cached by the backup
        na = 0.0
        if a != swap:
            ae = e
            if ref != node:
                ae = gtab[2 + m, a]
                if ae < rf or ae >= rf + rk or action[ae] != a:
                    ae = -1
            if ae >= 0:
                na = amaf[ae, 0]
        if na > 0.0:
            # (1 - b) q + b * sg * amaf / na with b = na / d: one division
            v = q + (sg * amaf[ae, 1] - na * q) / (na + nj + bias * na * nj)
        elif nj > 0.0:
            v = q
        else:
            v = 1.0 + 1e-6 * rand_unit(rng)  # nothing known: first, in random order
        v += logn / math.sqrt(nj + 1.0)
        if v > best_v:
            best_v = v
            best = e
    u = f + t
    if best > u:  # an untried edge: bring it to the front of the untried
        _swap_untried(best, u, action, prior, amaf)
        if meta[4 + m] == node:
            gtab[2 + m, action[best]] = best
            gtab[2 + m, action[u]] = u
        best = u
    return best


@njit(cache=True, inline="always")
def _swap_untried(e, u, action, prior, amaf):
    """Exchange two untried edges of a node (no child, no visits to move:
    their action, prior and all-moves-as-first statistics)."""
    a = action[e]
    action[e] = action[u]
    action[u] = a
    p = prior[e]
    prior[e] = prior[u]
    prior[u] = p
    for i in range(2):
        x = amaf[e, i]
        amaf[e, i] = amaf[u, i]
        amaf[u, i] = x


@njit(**_NO_RC)
def _amaf_update(path, depth, seq, seqlen, r0, swap, first, kids, player, action, amaf, gtab,
                 meta):
    """Back up all-moves-as-first statistics: each expanded node on the path
    counts, for its mover, every action that mover played at it or later in
    the simulation (once, however often it was played)."""
    stamp = meta[3] + 1
    meta[3] = stamp
    t = seqlen
    for d in range(depth, -1, -1):
        while t > d:
            t -= 1
            gtab[seq[1, t], seq[0, t]] = stamp
        node = path[d]
        f = first[node]
        if f < 0:
            continue
        m = player[node]
        for e in range(f, f + kids[node]):
            a = action[e]
            if gtab[m, a] == stamp and a != swap:
                amaf[e, 0] += 1.0
                amaf[e, 1] += r0


@njit(**_NO_RC)
def _recorded_playout(s, informed, alternates, current_player, apply, copy_state, playout,
                      policy, rng, swap, seq, start, replay):
    """The kernel's playout (or the game's, ``informed``) recording its
    actions into ``seq`` from ``start``, with who played each: for a kernel
    whose turns alternate (``ALTERNATES``: every action but the swap hands
    the turn over) the record alone says; otherwise the record is replayed
    on a copy of the start (``replay``). Returns the new length."""
    p = current_player(s)
    if p < 0:
        return start
    if not alternates:
        copy_state(replay, s)
    record = seq[0, start:]
    plies = policy(s, rng, record) if informed else playout(s, rng, record)
    for x in range(start, start + plies):
        a = seq[0, x]
        if alternates:
            seq[1, x] = p
            if a != swap:
                p = 1 - p
        else:
            seq[1, x] = current_player(replay)
            apply(replay, a)
    return start + plies


@njit(**_NO_RC)
def _update_proof(node, swap, first, tried, kids, nlegal, player, proven, action, child):
    """Re-derive ``node``'s proof from its children's (solver)."""
    m = player[node]
    f = first[node]
    k = kids[node]
    if f < 0 or k == 0:
        return
    t = tried[node]
    all_known = t == k and k == nlegal[node]
    any_draw = False
    for e in range(f, f + t):
        if action[e] == swap:
            all_known = False  # a swap changes who owns which color: never proven
            continue
        pv = proven[child[e] - 1]
        if pv == m:
            proven[node] = m
            return
        if pv == UNKNOWN:
            all_known = False
        elif pv == DRAW:
            any_draw = True
    if all_known:
        proven[node] = DRAW if any_draw else 1 - m


@njit(**_NO_RC)
def _minimax(node, swap, first, tried, player, hv, action, child):
    """``node``'s implicit minimax value: its best visited child's, for the mover."""
    m = player[node]
    f = first[node]
    t = tried[node]
    if f < 0 or t == 0 or m < 0:
        return
    best = -1e300
    val = 0.0
    for e in range(f, f + t):
        j = child[e] - 1
        v = _sign(_owner(m, action[e], swap)) * hv[j]
        if v > best:
            best = v
            val = hv[j]
    hv[node] = val


@njit(**_NO_RC)
def _mast_playout(s, legal_actions, apply, current_player, rng, params, buf, mast, seq, start):
    """A playout choosing epsilon-greedily by MAST's action values; records
    each (action, mover) in ``seq`` from ``start``; returns the new length."""
    eps = params[P_MAST_EPS]
    length = start
    cap = seq.shape[1]
    while True:
        p = current_player(s)
        if p < 0:
            break
        k = legal_actions(s, buf)
        if rand_unit(rng) < eps:
            a = buf[rand_below(rng, k)]
        else:
            off = rand_below(rng, k)
            a = buf[off]
            best = -1e300
            for jj in range(k):
                b = buf[(jj + off) % k]
                cnt = mast[p, 0, b]
                v = mast[p, 1, b] / cnt if cnt > 0.0 else 1.0  # untried: optimistic
                if v > best:
                    best = v
                    a = b
        if length < cap:
            seq[0, length] = a
            seq[1, length] = p
            length += 1
        apply(s, a)
    return length


@njit(**_NO_RC)
def _cutoff_playout(s, legal_actions, apply, current_player, rng, buf, plies):
    """At most ``plies`` uniform random plies; True if the game ended."""
    for _ in range(plies):
        if current_player(s) < 0:
            return True
        k = legal_actions(s, buf)
        apply(s, buf[rand_below(rng, k)])
    return current_player(s) < 0


@njit(**_NO_RC)
def _transposition(key, new, table):
    """The node of the position with ``key`` in ``table`` (linear probing),
    or -1 after recording ``new`` as its node (the node about to be made)
    while the table is at most half full (so a probe always ends). Key 0
    (the contract's default, a kernel with no keys) finds and records
    nothing: it marks the empty slots."""
    if key == 0:
        return -1
    slots = table.shape[0] - 1
    mask = slots - 1
    slot = key & mask
    while True:
        k = table[slot, 0]
        if k == key:
            return table[slot, 1]
        if k == 0:
            if 2 * table[slots, 0] < slots:
                table[slot, 0] = key
                table[slot, 1] = new
                table[slots, 0] += 1
            return -1
        slot = (slot + 1) & mask


@njit(**_NO_RC)
def _evaluate(s, mode, legal_actions, apply, current_player, outcome, playout, policy,
              evaluate, has_eval, live, rng, params, buf, scores, mast, seq, seqlen,
              copy_state, leaf):
    """Color 0's value of leaf ``s`` by the evaluator ``mode`` (``s`` is
    consumed); returns (value, new MAST sequence length). A uniform or
    informed playout is played ``P_LEAF`` times from the leaf (``leaf``: a
    row to keep it in), and the value is their mean."""
    record = buf[:0]
    if current_player(s) < 0:
        return _returns(outcome, s, scores, params), seqlen
    if mode == EVAL_HEURISTIC:
        return _heuristic(evaluate, has_eval, live, s, scores, params), seqlen
    cutoff = int(params[P_CUTOFF])
    if cutoff > 0:
        if not _cutoff_playout(s, legal_actions, apply, current_player, rng, buf, cutoff):
            return _heuristic(evaluate, has_eval, live, s, scores, params), seqlen
        return _returns(outcome, s, scores, params), seqlen
    if mode == EVAL_MAST:
        seqlen = _mast_playout(s, legal_actions, apply, current_player, rng, params, buf, mast,
                               seq, seqlen)
        return _returns(outcome, s, scores, params), seqlen
    times = max(1, int(params[P_LEAF]))
    if times > 1:
        copy_state(leaf, s)
    total = 0.0
    for i in range(times):
        if i > 0:
            copy_state(s, leaf)
        if mode == EVAL_POLICY:
            policy(s, rng, record)
        else:
            playout(s, rng, record)
        total += _returns(outcome, s, scores, params)
    return total / times, seqlen


@njit(**_NO_RC)
def _mast_update(mast, seq, length, r0):
    for t in range(length):
        a = seq[0, t]
        p = seq[1, t]
        mast[p, 0, a] += 1.0
        mast[p, 1, a] += r0 if p == 0 else -r0


@njit(**_NO_RC)
def _simulate(legal_actions, apply, current_player, outcome, playout, policy, prior_fn,
              evaluate, has_eval, live, copy_state, key_fn, root_state, root, swap, params, rng,
              parent, pedge, first, kids, tried, nlegal, player, proven, n, w, hv, action, prior,
              child, en, ew, meta, scratch, buf, fbuf, path, epath, scores, mast, seq, eq, amaf,
              gtab, order, table, sims, replay, leaf):
    """Up to ``sims`` simulations (selection, expansion, evaluation, backup)
    from ``root``, one loop (a call per simulation would pass every array
    each time); the number done (fewer once the root is proven)."""
    solver = params[P_SOLVER] > 0.5
    implicit = params[P_IMPLICIT] > 0.0
    mode = int(params[P_EVAL])
    use_mast = mode == EVAL_MAST
    grave = params[P_GRAVE] > 0.5
    grave_ref = params[P_GRAVE_REF]
    grave_max = params[P_GRAVE_MAX]
    use_seq = use_mast or grave
    # GRAVE reads who played each ply of a playout, recorded here; MAST's
    # playout records its own, and a cut-off playout's plies are not counted
    recorded = grave and params[P_CUTOFF] == 0.0 and (mode == EVAL_PLAYOUT or mode == EVAL_POLICY)
    alternates = params[P_ALTERNATES] > 0.5
    forced = params[P_FORCED] > 0.5
    # plain UCB1 with uniform playouts (the yardstick's algorithm) runs its
    # selection and playout here, in the loop, with no call in between
    plain = (not solver and not implicit and not grave and params[P_CPUCT] == 0.0
             and params[P_PB] == 0.0 and params[P_FPU] >= INF_FPU and params[P_PRIORS] < 0.5)
    c = params[P_C]
    quick = mode == EVAL_PLAYOUT and params[P_CUTOFF] == 0.0 and params[P_LEAF] <= 1.0
    # transpositions: a new position found in ``table`` (reached before by
    # another move order) is linked, not made again: the paths into it share
    # what was learnt below it, each edge keeping its own statistics
    transpose = params[P_TRANSPOSE] > 0.5
    record = buf[:0]
    for done in range(sims):
        if solver and proven[root] != UNKNOWN:
            return done
        s = scratch
        copy_state(s, root_state)
        node = root
        depth = 0
        path[0] = root
        cap = parent.shape[0]
        exact = UNKNOWN
        seqlen = 0
        ref0 = -1
        ref1 = -1
        while True:
            m = player[node]
            if m == TERMINAL:
                break
            if transpose and current_player(s) < 0:
                break  # over on this path (a repetition) though not on the node's first one
            if solver and proven[node] != UNKNOWN and node != root:
                exact = proven[node]  # an exact value: no need to look further
                break
            if first[node] < 0:
                if not _expand(node, s, legal_actions, prior_fn, rng, params, first, kids, tried,
                               nlegal, action, prior, child, en, ew, meta, buf, fbuf, order):
                    break  # no room: evaluate from here
            if plain:
                f = first[node]
                t = tried[node]
                k = kids[node]
                if t < k:  # an untried move, in random order
                    e = f + t
                    r = e + rand_below(rng, k - t)
                    a = action[r]
                    action[r] = action[e]
                    action[e] = a
                else:
                    logn = c * math.sqrt(math.log(n[node] + 1.0))
                    best_v = -1e300
                    e = f
                    for x in range(f, f + t):
                        v = eq[x, 0] + logn * eq[x, 1]
                        if v > best_v:
                            best_v = v
                            e = x
            elif grave:
                if n[node] > grave_ref:
                    _grave_index(node, m, first, kids, action, gtab, meta)
                    if m == 0:
                        ref0 = node
                    else:
                        ref1 = node
                ref = ref0 if m == 0 else ref1
                if grave_max > 0.0 and n[node] > grave_max and tried[node] == kids[node]:
                    # enough of its own statistics: its moves' means, unblended
                    e = _select(node, swap, rng, params, first, kids, tried, player, proven, n,
                                w, hv, action, prior, child, en, ew)
                else:
                    e = _select_grave(node, node if ref < 0 else ref, swap, rng, params, first,
                                      kids, tried, player, proven, n, action, prior, child, en,
                                      eq, amaf, gtab, meta)
            else:
                e = _select(node, swap, rng, params, first, kids, tried, player, proven, n, w, hv,
                            action, prior, child, en, ew)
            a = action[e]
            if use_seq and seqlen < seq.shape[1]:
                seq[0, seqlen] = a
                seq[1, seqlen] = m
                seqlen += 1
            j = child[e] - 1
            if j < 0 and meta[0] >= cap:
                break  # no room for a node: evaluate from here
            apply(s, a)
            depth += 1
            if j < 0 and transpose:
                j = _transposition(key_fn(s), meta[0], table)
                if j >= 0:  # reached before by another move order: link it, go on
                    child[e] = j + 1
                    tried[node] += 1
            if j < 0:  # a new node
                j = meta[0]
                meta[0] = j + 1
                p = current_player(s)
                _new_node(j, node, e, p, parent, pedge, first, kids, tried, nlegal, player, proven,
                          n, w, hv)
                child[e] = j + 1
                tried[node] += 1
                path[depth] = j
                epath[depth] = e
                node = j
                if p == TERMINAL:
                    if solver:
                        winner, _ = outcome(s, scores)
                        proven[j] = winner
                    if implicit:
                        hv[j] = _returns(outcome, s, scores, params)
                elif implicit:
                    hv[j] = _heuristic(evaluate, has_eval, live, s, scores, params)
                if (forced and p != TERMINAL and depth + 1 < path.shape[0]
                        and _expand(j, s, legal_actions, prior_fn, rng, params, first, kids, tried,
                                    nlegal, action, prior, child, en, ew, meta, buf, fbuf, order)
                        and nlegal[j] == 1):
                    continue  # a forced move: no choice to learn, take it in this simulation
                break
            path[depth] = j
            epath[depth] = e
            node = j
            if depth + 1 >= path.shape[0]:
                break
        if exact != UNKNOWN:
            r0 = 0.0 if exact == DRAW else (1.0 if exact == 0 else -1.0)
        elif recorded:
            seqlen = _recorded_playout(s, mode == EVAL_POLICY, alternates, current_player, apply,
                                       copy_state, playout, policy, rng, swap, seq, seqlen, replay)
            r0 = _returns(outcome, s, scores, params)
        elif quick:
            if current_player(s) >= 0:
                playout(s, rng, record)
            r0 = _returns(outcome, s, scores, params)
        else:
            r0, seqlen = _evaluate(s, mode, legal_actions, apply, current_player, outcome, playout,
                                   policy, evaluate, has_eval, live, rng, params, buf, scores, mast,
                                   seq, seqlen, copy_state, leaf)
        for d in range(depth, -1, -1):
            i = path[d]
            n[i] += 1.0
            w[i] += r0
            if d > 0:
                e = epath[d]
                nj = en[e] + 1.0
                en[e] = nj
                ew[e] += r0
                col = _owner(player[path[d - 1]], action[e], swap)
                eq[e, 0] = _sign(col) * ew[e] / nj
                eq[e, 1] = 1.0 / math.sqrt(nj)
            if d < depth:
                if solver and proven[i] == UNKNOWN:
                    _update_proof(i, swap, first, tried, kids, nlegal, player, proven, action, child)
                if implicit:
                    _minimax(i, swap, first, tried, player, hv, action, child)
        if use_mast:
            _mast_update(mast, seq, seqlen, r0)
        if grave:
            _amaf_update(path, depth, seq, seqlen, r0, swap, first, kids, player, action, amaf,
                         gtab, meta)
    return sims


_FNS = types.Array(types.int64, 1, "C")
_A1 = types.Array(types.int64, 1, "C")
_A2 = types.Array(types.int64, 2, "C")
_I32 = types.Array(types.int32, 1, "C")
_F32 = types.Array(types.float32, 1, "C")
_F1 = types.Array(types.float64, 1, "C")
# a field of the node or edge rows (Tree): a strided view
_SA1 = types.Array(types.int64, 1, "A")
_SI32 = types.Array(types.int32, 1, "A")
_SF1 = types.Array(types.float64, 1, "A")
_F2 = types.Array(types.float64, 2, "C")
_F3 = types.Array(types.float64, 3, "C")
_U1 = types.Array(types.uint64, 1, "C")
_TREE = (_SA1, _SA1, _SA1, _SA1, _SA1, _A1, _SA1, _A1, _SF1, _SF1, _F1, _SI32, _F32, _SI32, _SF1,
         _SF1, _A1,
         _A1, _A1, _F1, _A1, _F1, _F3, _A2, _F2, _F2, _A2, _A1, _A2)


@njit(types.int64(_FNS, _FNS, _A1, types.int64, types.int64, _F1, _U1, types.int64, *_TREE),
      cache=True, nogil=True)  # nogil: root-parallel trees search in threads at once
def search_chunk(fns, advice, root_state, root, swap, params, rng, sims, parent, pedge, first,
                 kids, tried, nlegal, player, proven, n, w, hv, action, prior, child, en, ew, meta,
                 scratch, buf, fbuf, path, scores, mast, seq, eq, amaf, gtab, order, table):
    """Up to ``sims`` simulations from node ``root``, whose position is
    ``root_state``; the number done (fewer once the root is proven)."""
    legal = _loops._make_legal(fns[2], fns[3])
    apply = _loops._make_apply(fns[6], fns[7])
    current = _loops._make_current(fns[8], fns[9])
    outcome = _loops._make_outcome(fns[10], fns[11])
    playout = _loops._make_playout(fns[12], fns[13])
    live = _loops._make_live_scores(fns[14], fns[15])
    prior_fn = _loops._make_prior(advice[0], advice[1])
    policy = _loops._make_playout(advice[2], advice[3])
    evaluate = _loops._make_evaluate(advice[4], advice[5])
    has_eval = advice[8] != 0
    copy_state = _loops._make_copy_state(fns[16], fns[17])
    key_fn = _loops._make_position_key(fns[18], fns[19])
    # the rows a simulation may need besides ``scratch`` (allocated here:
    # _simulate counts no references, see _NO_RC)
    replay = np.empty_like(scratch) if params[P_GRAVE] > 0.5 and params[P_ALTERNATES] < 0.5 \
        else scratch[:0]
    leaf = np.empty_like(scratch) if params[P_LEAF] > 1.0 else scratch[:0]
    epath = np.empty_like(path)  # the edge taken to each node of the path
    return _simulate(legal, apply, current, outcome, playout, policy, prior_fn, evaluate,
                     has_eval, live, copy_state, key_fn, root_state, root, swap, params, rng, parent,
                     pedge, first, kids, tried, nlegal, player, proven, n, w, hv, action, prior,
                     child, en, ew, meta, scratch, buf, fbuf, path, epath, scores, mast, seq, eq,
                     amaf, gtab, order, table, sims, replay, leaf)


# ---------------------------------------------------------------- external evaluation


@njit(**_NO_RC)
def _undo_virtual(leaf, root, swap, vl, pedge, parent, player, n, w, action, en, ew):
    """Take back the virtual loss :func:`collect` put on the path to ``leaf``."""
    i = leaf
    while i != root:
        p = parent[i]
        e = pedge[i]
        col = _owner(player[p], action[e], swap)
        n[i] -= 1.0
        w[i] += vl * _sign(col)
        en[e] -= 1.0
        ew[e] += vl * _sign(col)
        i = p
    n[root] -= 1.0


@njit(**_NO_RC)
def _backup_from(leaf, root, swap, r0, solver, parent, pedge, first, tried, kids, nlegal,
                 player, proven, n, w, action, child, en, ew):
    i = leaf
    while True:
        n[i] += 1.0
        w[i] += r0
        if i != root:
            e = pedge[i]
            en[e] += 1.0
            ew[e] += r0
        if solver and i != leaf and proven[i] == UNKNOWN:
            _update_proof(i, swap, first, tried, kids, nlegal, player, proven, action, child)
        if i == root:
            break
        i = parent[i]


@njit(types.int64(_FNS, _A1, types.int64, types.int64, _F1, _U1, types.int64, types.int64,
                  _A2, _A1, *_TREE), cache=True, nogil=True)
def collect(fns, root_state, root, swap, params, rng, want, force, out_states, out_nodes,
            parent, pedge, first, kids, tried, nlegal, player, proven, n, w, hv, action, prior,
            child, en, ew, meta, scratch, buf, fbuf, path, scores, mast, seq, eq, amaf, gtab,
            order, table):
    """Select up to ``want`` leaves that need an outside evaluation, putting a
    virtual loss on each path so the next selection looks elsewhere; their
    positions go to ``out_states`` and their nodes to ``out_nodes``. Leaves
    that end the game are backed up at once and not returned. ``force``: the
    root action every path starts with, or -1. Stops early when a selection
    reaches a leaf already waiting, or the tree is full."""
    apply = _loops._make_apply(fns[6], fns[7])
    current = _loops._make_current(fns[8], fns[9])
    outcome = _loops._make_outcome(fns[10], fns[11])
    solver = params[P_SOLVER] > 0.5
    vl = params[P_VLOSS]
    cap = parent.shape[0]
    got = 0
    attempts = 0
    while got < want and attempts < 4 * want + 4:
        attempts += 1
        s = scratch
        s[:] = root_state
        node = root
        n[root] += 1.0
        stuck = False
        while True:
            if player[node] == TERMINAL or first[node] < 0:
                break
            if solver and proven[node] != UNKNOWN and node != root:
                break
            f = first[node]
            if node == root and force >= 0:
                e = -1
                for x in range(f, f + kids[node]):
                    if action[x] == force:
                        e = x
                        break
                if e < 0:
                    stuck = True
                    break
                t = f + tried[node]
                if e > t:  # not visited yet: bring it to the front of the unvisited
                    _swap_untried(e, t, action, prior, amaf)
                    e = t
            else:
                e = _select(node, swap, rng, params, first, kids, tried, player, proven, n, w,
                            hv, action, prior, child, en, ew)
            j = child[e] - 1
            if j < 0 and meta[0] >= cap:
                stuck = True
                break
            col = _owner(player[node], action[e], swap)
            apply(s, action[e])
            if j < 0:
                j = meta[0]
                meta[0] = j + 1
                _new_node(j, node, e, current(s), parent, pedge, first, kids, tried, nlegal,
                          player, proven, n, w, hv)
                child[e] = j + 1
                tried[node] += 1
            n[j] += 1.0
            w[j] -= vl * _sign(col)
            en[e] += 1.0
            ew[e] -= vl * _sign(col)
            node = j
        if stuck or first[node] == WAITING:
            _undo_virtual(node, root, swap, vl, pedge, parent, player, n, w, action, en, ew)
            break
        if player[node] == TERMINAL or (solver and proven[node] != UNKNOWN and node != root):
            if player[node] != TERMINAL:
                pv = proven[node]
                r0 = 0.0 if pv == DRAW else (1.0 if pv == 0 else -1.0)
            else:
                r0 = _returns(outcome, s, scores, params)
                if solver:
                    winner, _ = outcome(s, scores)
                    proven[node] = winner
            _undo_virtual(node, root, swap, vl, pedge, parent, player, n, w, action, en, ew)
            _backup_from(node, root, swap, r0, solver, parent, pedge, first, tried, kids,
                         nlegal, player, proven, n, w, action, child, en, ew)
            continue
        first[node] = WAITING
        out_states[got, :] = s
        out_nodes[got] = node
        got += 1
    meta[2] += got
    return got


@njit(types.int64(_FNS, types.int64, types.int64, _F1, _U1, _A2, _A1, _F1, _F2, types.int64,
                  *_TREE), cache=True, nogil=True)
def deliver(fns, root, swap, params, rng, states, nodes, values, priors, count, parent, pedge,
            first, kids, tried, nlegal, player, proven, n, w, hv, action, prior, child, en, ew, meta,
            scratch, buf, fbuf, path, scores, mast, seq, eq, amaf, gtab, order, table):
    """Hand back the evaluations of ``count`` leaves :func:`collect` returned:
    ``values[i]`` is the leaf's value for the color to move there, in
    [-1, 1]; ``priors[i, a]`` the probability of action ``a`` there (only the
    legal ones are read). Each leaf is expanded with those priors (best
    first), its virtual loss taken back and its value backed up. Returns -1
    if the edge arrays were full (those leaves stay unexpanded), else 0."""
    legal = _loops._make_legal(fns[2], fns[3])
    solver = params[P_SOLVER] > 0.5
    vl = params[P_VLOSS]
    full = False
    maxkids = int(params[P_MAXKIDS])
    for i in range(count):
        node = nodes[i]
        s = states[i]
        mover = player[node]
        k = legal(s, buf)
        keep = k if maxkids <= 0 or k <= maxkids else maxkids
        used = meta[1]
        first[node] = -1
        if used + keep > action.shape[0]:
            full = True
        else:
            for j in range(k):
                fbuf[j] = priors[i, buf[j]] + 1e-12 * rand_unit(rng)
            _best_first(fbuf, k, keep, order)
            total = 0.0
            for j in range(keep):
                total += fbuf[order[j]]
            for j in range(keep):
                e = used + j
                action[e] = buf[order[j]]
                prior[e] = fbuf[order[j]] / total if total > 0.0 else 1.0 / keep
            first[node] = used
            kids[node] = keep
            nlegal[node] = k
            tried[node] = 0
            meta[1] = used + keep
        r0 = values[i] * _sign(mover)
        _undo_virtual(node, root, swap, vl, pedge, parent, player, n, w, action, en, ew)
        _backup_from(node, root, swap, r0, solver, parent, pedge, first, tried, kids, nlegal,
                     player, proven, n, w, action, child, en, ew)
    meta[2] -= count
    return -1 if full else 0
