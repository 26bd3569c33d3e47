"""Yugo's observation planes from compiled states (batched, numba).

The planes of ``boardlab.games.yugo.tensors`` (same order, same values; the
state's board is padded: point ``p`` is ``(p // size + 1) * W + p % size + 1``),
computed from ``boardlab.fast._yugo`` states, so that the vector env and the
adapters' observations need no Python game and no NumPy call per plane
(the batched and one-call steps around ``planes_of`` are ``fast._observe``'s).
``tests/test_vector.py`` and ``tests/test_adapter_observer.py`` hold them to
``boardlab.research.tensors.observe``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import _yugo
from ._observe import compiled_ops
from ._yugo import (
    A_COL,
    A_KING,
    A_MARKS,
    A_MLIST,
    A_NXT,
    ANSWER,
    H_BUTTON,
    H_KOMI,
    H_NMARKS,
    H_NP,
    H_PASSES,
    H_PHASE,
    H_PLAYER,
    H_REJECTED,
    H_SIZE,
    H_W,
    HEADER,
    MARK,
    OVER,
)

NUM_PLANES = 15


@njit(cache=True)
def planes_of(s, me, out):
    """``out`` (C, n) float32: the planes of state ``s`` seen by color ``me`` (0 or 1)."""
    size = s[H_SIZE]
    w = s[H_W]
    np_ = s[H_NP]
    n = size * size
    col = HEADER + A_COL * np_
    king = HEADER + A_KING * np_
    for p in range(n):
        x = (p // size + 1) * w + p % size + 1
        v = s[col + x]
        k = s[king + x] != 0
        ours = v == me + 1
        theirs = v != 0 and not ours
        out[0, p] = 1.0 if ours and not k else 0.0
        out[1, p] = 1.0 if ours and k else 0.0
        out[2, p] = 1.0 if theirs and not k else 0.0
        out[3, p] = 1.0 if theirs and k else 0.0
        out[4, p] = 0.0
    mlist = HEADER + A_MLIST * np_
    marks = HEADER + A_MARKS * np_
    nxt = HEADER + A_NXT * np_
    for i in range(s[H_NMARKS]):
        g = s[mlist + s[marks + i]]
        z = g
        while True:
            out[4, (z // w - 1) * size + z % w - 1] = 1.0
            z = s[nxt + z]
            if z == g:
                break
    phase = s[H_PHASE]
    komi = np.float32(s[H_KOMI] / n)
    out[5, :n] = 1.0 if phase != OVER and s[H_PLAYER] == me else 0.0
    out[6, :n] = 1.0 if me == 0 else 0.0
    out[7, :n] = 1.0 if s[H_BUTTON] == me else 0.0
    out[8, :n] = 1.0 if s[H_BUTTON] == 1 - me else 0.0
    out[9, :n] = 1.0 if s[H_PASSES] == 1 else 0.0
    out[10, :n] = 1.0 if phase == MARK else 0.0
    out[11, :n] = 1.0 if phase == ANSWER else 0.0
    out[12, :n] = 1.0 if s[H_REJECTED] != 0 else 0.0
    out[13, :n] = komi if me == 1 else -komi
    out[14, :n] = 1.0 if phase == OVER else 0.0


planes, observe_one, replay, try_apply = compiled_ops("yugo", _yugo, planes_of)
