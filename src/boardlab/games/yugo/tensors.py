"""Yugo's observation planes and symmetries (see boardlab.research.tensors for the contract).

All eight board symmetries hold for the rules. Pawns and kings move with
their point; ``button``, ``pass``, ``done``, ``accept`` and ``reject`` stay. A
``mark`` names its group by the *smallest* point, which a symmetry changes,
so the marks legal now get their image from the position
(:func:`state_action_map`). Once a proposal holds a mark, the next marks must
come in increasing point order (a rule of notation that no symmetry keeps),
so from then on until the proposal is answered only the identity holds
(:func:`symmetries_now`).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...core import symmetry
from .. import _planes
from .rules import ANSWER, MARK, OVER, Yugo

PLANES = (
    ("our_pawns", "1 where the observing color has a pawn"),
    ("our_kings", "1 where the observing color has a king"),
    ("their_pawns", "1 where the other color has a pawn"),
    ("their_kings", "1 where the other color has a king"),
    ("marked", "1 on every point of a group proposed for removal so far"),
    ("to_move", "all 1 when the observing color is to move (all 0 once the game is over)"),
    ("first_color", "all 1 when the observing color is black"),
    ("our_button", "all 1 when the observing color took the button"),
    ("their_button", "all 1 when the other color took the button"),
    ("one_pass", "all 1 when the last action was a pass in the play phase"),
    ("phase_mark", "all 1 while the color to move is marking groups (after two passes)"),
    ("phase_answer", "all 1 while the color to move must accept or reject the proposal"),
    ("rejected", "all 1 once a proposal was rejected (the next double pass ends the game)"),
    ("komi", "komi from the observing color's side (+komi for white, -komi for black) "
             "divided by the number of points"),
    ("over", "all 1 once the game is over (to_move alone cannot tell it from the other "
             "color's turn)"),
)
_KOMI = 13  # the komi plane's index
SYMMETRIES = symmetry.ALL

# cell value: 0 empty, 1 black pawn, 2 white pawn, 3 black king, 4 white king
TABLE = _planes.lut({
    (0, 0, 1): 1, (0, 1, 3): 1, (0, 2, 2): 1, (0, 3, 4): 1,
    (1, 0, 2): 1, (1, 1, 4): 1, (1, 2, 1): 1, (1, 3, 3): 1,
}, 4, 5)


def _bits(board: int, n: int) -> np.ndarray:
    raw = np.frombuffer(board.to_bytes((n + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[:n]


def planes(game: Yugo, player: int) -> np.ndarray:
    n = game.n_points
    black, white = game._stones   # the bitboards (the per-point tables may lag at the end)
    cells = _bits(black, n) + 2 * _bits(white, n)
    if game._kings:
        cells += 2 * _bits(game._kings, n)
    komi = game.options["komi"] / n
    scalars = [
        game.current_player == player, player == 0,
        game._button == player, game._button == 1 - player,
        game._passes == 1, game._phase == MARK, game._phase == ANSWER, game._rejected,
        komi if player == 1 else -komi, game._phase == OVER,
    ]
    out = _planes.encode_one(TABLE, cells, player, scalars, point_planes=1)
    if game._marks:
        marked = 0
        for p in game._marks:
            marked |= game._gst[game._gid[p]]
        out[4] = _bits(marked, n)
    return out


def plane_bounds(size: int, options: dict) -> tuple[list[float], list[float]]:
    """The komi plane holds +-komi / n (bounded by at least 1 / n, so that the
    range is never empty, which Gymnasium's checker flags)."""
    low, high = [0.0] * len(PLANES), [1.0] * len(PLANES)
    bound = max(abs(options["komi"]), 1) / (size * size)
    low[_KOMI], high[_KOMI] = -bound, bound
    return low, high


def symmetries_now(game: Yugo) -> tuple[int, ...]:
    return (0,) if game._marks else SYMMETRIES


@cache
def action_map(size: int, k: int) -> tuple[int, ...]:
    n = size * size
    pm = symmetry.point_map(size, k)
    return (*pm, *(n + q for q in pm), 2 * n, 2 * n + 1, *(2 * n + 2 + q for q in pm),
            3 * n + 2, 3 * n + 3, 3 * n + 4)


def state_action_map(game: Yugo, k: int) -> dict[int, int]:
    """In the marking phase, each ``mark`` maps to the mark of the image group
    (named by the image group's smallest point)."""
    if game._phase != MARK:
        return {}
    n = game.n_points
    pm = symmetry.point_map(game.size, k)
    out = {}
    for grp in game._gst.values():
        low = (grp & -grp).bit_length() - 1
        image = min(pm[q] for q in range(n) if grp >> q & 1)
        out[2 * n + 2 + low] = 2 * n + 2 + image
    return out
