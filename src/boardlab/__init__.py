"""boardlab: rules engines, AI and play for five games by Luis Bolaños Mures.

>>> import boardlab
>>> game = boardlab.new_game("robble", size=5)
>>> game.to_move
'black'
>>> game.play("c3")
>>> game.legal_moves()[:3], game.to_move
(['a1', 'b1', 'c1'], 'white')
"""

from __future__ import annotations

from typing import Any

from .core.game import Game, GameInfo
from .core.outcome import Outcome, Termination
from .errors import (
    BoardlabError,
    GameOverError,
    IllegalMoveError,
    OptionError,
    PositionError,
    UndoError,
)
from .games.implo import Implo
from .games.pilo import Pilo
from .games.robble import Robble
from .games.vimbre import Vimbre
from .games.yugo import Yugo

__version__ = "0.1.0"

GAME_CLASSES: dict[str, type[Game]] = {
    cls.name: cls for cls in (Implo, Pilo, Robble, Vimbre, Yugo)
}
GAMES: tuple[str, ...] = tuple(sorted(GAME_CLASSES))


def game_class(name: str) -> type[Game]:
    """The class of a game by name (case-insensitive); OptionError if unknown."""
    if not isinstance(name, str) or name.strip().lower() not in GAME_CLASSES:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    return GAME_CLASSES[name.strip().lower()]


def new_game(name: str, size: int | None = None, **options: Any) -> Game:
    """A new game. Options: ``pie`` (implo, pilo, robble), ``komi`` (yugo)."""
    return game_class(name)(size, **options)


def from_position(text: str) -> Game:
    """Set up a game from a position text (its first word names the game)."""
    if not isinstance(text, str) or not text.split():
        raise PositionError("empty position text")
    name = text.split()[0]
    try:
        cls = game_class(name)
    except OptionError as exc:
        raise PositionError(str(exc)) from None
    return cls.from_position(text)


__all__ = [
    "GAMES", "GAME_CLASSES", "BoardlabError", "Game", "GameInfo", "GameOverError",
    "IllegalMoveError", "OptionError", "Outcome", "PositionError", "Termination",
    "UndoError", "from_position", "game_class", "new_game",
]
