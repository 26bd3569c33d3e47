"""Implo's observation planes and symmetries (see boardlab.research.tensors for the contract).

All eight board symmetries hold: patch ownership, removal and the marker
count only use adjacency and sizes. Placements move with their point. A
resolution names its patch (and the removed group) by the *smallest* point,
which a symmetry changes, so the resolutions legal now get their image from
the position (:func:`state_action_map`); the static :func:`action_map` moves
the named points, which is right for every other action.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...core import pie, symmetry
from .. import _planes
from .rules import BLACK_MARKER, BLACK_STONE, WHITE_MARKER, WHITE_STONE, Implo

PLANES = (
    ("ours", "1 where the observing color has a stone"),
    ("theirs", "1 where the other color has a stone"),
    ("our_markers", "1 where the observing color has a marker"),
    ("their_markers", "1 where the other color has a marker"),
    ("patches", "1 on every point of a patch waiting to be resolved (mid-turn)"),
    ("to_move", "all 1 when the observing color is to move (all 0 once the game is over)"),
    ("first_color", "all 1 when the observing color is black"),
    ("swap_open", "all 1 while swap (the pie rule) is legal"),
)
SYMMETRIES = symmetry.ALL

TABLE = _planes.lut({
    (0, 0, BLACK_STONE): 1, (0, 1, WHITE_STONE): 1, (0, 2, BLACK_MARKER): 1, (0, 3, WHITE_MARKER): 1,
    (1, 0, WHITE_STONE): 1, (1, 1, BLACK_STONE): 1, (1, 2, WHITE_MARKER): 1, (1, 3, BLACK_MARKER): 1,
}, 4, 5)


def planes(game: Implo, player: int) -> np.ndarray:
    cells = np.frombuffer(game._board, np.uint8, game.n_points)
    swap_open = game._pie == pie.OPEN and not game._patches
    scalars = [game.current_player == player, player == 0, swap_open]
    out = _planes.encode_one(TABLE, cells, player, scalars, point_planes=1)
    for points, *_ in game._patches.values():
        out[4, list(points)] = 1.0
    return out


@cache
def action_map(size: int, k: int) -> tuple[int, ...]:
    """Placements and resolutions move their points; ``swap`` stays."""
    n = size * size
    pm = symmetry.point_map(size, k)
    out = list(pm) + [n + pm[p] for p in range(n)]
    for p in range(n):
        base = 2 * n + pm[p] * n
        out.extend(base + pm[g] for g in range(n))
    out.append(2 * n + n * n)
    return tuple(out)


def state_action_map(game: Implo, k: int) -> dict[int, int]:
    """The images of the resolutions legal now: the patch (and removed group)
    is named by its smallest point after the symmetry."""
    n = game.n_points
    pm = symmetry.point_map(game.size, k)
    out = {}
    for p, (points, _, _, choices) in game._patches.items():
        image = min(pm[q] for q in points)
        if not choices:
            out[n + p] = n + image
        for g, label in choices:
            group = min(pm[q] for q in game._gmem[label])
            out[2 * n + p * n + g] = 2 * n + image * n + group
    return out
