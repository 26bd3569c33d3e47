"""boardlab.fast: the games' rules compiled with numba, for simulations at native speed.

The pure-Python engines (``boardlab.games``) stay the readable reference;
each game's compiled kernel (``boardlab.fast._<game>``, contract in
``boardlab.fast.kernels``) is held to them ply by ply by
``boardlab.fast.check``. Actions are the Python API's integer actions, so
anything played here replays through ``boardlab.new_game(...).apply_action``.

>>> import boardlab
>>> from boardlab.fast import random_game, playouts
>>> actions, returns = random_game("robble", size=5, seed=3)
>>> game = boardlab.new_game("robble", size=5)
>>> for a in actions:
...     game.apply_action(a)
>>> game.returns() == list(returns)
True
>>> playouts("robble", 10, size=5, seed=3) > 10 * 20
True

Importing this module imports numba (about a second) and loads the compiled
code from numba's cache (``__pycache__``); the first start on a machine
compiles instead (see docs/engine.md, "Compiled core", for both times).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import OptionError
from . import _loops
from ._resolve import resolve
from ._rng import new_rng
from .batch import Batch
from .ownership import ownership

__all__ = ["Batch", "ownership", "playouts", "random_game"]

_FIRST_RECORD = 4096
_MAX_RECORD = 1 << 24


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"seed must be an integer, got {seed!r}")
    return seed


def random_game(game: str, size: int | None = None, seed: int = 0,
                **options: Any) -> tuple[list[int], tuple[float, float]]:
    """One seeded uniform-random game played in compiled code.

    Returns its actions (integer actions of the Python API) and each color's
    return (+1 win, -1 loss, 0 draw), as ``Game.returns()`` gives them. The
    same (game, size, options, seed) always gives the same game.
    """
    g = resolve(game, size, options)
    seed = _check_seed(seed)
    k = g.kernel
    state = np.zeros(g.state_len, dtype=np.int64)
    length = max(_FIRST_RECORD, 16 * g.num_actions)
    while True:
        k.init(state, g.size, g.opts)
        record = np.zeros(length, dtype=np.int64)
        try:
            plies = k.playout(state, new_rng(seed), record)
            break
        except Exception:
            # the record was too short (or the kernel refused the game for
            # another reason): replay the same seed with more room, up to a limit
            if length >= _MAX_RECORD:
                raise
            length *= 8
    scores = np.zeros(2, dtype=np.float64)
    winner, _ = k.outcome(state, scores)
    returns = (0.0, 0.0) if winner == 2 else ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    return record[:plies].tolist(), returns


def playouts(game: str, n: int, size: int | None = None, seed: int = 0, **options: Any) -> int:
    """``n`` seeded uniform-random games from the start, entirely in compiled
    code (one compiled loop); returns the total plies played, so a caller can
    time it: ``plies / seconds`` or ``n / seconds``."""
    g = resolve(game, size, options)
    seed = _check_seed(seed)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise OptionError(f"playouts: n must be a non-negative integer, got {n!r}")
    state = np.zeros(g.state_len, dtype=np.int64)
    return int(_loops.playouts(_loops.kernel_table(g.kernel), state, g.size, g.opts, n, new_rng(seed)))
