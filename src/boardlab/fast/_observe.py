"""The compiled steps every game's observation module shares (numba).

Each ``boardlab.fast._<game>_planes`` module writes one function of its own,
``planes_of(s, me, out)`` (the planes of one state seen by one color), and
gets the rest here, compiled against its kernel by :func:`compiled_ops`:

* ``planes(states, players, out)``: the planes of a batch (the vector env);
* ``observe_one(state, player, out, mask, buf)``: planes and legal-action
  mask of one state in one call (an adapter's observation);
* ``replay(state, size, opts, actions)``: a state set to the start, then
  ``actions`` applied;
* ``try_apply(state, action)``: apply an action if legal (an adapter's step).

Why templates and not closures: numba keys a closure's on-disk cache on its
pickled cell contents, and a dispatcher pickles with a fresh id in every
process, so closures over a game's kernel would compile again in every
process. Here each game gets its own copy of each template function, whose
*globals* are that game's kernel functions; the copy's qualified name
(``robble.planes``) gives it a cache file of its own.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from types import FunctionType, ModuleType
from typing import Any

from numba import njit


def _unbound(*args: Any) -> Any:
    raise RuntimeError("a template of boardlab.fast._observe: call the copy "
                       "compiled_ops made for a game")


# The templates below are plain Python. These names are their globals: each
# game's copy gets that game's functions (compiled_ops), the templates these stand-ins.
planes_of: Callable[..., Any] = _unbound
legal_actions: Callable[..., Any] = _unbound
apply: Callable[..., Any] = _unbound
init: Callable[..., Any] = _unbound
is_legal: Callable[..., Any] = _unbound
current_player: Callable[..., Any] = _unbound
mid_turn: Callable[..., Any] = _unbound


def planes(states, players, out):
    """``out[b]`` (C, n) float32: the planes of ``states[b]`` seen by color
    ``players[b]`` (a color index; -1, a game over, means 0 as in tensors.observe)."""
    for b in range(states.shape[0]):
        planes_of(states[b], max(players[b], 0), out[b])


def observe_one(state, player, out, mask, buf):
    """The planes of one state into ``out`` (C, n) and its legal actions into
    the int8 ``mask`` (one compiled call for an adapter's observation)."""
    planes_of(state, player, out)
    mask[:] = 0
    for j in range(legal_actions(state, buf)):
        mask[buf[j]] = 1


def replay(state, size, opts, actions):
    """``state`` set to the start then every action of ``actions`` (legal ones) applied."""
    init(state, size, opts)
    for a in actions:
        apply(state, a)


def try_apply(state, action):
    """Apply ``action`` (any int64) if it is legal: -2 if not (nothing
    changes), else the color to act next (-1 once over), plus 2 while that
    color is inside a multi-action turn. One compiled call for an adapter's step."""
    if not is_legal(state, action):
        return -2
    apply(state, action)
    player = current_player(state)
    if player >= 0 and mid_turn(state):
        player += 2
    return player


_TEMPLATES = (planes, observe_one, replay, try_apply)
_KERNEL_NAMES = ("legal_actions", "apply", "init", "is_legal", "current_player", "mid_turn")


def compiled_ops(game: str, kernel: ModuleType,
                 planes_of: Callable[..., Any]) -> tuple[Any, Any, Any, Any]:
    """``planes, observe_one, replay, try_apply`` compiled for ``game``:
    ``kernel`` is its compiled module (``boardlab.fast._<game>``), ``planes_of``
    its own compiled planes of one state."""
    scope: dict[str, Any] = {"__builtins__": builtins, "__name__": __name__,
                             "planes_of": planes_of}
    scope.update((name, getattr(kernel, name)) for name in _KERNEL_NAMES)
    made = []
    for template in _TEMPLATES:
        code = template.__code__
        copy = FunctionType(code, scope, template.__name__)
        copy.__qualname__ = f"{game}.{template.__name__}"
        copy.__doc__ = template.__doc__
        made.append(njit(cache=True)(copy))
    return made[0], made[1], made[2], made[3]
