"""One plug-in per game: ``<game>`` holds its rules, and beside it
``<game>_view`` (what the terminal and the web draw: :mod:`.view`),
``<game>_search`` (search advice, where a game has any:
:mod:`boardlab.ai.advice`) and ``<game>_tensors`` (observation planes:
:mod:`boardlab.research.tensors`)."""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

_PARTS: dict[tuple[type, str], ModuleType | None] = {}


def plugin(game, part: str, *, optional: bool = False) -> ModuleType | None:
    """The ``<game>_<part>`` module beside a game's rules (``view``,
    ``search``, ``tensors``), for a game, a game class or a game name;
    cached. ``optional``: None when the game has no such module."""
    from ..core.game import Game
    if isinstance(game, str):
        from .. import game_class
        cls: type = game_class(game)
    elif isinstance(game, Game):
        cls = type(game)
    elif isinstance(game, type) and issubclass(game, Game):
        cls = game
    else:
        from ..errors import OptionError
        raise OptionError(f"expected a game, a game class or a game name, got {game!r}")
    key = (cls, part)
    if key not in _PARTS:
        name = f"{cls.__module__}_{part}"
        found = not optional or importlib.util.find_spec(name) is not None
        _PARTS[key] = importlib.import_module(name) if found else None
    return _PARTS[key]
