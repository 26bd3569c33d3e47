"""Robble's observation planes from compiled states (batched, numba).

The planes of ``boardlab.games.robble_tensors`` (same order, same values),
computed from ``boardlab.fast._robble`` states, so that the vector env and the
adapters' observations need no Python game and no NumPy call per plane
(the batched and one-call steps around ``planes_of`` are ``fast._observe``'s).
``tests/test_vector.py`` and ``tests/test_adapter_observer.py`` hold them to
``boardlab.tensors.observe``.
"""

from __future__ import annotations

from numba import njit

from . import _robble
from ._observe import compiled_ops
from ._robble import (
    _ENDED,
    _HDR,
    _OPEN,
    _PIE,
    _PLAYER,
    _PLAYING,
    _SIZE,
)

NUM_PLANES = 5


@njit(cache=True)
def planes_of(s, me, out):
    """``out`` (C, n) float32: the planes of state ``s`` seen by color ``me`` (0 or 1)."""
    n = s[_SIZE] * s[_SIZE]
    mine = me + 1
    for p in range(n):
        v = s[_HDR + p]
        out[0, p] = 1.0 if v == mine else 0.0
        out[1, p] = 1.0 if v != 0 and v != mine else 0.0
    to_move = 1.0 if s[_ENDED] == _PLAYING and s[_PLAYER] == me else 0.0
    first = 1.0 if me == 0 else 0.0
    swap = 1.0 if s[_PIE] == _OPEN else 0.0
    out[2, :n] = to_move
    out[3, :n] = first
    out[4, :n] = swap


planes, observe_one, replay, try_apply = compiled_ops("robble", _robble, planes_of)
