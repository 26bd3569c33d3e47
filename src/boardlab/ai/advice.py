"""What a game tells the generic search: its search advice plug-in.

The search (:mod:`boardlab.ai.mcts`, :mod:`boardlab.ai.tactics`) never names
a game. A game that has more to say than "play uniform random moves, scan
every legal move for a one-move win" keeps that knowledge beside its rules,
in ``boardlab.games.<game>_search`` (found from the game class's module, as
``boardlab.research.tensors`` finds ``<game>_tensors``), with any of these names:

``PLAYOUTS``
    ``{name: policy}``: the game's own playout policies (the contract of a
    policy is in :mod:`boardlab.ai.policies`); ``random`` is every game's.
``DEFAULT_PLAYOUT``
    the policy ``playout=auto`` means (default ``"random"``); a game lists one
    only when a match showed it beats uniform playouts.
``node_moves(game, legal, rng)``
    the moves a new tree node considers, a non-empty subset of ``legal``
    (vimbre's thousands of pairs); default: all of them.
``find_win(game, legal)``
    a legal action that wins at once, or None, when the game knows a faster
    way than trying every move (default: try each).
``SCAN_BY_COPY``
    whether trying a move is cheaper on a copy than with ``step_with_undo``
    (default True).
``special(game, agent, memo)``
    an action the agent must play without a tree search (yugo's marking and
    answering), or None to search as usual; ``memo`` is a dict the agent
    keeps for the game between moves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..core.game import Game


@dataclass(frozen=True)
class SearchAdvice:
    """A game's search advice, with the defaults filled in."""
    playouts: Mapping[str, Callable] = field(default_factory=lambda: MappingProxyType({}))
    default_playout: str = "random"
    node_moves: Callable[..., list[int]] | None = None
    find_win: Callable[[Game, list[int]], int | None] | None = None
    scan_by_copy: bool = True
    special: Callable[[Game, Any, dict], int | None] | None = None


_CACHE: dict[object, SearchAdvice] = {}  # by plug-in module (None: the defaults)


def advice_for(game: Game | type[Game] | str) -> SearchAdvice:
    """The search advice of a game, a game class or a game name (cached)."""
    from ..games import plugin
    module = plugin(game, "search", optional=True)
    found = _CACHE.get(module)
    if found is None:
        found = _CACHE[module] = SearchAdvice(
            playouts=MappingProxyType(dict(getattr(module, "PLAYOUTS", {}))),
            default_playout=getattr(module, "DEFAULT_PLAYOUT", "random"),
            node_moves=getattr(module, "node_moves", None),
            find_win=getattr(module, "find_win", None),
            scan_by_copy=getattr(module, "SCAN_BY_COPY", True),
            special=getattr(module, "special", None),
        )
    return found


__all__ = ["SearchAdvice", "advice_for"]
