"""What the page needs to draw a game: the game's state as plain JSON.

Everything here is derived from the library's public view of a game — the
position text (whose board tokens name every piece), the legal moves, the
history and the outcome — plus what each game's view plug-in says (which
token is which piece, points or squares, its input hints:
:mod:`boardlab.games.view`). The client draws the SVG from it and never
re-implements a rule; this module never names a game.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import boardlab
from boardlab.core import grid
from boardlab.games import view as plugin

_POINT_RE = re.compile(r"[a-s](?:1[0-9]|[1-9])(?![0-9])")


def board_kind(game: boardlab.Game | str) -> str:
    """``points`` or ``squares``: where the pieces sit."""
    return plugin.board_kind(game)


def board_facts(game: boardlab.Game | type[boardlab.Game] | str) -> dict[str, Any]:
    """What the page's board drawing needs beyond the cells, from the game's
    view plug-in: ``board`` (points or squares), ``edges`` (the colors owning
    the top-and-bottom and left-and-right edges, or None) and ``placed`` (the
    piece kind a placement puts down, for the move hints)."""
    module = plugin.view_module(game)
    edges = getattr(module, "EDGES", None)
    return {"board": module.BOARD, "edges": list(edges) if edges else None,
            "placed": getattr(module, "PLACED", "stone")}


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
        "option_labels": {k: cls.option_label(k) for k in cls.option_defaults},
        "option_help": {k: cls.option_help.get(k, "") for k in cls.option_defaults},
        # a position set up on the board editor: its options unless told otherwise
        "setup_options": {**cls.option_defaults, **cls.setup_defaults},
        # what the players settle before the first move (yugo's komi), or None
        "pregame": cls.pregame.describe() if cls.pregame is not None else None,
        **board_facts(cls),
        "legend": plugin.view_module(cls).LEGEND,
        # the board editor's palette: each piece with its position-text token
        "pieces": [{"token": tok, "type": p.kind, "color": p.color}
                   for tok, p in plugin.pieces(cls).items()],
    }


def move_points(move: str, size: int) -> list[str]:
    """The point names a move mentions, in order ('c3,e5' -> ['c3', 'e5'])."""
    names = _point_names(size)
    return [p for p in _POINT_RE.findall(move) if p in names]


@functools.cache
def _point_names(size: int) -> frozenset[str]:
    # once per size: for each of 64,333 moves it took 1.4 s
    return frozenset(grid.point_names(size))


def board_cells(game: boardlab.Game) -> list[dict | None]:
    """One entry per point (index order, a1 first): None or a piece dict."""
    tokens = game.cells()
    table = plugin.pieces(game)
    cells: list[dict | None] = []
    for token in tokens:
        if token is None:
            cells.append(None)
            continue
        letter, _, rest = token.partition("(")
        known = table.get(letter)
        kind, color = (known.kind, known.color) if known else ("unknown", None)
        piece: dict[str, Any] = {"type": kind, "color": color}
        if kind == "stack":  # a piece kind of the plug-ins' vocabulary, not a game
            piece["height"] = int(rest.rstrip(")")) if rest else 1
        cells.append(piece)
    return cells


def hints(game: boardlab.Game, cells: list[dict | None], fields: dict[str, str],
          legal: list[str]) -> dict[str, Any]:
    """The game's own help for input and display (its view plug-in's ``hints``)."""
    fn = plugin.hook(game, "hints")
    return fn(game, cells, fields, legal) if fn else {}


def live_scores(game: boardlab.Game) -> dict[str, float] | None:
    if game.is_over:
        return game.scores
    hook = getattr(game, "_live_scores", None)
    try:
        return hook() if hook else None
    except Exception:  # noqa: BLE001 - a half-finished engine must not break the page
        return None


def mid_turn(game: boardlab.Game, legal: list[str]) -> bool:
    """Whether the mover is inside a turn (the page must not hand it over)."""
    fn = plugin.hook(game, "mid_turn")
    return fn(game, legal) if fn else game.is_mid_turn


def last_move(game: boardlab.Game, cells: list[dict | None]) -> tuple[str | None, dict | None]:
    """The last move in words ("White played c3: pushed d3 to e3") and its
    board marks ({pushed, flipped, removed}), from the game's plug-in
    (``describe``), or plain words; (None, None) before any move."""
    if not game.history:
        return None, None
    move = game.history[-1]
    before = game.copy()
    before.undo()
    fn = plugin.hook(game, "describe")
    found = fn(before, move, game, board_cells(before), cells) if fn else None
    text = found["text"] if found else plugin.plain_description(move)
    marks = {k: found[k] for k in ("pushed", "flipped", "removed") if found and found.get(k)}
    return f"{(before.to_move or '').capitalize()} {text}", marks or None


def score_parts(game: boardlab.Game, cells: list[dict | None],
                fields: dict[str, str]) -> dict[str, Any] | None:
    """What the score shown is made of (the plug-in's ``score_parts``), or None."""
    fn = plugin.hook(game, "score_parts")
    return fn(game, cells, fields) if fn else None


def game_view(game: boardlab.Game) -> dict[str, Any]:
    """The board and rules-derived state of ``game`` as it stands now."""
    position = game.position()
    fields = game.position_fields()
    cells = board_cells(game)
    legal = game.legal_moves()
    history = game.history
    last = history[-1] if history else None
    outcome = game.outcome
    said, effects = last_move(game, cells)
    return {
        "position": position,
        "cells": cells,
        "to_move": game.to_move,
        "legal": legal,
        # the game's moves that are words (its buttons), with their buttons' words
        "words": dict(type(game).move_words),
        "mid_turn": mid_turn(game, legal),
        "last_move": last,
        "last_points": move_points(last, game.size) if last else [],
        "fields": fields,
        "hints": hints(game, cells, fields, legal),
        "scores": live_scores(game),
        "last_move_text": said,
        "last_effects": effects,
        "score_parts": score_parts(game, cells, fields),
        "outcome": None if outcome is None else {
            "winner": outcome.winner,
            "termination": outcome.termination.value,
            "scores": outcome.scores,
        },
    }
