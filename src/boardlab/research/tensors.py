"""Observation planes and board symmetries, for learning code (needs numpy).

The generic observer: it knows nothing about any game. Each game keeps its own
tensor knowledge beside its rules, in ``boardlab.games.<game>.tensors``
(pgx style), and this module only finds that module (the ``tensors`` part
the game's package declares: :func:`boardlab.games.plugin`) and calls it. A game's tensors module provides:

``PLANES``
    ``(name, meaning)`` per plane, in plane order (docs/research.md lists them).
``SYMMETRIES``
    the symmetries (``core.symmetry`` ints, 0 = identity) under which the
    rules are invariant.
``planes(game, player)``
    a new float32 array ``(C, size*size)``: the planes of ``game`` as color
    index ``player`` sees them. Every module builds them with one vectorised
    ``games._planes.encode`` over arrays with a leading batch axis, so the
    same tables can later encode a batch of compiled states in one call.
``action_map(size, k)``
    the image of every action under symmetry ``k`` where it does not depend on
    the position (a permutation of ``range(num_distinct_actions)``).
``state_action_map(game, k)`` (optional)
    ``{action: image}`` for the legal actions whose image depends on the
    position (implo's patch resolutions and yugo's marks name a patch or group
    by its smallest point, which a symmetry changes).
``plane_bounds(size, options)`` (optional)
    ``(low, high)`` per plane, when some plane leaves ``[0, 1]`` (pilo's
    heights, yugo's komi).
``observation_string(game, player)`` (optional)
    the observation as text, when the position text alone is not enough
    (robble adds its repetition state); default: the position text.
``symmetries_now(game)`` (optional)
    the symmetries that hold in this position when fewer than ``SYMMETRIES``
    do (yugo: once a removal proposal has begun, marks must come in increasing
    point order, a rule of notation that no symmetry preserves).

Observations are mover-relative ("ours" / "theirs" from the observing color)
and shaped ``(C, size, size)`` with ``[plane, row, col]``, row 0 = rank 1.
They are Markov in what matters to a learner: the planes, and the
observation string, of a position fix its legal moves and its result
(tests/test_research_markov.py replays random games to hold every game to it).

>>> import boardlab
>>> from boardlab.research import tensors
>>> game = boardlab.new_game("robble", size=5)
>>> game.play("c3")
>>> obs = tensors.observe(game)            # white to move: white's view
>>> obs.shape, tensors.plane_names(game)[:2]
((8, 5, 5), ('ours', 'theirs'))
>>> int(obs[1, 2, 2]), int(obs[0].sum())   # black's stone on c3 is "theirs"
(1, 0)
>>> mirrored = tensors.transform_game(game, 1)   # mirror the columns
>>> mirrored.position() == game.position()       # c3 is on the axis
True
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from .. import game_class
from ..core import grid, symmetry
from ..core.game import Game
from ..errors import OptionError
from ..games import plugin

__all__ = ["action_permutation", "observation_shape", "observe", "observation_string",
           "plane_bounds", "plane_names", "symmetries", "tensors_module", "transform_game",
           "transform_planes"]


_MODULES: dict[type, ModuleType] = {}


def _module_for(cls: type[Game]) -> ModuleType:
    module = _MODULES.get(cls)
    if module is None:
        found = plugin(cls, "tensors")
        assert found is not None
        module = _MODULES[cls] = found
    return module


def tensors_module(game: Game | type[Game] | str) -> ModuleType:
    """The tensors module a game declares, for a game, a game class or a game name."""
    module = _MODULES.get(type(game))  # the hot path: a game object seen before
    if module is None:
        module = plugin(game, "tensors")
        assert module is not None
        if isinstance(game, Game):
            _MODULES[type(game)] = module
    return module


def plane_names(game: Game | type[Game] | str) -> tuple[str, ...]:
    return tuple(name for name, _ in tensors_module(game).PLANES)


def observation_shape(game: Game | type[Game] | str, size: int | None = None) -> tuple[int, int, int]:
    """``(planes, size, size)``; ``size`` defaults to the game's own (or the class's default)."""
    if size is None:
        size = game.size if isinstance(game, Game) else _class_of(game).default_size
    return len(tensors_module(game).PLANES), size, size


def plane_bounds(game: Game | type[Game] | str, size: int | None = None,
                 options: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Float32 arrays ``low``, ``high`` of the observation's shape: the range of
    every entry for games of this size and these options (default: the game's
    own options, or the defaults)."""
    shape = observation_shape(game, size)
    if options is None:
        options = game.options if isinstance(game, Game) else _class_of(game).option_defaults
    module = tensors_module(game)
    bounds = getattr(module, "plane_bounds", None)
    low = np.zeros(shape[0], np.float32)
    high = np.ones(shape[0], np.float32)
    if bounds is not None:
        low, high = (np.asarray(x, np.float32) for x in bounds(shape[1], options))
    return (np.ascontiguousarray(np.broadcast_to(low[:, None, None], shape)),
            np.ascontiguousarray(np.broadcast_to(high[:, None, None], shape)))


def _class_of(game: type[Game] | str) -> type[Game]:
    return game_class(game) if isinstance(game, str) else game


def _check_player(game: Game, player: int | None) -> int:
    if player is None:
        current = game.current_player
        return 0 if current is None else current
    if type(player) is not int or player not in (0, 1):
        raise OptionError(f"{game.name}: player must be 0 or 1 (an index into {game.colors}), got {player!r}")
    return player


def observe(game: Game, player: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """The planes of ``game`` as color index ``player`` sees them (default: the
    color to move, or the first color once the game is over), float32
    ``(C, size, size)``. ``out``, if given, gets a copy of the planes and is returned."""
    if player is None or type(player) is not int or player not in (0, 1):
        player = _check_player(game, player)
    size = game.size
    planes = tensors_module(game).planes(game, player)
    planes = planes.reshape(len(planes), size, size)
    if out is None:
        return planes
    if out.shape != planes.shape or out.dtype != np.float32:
        raise OptionError(f"{game.name}: out must be float32 {planes.shape}, got {out.dtype} {out.shape}")
    out[...] = planes
    return out


def observation_string(game: Game, player: int | None = None) -> str:
    """A perfect-information observation as text, the same for both players:
    the position (docs/positions.md), plus what the game's ``observation_string``
    adds where the position text alone does not fix the legal moves and the
    result (robble's repetition state)."""
    _check_player(game, player)
    own = getattr(tensors_module(game), "observation_string", None)
    return own(game, player) if own is not None else game.position()


def symmetries(game: Game) -> tuple[int, ...]:
    """The symmetries (``core.symmetry`` ints) that hold in this position."""
    module = tensors_module(game)
    now = getattr(module, "symmetries_now", None)
    return tuple(now(game)) if now is not None else tuple(module.SYMMETRIES)


def _check_symmetry(game: Game, k: int) -> None:
    if k not in symmetries(game):
        raise OptionError(f"{game.name}: symmetry {k!r} does not hold here "
                          f"(symmetries now: {', '.join(map(str, symmetries(game)))})")


def action_permutation(game: Game, k: int) -> np.ndarray:
    """``perm[a]``: the action of the transformed position that corresponds to
    action ``a`` (int64, a permutation of the action space). For a policy
    vector ``pi`` and legal mask ``m`` of ``game``, ``pi2[perm] = pi`` and
    ``m2[perm] = m`` are those of ``transform_game(game, k)``."""
    _check_symmetry(game, k)
    module = tensors_module(game)
    perm = np.array(module.action_map(game.size, k), dtype=np.int64)
    special = getattr(module, "state_action_map", None)
    fixes = special(game, k) if special is not None else {}
    if fixes:
        where = np.empty_like(perm)       # where[b] = the action now mapped to b
        where[perm] = np.arange(len(perm))
        for a, b in fixes.items():        # swap images so that perm[a] = b, staying a bijection
            other = where[b]
            if other == a:
                continue
            old = perm[a]
            perm[a], perm[other] = b, old
            where[b], where[old] = a, other
    return perm


def transform_planes(planes: np.ndarray, k: int) -> np.ndarray:
    """Planes ``(..., C, size, size)`` (any leading batch axes) under symmetry ``k``."""
    size = planes.shape[-1]
    if planes.shape[-2] != size:
        raise OptionError(f"planes must be square in their last two axes, got {planes.shape}")
    flat = planes.reshape(*planes.shape[:-2], size * size)
    out = np.empty_like(flat)
    out[..., list(symmetry.point_map(size, k))] = flat
    return out.reshape(planes.shape)


def transform_game(game: Game, k: int) -> Game:
    """The position of ``game`` under symmetry ``k``, as a new game (built from
    the position text, so its history starts empty)."""
    _check_symmetry(game, k)
    pm = symmetry.point_map(game.size, k)
    cells = game.cells()
    moved: list[str | None] = [None] * game.n_points
    for p, token in enumerate(cells):
        moved[pm[p]] = token
    parts = game.position().split()
    parts[2] = grid.format_board(moved, game.size)
    return type(game).from_position(" ".join(parts))
