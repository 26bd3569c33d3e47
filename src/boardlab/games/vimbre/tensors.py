"""Vimbre's observation planes and symmetries (see boardlab.research.tensors for the contract).

Black joins row 1 to the last row and white joins column a to the last
column, so only the four symmetries that keep rows as rows hold (identity,
the two mirrors, the half turn); a transposition would swap the colors' goals.
The diagonal rule and flips are the same under all of them. A two-stone
action maps to the pair of image points (re-sorted), a flip to the image
point; ``pass`` stays.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...core import symmetry
from .. import _planes
from .rules import BLACK, WHITE, Vimbre

PLANES = (
    ("ours", "1 where the observing color has a stone"),
    ("theirs", "1 where the other color has a stone"),
    ("to_move", "all 1 when the observing color is to move (all 0 once the game is over)"),
    ("first_color", "all 1 when the observing color is black (joins the bottom and top rows)"),
    ("first_turn", "all 1 on black's first turn (one stone only)"),
)
SYMMETRIES = symmetry.AXIS_PRESERVING

TABLE = _planes.lut({(0, 0, BLACK): 1, (0, 1, WHITE): 1, (1, 0, WHITE): 1, (1, 1, BLACK): 1}, 2, 3)


def planes(game: Vimbre, player: int) -> np.ndarray:
    cells = np.frombuffer(game._board, np.uint8, game.n_points)
    scalars = [game.current_player == player, player == 0, game._first]
    return _planes.encode_one(TABLE, cells, player, scalars)


def pair_action(i: int, j: int, n: int) -> int:
    """The two-stone action on points ``i < j`` (the vimbre module's numbering)."""
    return n + i * n - i * (i + 1) // 2 + (j - i - 1)


@cache
def action_map(size: int, k: int) -> tuple[int, ...]:
    n = size * size
    pm = symmetry.point_map(size, k)
    out = list(pm)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = sorted((pm[i], pm[j]))
            out.append(pair_action(a, b, n))
    base = n + n * (n - 1) // 2
    out += [base + pm[p] for p in range(n)]
    out.append(base + n)
    return tuple(out)
