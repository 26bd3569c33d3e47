"""Robble's observation planes and symmetries (see boardlab.research.tensors for the contract).

The rules are the same under all eight board symmetries: pushes, removals and
flips act alike in the four directions, and the end count only looks at group
sizes. ``swap`` maps to itself.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...core import pie, symmetry
from .. import _planes
from .rules import BLACK, WHITE, Robble

PLANES = (
    ("ours", "1 where the observing color has a stone"),
    ("theirs", "1 where the other color has a stone"),
    ("to_move", "all 1 when the observing color is to move (all 0 once the game is over)"),
    ("first_color", "all 1 when the observing color is black"),
    ("swap_open", "all 1 while swap (the pie rule) is legal"),
    ("repeats", "all (k - 1) / 2 when the position (board and color to move) has been "
                "recorded k times: 0 the first time, 0.5 the second, 1 the third (a draw); "
                "0 on a full board"),
    ("placed_last", "all 1 when the observing color made the last placement (if nothing is "
                    "left over at the end, it loses)"),
    ("draw_moves", "1 on every empty point whose placement would record a position for the "
                   "third time (a draw at once)"),
)
SYMMETRIES = symmetry.ALL

TABLE = _planes.lut({(0, 0, BLACK): 1, (0, 1, WHITE): 1, (1, 0, WHITE): 1, (1, 1, BLACK): 1}, 2, 3)


def planes(game: Robble, player: int) -> np.ndarray:
    cells = np.frombuffer(game._board, np.uint8, game.n_points)
    count, draws = game.repetitions()
    placed = bool(cells.any()) and 1 - game._player == player  # a placement leaves its stone
    scalars = [game.current_player == player, player == 0, game._pie == pie.OPEN,
               max(count - 1, 0) / 2, placed, 0.0]
    out = _planes.encode_one(TABLE, cells, player, scalars)
    out[-1, draws] = 1.0
    return out


def observation_string(game: Robble, player: int) -> str:
    """The position text (it holds no history) plus the repetition state the
    planes hold: ``seen=k`` (times the position was recorded) and ``draws=``
    the placements that would end the game in a draw (``-``: none)."""
    count, draws = game.repetitions()
    names = ",".join(game.action_to_string(p) for p in draws) or "-"
    return f"{game.position()} seen={count} draws={names}"


@cache
def action_map(size: int, k: int) -> tuple[int, ...]:
    """Placements move with their point; ``swap`` stays."""
    return (*symmetry.point_map(size, k), size * size)
