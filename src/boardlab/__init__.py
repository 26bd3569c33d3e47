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

import importlib
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

__version__ = "0.1.0"

#: The games, by name. Each lives in ``boardlab.games.<name>`` as a class
#: named like the game; modules are imported on first use.
GAMES: tuple[str, ...] = ("implo", "pilo", "robble", "vimbre", "yugo")


def game_class(name: str) -> type[Game]:
    """The class of a game by name (case-insensitive); OptionError if unknown."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in GAMES:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    module = importlib.import_module(f"boardlab.games.{key}")
    return getattr(module, key.capitalize())


def __getattr__(attr: str) -> type[Game]:
    """``boardlab.Implo`` etc., imported lazily."""
    if attr.lower() in GAMES and attr == attr.capitalize():
        return game_class(attr)
    raise AttributeError(f"module 'boardlab' has no attribute {attr!r}")


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
    "GAMES", "BoardlabError", "Game", "GameInfo", "GameOverError",
    "IllegalMoveError", "OptionError", "Outcome", "PositionError", "Termination",
    "UndoError", "from_position", "game_class", "new_game",
]
