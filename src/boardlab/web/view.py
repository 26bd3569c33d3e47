"""What the page needs to draw a game: the game's state as plain JSON.

Everything here is derived from the library's public view of a game — the
position text (whose board tokens name every piece), the legal moves, the
history and the outcome — plus a little per-game metadata (which token is
which piece, whether the board is points or squares). The client draws the
SVG from it and never re-implements a rule.
"""

from __future__ import annotations

import re
from typing import Any

import boardlab
from boardlab.core import grid

#: Per game: board kind, and position token -> piece (type, color).
PIECES: dict[str, dict[str, tuple[str, str | None]]] = {
    "implo": {"X": ("stone", "black"), "O": ("stone", "white"),
              "x": ("marker", "black"), "o": ("marker", "white")},
    "yugo": {"x": ("pawn", "black"), "o": ("pawn", "white"),
             "X": ("king", "black"), "O": ("king", "white")},
    "pilo": {"b": ("stack", "blue"), "o": ("stack", "orange"), "#": ("block", None)},
    "vimbre": {"X": ("stone", "black"), "O": ("stone", "white")},
    "robble": {"X": ("stone", "black"), "O": ("stone", "white")},
}

#: Pieces sit on the intersections of lines (points) or inside squares.
BOARD_KIND = {"implo": "points", "yugo": "points", "vimbre": "points",
              "pilo": "squares", "robble": "squares"}

#: Human words for the pieces, shown in the legend.
LEGEND = {
    "implo": "stones (round) and markers (square); a turn is a placement then one "
             "resolution per patch",
    "yugo": "pawns (plain) and kings (crowned); the button is taken once for half a point",
    "pilo": "stacks with their height, and neutral blocks",
    "vimbre": "stones; black joins top and bottom (black edges), white joins left and right "
              "(white edges)",
    "robble": "stones; each placement pushes, removes or flips its neighbours",
}

_POINT_RE = re.compile(r"[a-s](?:1[0-9]|[1-9])(?![0-9])")
#: Moves that are not a click on the board.
SPECIAL_MOVES = ("swap", "pass", "button", "done", "accept", "reject")


def kind_info(name: str) -> dict[str, Any]:
    cls = boardlab.game_class(name)
    info = cls.info()
    return {
        "name": cls.name,
        "colors": list(cls.colors),
        "default_size": cls.default_size,
        "min_size": info.min_size,
        "max_size": info.max_size,
        "options": dict(cls.option_defaults),
        "board": BOARD_KIND[cls.name],
        "legend": LEGEND[cls.name],
    }


def move_points(move: str, size: int) -> list[str]:
    """The point names a move mentions, in order ('c3,e5' -> ['c3', 'e5'])."""
    names = set(grid.point_names(size))
    return [p for p in _POINT_RE.findall(move) if p in names]


def parse_fields(position: str) -> dict[str, str]:
    out = {}
    for item in position.split()[4:]:
        key, _, value = item.partition("=")
        out[key] = value
    return out


def board_cells(game: boardlab.Game, position: str | None = None) -> list[dict | None]:
    """One entry per point (index order, a1 first): None or a piece dict."""
    position = position or game.position()
    board_text = position.split()[2]
    tokens = grid.parse_board(board_text, game.size, ValueError)
    table = PIECES[game.name]
    cells: list[dict | None] = []
    for token in tokens:
        if token is None:
            cells.append(None)
            continue
        letter, _, rest = token.partition("(")
        kind, color = table.get(letter, ("unknown", None))
        piece: dict[str, Any] = {"type": kind, "color": color}
        if kind == "stack":
            piece["height"] = int(rest.rstrip(")")) if rest else 1
        cells.append(piece)
    return cells


def _flood(start: int, same, size: int) -> list[int]:
    adj = grid.neighbours(size)
    return sorted(grid.flood(start, same, adj))


def _names(points: list[int], size: int) -> list[str]:
    return [grid.point_name(p, size) for p in points]


def hints(game: boardlab.Game, cells: list[dict | None], fields: dict[str, str],
          legal: list[str]) -> dict[str, Any]:
    """Game-specific help for input: implo patches, yugo groups to mark and marked groups."""
    size = game.size
    index = grid.point_index(size)
    out: dict[str, Any] = {}
    if game.name == "implo":
        patches: dict[str, dict[str, Any]] = {}
        for move in legal:
            if not move.startswith("@"):
                continue
            anchor, _, group = move[1:].partition("/")
            patch = patches.get(anchor)
            if patch is None:
                pts = _flood(index[anchor], lambda p: cells[p] is None, size)
                patch = patches[anchor] = {"anchor": anchor, "points": _names(pts, size),
                                           "choices": []}
            if group:
                g0 = index[group]
                want = cells[g0]
                pts = _flood(g0, lambda p, w=want: cells[p] == w, size)
                patch["choices"].append({"move": move, "group": group,
                                         "points": _names(pts, size)})
            else:
                patch["move"] = move
        out["patches"] = list(patches.values())
    elif game.name == "yugo":
        def group_of(p: int) -> list[int]:
            color = cells[p]["color"] if cells[p] else None
            return _flood(p, lambda q: cells[q] is not None and cells[q]["color"] == color, size)
        out["phase"] = fields.get("phase", "play")
        out["button"] = None if fields.get("button", "-") == "-" else fields.get("button")
        out["markable"] = [
            {"move": m, "point": m.split()[1], "points": _names(group_of(index[m.split()[1]]), size)}
            for m in legal if m.startswith("mark ")]
        marks = fields.get("marks", "-")
        marked = [] if marks in ("-", "") else marks.split(",")
        out["marked"] = [{"point": m, "points": _names(group_of(index[m]), size)}
                         for m in marked if m in index and cells[index[m]] is not None]
        out["rejected"] = fields.get("rejected") == "yes"
    elif game.name == "pilo":
        out["passes"] = int(fields.get("passes", "0") or 0)
    return out


def live_scores(game: boardlab.Game) -> dict[str, float] | None:
    if game.is_over:
        return game.scores
    hook = getattr(game, "_live_scores", None)
    try:
        return hook() if hook else None
    except Exception:  # noqa: BLE001 - a half-finished engine must not break the page
        return None


def mid_turn(game: boardlab.Game, legal: list[str]) -> bool:
    if game.is_mid_turn:
        return True
    if game.name == "implo":
        return any(m.startswith("@") for m in legal)
    return False


def game_view(game: boardlab.Game) -> dict[str, Any]:
    """The board and rules-derived state of ``game`` as it stands now."""
    position = game.position()
    fields = parse_fields(position)
    cells = board_cells(game, position)
    legal = game.legal_moves()
    history = game.history
    last = history[-1] if history else None
    outcome = game.outcome
    return {
        "position": position,
        "cells": cells,
        "to_move": game.to_move,
        "legal": legal,
        "mid_turn": mid_turn(game, legal),
        "last_move": last,
        "last_points": move_points(last, game.size) if last else [],
        "fields": fields,
        "hints": hints(game, cells, fields, legal),
        "scores": live_scores(game),
        "outcome": None if outcome is None else {
            "winner": outcome.winner,
            "termination": outcome.termination.value,
            "scores": outcome.scores,
        },
    }
