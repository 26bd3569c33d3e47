"""Yugo's view plug-in (the contract: :mod:`boardlab.games.view`)."""

from __future__ import annotations

from typing import Any

from ...core import grid
from ...core.game import Game
from ..view import Piece, components, flood, names

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


def describe(before: Game, move: str, after: Game, cells_before: list[dict | None],
             cells_after: list[dict | None]) -> dict[str, Any] | None:
    """What a king took, and the words of the button, marking and answering."""
    size = before.size
    fields = before.position_fields()
    marks = [m for m in fields.get("marks", "-").split(",") if m not in ("-", "")]
    groups = ", ".join(marks)
    if move == "button":
        return {"text": "took the button (half a point)"}
    if move.startswith("mark "):
        return {"text": f"marked the group at {move[5:]} for removal"}
    if move == "done":
        return {"text": f"proposed to remove the groups at {groups}" if marks
                else "proposed to remove nothing"}
    if move == "accept":
        return {"text": f"accepted: the groups at {groups} are removed and the game is scored"
                if marks else "accepted the proposal, which removes nothing: the game is scored"}
    if move == "reject":
        return {"text": "rejected the proposal: the marks are cleared and play goes on"}
    if move.startswith("k"):
        removed = [p for p in range(size * size)
                   if cells_before[p] is not None and cells_after[p] is None]
        text = f"placed a king on {move[1:]}"
        if removed:
            text += f", removing the surrounded pawns on {', '.join(names(removed, size))}"
        return {"text": text, "removed": names(removed, size)}
    return None


def score_parts(game: Game, cells: list[dict | None], fields: dict[str, str]
                ) -> dict[str, Any] | None:
    """Each color's territory, its pieces in groups with a liberty, the
    enemy kings in groups without one, the button and (White) the komi."""
    size = game.size
    colors = list(game.colors)
    adj = grid.neighbours(size)
    land = territories(cells, size)
    index = grid.point_index(size)
    parts = {c: {"territory": len(land[c]), "pieces": 0, "kings": 0} for c in colors}
    counted: dict[str, list[int]] = {c: [index[p] for p in land[c]] for c in colors}
    for color in colors:
        other = colors[1 - colors.index(color)]
        for group in components(cells, size, lambda c, k=color: c is not None and c["color"] == k):
            if any(cells[q] is None for p in group for q in adj[p]):
                parts[color]["pieces"] += len(group)
                counted[color] += group
            else:
                kings = [p for p in group if cells[p]["type"] == "king"]  # type: ignore[index]
                parts[other]["kings"] += len(kings)
                counted[other] += kings
    button = fields.get("button", "-")
    komi = float(game.options.get("komi", 0))
    totals = {}
    words = []
    for i, color in enumerate(colors):
        p = parts[color]
        extra = (0.5 if button == color else 0.0) + (komi if i == 1 else 0.0)
        totals[color] = float(p["territory"] + p["pieces"] + p["kings"]) + extra
        sums = [f"territory {p['territory']}", f"pieces {p['pieces']}", f"kings taken {p['kings']}"]
        if button == color:
            sums.append("button ½")
        if i == 1 and komi:
            sums.append(f"komi {komi:g}")
        words.append(f"{color}: {' + '.join(sums)} = {totals[color]:g}")
    return {"text": "; ".join(words) + ".", "totals": totals,
            "points": {c: names(sorted(set(counted[c])), size) for c in colors}}
