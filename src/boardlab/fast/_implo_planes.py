"""Implo's observation planes from compiled states (batched, numba).

The planes of ``boardlab.games.implo.tensors`` (same order, same values),
computed from ``boardlab.fast._implo`` states, so that the vector env and the
adapters' observations need no Python game and no NumPy call per plane
(the batched and one-call steps around ``planes_of`` are ``fast._observe``'s).
``tests/test_vector.py`` and ``tests/test_adapter_observer.py`` hold them to
``boardlab.research.tensors.observe``.
"""

from __future__ import annotations

from numba import njit

from . import _implo
from ._implo import (
    _ENDED,
    _H,
    _NP,
    _NPEND,
    _OPEN,
    _PIE,
    _PLAYER,
    _POF,
)
from ._observe import compiled_ops

NUM_PLANES = 8


@njit(cache=True)
def planes_of(s, me, out):
    """``out`` (C, n) float32: the planes of state ``s`` seen by color ``me`` (0 or 1)."""
    n = s[_NP]
    pof = _H + _POF * n
    pending = s[_NPEND] > 0  # else no point is in a pending patch: its region is not read
    for p in range(n):
        v = s[_H + p]   # 0 empty, c + 1 a stone of color c, c + 3 a marker
        out[0, p] = 1.0 if v == me + 1 else 0.0
        out[1, p] = 1.0 if v == 2 - me else 0.0
        out[2, p] = 1.0 if v == me + 3 else 0.0
        out[3, p] = 1.0 if v == 4 - me else 0.0
        out[4, p] = 1.0 if pending and s[pof + p] >= 0 else 0.0
    out[5, :n] = 1.0 if s[_ENDED] == 0 and s[_PLAYER] == me else 0.0
    out[6, :n] = 1.0 if me == 0 else 0.0
    out[7, :n] = 1.0 if s[_PIE] == _OPEN and s[_NPEND] == 0 else 0.0


planes, observe_one, replay, try_apply = compiled_ops("implo", _implo, planes_of)
