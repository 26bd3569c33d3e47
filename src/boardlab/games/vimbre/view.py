"""Vimbre's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from ..view import Piece, components, names

BOARD = "points"
PIECES = {"X": Piece("stone", "black", "●"), "O": Piece("stone", "white", "○")}
LEGEND = ("stones; black joins top and bottom (black edges), white joins left and right "
          "(white edges)")
TERMINAL_LEGEND = "black joins the ━ edges (top, bottom); white the ║ edges (left, right)"
NOTATION = ("c3 one stone, c3,e5 two stones, xd4 flip, pass (only when nothing else is "
            "legal)")
#: who owns the top-and-bottom edges, and the left-and-right ones
EDGES = ("black", "white")


def hints(game: Game, cells: list[dict | None], fields: dict[str, str],
          legal: list[str]) -> dict[str, Any]:
    """The winner's joining chain, for the page to highlight."""
    if game.winner in game.colors:
        return {"chain": winning_chain(cells, game.size, game.winner)}
    return {}


def winning_chain(cells: list[dict | None], size: int, color: str) -> list[str]:
    """The stones of ``color`` in chains that join its two edges (black: the
    bottom and top rows; white: the left and right columns)."""
    first, last = (lambda p: p < size, lambda p: p >= size * (size - 1)) if color == EDGES[0] else \
        (lambda p: p % size == 0, lambda p: p % size == size - 1)
    out: list[int] = []
    for comp in components(cells, size, lambda c: c is not None and c["color"] == color):
        if any(map(first, comp)) and any(map(last, comp)):
            out += comp
    return names(sorted(out), size)


def describe(before: Game, move: str, after: Game, cells_before: list[dict | None],
             cells_after: list[dict | None]) -> dict[str, Any] | None:
    """A flip and a two-stone turn in words (the board marks both points)."""
    if move.startswith("x"):
        return {"text": f"flipped the enemy stone on {move[1:]}", "flipped": [move[1:]]}
    if "," in move:
        a, b = move.split(",")
        return {"text": f"placed two stones, on {a} and {b}"}
    return None
