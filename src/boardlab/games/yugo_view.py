"""Yugo's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from typing import Any

from ..core import grid
from ..core.game import Game
from .view import Piece, components, flood, names

BOARD = "points"
PIECES = {"x": Piece("pawn", "black", "●"), "o": Piece("pawn", "white", "○"),
          "X": Piece("king", "black", "◆"), "O": Piece("king", "white", "◇")}
LEGEND = "pawns (plain) and kings (crowned); the button is taken once for half a point"
TERMINAL_LEGEND = "● black pawn  ○ white pawn  ◆ black king  ◇ white king"
NOTATION = ("c3 pawn, kc3 king, button, pass; after two passes: mark c3 ... done, "
            "then accept or reject")


def status(game: Game, fields: dict[str, str], legal: list[str]) -> list[str]:
    """The button, and what the end phases ask of the mover."""
    button = fields.get("button", "-")
    lines = ["button: " + ("not taken yet" if button == "-" else f"taken by {button}")]
    marks = fields.get("marks", "-").replace(",", ", ")
    mover = game.to_move
    if fields.get("phase") == "mark":
        lines.append(f"both passed: {mover} proposes dead groups to remove: mark "
                     "<point> for each (its smallest point, in increasing order), "
                     f"then done. Marked so far: {marks}")
    elif fields.get("phase") == "answer":
        lines.append(f"{mover}: accept or reject the proposal to remove: {marks}")
    return lines


def hints(game: Game, cells: list[dict | None], fields: dict[str, str],
          legal: list[str]) -> dict[str, Any]:
    """The phase, the button, the groups one may mark and those marked, and
    at the end each color's territories."""
    size = game.size
    index = grid.point_index(size)

    def group_of(p: int) -> list[int]:
        cell = cells[p]
        color = cell["color"] if cell else None
        return flood(p, lambda q: (cells[q] or {}).get("color", 0) == color, size)

    out: dict[str, Any] = {
        "phase": fields.get("phase", "play"),
        "button": None if fields.get("button", "-") == "-" else fields.get("button"),
        "markable": [{"move": m, "point": m.split()[1],
                      "points": names(group_of(index[m.split()[1]]), size)}
                     for m in legal if m.startswith("mark ")],
    }
    marks = fields.get("marks", "-")
    marked = [] if marks in ("-", "") else marks.split(",")
    out["marked"] = [{"point": m, "points": names(group_of(index[m]), size)}
                     for m in marked if m in index and cells[index[m]] is not None]
    out["rejected"] = fields.get("rejected") == "yes"
    if game.is_over:
        out["territory"] = territories(cells, size)
    return out


def territories(cells: list[dict | None], size: int) -> dict[str, list[str]]:
    """Each color's territories, for the page to shade at the end: the empty
    regions that touch its pieces and none of the other color's."""
    adj = grid.neighbours(size)
    out: dict[str, list[int]] = {"black": [], "white": []}
    for comp in components(cells, size, lambda c: c is None):
        touching = {cells[q]["color"] for p in comp for q in adj[p] if cells[q] is not None}  # type: ignore[index]
        if len(touching) == 1:
            out[touching.pop()] += comp
    return {color: names(sorted(pts), size) for color, pts in out.items()}
