"""What a game tells the terminal and the web to draw it: its view plug-in.

``cli/`` and ``web/`` never name a game. Each game keeps its drawing facts
beside its rules in ``boardlab.games.<game>_view`` (found from the game
class's module, as ``boardlab.research.tensors`` finds ``<game>_tensors``):

``BOARD``
    ``"points"`` (pieces on the intersections of lines) or ``"squares"``.
``PIECES``
    position-text token -> :class:`Piece` (what it is, its color, its
    terminal glyph).
``LEGEND`` / ``TERMINAL_LEGEND``
    words for the pieces, under the web board / the terminal board.
``NOTATION``
    how to type a move (the terminal's help).
``PLACED`` (optional)
    the piece kind a placement puts down (default ``"stone"``).
``EDGES`` (optional)
    the colors owning the top-and-bottom and the left-and-right edges, when
    the board's edges belong to the players (vimbre).
``OWNERSHIP`` (optional, default False)
    whether analysis shows the ownership heat map (``boardlab.fast.ownership``:
    the kernel must define ``owner``). Only where the map was measured to
    predict the final score better than the board does (``bench/ownership.py``,
    docs/analysis.md, "Ownership").
``status(game, fields, legal)`` (optional)
    extra terminal status lines (yugo's button and end phases ...).
``hints(game, cells, fields, legal)`` (optional)
    the web's game-specific help for input and display (implo's patches,
    yugo's groups to mark and territories, vimbre's winning chain).
``mid_turn(game, legal)`` (optional)
    whether the mover is inside a turn the web must not hand over (default:
    ``game.is_mid_turn``).

The helpers below (:func:`components`, :func:`names`, :func:`flood`) are for
those functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..core import grid
from ..core.game import Game


@dataclass(frozen=True)
class Piece:
    """One kind of piece: ``kind`` (stone, marker, pawn, king, stack, block),
    its ``color`` (a color name, or None for a neutral piece) and the glyph
    the terminal draws."""
    kind: str
    color: str | None
    glyph: str

    @property
    def role(self) -> str:
        """The terminal's paint role: the color, or the kind when neutral."""
        return self.color or self.kind


def view_module(game: Game | type[Game] | str) -> ModuleType:
    """The ``<game>_view`` module of a game, a game class or a game name."""
    from . import plugin
    module = plugin(game, "view")
    assert module is not None
    return module


def board_kind(game: Game | type[Game] | str) -> str:
    return view_module(game).BOARD


def pieces(game: Game | type[Game] | str) -> dict[str, Piece]:
    return view_module(game).PIECES


def hook(game: Game | type[Game] | str, name: str) -> Callable[..., Any] | None:
    """The view module's optional function ``name``, or None."""
    return getattr(view_module(game), name, None)


def shows_ownership(game: Game | type[Game] | str) -> bool:
    """Whether analysis draws this game's ownership heat map (``OWNERSHIP``)."""
    return bool(getattr(view_module(game), "OWNERSHIP", False))


def flood(start: int, same: Callable[[int], bool], size: int) -> list[int]:
    """The points orthogonally connected to ``start`` through ``same``, sorted."""
    return sorted(grid.flood(start, same, grid.neighbours(size)))


def names(points: list[int], size: int) -> list[str]:
    return [grid.point_name(p, size) for p in points]


def components(cells: list[dict | None], size: int, member) -> list[list[int]]:
    """The orthogonally connected sets of points for which ``member(cell)`` holds."""
    adj = grid.neighbours(size)
    seen: set[int] = set()
    out = []
    for p in range(size * size):
        if p in seen or not member(cells[p]):
            continue
        comp = grid.flood(p, lambda q: member(cells[q]), adj)
        seen.update(comp)
        out.append(comp)
    return out


__all__ = ["Piece", "board_kind", "components", "flood", "hook", "names", "pieces", "shows_ownership", "view_module"]
