"""Robble's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from .view import Piece

BOARD = "squares"
PIECES = {"X": Piece("stone", "black", "●"), "O": Piece("stone", "white", "○")}
LEGEND = "stones; each placement pushes, removes or flips its neighbours"
TERMINAL_LEGEND = "● black  ○ white"
NOTATION = "c3 place a stone, swap (pie rule)"
