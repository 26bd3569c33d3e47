"""One package per game: ``boardlab.games.<game>`` holds all of it, ``rules``
(the :class:`~boardlab.core.game.Game` subclass the package exports) and the
parts it declares in its ``PARTS``: ``view`` (what the terminal and the web
draw: :mod:`.view`), ``search`` (search advice: :mod:`boardlab.fast.advice`)
and ``tensors`` (observation planes: :mod:`boardlab.research.tensors`).
Beside them here: :mod:`.view`, the view plug-ins' contract and helpers, and
``_planes``, the tensors' shared plane builder.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

_PARTS: dict[tuple[type, str], ModuleType | None] = {}


def plugin(game, part: str, *, optional: bool = False) -> ModuleType | None:
    """The module a game declares for ``part`` (``view``, ``search``,
    ``tensors``: its package's ``PARTS``), for a game, a game class or a game
    name; cached. ``optional``: None when the game declares no such part
    (else a LookupError says which game lacks which part)."""
    from ..core.game import Game
    if isinstance(game, str):
        from .. import game_class
        cls: type[Game] = game_class(game)
    elif isinstance(game, Game):
        cls = type(game)
    elif isinstance(game, type) and issubclass(game, Game):
        cls = game
    else:
        from ..errors import OptionError
        raise OptionError(f"expected a game, a game class or a game name, got {game!r}")
    key = (cls, part)
    if key not in _PARTS:
        # the package the game's class is defined in declares its parts
        package = sys.modules[sys.modules[cls.__module__].__package__ or cls.__module__]
        name = getattr(package, "PARTS", {}).get(part)
        _PARTS[key] = importlib.import_module(name) if name else None
    found = _PARTS[key]
    if found is None and not optional:
        raise LookupError(f"{cls.name} declares no {part!r} part (the PARTS of its package "
                          f"{sys.modules[cls.__module__].__package__})")
    return found
