"""Robble's observation planes and symmetries (see boardlab.research.tensors for the contract).

The rules are the same under all eight board symmetries: pushes, removals and
flips act alike in the four directions, and the end count only looks at group
sizes. ``swap`` maps to itself.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..core import pie, symmetry
from . import _planes
from .robble import BLACK, WHITE, Robble

PLANES = (
    ("ours", "1 where the observing color has a stone"),
    ("theirs", "1 where the other color has a stone"),
    ("to_move", "all 1 when the observing color is to move (all 0 once the game is over)"),
    ("first_color", "all 1 when the observing color is black"),
    ("swap_open", "all 1 while swap (the pie rule) is legal"),
)
SYMMETRIES = symmetry.ALL

TABLE = _planes.lut({(0, 0, BLACK): 1, (0, 1, WHITE): 1, (1, 0, WHITE): 1, (1, 1, BLACK): 1}, 2, 3)


def planes(game: Robble, player: int) -> np.ndarray:
    cells = np.frombuffer(game._board, np.uint8, game.n_points)
    scalars = [game.current_player == player, player == 0, game._pie == pie.OPEN]
    return _planes.encode_one(TABLE, cells, player, scalars)


@cache
def action_map(size: int, k: int) -> tuple[int, ...]:
    """Placements move with their point; ``swap`` stays."""
    return (*symmetry.point_map(size, k), size * size)
