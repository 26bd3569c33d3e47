"""Implo's search advice (the one search's contract: :mod:`boardlab.fast.advice`).

Implo searches with uniform playouts (the kernel's own); what the plug-in
holds is its level ladder.
"""

from __future__ import annotations

#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (implo 9x9, one core). Many
#: implo moves are quick (lone resolutions, short endgame playouts): at
#: 35,000 level 5 took a median 0.35 CPU s a move (90th percentile 0.77), at
#: 60,000 it takes 0.46 (0.99), measured by ``bench/ladder.py``.
LEVELS = (16, 256, 2048, 8192, 60_000)

# --- experiment: local replies in playouts
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from ...fast import _implo as k  # noqa: E402
from ...fast._rng import rand_below  # noqa: E402
from ...fast.kernels import SIG_PLAYOUT  # noqa: E402

LOCAL_PCT = 85


@njit(SIG_PLAYOUT, cache=True)
def policy_playout(state, rng, record):
    """The kernel's uniform playout, except that a placement is, LOCAL_PCT
    times in 100, a random point of the 8 around the last placement when
    that point is empty."""
    n = state[k._NP]
    size = state[k._SIZE]
    swap = 2 * n + n * n
    plist = k._H + k._PLIST * n
    pnch = k._H + k._PNCH * n
    chm0 = k._H + k._PCHM * n
    plies = 0
    last = -1
    while state[k._ENDED] == 0:
        if state[k._NPEND] == 0:
            action = -1
            if last >= 0 and rand_below(rng, 100) < LOCAL_PCT:
                d = np.int64(rand_below(rng, 8))
                d = d + 1 if d >= 4 else d  # 0..8 without the centre 4
                r = last // size + d // 3 - 1
                c = last % size + d % 3 - 1
                if r >= 0 and r < size and c >= 0 and c < size:
                    q = r * size + c
                    if state[k._H + q] == 0:
                        action = q
                        k._place(state, q)
            if action < 0:
                ne = state[k._NEMPTY]
                kk = ne + 1 if state[k._PIE] == k._OPEN else ne
                r = np.int64(rand_below(rng, kk))
                if r == ne:
                    action = swap
                    state[k._PIE] = k._CLOSED
                else:
                    action = state[k._H + k._EMP * n + r]
                    k._place(state, action)
            if action < n:
                last = action
        else:
            r = np.int64(rand_below(rng, state[k._NRES]))
            i = 0
            while True:
                key = state[plist + i]
                nch = state[pnch + key]
                if nch == 0:
                    if r == 0:
                        action = n + key
                        break
                    r -= 1
                elif r < nch:
                    action = 2 * n + key * n + state[chm0 + k._MAXCH * key + r]
                    break
                else:
                    r -= nch
                i += 1
            k._resolve(state, action)
        plies += 1
    return plies


POLICY_PLAYOUT = policy_playout
