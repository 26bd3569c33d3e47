"""Pilo's observation planes from compiled states (batched, numba).

The planes of ``boardlab.games.pilo.tensors`` (same order, same values,
stack heights in the height planes),
computed from ``boardlab.fast._pilo`` states, so that the vector env and the
adapters' observations need no Python game and no NumPy call per plane
(the batched and one-call steps around ``planes_of`` are ``fast._observe``'s).
``tests/test_vector.py`` and ``tests/test_adapter_observer.py`` hold them to
``boardlab.research.tensors.observe``.
"""

from __future__ import annotations

from numba import njit

from . import _pilo
from ._observe import compiled_ops
from ._pilo import (
    _HEAD,
    _LAST,
    _PASSES,
    _PIE,
    _PLAYER,
    BLOCK,
    OPEN,
)

NUM_PLANES = 11


@njit(cache=True)
def planes_of(s, me, out):
    """``out`` (C, n) float32: the planes of state ``s`` seen by color ``me`` (0 or 1)."""
    n = s[0] * s[0]
    sign = 1 if me == 0 else -1   # blue stacks are +h, orange -h
    for p in range(n):
        v = s[_HEAD + p]
        out[0, p] = 0.0
        out[1, p] = 0.0
        out[2, p] = 0.0
        out[3, p] = 0.0
        out[4, p] = 0.0
        if v == BLOCK:
            out[4, p] = 1.0
        elif v * sign > 0:
            out[0, p] = 1.0
            out[2, p] = v * sign
        elif v != 0:
            out[1, p] = 1.0
            out[3, p] = -v * sign
    out[5, :n] = 1.0 if s[_PASSES] < 2 and s[_PLAYER] == me else 0.0
    out[6, :n] = 1.0 if me == 0 else 0.0
    out[7, :n] = 1.0 if s[_PIE] == OPEN else 0.0
    out[8, :n] = 1.0 if s[_PASSES] == 1 else 0.0
    out[9, :n] = 1.0 if s[_PASSES] >= 2 else 0.0
    out[10, :n] = 1.0 if s[_LAST] == me else 0.0


planes, observe_one, replay, try_apply = compiled_ops("pilo", _pilo, planes_of)
