"""Pilo's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from typing import Any

from ...core import grid
from ...core.game import Game
from ..view import Piece, biggest, cancel_pairs, components, names

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


def describe(before: Game, move: str, after: Game, cells_before: list[dict | None],
             cells_after: list[dict | None]) -> dict[str, Any] | None:
    """A stack move: which stack it took, how tall it is now, the block it left."""
    if "-" not in move:
        return {"text": f"placed a disk on {move}"} if move in grid.point_index(before.size) \
            else None
    frm, to = move.split("-")
    index = grid.point_index(before.size)
    taken = cells_before[index[to]] or {}
    landed = cells_after[index[to]] or {}
    return {"text": f"moved the stack on {frm} to {to}, taking the {taken.get('color')} stack "
                    f"there (now {landed.get('height', '?')} high); a block stays on {frm}",
            "pushed": [[frm, to]]}


def score_parts(game: Game, cells: list[dict | None], fields: dict[str, str]
                ) -> dict[str, Any] | None:
    """The patches (blocks split the board into them) and who owns each: the
    color with the biggest group left after equal-size groups pair off; a
    score is the squares of the patches owned."""
    size = game.size
    colors = list(game.colors)
    patches = components(cells, size, lambda c: c is None or c["type"] != "block")
    groups = [components(cells, size, lambda c, k=color: c is not None and c["color"] == k)
              for color in colors]
    patch_of = {p: i for i, patch in enumerate(patches) for p in patch}
    totals = dict.fromkeys(colors, 0.0)
    owned: dict[str, list[int]] = {c: [] for c in colors}
    counts = dict.fromkeys(colors, 0)
    nobody = 0
    for i, patch in enumerate(patches):
        inside = [[g for g in side if patch_of[g[0]] == i] for side in groups]
        left = cancel_pairs(inside[0], inside[1])
        best = [biggest(left[0])[0], biggest(left[1])[0]]
        if best[0] == best[1]:
            nobody += 1
            continue
        owner = colors[0] if best[0] > best[1] else colors[1]
        totals[owner] += len(patch)
        owned[owner] += patch
        counts[owner] += 1
    text = (f"Blocks split the board into {_patches(len(patches))}; "
            "in each, equal-size groups of the two colors pair off and the color with the "
            "biggest group left owns it. " +
            "; ".join(f"{c} owns {_patches(counts[c])} ({int(totals[c])} squares)"
                      for c in colors) +
            (f"; {_patches(nobody)} {'belongs' if nobody == 1 else 'belong'} to nobody"
             if nobody else "") + ". A score is the squares owned.")
    return {"text": text, "totals": totals,
            "points": {c: names(sorted(owned[c]), size) for c in colors}}


def _patches(n: int) -> str:
    return f"{n} patch" if n == 1 else f"{n} patches"


def setup_fields(game_class: type[Game], to_move: str) -> dict[str, str]:
    """What a position set up on the board editor says of the state it cannot
    show: the last board play was the other color's (the tie-break)."""
    colors = game_class.colors
    return {"last": colors[1 - colors.index(to_move)]}
