"""What a game tells the terminal and the web to draw it: its view plug-in.

``cli/`` and ``web/`` never name a game. Each game keeps its drawing facts
beside its rules in ``boardlab.games.<game>.view``, the ``view`` part its
package declares (``PARTS``: :func:`boardlab.games.plugin`):

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
``describe(before, move, after, cells_before, cells_after)`` (optional)
    what ``move`` (played at ``before``, giving ``after``) did, for a
    player: ``{"text": "played c3: pushed d3 to e3", "pushed": [[from,
    to]], "flipped": [points], "removed": [points]}`` (``text`` follows
    "<Color> "; the lists are board marks, each optional); None for the
    plain words ("played c3", "passed", "swapped ...").
``setup_fields(game_class, to_move)`` (optional)
    the state fields a position set up on the web's board editor takes for
    what the editor does not ask (pilo's ``last``: who made the last board
    play), as position-text ``key: value`` pairs.
``score_parts(game, cells, fields)`` (optional)
    what the score shown is made of: ``{"text": words, "totals": {color:
    score}, "points": {color: [points that count]}}``; ``totals`` equal the
    scores the page shows (a test holds them to the rules engine's), the
    points are shaded on request. None where there is nothing to explain.

The helpers below (:func:`components`, :func:`names`, :func:`flood`,
:func:`cancel_pairs`) are for those functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..core import grid, pie
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


#: what the plain moves every game may have did, after "<Color> ", where a
#: plug-in's ``describe`` says nothing
_PLAIN = {"pass": "passed", pie.SWAP: "swapped (pie rule): the players exchanged colors"}


def plain_description(move: str) -> str:
    """What ``move`` did in plain words: "passed", "played c3"."""
    return _PLAIN.get(move, f"played {move}")


def view_module(game: Game | type[Game] | str) -> ModuleType:
    """The view module a game declares, for a game, a game class or a game name."""
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


def cancel_pairs(first: list[list[int]], second: list[list[int]]
                 ) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Equal-size groups of the two colors set aside in pairs, as the
    robble, implo (markers) and pilo (per patch) scores do: each side's
    groups left over, and the size of each pair set aside (sorted, largest
    first). For a size with more groups on one side, which of them are
    "left" is arbitrary (the first found)."""
    by_size: dict[int, tuple[list[list[int]], list[list[int]]]] = {}
    for side, groups in enumerate((first, second)):
        for g in groups:
            by_size.setdefault(len(g), ([], []))[side].append(g)
    left: tuple[list[list[int]], list[list[int]]] = ([], [])
    pairs: list[int] = []
    for s, (a, b) in sorted(by_size.items(), reverse=True):
        k = min(len(a), len(b))
        pairs += [s] * k
        left[0].extend(a[k:])
        left[1].extend(b[k:])
    return left[0], left[1], pairs


def biggest(groups: list[list[int]]) -> tuple[int, list[int]]:
    """The largest size among ``groups`` (0 if none) and the points of every
    group of that size."""
    best = max((len(g) for g in groups), default=0)
    return best, sorted(p for g in groups if len(g) == best for p in g)


def sizes_text(groups: list[list[int]]) -> str:
    """"5, 3, 3" (largest first), or "none"."""
    return ", ".join(str(len(g)) for g in sorted(groups, key=len, reverse=True)) or "none"


__all__ = ["Piece", "biggest", "plain_description", "board_kind", "cancel_pairs", "components", "flood", "hook",
           "names", "pieces", "shows_ownership", "sizes_text", "view_module"]
