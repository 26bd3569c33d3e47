"""How the one search chooses a child, lists a node's moves and keeps proofs.

Selection (the mover's view of child j, owned by color ``col``)::

    Q_j = (1 - alpha) * mean return + alpha * minimax of heuristic values
    score = Q_j + c * sqrt(ln N / n_j) + cpuct * P_j * sqrt(N) / (1 + n_j)
            + pb * P_j / (1 + n_j)

with an unvisited child taken at once when ``fpu`` is "infinite" (UCB1:
try every child once), else valued ``fpu`` or, with ``fpu_red`` >= 0, the
parent's mean for the mover minus ``fpu_red`` (as Leela Zero does).
GRAVE (Cazenave 2015) blends each move's all-moves-as-first statistics from
an ancestor with enough visits into its mean (:func:`_select_grave`); the
MCTS-solver keeps proven wins and losses (:func:`_update_proof`); implicit
minimax backups (Lanctot et al. 2014) keep the minimax of the visited
leaves' heuristic values (:func:`_minimax`). The tree's layout:
:mod:`boardlab.fast._tree`.
"""

from __future__ import annotations

import math

from numba import njit

from ._rng import rand_below, rand_unit
from ._tree import (
    _NO_RC,
    DRAW,
    INF_FPU,
    P_C,
    P_CPUCT,
    P_FPU,
    P_FPU_RED,
    P_GRAVE_BIAS,
    P_IMPLICIT,
    P_MAXKIDS,
    P_PB,
    P_PRIOR_TEMP,
    P_PRIORS,
    P_SOLVER,
    UNKNOWN,
    _owner,
    _sign,
)


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
