"""What a leaf of the one search is worth: the evaluators' compiled side.

* ``EVAL_PLAYOUT``: the kernel's uniform random playout (the textbook);
* ``EVAL_POLICY``: the game's own informed playout, compiled in its plug-in
  (``boardlab.games.<game>.search``; :mod:`boardlab.fast.advice`);
* ``EVAL_MAST``: a generic playout biased by MAST (move-average sampling:
  each color's mean return of each action over the simulations so far,
  played epsilon-greedily);
* ``EVAL_NST``: MAST with 2-grams (the N-gram selection technique): an
  action is also valued as the reply to the action before it; both may
  choose a playout's first ``mast_plies`` plies only and hand the rest to
  the kernel's playout (most of their cost is listing every legal action a
  ply, which the kernel's playout does not);
* ``EVAL_HEURISTIC``: the game's static evaluation of the leaf, no playout;
  a playout may also stop after ``cutoff`` plies and be judged by it;
* ``EVAL_EXTERNAL``: no evaluation here: the search stops at a batch of
  leaves and Python evaluates them (:func:`boardlab.fast._search.collect`,
  :func:`boardlab.fast._search.deliver`).

A finished position is worth its result for color 0, moved towards the
margin with score-aware values (:func:`_returns`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._rng import rand_below, rand_unit
from ._tree import (
    _NO_RC,
    EVAL_HEURISTIC,
    EVAL_MAST,
    EVAL_NST,
    EVAL_POLICY,
    NST_BITS,
    NST_MIN_VISITS,
    NST_SLOTS,
    P_CUTOFF,
    P_LEAF,
    P_MAST_EPS,
    P_MAST_PLIES,
    P_SCORE,
    P_SCORE_SCALE,
)


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
def _nst_slot(prev, a, num):
    """Where NST keeps the 2-gram (``prev``, then ``a``) in a color's row of
    ``mast``: past its ``num`` 1-grams, at a multiplicative hash of the pair."""
    x = np.uint64(prev * num + a) * np.uint64(0x9E3779B97F4A7C15)
    return num + np.int64(x >> np.uint64(64 - NST_BITS))


@njit(**_NO_RC)
def _action_value(mast, p, b, prev, num, nst):
    """Color ``p``'s value of playing ``b`` after ``prev`` (-1: none): its
    MAST mean (1, optimistic, while untried); with ``nst``, averaged with the
    mean of the pair (``prev``, ``b``) once the pair has NST_MIN_VISITS."""
    cnt = mast[p, 0, b]
    v = mast[p, 1, b] / cnt if cnt > 0.0 else 1.0
    if nst and prev >= 0:
        slot = _nst_slot(prev, b, num)
        cnt = mast[p, 0, slot]
        if cnt >= NST_MIN_VISITS:
            v = 0.5 * (v + mast[p, 1, slot] / cnt)
    return v


@njit(**_NO_RC)
def _mast_playout(s, legal_actions, apply, current_player, rng, params, buf, mast, seq, start,
                  nst, plies):
    """A playout choosing epsilon-greedily by MAST's action values, for at
    most ``plies`` plies (it stops earlier when the game ends); records each
    (action, mover) in ``seq`` from ``start``; returns the new length.

    With ``nst`` (the N-gram selection technique, Tak, Winands and Bjornsson
    2012, up to 2-grams): an action's value is the mean of its MAST value and
    its value as the reply to the action just played, once that pair has
    NST_MIN_VISITS visits."""
    eps = params[P_MAST_EPS]
    length = start
    cap = seq.shape[1]
    num = mast.shape[2] - NST_SLOTS
    prev = seq[0, start - 1] if start > 0 else -1
    for _ in range(plies):
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
                v = _action_value(mast, p, b, prev, num, nst)
                if v > best:
                    best = v
                    a = b
        if length < cap:
            seq[0, length] = a
            seq[1, length] = p
            length += 1
        apply(s, a)
        prev = a
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
def _evaluate(s, mode, legal_actions, apply, current_player, outcome, playout, policy,
              evaluate, has_eval, live, rng, params, buf, scores, mast, seq, seqlen,
              copy_state, leaf, alternates, swap, replay):
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
    if mode == EVAL_MAST or mode == EVAL_NST:
        # MAST's choices for the first ``mast_plies`` plies (0: all), then the
        # kernel's uniform playout, recorded for the backup all the same
        plies = int(params[P_MAST_PLIES])
        seqlen = _mast_playout(s, legal_actions, apply, current_player, rng, params, buf, mast,
                               seq, seqlen, mode == EVAL_NST, plies if plies > 0 else 1 << 62)
        if plies > 0:
            seqlen = _recorded_playout(s, False, alternates, current_player, apply, copy_state,
                                       playout, playout, rng, swap, seq, seqlen, replay)
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
def _mast_update(mast, seq, length, r0, nst):
    """Each action of the simulation counts for its mover: visits and the
    mover's return; with ``nst`` each pair of consecutive actions too, for the
    second one's mover."""
    num = mast.shape[2] - NST_SLOTS
    for t in range(length):
        a = seq[0, t]
        p = seq[1, t]
        r = r0 if p == 0 else -r0
        mast[p, 0, a] += 1.0
        mast[p, 1, a] += r
        if nst and t > 0:
            slot = _nst_slot(seq[0, t - 1], a, num)
            mast[p, 0, slot] += 1.0
            mast[p, 1, slot] += r
