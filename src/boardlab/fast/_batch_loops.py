"""The compiled loops of batched stepping (:class:`boardlab.fast.Batch`, the
research ``VectorEnv``), for any game, through the kernel tables of
:mod:`._loops`.

Why they are shaped this way: a game's state row is 15-21 KB (histories,
tables) while the hot part of a step is a few cache lines of it, and a
batch of 64 rows fits in a core's 2 MB L2 cache but a batch of 1,024 does
not. Each pass over the rows then pays cache misses on every row, so a step
makes exactly one pass over the states:

* the actions are checked against the legal masks and players the batch
  already holds (no state is read), before any is applied;
* each game is then stepped, its mask and player refreshed and, for the
  vector env, its observation planes written, while its row is in cache;
* random actions are drawn from the masks, not from the states.

Measured in docs/engine.md ("Batched stepping").
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ._loops import (
    _FLAGS,
    _FNS,
    _I64,
    _MASK,
    _REWARDS,
    _RNGS,
    _STATES,
    _function_maker,
    _get_jit_address,
    _get_wrapper_address,
    _make_apply,
    _make_current,
    _make_init,
    _make_legal,
    _make_outcome,
)
from ._rng import rand_below
from .kernels import F64, STATE

#: a game's planes function (``fast._<game>_planes.planes_of``): state, observer, out (C, n)
SIG_PLANES = types.none(STATE, types.int64, types.Array(types.float32, 2, "C"))
_make_planes = _function_maker(SIG_PLANES)
_OBS = types.Array(types.float32, 3, "C")
_PLANE_TABLES: dict[str, np.ndarray] = {}


def planes_table(module) -> np.ndarray:
    """The addresses of a planes module's ``planes_of``, as ``kernel_table``'s."""
    table = _PLANE_TABLES.get(module.__name__)
    if table is None:
        fn = module.planes_of
        table = _PLANE_TABLES[module.__name__] = np.array(
            [_get_wrapper_address(fn, SIG_PLANES), _get_jit_address(fn, SIG_PLANES)], np.int64)
    return table


#: how many games ahead the step loop asks for a state row to be fetched
AHEAD = 4
_LINE_WORDS = 8  # int64 words in a 64-byte cache line


@intrinsic
def _prefetch(typingctx, arr, idx):
    """LLVM's ``prefetch`` of ``arr[idx]`` (read, keep in all cache levels):
    a hint, never a fault, so it may point anywhere in the array."""
    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(arr, types.intp), codegen


@njit(cache=True)
def _fetch_row(states, i, hot):
    """Ask for the first ``hot`` words of state row ``i`` to be brought into
    the caches, line by line: the rows are kilobytes apart, a stride no
    hardware prefetcher follows."""
    if i < states.shape[0]:
        row = states[i]
        for w in range(0, min(hot, row.shape[0]), _LINE_WORDS):
            _prefetch(row, w)


@njit(cache=True)
def _returns(winner, rewards, i):
    if winner == 0 or winner == 1:
        rewards[i, winner] = 1.0
        rewards[i, 1 - winner] = -1.0
    else:
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0


@njit(cache=True)
def _observe(legal_actions, current_player, state, i, mask, current, span, buf, rngs, ahead):
    """Game i's mask and player from its state, and its next random action
    drawn from its generator (``random_actions`` hands these out). Only the
    span of the old mask's bits is cleared (``span[i]``: from its first to
    past its last; the actions come ascending): a mask row can be kilobytes
    (implo, vimbre) with a few dozen bits set, all among the placements."""
    row = mask[i]
    row[span[i, 0]:span[i, 1]] = False
    k = legal_actions(state, buf)
    for j in range(k):
        row[buf[j]] = True
    span[i, 0] = buf[0] if k > 0 else 0
    span[i, 1] = buf[k - 1] + 1 if k > 0 else 0
    current[i] = current_player(state)
    ahead[i] = buf[rand_below(rngs[i], k)] if k > 0 else -1


@njit(types.none(_FNS, _STATES, STATE, _I64, STATE, _MASK, STATE, _STATES, _FLAGS, _REWARDS,
                 STATE, _RNGS, STATE), cache=True)
def reset(fns, states, rows, size, opts, mask, current, span, terminated, rewards, buf, rngs,
          ahead):
    """The games in ``rows`` back to their start; masks, players, flags and
    rewards to match."""
    init = _make_init(fns[0], fns[1])
    legal_actions = _make_legal(fns[2], fns[3])
    current_player = _make_current(fns[8], fns[9])
    for i in rows:
        state = states[i]
        init(state, size, opts)
        _observe(legal_actions, current_player, state, i, mask, current, span, buf, rngs, ahead)
        terminated[i] = False
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0


@njit(cache=True)
def _refused(actions, mask, current):
    """The first game whose action is out of range or not legal (from the
    masks), or -1. Games already over ignore their action."""
    a_max = mask.shape[1]
    for i in range(actions.shape[0]):
        if current[i] >= 0:
            a = actions[i]
            if a < 0 or a >= a_max or not mask[i, a]:
                return i
    return -1


@njit(_I64(_FNS, _FNS, _STATES, STATE, _I64, STATE, types.boolean, _MASK, STATE, _STATES, _FLAGS,
           _REWARDS, STATE, F64, _RNGS, STATE, _OBS, types.boolean, _I64), cache=True)
def step(fns, pfns, states, actions, size, opts, auto_reset, mask, current, span, terminated,
         rewards, buf, scores, rngs, ahead, obs, with_planes, hot):
    """One action per game. Checks every action first: returns the index of
    the first game whose action is illegal (nothing applied), else -1.

    A game already over ignores its action and gets zero rewards. A game that
    ends now gets its returns in ``rewards`` and ``terminated`` True; with
    ``auto_reset`` it is also restarted, so its mask and player are the new
    game's. ``with_planes``: every game's planes (seen by its color to act,
    the first color once over) are written into ``obs[i]`` (C, n) in the same
    pass, by the planes function of ``pfns`` (:func:`planes_table`).
    """
    bad = _refused(actions, mask, current)
    if bad >= 0:
        return bad
    init = _make_init(fns[0], fns[1])
    legal_actions = _make_legal(fns[2], fns[3])
    apply = _make_apply(fns[6], fns[7])
    current_player = _make_current(fns[8], fns[9])
    outcome = _make_outcome(fns[10], fns[11])
    planes = _make_planes(pfns[0], pfns[1])
    for j in range(AHEAD):
        _fetch_row(states, j, hot)
    for i in range(states.shape[0]):
        _fetch_row(states, i + AHEAD, hot)
        state = states[i]
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        if current[i] < 0:
            terminated[i] = True
        else:
            apply(state, actions[i])
            over = current_player(state) < 0
            terminated[i] = over
            if over:
                winner, _ = outcome(state, scores)
                _returns(winner, rewards, i)
                if auto_reset:
                    init(state, size, opts)
            _observe(legal_actions, current_player, state, i, mask, current, span, buf, rngs,
                     ahead)
        if with_planes:
            planes(state, max(current[i], 0), obs[i])
    return -1


@njit(cache=True)
def _no_planes(state, player, out):  # pragma: no cover - what a batch without planes passes
    pass


def no_planes() -> tuple[np.ndarray, np.ndarray]:
    """The ``pfns`` and ``obs`` arguments of :func:`step` for a batch without planes."""
    return planes_table(_NoPlanes), np.zeros((1, 1, 1), np.float32)


class _NoPlanes:
    """:func:`planes_table`'s view of :func:`_no_planes`."""

    planes_of = _no_planes


_BYTES = types.Array(types.uint8, 2, "C")


@njit(types.none(_BYTES, _STATES, _BYTES), cache=True)
def copy_masks(mask, span, out):
    """``out`` (new, not initialised) becomes a copy of ``mask``, each row
    read only over the span its bits lie in and zero-filled elsewhere. A
    plain copy reads every byte: kilobytes a row for implo and vimbre with a
    few dozen set, and at large batches those reads come from memory
    (docs/engine.md, "Batched stepping"). Bytes, not bools, and loops
    counted from 0 (no negative-index wrap to test): so each loop
    vectorises."""
    width = mask.shape[1]
    for i in range(mask.shape[0]):
        lo, hi = span[i, 0], span[i, 1]
        if 2 * (hi - lo) > width:  # most of the row: copy it whole
            lo, hi = 0, width
        head, src, dst, tail = out[i, :lo], mask[i, lo:hi], out[i, lo:hi], out[i, hi:]
        for a in range(lo):
            head[a] = 0
        for a in range(hi - lo):
            dst[a] = src[a]
        for a in range(width - hi):
            tail[a] = 0


@njit(types.none(_MASK, _RNGS, STATE), cache=True)
def random_actions(mask, rngs, out):  # used only when random_actions() is asked twice between steps
    """A uniform random legal action per game, from the masks (-1 where none
    is legal): the k-th legal action in increasing order for a uniform k, the
    kernels' own order of legal actions."""
    for i in range(mask.shape[0]):
        row = mask[i]
        k = 0
        for a in range(row.shape[0]):
            k += row[a]
        if k == 0:
            out[i] = -1
            continue
        r = rand_below(rngs[i], k)
        for a in range(row.shape[0]):
            if row[a]:
                if r == 0:
                    out[i] = a
                    break
                r -= 1
