"""Pilo's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from .view import Piece

BOARD = "squares"
PIECES = {"b": Piece("stack", "blue", "●"), "o": Piece("stack", "orange", "○"),
          "#": Piece("block", None, "▒▒")}
LEGEND = "stacks with their height, and neutral blocks"
#: what a placement puts down (the page's move hints draw one)
PLACED = "stack"
# The patch owners averaged over playouts predict the final owner of a square
# better than the board does at every stage (bench/ownership.py: at mid-game
# 60% of squares right against 48%; docs/analysis.md, "Ownership").
OWNERSHIP = True
TERMINAL_LEGEND = "● blue  ○ orange  ●3 a stack of 3  ▒▒ block"
NOTATION = ("c3 place a disk, c3-c7 move a stack, pass (only when nothing else is legal), "
            "swap (pie rule)")


def hints(game: Game, cells: list[dict | None], fields: dict[str, str],
          legal: list[str]) -> dict[str, Any]:
    """The passes in a row (two end the game)."""
    return {"passes": int(fields.get("passes", "0") or 0)}
