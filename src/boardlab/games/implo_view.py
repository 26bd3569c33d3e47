"""Implo's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from typing import Any

from ..core import grid
from ..core.game import Game
from .view import Piece, flood, names

BOARD = "points"
PIECES = {"X": Piece("stone", "black", "●"), "O": Piece("stone", "white", "○"),
          "x": Piece("marker", "black", "■"), "o": Piece("marker", "white", "□")}
LEGEND = ("stones (round) and markers (square); a turn is a placement then one "
          "resolution per patch")
TERMINAL_LEGEND = "● black stone  ○ white stone  ■ black marker  □ white marker"
NOTATION = ("a point to place a stone (c3), then one @ per patch to resolve: @d4, or "
            "@d4/e5 to pick which tied group is removed; swap (pie rule)")


def _resolving(legal: list[str]) -> bool:
    return bool(legal) and all(m.startswith("@") for m in legal)


def status(game: Game, fields: dict[str, str], legal: list[str]) -> list[str]:
    if _resolving(legal):
        return [f"{game.to_move} must resolve the patches: " + "  ".join(legal)]
    return []


def mid_turn(game: Game, legal: list[str]) -> bool:
    """The resolutions after a placement belong to the same turn."""
    return game.is_mid_turn or any(m.startswith("@") for m in legal)


def hints(game: Game, cells: list[dict | None], fields: dict[str, str],
          legal: list[str]) -> dict[str, Any]:
    """The patches to resolve: each patch's points, and for a tie the groups
    one may choose to remove (``@anchor/group``)."""
    size = game.size
    index = grid.point_index(size)
    patches: dict[str, dict[str, Any]] = {}
    for move in legal:
        if not move.startswith("@"):
            continue
        anchor, _, group = move[1:].partition("/")
        patch = patches.get(anchor)
        if patch is None:
            pts = flood(index[anchor], lambda p: cells[p] is None, size)
            patch = patches[anchor] = {"anchor": anchor, "points": names(pts, size),
                                       "choices": []}
        if group:
            g0 = index[group]
            want = cells[g0]

            def same(p: int, w: dict | None = want) -> bool:
                return cells[p] == w
            pts = flood(g0, same, size)
            patch["choices"].append({"move": move, "group": group, "points": names(pts, size)})
        else:
            patch["move"] = move
    return {"patches": list(patches.values())}
