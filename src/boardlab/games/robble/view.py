"""Robble's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from typing import Any

from ...core import grid
from ...core.game import Game
from ..view import Piece, biggest, cancel_pairs, components, names, sizes_text
from .rules import _push_table

BOARD = "squares"
PIECES = {"X": Piece("stone", "black", "●"), "O": Piece("stone", "white", "○")}
LEGEND = "stones; each placement pushes, removes or flips its neighbours"
TERMINAL_LEGEND = "● black  ○ white"
NOTATION = "c3 place a stone, swap (pie rule)"


def describe(before: Game, move: str, after: Game, cells_before: list[dict | None],
             cells_after: list[dict | None]) -> dict[str, Any] | None:
    """A placement's pushes, flips and removals (docs: rules/robble.md)."""
    index = grid.point_index(before.size)
    if move not in index:
        return None  # the swap: the plain words
    pushed, flipped, removed = [], [], []
    for a, b in _push_table(before.size)[index[move]]:
        if cells_before[a] is None:
            continue
        if b < 0:
            removed.append(a)
        elif cells_before[b] is not None:
            flipped.append(a)
        else:
            pushed.append((a, b))
    size = before.size
    parts = []
    if pushed:
        parts.append("pushed " + _and([f"{grid.point_name(a, size)} to {grid.point_name(b, size)}"
                                       for a, b in pushed]))
    if flipped:
        parts.append("flipped " + _and(names(flipped, size)))
    if removed:
        parts.append("removed " + _and(names(removed, size)))
    text = f"placed {move}" + (": " + "; ".join(parts) if parts else " (no stone beside it)")
    return {"text": text, "pushed": [names([a, b], size) for a, b in pushed],
            "flipped": names(flipped, size), "removed": names(removed, size)}


def score_parts(game: Game, cells: list[dict | None], fields: dict[str, str]
                ) -> dict[str, Any] | None:
    """At the end: the groups, the pairs that cancel, and the biggest group
    each side has left (its score)."""
    if not game.is_over or game.outcome is None or game.outcome.scores is None:
        return None
    size = game.size
    groups = [components(cells, size, lambda c, k=color: c is not None and c["color"] == k)
              for color in game.colors]
    left_b, left_w, pairs = cancel_pairs(groups[0], groups[1])
    (sb, pb), (sw, pw) = biggest(left_b), biggest(left_w)
    black, white = game.colors
    text = (f"Groups: {black} {sizes_text(groups[0])}; {white} {sizes_text(groups[1])}. "
            f"Equal sizes cancel in pairs ({', '.join(map(str, pairs)) or 'none'}); left over: "
            f"{black} {sizes_text(left_b)}; {white} {sizes_text(left_w)}. ")
    text += (f"Each side scores its biggest group left: {black} {sb}, {white} {sw}." if sb or sw
             else "Nothing is left over: the player who filled the board loses.")
    return {"text": text, "totals": {black: float(sb), white: float(sw)},
            "points": {black: names(pb, size), white: names(pw, size)}}


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
