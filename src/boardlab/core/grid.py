"""Square-grid utilities shared by every game: coordinates, neighbour tables,
rays, flood fills and the board part of the position text.

Points are integers ``index = row * size + col`` with row 0 = rank 1 (bottom)
and col 0 = file ``a`` (left), as docs/rules.md fixes. Tables are built
once per size and cached, so the games' hot loops only index tuples.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from . import numbers

MIN_SIZE = 4
MAX_SIZE = 19
FILES = "abcdefghijklmnopqrs"

# Directions as (d_col, d_row): east, north, west, south.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))

_POINT_RE = re.compile(r"([a-s])([1-9][0-9]?)\Z")


def point_name(index: int, size: int) -> str:
    """``point_name(0, 9) == 'a1'``."""
    row, col = divmod(index, size)
    return f"{FILES[col]}{row + 1}"


def parse_point(text: str, size: int) -> int | None:
    """The index of a point name such as ``c3``, or None if it is not one on this board.

    Only the canonical lowercase form is accepted; callers normalise case.
    """
    m = _POINT_RE.match(text)
    if m is None:
        return None
    col = FILES.index(m.group(1))
    row = int(m.group(2)) - 1
    if col >= size or row >= size or m.group(2).startswith("0"):
        return None
    return row * size + col


@cache
def point_names(size: int) -> tuple[str, ...]:
    return tuple(point_name(i, size) for i in range(size * size))


@cache
def point_index(size: int) -> dict[str, int]:
    """Name -> index for every point of a board of this size."""
    return {name: i for i, name in enumerate(point_names(size))}


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For each point, the orthogonally adjacent points (ascending)."""
    table = []
    for i in range(size * size):
        row, col = divmod(i, size)
        adj = []
        if row > 0:
            adj.append(i - size)
        if col > 0:
            adj.append(i - 1)
        if col < size - 1:
            adj.append(i + 1)
        if row < size - 1:
            adj.append(i + size)
        table.append(tuple(adj))
    return tuple(table)


@cache
def diagonals(size: int) -> tuple[tuple[int, ...], ...]:
    """For each point, the diagonally adjacent points (ascending)."""
    table = []
    for i in range(size * size):
        row, col = divmod(i, size)
        adj = []
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            r, c = row + dr, col + dc
            if 0 <= r < size and 0 <= c < size:
                adj.append(r * size + c)
        table.append(tuple(adj))
    return tuple(table)


@cache
def steps(size: int) -> tuple[tuple[int, ...], ...]:
    """``steps(size)[d][i]``: the point one step from ``i`` in DIRECTIONS[d], or -1 off board."""
    out = []
    for dc, dr in DIRECTIONS:
        row_table = []
        for i in range(size * size):
            row, col = divmod(i, size)
            r, c = row + dr, col + dc
            row_table.append(r * size + c if 0 <= r < size and 0 <= c < size else -1)
        out.append(tuple(row_table))
    return tuple(out)


@cache
def rays(size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``rays(size)[i][d]``: the points from ``i`` (exclusive) to the edge in DIRECTIONS[d]."""
    step = steps(size)
    out = []
    for i in range(size * size):
        per_dir = []
        for d in range(4):
            ray = []
            j = step[d][i]
            while j >= 0:
                ray.append(j)
                j = step[d][j]
            per_dir.append(tuple(ray))
        out.append(tuple(per_dir))
    return tuple(out)


def flood(start: int, same: Callable[[int], bool], adj: Sequence[Sequence[int]]) -> list[int]:
    """All points connected to ``start`` through points for which ``same`` holds
    (``start`` itself is included unconditionally). Ascending order."""
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        for q in adj[p]:
            if q not in seen and same(q):
                seen.add(q)
                stack.append(q)
    return sorted(seen)


def region(start: int, board: Sequence[int], adj: Sequence[Sequence[int]]) -> list[int]:
    """The connected set of points holding the same value as ``board[start]``, ascending."""
    value = board[start]
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        for q in adj[p]:
            if q not in seen and board[q] == value:
                seen.add(q)
                stack.append(q)
    return sorted(seen)


def regions(board: Sequence[int], values: Iterable[int], adj: Sequence[Sequence[int]]) -> list[list[int]]:
    """Every connected region of points whose value is in ``values``; each ascending,
    listed by their smallest point."""
    wanted = set(values)
    seen: set[int] = set()
    out = []
    for i, v in enumerate(board):
        if v in wanted and i not in seen:
            r = region(i, board, adj)
            seen.update(r)
            out.append(r)
    return out


def group_size_counts(board: Sequence[int], values: Sequence[int], size: int) -> list[Counter]:
    """For each value in ``values``, a Counter of the sizes of its orthogonally
    connected groups on the board."""
    counts: list[Counter[int]] = [Counter() for _ in values]
    index = {v: k for k, v in enumerate(values)}
    for group in regions(board, values, neighbours(size)):
        counts[index[board[group[0]]]][len(group)] += 1
    return counts


def largest_majority_sizes(first: Counter, second: Counter) -> tuple[int, int]:
    """For each side, the largest group size at which it has strictly more groups
    than the other side (0 if none).

    This is Implo's marker score, and also the biggest group left over once
    equal-size groups of opposite colors are removed in pairs (Robble's result,
    Pilo's patch owner): after pairing, a size has leftovers exactly for the side
    with more groups of that size.
    """
    best = [0, 0]
    for s in first.keys() | second.keys():
        diff = first[s] - second[s]
        if diff > 0:
            best[0] = max(best[0], s)
        elif diff < 0:
            best[1] = max(best[1], s)
    return best[0], best[1]


# ---------------------------------------------------------------- board text
#
# Board rows are written from the top row (rank ``size``) down to rank 1,
# separated by "/". Inside a row a run of empty points is a decimal count and
# every other point is one piece token; games map their cell values to tokens.

_ROW_TOKEN = re.compile(r"(\d+)|([A-Za-z#])(?:\((\d+)\))?")


def format_board(cells: Sequence[str | None], size: int) -> str:
    """Rows top to bottom; ``cells[i]`` is a piece token or None for empty."""
    rows = []
    for row in range(size - 1, -1, -1):
        parts = []
        run = 0
        for col in range(size):
            token = cells[row * size + col]
            if token is None:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append(token)
        if run:
            parts.append(str(run))
        rows.append("".join(parts))
    return "/".join(rows)


def parse_board(text: str, size: int, error: Callable[[str], Exception]) -> list[str | None]:
    """Inverse of :func:`format_board`. A token is a letter or ``#``, optionally
    followed by a parenthesised number (pilo's stack heights: ``b(3)``).
    ``error(msg)`` builds the exception raised for malformed text."""
    rows = text.split("/")
    if len(rows) != size:
        raise error(f"board has {len(rows)} rows, expected {size}")
    cells: list[str | None] = [None] * (size * size)
    for k, row_text in enumerate(rows):
        row = size - 1 - k
        col = 0
        pos = 0
        while pos < len(row_text):
            m = _ROW_TOKEN.match(row_text, pos)
            if m is None:
                raise error(f"row {row + 1}: unexpected character {row_text[pos]!r} at column {pos + 1}")
            pos = m.end()
            why = numbers.too_long(m.group(1) or m.group(3) or "")
            if why:
                raise error(f"row {row + 1}: {why} at column {m.start() + 1}")
            if m.group(1) is not None:
                run = int(m.group(1))
                if run == 0:
                    raise error(f"row {row + 1}: an empty run cannot be 0")
                col += run
            else:
                if col < size:
                    cells[row * size + col] = m.group(0)
                col += 1
            if col > size:
                raise error(f"row {row + 1} describes more than {size} points")
        if col != size:
            raise error(f"row {row + 1} describes {col} points, expected {size}")
    return cells


def render_grid(cells: Sequence[str], size: int, cell_width: int = 2) -> str:
    """A plain-text diagram with file letters and rank numbers on all sides.
    ``cells[i]`` is the (already padded) text of point ``i``."""
    letters = " " * 3 + "".join(f"{FILES[c]:<{cell_width}}" for c in range(size))
    lines = [letters.rstrip()]
    for row in range(size - 1, -1, -1):
        body = "".join(f"{cells[row * size + c]:<{cell_width}}" for c in range(size))
        lines.append(f"{row + 1:>2} {body.rstrip()}  {row + 1}")
    lines.append(letters.rstrip())
    return "\n".join(lines)
