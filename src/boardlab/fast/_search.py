"""The one search: Monte Carlo tree search compiled with numba, handed an evaluator.

Shaped like OpenSpiel's ``MCTSBot``: the tree and the selection rule are
generic, and what a leaf is worth comes from an *evaluator*: the kernel's
uniform playout, the game's informed playout, MAST, a static evaluation, or
an external batched evaluator (Python evaluates a batch of leaves, e.g.
with a neural network: :func:`collect` and :func:`deliver`).

This file never names a game: the kernel's functions and the game's advice
arrive as tables of addresses (``_loops.kernel_table``,
``advice.advice_table``) and are called indirectly, so one compiled loop
serves every game and stays in numba's on-disk cache.

Its parts, each a module small enough to read at once:

* :mod:`boardlab.fast._tree`: the tree's arrays (node and edge rows), the
  parameter vector and the constants;
* :mod:`boardlab.fast._select`: selection (UCB1, PUCT, progressive bias,
  GRAVE), a node's moves listed best first, the solver's proofs and
  implicit minimax;
* :mod:`boardlab.fast._leaf`: the evaluators of a leaf;
* this module: a simulation (:func:`_simulate`: down the tree, the leaf's
  value, back up), the chunked loop Python calls (:func:`search_chunk`),
  and the external evaluator's two halves.

Enhancements, each switchable in ``params`` so a match can measure it:
score-aware returns (a win by a wider margin is worth a little more, where
the game keeps scores), implicit minimax backups, playout cut-off, the
MCTS-solver, GRAVE, forced moves passed through (a new node with one legal
move is expanded and followed in the same simulation), transpositions (one
node a position, found by the kernel's position key), and tree reuse (a
search may continue from any visited node).

Simulations run in chunks: numba cannot read the clock, so Python calls
chunks until the budget (:class:`boardlab.ai.limit.Limit`) is spent.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from . import _loops
from ._leaf import (
    _evaluate,
    _heuristic,
    _mast_update,
    _recorded_playout,
    _returns,
)
from ._rng import rand_below, rand_unit
from ._select import (
    _amaf_update,
    _best_first,
    _expand,
    _grave_index,
    _minimax,
    _select,
    _select_grave,
    _swap_untried,
    _update_proof,
)
from ._tree import (
    _NO_RC,
    DRAW,
    EVAL_MAST,
    EVAL_NST,
    EVAL_PLAYOUT,
    EVAL_POLICY,
    INF_FPU,
    P_ALTERNATES,
    P_C,
    P_CPUCT,
    P_CUTOFF,
    P_EVAL,
    P_FORCED,
    P_FPU,
    P_GRAVE,
    P_GRAVE_MAX,
    P_GRAVE_REF,
    P_IMPLICIT,
    P_LEAF,
    P_MAST_PLIES,
    P_MAXKIDS,
    P_PB,
    P_PRIORS,
    P_SOLVER,
    P_TRANSPOSE,
    P_VLOSS,
    TERMINAL,
    UNKNOWN,
    WAITING,
    _new_node,
    _owner,
    _sign,
)


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
    use_mast = mode == EVAL_MAST or mode == EVAL_NST
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
                                   seq, seqlen, copy_state, leaf, alternates, swap, replay)
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
            _mast_update(mast, seq, seqlen, r0, mode == EVAL_NST)
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
    # (a recorded uniform playout of a kernel whose turns may not alternate:
    # GRAVE's, or MAST's after ``mast_plies``)
    replay = np.empty_like(scratch) if ((params[P_GRAVE] > 0.5 or params[P_MAST_PLIES] > 0.0)
                                        and params[P_ALTERNATES] < 0.5) else scratch[:0]
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
