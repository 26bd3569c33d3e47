"""The generic compiled loops: whole playouts and batched steps, for any game.

Each loop (``*_with``) takes the game's kernel functions as arguments typed
``numba.types.FunctionType(SIG_...)`` with an explicit signature. That is
what lets one compiled loop serve every game *and* live in numba's on-disk
cache: a loop taking plain dispatcher arguments, or a closure over a
kernel, is recompiled in every process. Compiled callers (a search, a
self-play loop) call these directly; the price is an indirect call per
kernel call (no inlining across it), which ``bench/playouts.py`` measures.

From Python, though, numba unboxes a FunctionType argument slowly (it asks
the dispatcher for its addresses through Python calls: about 70 us per call
with one such argument, measured with numba 0.68), which would make a
batch-1 step cost more than a whole pure-Python ply. So the Python entry
points (``playouts``, ``reset``, ``step``, ``random_actions``) take the
kernel as an ``int64`` table of addresses (``kernel_table``, built once per
kernel) and rebuild the first-class function values inside compiled code
(``_function``, a numba intrinsic); the arguments then unbox in well under
a microsecond. The table is only ever built from a kernel's own compiled
functions for the contract's exact signatures, so the addresses match.

No loop names a game; all state is in the arrays passed in.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.experimental.function_type import _get_jit_address, _get_wrapper_address
from numba.extending import intrinsic

from ._rng import rand_below
from .kernels import (
    F64,
    RNG,
    SIG_APPLY,
    SIG_CURRENT_PLAYER,
    SIG_EVALUATE,
    SIG_INIT,
    SIG_IS_LEGAL,
    SIG_LEGAL_ACTIONS,
    SIG_LIVE_SCORES,
    SIG_OUTCOME,
    SIG_PLAYOUT,
    SIG_PRIOR,
    STATE,
)

_INIT = types.FunctionType(SIG_INIT)
_LEGAL = types.FunctionType(SIG_LEGAL_ACTIONS)
_IS_LEGAL = types.FunctionType(SIG_IS_LEGAL)
_APPLY = types.FunctionType(SIG_APPLY)
_CURRENT = types.FunctionType(SIG_CURRENT_PLAYER)
_OUTCOME = types.FunctionType(SIG_OUTCOME)
_PLAYOUT = types.FunctionType(SIG_PLAYOUT)

#: the kernel functions in a kernel table, in this order, two addresses each
_TABLE = (("init", SIG_INIT), ("legal_actions", SIG_LEGAL_ACTIONS), ("is_legal", SIG_IS_LEGAL),
          ("apply", SIG_APPLY), ("current_player", SIG_CURRENT_PLAYER), ("outcome", SIG_OUTCOME),
          ("playout", SIG_PLAYOUT), ("live_scores", SIG_LIVE_SCORES))
_TABLES: dict[str, np.ndarray] = {}


def function_addresses(fn, sig) -> list[int]:
    """The two addresses (cfunc wrapper, numba entry) of a compiled function
    for ``sig``: one entry of a table the compiled loops call through."""
    return [_get_wrapper_address(fn, sig), _get_jit_address(fn, sig)]


def kernel_table(k: ModuleType) -> np.ndarray:
    """The addresses of a kernel's functions (cfunc wrapper, numba entry), for
    the ``fns`` argument of the Python entry points. Built once per kernel."""
    table = _TABLES.get(k.__name__)
    if table is None:
        addrs = []
        for name, sig in _TABLE:
            addrs += function_addresses(getattr(k, name), sig)
        table = _TABLES[k.__name__] = np.array(addrs, dtype=np.int64)
    return table


def _function_maker(sig):
    fty = types.FunctionType(sig)

    @intrinsic
    def make(typingctx, c_addr, jit_addr):
        def codegen(context, builder, signature, args):
            fn = cgutils.create_struct_proxy(fty)(context, builder)
            voidptr = context.get_value_type(types.voidptr)
            fn.c_addr = builder.inttoptr(args[0], voidptr)
            fn.py_addr = cgutils.get_null_value(voidptr)
            fn.jit_addr = builder.inttoptr(args[1], voidptr)
            return fn._getvalue()
        return fty(types.int64, types.int64), codegen

    return make


_make_init = _function_maker(SIG_INIT)
_make_legal = _function_maker(SIG_LEGAL_ACTIONS)
_make_is_legal = _function_maker(SIG_IS_LEGAL)
_make_apply = _function_maker(SIG_APPLY)
_make_current = _function_maker(SIG_CURRENT_PLAYER)
_make_outcome = _function_maker(SIG_OUTCOME)
_make_playout = _function_maker(SIG_PLAYOUT)
_make_live_scores = _function_maker(SIG_LIVE_SCORES)
_make_prior = _function_maker(SIG_PRIOR)
_make_evaluate = _function_maker(SIG_EVALUATE)

_FNS = types.Array(types.int64, 1, "C")
_STATES = types.Array(types.int64, 2, "C")
_RNGS = types.Array(types.uint64, 2, "C")
_MASK = types.Array(types.boolean, 2, "C")
_FLAGS = types.Array(types.boolean, 1, "C")
_REWARDS = types.Array(types.float64, 2, "C")
_I64 = types.int64


@njit(_I64(_INIT, _PLAYOUT, STATE, _I64, STATE, _I64, RNG), cache=True)
def playouts_with(init, playout, state, size, opts, n, rng):
    """n random games from the start; the total plies."""
    record = np.zeros(0, dtype=np.int64)
    total = 0
    for _ in range(n):
        init(state, size, opts)
        total += playout(state, rng, record)
    return total


@njit(cache=True)
def _returns(winner, rewards, i):
    if winner == 0 or winner == 1:
        rewards[i, winner] = 1.0
        rewards[i, 1 - winner] = -1.0
    else:
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0


@njit(cache=True)
def _observe(legal_actions, current_player, state, i, mask, current, buf):
    k = legal_actions(state, buf)
    mask[i, :] = False
    for j in range(k):
        mask[i, buf[j]] = True
    current[i] = current_player(state)


@njit(types.none(_INIT, _LEGAL, _CURRENT, _STATES, _I64, STATE, _MASK, STATE, _FLAGS,
                 _REWARDS, STATE), cache=True)
def reset_with(init, legal_actions, current_player, states, size, opts, mask, current,
          terminated, rewards, buf):
    """Every game back to its start; masks, players, flags and rewards to match."""
    for i in range(states.shape[0]):
        state = states[i]
        init(state, size, opts)
        _observe(legal_actions, current_player, state, i, mask, current, buf)
        terminated[i] = False
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0


@njit(_I64(_IS_LEGAL, _APPLY, _LEGAL, _CURRENT, _OUTCOME, _INIT, _STATES, STATE, _I64,
           STATE, types.boolean, _MASK, STATE, _FLAGS, _REWARDS, STATE, F64), cache=True)
def step_with(is_legal, apply, legal_actions, current_player, outcome, init, states, actions,
         size, opts, auto_reset, mask, current, terminated, rewards, buf, scores):
    """One action per game. Validates every action first: returns the index of
    the first game whose action is illegal (nothing applied), else -1.

    A game already over ignores its action and gets zero rewards. A game that
    ends now gets its returns in ``rewards`` and ``terminated`` True; with
    ``auto_reset`` it is also restarted, so its mask and player are the new game's.
    """
    n = states.shape[0]
    for i in range(n):
        if current_player(states[i]) >= 0 and not is_legal(states[i], actions[i]):
            return i
    for i in range(n):
        state = states[i]
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        if current_player(state) < 0:
            terminated[i] = True
            continue
        apply(state, actions[i])
        over = current_player(state) < 0
        terminated[i] = over
        if over:
            winner, _ = outcome(state, scores)
            _returns(winner, rewards, i)
            if auto_reset:
                init(state, size, opts)
        _observe(legal_actions, current_player, state, i, mask, current, buf)
    return -1


@njit(types.none(_LEGAL, _STATES, _RNGS, STATE, STATE), cache=True)
def random_actions_with(legal_actions, states, rngs, out, buf):
    """A uniform random legal action per game (-1 where the game is over)."""
    for i in range(states.shape[0]):
        k = legal_actions(states[i], buf)
        out[i] = buf[rand_below(rngs[i], k)] if k > 0 else -1


# ---------------------------------------------------------------- Python entry points


@njit(_I64(_FNS, STATE, _I64, STATE, _I64, RNG), cache=True)
def playouts(fns, state, size, opts, n, rng):
    """``playouts_with`` for a kernel table."""
    return playouts_with(_make_init(fns[0], fns[1]), _make_playout(fns[12], fns[13]),
                         state, size, opts, n, rng)


@njit(types.none(_FNS, _STATES, _I64, STATE, _MASK, STATE, _FLAGS, _REWARDS, STATE), cache=True)
def reset(fns, states, size, opts, mask, current, terminated, rewards, buf):
    """``reset_with`` for a kernel table."""
    reset_with(_make_init(fns[0], fns[1]), _make_legal(fns[2], fns[3]),
               _make_current(fns[8], fns[9]), states, size, opts, mask, current,
               terminated, rewards, buf)


@njit(_I64(_FNS, _STATES, STATE, _I64, STATE, types.boolean, _MASK, STATE, _FLAGS, _REWARDS,
           STATE, F64), cache=True)
def step(fns, states, actions, size, opts, auto_reset, mask, current, terminated, rewards,
         buf, scores):
    """``step_with`` for a kernel table."""
    return step_with(_make_is_legal(fns[4], fns[5]), _make_apply(fns[6], fns[7]),
                     _make_legal(fns[2], fns[3]), _make_current(fns[8], fns[9]),
                     _make_outcome(fns[10], fns[11]), _make_init(fns[0], fns[1]),
                     states, actions, size, opts, auto_reset, mask, current, terminated,
                     rewards, buf, scores)


@njit(types.none(_FNS, _STATES, _RNGS, STATE, STATE), cache=True)
def random_actions(fns, states, rngs, out, buf):
    """``random_actions_with`` for a kernel table."""
    random_actions_with(_make_legal(fns[2], fns[3]), states, rngs, out, buf)
