"""Immediate wins: a move that ends the game at once with a win for the mover.

:func:`find_win` is what the MCTS agent runs before searching, so that a
one-move win is never missed (a random subset of vimbre's thousands of moves
would usually miss it). It tries each legal action (on a copy, or with
``step_with_undo`` where the game's advice says that is cheaper), unless the
game's search plug-in has a faster ``find_win`` (vimbre, whose move list is
thousands long: :mod:`boardlab.ai.advice`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.game import Game
from .advice import advice_for


def find_win(game: Game, legal: list[int] | None = None, stop: float | None = None,
             clock: Callable[[], float] | None = None) -> int | None:
    """A legal action after which the game is over and won by the color to move
    now; None if there is none (or the scan reached ``stop`` on ``clock``)."""
    if game.is_over:
        return None
    if legal is None:
        legal = game.legal_actions()
    advice = advice_for(game)
    if advice.find_win is not None:
        return advice.find_win(game, legal)
    return _scan(game, legal, stop, clock, advice.scan_by_copy)


def wins(game: Game, action: int, me: int) -> bool:
    """Whether ``action`` ends the game at once with a win for color ``me``."""
    g = game.copy(history=False)
    g.step(action)
    return g.current_player is None and g.returns()[me] > 0


def _scan(game: Game, legal: list[int], stop, clock, by_copy: bool) -> int | None:
    me = game.current_player
    if by_copy:
        for k, a in enumerate(legal):
            if wins(game, a, me):
                return a
            if stop is not None and not k & 7 and clock() > stop:
                break
        return None
    g = game.copy(history=False)
    for k, a in enumerate(legal):
        token = g.step_with_undo(a)
        won = g.current_player is None and g.returns()[me] > 0
        g.step_back(token)
        if won:
            return a
        if stop is not None and not k & 7 and clock() > stop:
            break
    return None
