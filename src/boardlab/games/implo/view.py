"""Implo's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from typing import Any

from ...core import grid
from ...core.game import Game
from ..view import Piece, biggest, cancel_pairs, components, flood, names, sizes_text

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


def describe(before: Game, move: str, after: Game, cells_before: list[dict | None],
             cells_after: list[dict | None]) -> dict[str, Any] | None:
    """A resolution: the markers it put down and the stone group it removed."""
    if not move.startswith("@"):
        return None
    size = before.size
    anchor = move[1:].partition("/")[0]
    patch = flood(grid.point_index(size)[anchor], lambda p: cells_before[p] is None, size)
    owner = (cells_after[patch[0]] or {}).get("color", "?")
    removed = [p for p in range(size * size)
               if (cells_before[p] or {}).get("type") == "stone" and cells_after[p] is None]
    text = f"resolved the patch at {anchor}: {owner} markers on {', '.join(names(patch, size))}"
    if removed:
        color = cells_before[removed[0]]["color"]  # type: ignore[index]
        text += f"; removed {color}'s group of {len(removed)} ({', '.join(names(removed, size))})"
    else:
        text += "; no stone touched it, nothing removed"
    return {"text": text, "removed": names(removed, size)}


def score_parts(game: Game, cells: list[dict | None], fields: dict[str, str]
                ) -> dict[str, Any] | None:
    """The marker groups, the pairs of equal size set aside, and each side's
    biggest group left (its score)."""
    size = game.size
    colors = list(game.colors)
    groups = [components(cells, size, lambda c, k=color: c is not None and c["type"] == "marker"
                         and c["color"] == k) for color in colors]
    left_b, left_w, pairs = cancel_pairs(groups[0], groups[1])
    (sb, pb), (sw, pw) = biggest(left_b), biggest(left_w)
    black, white = colors
    text = (f"Marker groups: {black} {sizes_text(groups[0])}; {white} {sizes_text(groups[1])}. "
            f"Equal sizes pair off ({', '.join(map(str, pairs)) or 'none'}); a side scores the "
            f"biggest size where it has more groups: {black} {sb}, {white} {sw}.")
    if not sb and not sw:
        text += " Both 0: at the end, the color with more stones on the board wins."
    return {"text": text, "totals": {black: float(sb), white: float(sw)},
            "points": {black: names(pb, size), white: names(pw, size)}}
