"""Vimbre's observation planes from compiled states (batched, numba).

The planes of ``boardlab.games.vimbre.tensors`` (same order, same values),
computed from ``boardlab.fast._vimbre`` states, so that the vector env and the
adapters' observations need no Python game and no NumPy call per plane
(the batched and one-call steps around ``planes_of`` are ``fast._observe``'s).
``tests/test_vector.py`` and ``tests/test_adapter_observer.py`` hold them to
``boardlab.research.tensors.observe``.
"""

from __future__ import annotations

from numba import njit

from . import _vimbre
from ._observe import compiled_ops
from ._vimbre import _HEADER

NUM_PLANES = 5


@njit(cache=True)
def planes_of(s, me, out):
    """``out`` (C, n) float32: the planes of state ``s`` seen by color ``me`` (0 or 1)."""
    n = s[0] * s[0]
    mine = me + 1
    for p in range(n):
        v = s[_HEADER + p]
        out[0, p] = 1.0 if v == mine else 0.0
        out[1, p] = 1.0 if v != 0 and v != mine else 0.0
    out[2, :n] = 1.0 if s[1] == me else 0.0   # s[1] is -1 once over
    out[3, :n] = 1.0 if me == 0 else 0.0
    out[4, :n] = 1.0 if s[2] != 0 else 0.0


planes, observe_one, replay, try_apply = compiled_ops("vimbre", _vimbre, planes_of)
