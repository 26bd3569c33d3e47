"""The shared plane builder of the games' ``tensors`` modules (numpy).

A game's planes are three blocks, in this order:

1. *cell planes*, a lookup of each point's cell value in a per-observer table
   ``lut[player]`` of shape (planes, values) (ours / theirs / kings / ...);
2. *point planes*, zero here, that the game sets at listed points afterwards
   (implo's pending patches, yugo's proposed groups);
3. *scalar planes*, each a constant (side to move, swap open, komi, ...).

:func:`encode` takes arrays with a leading batch axis, so the same tables can
encode a batch of states held as arrays (the compiled core's layout) with one
call; :func:`encode_one` is the same for one state, the adapters' fast path
(a test checks that the two agree).
"""

from __future__ import annotations

import numpy as np


def lut(table: dict[tuple[int, int, int], float], planes: int, values: int) -> np.ndarray:
    """A (2, planes, values) float32 table from ``{(player, plane, value): x}``."""
    out = np.zeros((2, planes, values), np.float32)
    for (player, plane, value), x in table.items():
        out[player, plane, value] = x
    return out


def encode(table: np.ndarray, cells: np.ndarray, player: np.ndarray, scalars: np.ndarray,
           point_planes: int = 0) -> np.ndarray:
    """Planes ``(B, C, n)`` float32 for a batch: ``cells`` (B, n) of ints in
    ``range(values)``, ``player`` (B,) observer color indices, ``scalars`` (B, S)."""
    batch, n = cells.shape
    cell_planes = table.shape[1]
    first_scalar = cell_planes + point_planes
    out = np.zeros((batch, first_scalar + scalars.shape[1], n), np.float32)
    out[:, :cell_planes] = table[player[:, None], :, cells].transpose(0, 2, 1)
    out[:, first_scalar:] = scalars[:, :, None]
    return out


def encode_one(table: np.ndarray, cells: np.ndarray, player: int, scalars: list,
               point_planes: int = 0) -> np.ndarray:
    """:func:`encode` for one state (``cells`` of shape (n,)), returning (C, n):
    the adapters' per-step path, with as few NumPy calls as it takes (take()
    is ~3x faster than fancy indexing on small boards)."""
    cell_planes = table.shape[1]
    first_scalar = cell_planes + point_planes
    out = np.empty((first_scalar + len(scalars), len(cells)), np.float32)
    table[player].take(cells, axis=1, out=out[:cell_planes])
    if point_planes:
        out[cell_planes:first_scalar] = 0.0
    out[first_scalar:] = np.array(scalars, np.float32)[:, None]
    return out
