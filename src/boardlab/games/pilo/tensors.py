"""Pilo's observation planes and symmetries (see boardlab.research.tensors for the contract).

All eight board symmetries hold: a stack move travels along a row or column,
captures depend on that line only, and patch scoring uses adjacency and sizes.
A stack move ``p``-direction-``k`` maps to the image of ``p``, the image
direction and the same ``k`` (moves whose destination is off the board map to
moves off the board, so the map stays a permutation); ``pass`` and ``swap`` stay.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...core import pie, symmetry
from .. import _planes
from .rules import BLOCK, Pilo

PLANES = (
    ("ours", "1 where the observing color has a stack"),
    ("theirs", "1 where the other color has a stack"),
    ("our_height", "the number of disks in each of the observing color's stacks"),
    ("their_height", "the number of disks in each of the other color's stacks"),
    ("blocks", "1 on every block"),
    ("to_move", "all 1 when the observing color is to move (all 0 once the game is over)"),
    ("first_color", "all 1 when the observing color is blue"),
    ("swap_open", "all 1 while swap (the pie rule) is legal"),
    ("one_pass", "all 1 when the last action was a pass (one more ends the game)"),
    ("over", "all 1 once the game is over (to_move alone cannot tell it from the other "
             "color's turn)"),
    ("played_last", "all 1 when the observing color made the last board play (a placement "
                    "or stack move: on equal scores it loses)"),
)
SYMMETRIES = symmetry.ALL


@cache
def table(size: int) -> np.ndarray:
    """The lookup from cell index ``value + n`` (heights -n..n; ``2n + 1``: a
    block) to the cell planes. A stack gains one disk per stack move and there
    are fewer than n stack moves, so no height exceeds n."""
    n = size * size
    entries: dict[tuple[int, int, int], float] = {}
    for player in (0, 1):
        for h in range(1, n + 1):
            mine, theirs = (h, -h) if player == 0 else (-h, h)
            entries[player, 0, mine + n] = 1
            entries[player, 2, mine + n] = h
            entries[player, 1, theirs + n] = 1
            entries[player, 3, theirs + n] = h
        entries[player, 4, 2 * n + 1] = 1
    return _planes.lut(entries, 5, 2 * n + 2)


def plane_bounds(size: int, options: dict) -> tuple[list[float], list[float]]:
    high = [1.0] * len(PLANES)
    high[2] = high[3] = float(size * size)  # heights (see table())
    return [0.0] * len(PLANES), high


def cell_index(cells: np.ndarray, n: int) -> np.ndarray:
    """Cell values (blue +h, orange -h, BLOCK) as indices into :func:`table` (batch-safe)."""
    return np.minimum(cells + n, 2 * n + 1)


def planes(game: Pilo, player: int) -> np.ndarray:
    n = game.n_points
    cells = cell_index(np.array(game._cells, np.int64), n)
    scalars = [game.current_player == player, player == 0, game._pie == pie.OPEN,
               game._passes == 1, game._passes >= 2, game._last == player]
    return _planes.encode_one(table(game.size), cells, player, scalars)


assert BLOCK > 2 * 19 * 19 + 1  # cell_index relies on BLOCK exceeding every height


@cache
def action_map(size: int, k: int) -> tuple[int, ...]:
    n, m = size * size, size - 1
    pm = symmetry.point_map(size, k)
    dm = symmetry.direction_map(k)
    out = list(pm)
    for p in range(n):
        for d in range(4):
            for j in range(1, m + 1):
                out.append(n + (pm[p] * 4 + dm[d]) * m + j - 1)
    out += [n + 4 * n * m, n + 4 * n * m + 1]
    return tuple(out)
