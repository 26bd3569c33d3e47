"""The one search's tree: its arrays, parameters and constants.

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

The search's settings reach the compiled code as one ``float64`` vector
(``P_*`` indices, :func:`default_params`), built by
:class:`boardlab.fast.search.Settings`.
"""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np
from numba import njit

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

EVAL_PLAYOUT, EVAL_POLICY, EVAL_MAST, EVAL_HEURISTIC, EVAL_EXTERNAL, EVAL_NST = 0, 1, 2, 3, 4, 5

#: NST's 2-gram statistics (``evaluator=nst``): slots a color, after MAST's
#: 1-grams in the same array; a pair (previous action, action) is hashed into
#: one, so two pairs may share a slot (4 MB in all: a direct table would be
#: actions squared, 45 million pairs in implo 9x9)
NST_BITS = 17
NST_SLOTS = 1 << NST_BITS
#: visits a 2-gram needs before NST counts it (Tak, Winands and Bjornsson 2012: 7)
NST_MIN_VISITS = 7.0

# params (float64 vector)
(P_C, P_CPUCT, P_FPU, P_FPU_RED, P_SOLVER, P_SCORE, P_SCORE_SCALE, P_IMPLICIT, P_EVAL,
 P_CUTOFF, P_MAST_EPS, P_PRIORS, P_MAXKIDS, P_PRIOR_TEMP, P_PB, P_VLOSS, P_GRAVE, P_GRAVE_REF,
 P_GRAVE_BIAS, P_ALTERNATES, P_FORCED, P_GRAVE_MAX, P_LEAF, P_TRANSPOSE, P_MAST_PLIES) = range(25)
NUM_PARAMS = 25


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
                 transpose: bool = False, nst: bool = False) -> None:
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
        # MAST: per color and action, visits and summed returns; with
        # ``nst``, NST_SLOTS more for the hashed 2-grams (:mod:`._leaf`)
        self.mast = np.zeros((2, 2, num_actions + 1 + (NST_SLOTS if nst else 0)),
                             dtype=np.float64)
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

