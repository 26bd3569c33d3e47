"""The eight symmetries of a square board (the dihedral group D4) as point and
direction permutations.

A symmetry is an int ``k`` in ``0..7`` whose bits say what it does to a point
``(col, row)``, in this order: bit 2 transposes (``(col, row) -> (row, col)``),
then bit 0 mirrors the columns (``col -> size-1-col``) and bit 1 mirrors the
rows (``row -> size-1-row``). ``0`` is the identity; ``1``, ``2`` and ``3``
keep rows as rows and columns as columns (the symmetries of a game whose two
colors own different edge pairs, like vimbre); ``4..7`` swap them.

Tables are plain tuples cached per (size, k), so rules code and tensor code can
share them without numpy. This module knows geometry only; which symmetries a
game has, and what they do to its actions, is each game's knowledge
(``games/<game>/tensors.py``).
"""

from __future__ import annotations

from functools import cache

from . import grid

ALL = tuple(range(8))
#: The symmetries that map rows to rows and columns to columns.
AXIS_PRESERVING = (0, 1, 2, 3)
NAMES = ("identity", "mirror columns", "mirror rows", "rotate 180",
         "transpose", "rotate 90 (clockwise)", "rotate 270 (clockwise)", "anti-transpose")


def _check(k: int) -> None:
    if type(k) is not int or not 0 <= k < 8:
        raise ValueError(f"a symmetry is an int in 0..7, got {k!r}")


def map_coords(col: int, row: int, size: int, k: int) -> tuple[int, int]:
    """The image ``(col, row)`` of a point under symmetry ``k``."""
    if k & 4:
        col, row = row, col
    if k & 1:
        col = size - 1 - col
    if k & 2:
        row = size - 1 - row
    return col, row


@cache
def point_map(size: int, k: int) -> tuple[int, ...]:
    """``point_map(size, k)[p]``: the index of the image of point ``p``."""
    _check(k)
    out = []
    for p in range(size * size):
        row, col = divmod(p, size)
        c, r = map_coords(col, row, size, k)
        out.append(r * size + c)
    return tuple(out)


@cache
def direction_map(k: int) -> tuple[int, ...]:
    """``direction_map(k)[d]``: the index in ``grid.DIRECTIONS`` of the image of direction ``d``."""
    _check(k)
    out = []
    for dc, dr in grid.DIRECTIONS:
        if k & 4:
            dc, dr = dr, dc
        if k & 1:
            dc = -dc
        if k & 2:
            dr = -dr
        out.append(grid.DIRECTIONS.index((dc, dr)))
    return tuple(out)


@cache
def inverse(k: int) -> int:
    """The symmetry that undoes ``k``."""
    _check(k)
    probe = point_map(5, k)
    for j in ALL:
        back = point_map(5, j)
        if all(back[probe[p]] == p for p in range(25)):
            return j
    raise AssertionError("D4 is a group")  # pragma: no cover
