"""The generic compiled loops: whole playouts, for any game; and the kernel
tables every compiled loop calls through (the batched steps: :mod:`._batch_loops`).

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
points (``playouts``; ``_batch_loops``' ``reset``, ``step``, ``random_actions``) take the
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

from .kernels import (
    RNG,
    SIG_APPLY,
    SIG_COPY_STATE,
    SIG_CURRENT_PLAYER,
    SIG_EVALUATE,
    SIG_INIT,
    SIG_IS_LEGAL,
    SIG_LEGAL_ACTIONS,
    SIG_LIVE_SCORES,
    SIG_OUTCOME,
    SIG_PLAYOUT,
    SIG_POSITION_KEY,
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
          ("playout", SIG_PLAYOUT), ("live_scores", SIG_LIVE_SCORES),
          ("copy_state", SIG_COPY_STATE), ("position_key", SIG_POSITION_KEY))
_TABLES: dict[str, np.ndarray] = {}


@njit(SIG_COPY_STATE, cache=True)
def copy_whole(dst, src):
    """The contract's default ``copy_state``: every word."""
    dst[:] = src


@njit(SIG_POSITION_KEY, cache=True)
def no_key(state):
    """The contract's default ``position_key``: none (0), so no position is
    found again."""
    return 0


#: what a kernel's table holds for an optional function it lacks
_DEFAULTS = {"copy_state": copy_whole, "position_key": no_key}


def kernel_function(k: ModuleType, name: str):
    """The kernel's compiled function ``name``, or the contract's default
    where the function is optional and the kernel has none."""
    fn = getattr(k, name, None)
    return fn if fn is not None else _DEFAULTS[name]


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
            addrs += function_addresses(kernel_function(k, name), sig)
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
_make_copy_state = _function_maker(SIG_COPY_STATE)
_make_position_key = _function_maker(SIG_POSITION_KEY)
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


# ---------------------------------------------------------------- Python entry points


@njit(_I64(_FNS, STATE, _I64, STATE, _I64, RNG), cache=True)
def playouts(fns, state, size, opts, n, rng):
    """``playouts_with`` for a kernel table."""
    return playouts_with(_make_init(fns[0], fns[1]), _make_playout(fns[12], fns[13]),
                         state, size, opts, n, rng)
