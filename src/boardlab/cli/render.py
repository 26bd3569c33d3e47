"""Terminal boards: Unicode pieces, coordinates on all sides, ANSI colors.

The pieces come from the game's position text (docs/positions.md), so the
renderer needs nothing from the engines but ``position()``, and what each
token draws as from the game's view plug-in (:mod:`boardlab.games.view`). Every piece type
has its own glyph, so a board reads the same without colors (``--no-color``,
``NO_COLOR``, or output that is not a terminal). The points of the last turn
are put in parentheses, and with colors also on a light background.

>>> import boardlab
>>> game = boardlab.new_game("robble", size=4)
>>> game.play("b2")
>>> print(render_board(game, color=False, marked=last_points(game)))
     a b c d
   ┌─────────┐
 4 │ · · · · │ 4
 3 │ · · · · │ 3
 2 │ ·(●)· · │ 2
 1 │ · · · · │ 1
   └─────────┘
     a b c d
   ● black  ○ white
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..core import grid
from ..core.game import Game
from ..games import view as plugin

RESET = "\x1b[0m"
_BOARD_BG = "48;5;180"    # tan wood
_SQUARE_BG = "48;5;144"   # the darker squares of a square board
_MARK_BG = "48;5;229"     # last move
_FG = {
    "black": "1;38;5;16", "white": "1;38;5;231", "blue": "1;38;5;21", "orange": "1;38;5;202",
    "block": "38;5;240", "empty": "38;5;94", "frame": "38;5;94",
    "edge-black": "1;38;5;16", "edge-white": "1;38;5;231",
}

_POINT_RE = re.compile(r"[a-s](?:1[0-9]|[1-9])")


def paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}{RESET}" if color and code else text


def move_points(move: str, size: int) -> list[int]:
    """The board points a move names: ``@d4/e5`` -> d4, e5; ``kc3`` -> c3; ``pass`` -> none."""
    index = grid.point_index(size)
    return [index[m] for m in _POINT_RE.findall(move) if m in index]


def last_turn(game: Game) -> list[str]:
    """The moves of the last turn (or of the turn in progress), oldest first."""
    from ..records.model import find_turn_starts

    actions = game.action_history
    if not actions:
        return []
    start = game.copy()
    while len(start):
        start.undo()
    first = find_turn_starts(start, actions)[-1]
    return game.history[first:]


def last_points(game: Game) -> set[int]:
    """The points named by the last turn's moves: what the board highlights."""
    points: set[int] = set()
    for move in last_turn(game):
        points.update(move_points(move, game.size))
    return points


def _cells(game: Game) -> list[tuple[str, str]]:
    """(glyph, role) for every point, from the position's cell tokens."""
    tokens = game.cells()
    table = plugin.pieces(game)
    out: list[tuple[str, str]] = []
    for token in tokens:
        if token is None:
            out.append(("·", "empty"))
            continue
        base, _, height = token.partition("(")
        piece = table.get(base)
        glyph, role = (piece.glyph, piece.role) if piece else (base, "")
        if height:
            glyph += height.rstrip(")")
        out.append((glyph, role))
    return out


def render_board(game: Game, *, color: bool = False, marked: Iterable[int] = ()) -> str:
    """The board with coordinates on all four sides and a legend line."""
    size = game.size
    marked = set(marked)
    cells = _cells(game)
    width = max(len(g) for g, _ in cells)
    if any(p.kind == "stack" for p in plugin.pieces(game).values()):
        width = max(width, 2)  # room for a height digit beside the glyph
    module = plugin.view_module(game)
    edges = getattr(module, "EDGES", None)
    inner = size * (width + 1) + 1
    letters = "     " + "".join(f"{grid.FILES[c]:<{width + 1}}" for c in range(size))
    letters = letters.rstrip()

    def frame(text: str, role: str = "frame") -> str:
        return paint(text, f"{_FG[role]};{_BOARD_BG}", color)

    if edges:  # the edges belong to the players: drawn in their colors
        top = "   " + frame(" " + "━" * inner + " ", f"edge-{edges[0]}")
        bottom = top
        side = ("║", f"edge-{edges[1]}")
    else:
        top = "   " + frame("┌" + "─" * inner + "┐")
        bottom = "   " + frame("└" + "─" * inner + "┘")
        side = ("│", "frame")
    lines = [letters, top]
    square = module.BOARD == "squares"
    for row in range(size - 1, -1, -1):
        parts = [frame(*side)]
        open_mark = False  # the cell before is marked and its ")" is still due
        for col in range(size):
            p = row * size + col
            glyph, role = cells[p]
            bg = _SQUARE_BG if square and (row + col) % 2 == 0 else _BOARD_BG
            here = p in marked
            sep = "|" if here and open_mark else "(" if here else ")" if open_mark else " "
            parts.append(frame(sep))
            code = f"{_FG.get(role, '')};{_MARK_BG if here else bg}".lstrip(";")
            parts.append(paint(glyph, code, color))
            pad = width - len(glyph)
            open_mark = here
            if here and pad:  # a narrow glyph in a wide cell: close the mark right after it
                parts.append(frame(")"))
                pad -= 1
                open_mark = False
            if pad:
                parts.append(frame(" " * pad))
        parts.append(frame(")" if open_mark else " "))
        parts.append(frame(*side))
        lines.append(f"{row + 1:>2} " + "".join(parts) + f" {row + 1}")
    lines += [bottom, letters, "   " + module.TERMINAL_LEGEND]
    return "\n".join(lines)
