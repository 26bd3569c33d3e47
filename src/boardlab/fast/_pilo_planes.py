"""Pilo's observation planes from compiled states (batched, numba).

The planes of ``boardlab.games.pilo_tensors`` (same order, same values,
stack heights in the height planes),
computed from ``boardlab.fast._pilo`` states, so that the vector env and the
adapters' observations need no Python game and no NumPy call per plane.
``tests/test_vector.py`` and ``tests/test_adapter_observer.py`` hold them to
``boardlab.research.tensors.observe``.
"""

from __future__ import annotations

from numba import njit

from ._pilo import (
    _HEAD,
    _LAST,
    _PASSES,
    _PIE,
    _PLAYER,
    BLOCK,
    OPEN,
    apply,
    current_player,
    init,
    is_legal,
    legal_actions,
    mid_turn,
)

NUM_PLANES = 11


@njit(cache=True)
def planes_of(s, me, out):
    """``out`` (C, n) float32: the planes of state ``s`` seen by color ``me`` (0 or 1)."""
    n = s[0] * s[0]
    sign = 1 if me == 0 else -1   # blue stacks are +h, orange -h
    for p in range(n):
        v = s[_HEAD + p]
        out[0, p] = 0.0
        out[1, p] = 0.0
        out[2, p] = 0.0
        out[3, p] = 0.0
        out[4, p] = 0.0
        if v == BLOCK:
            out[4, p] = 1.0
        elif v * sign > 0:
            out[0, p] = 1.0
            out[2, p] = v * sign
        elif v != 0:
            out[1, p] = 1.0
            out[3, p] = -v * sign
    out[5, :n] = 1.0 if s[_PASSES] < 2 and s[_PLAYER] == me else 0.0
    out[6, :n] = 1.0 if me == 0 else 0.0
    out[7, :n] = 1.0 if s[_PIE] == OPEN else 0.0
    out[8, :n] = 1.0 if s[_PASSES] == 1 else 0.0
    out[9, :n] = 1.0 if s[_PASSES] >= 2 else 0.0
    out[10, :n] = 1.0 if s[_LAST] == me else 0.0


@njit(cache=True)
def planes(states, players, out):
    """``out[b]`` (C, n) float32: the planes of ``states[b]`` seen by color
    ``players[b]`` (a color index; -1, a game over, means 0 as in tensors.observe)."""
    for b in range(states.shape[0]):
        planes_of(states[b], max(players[b], 0), out[b])


@njit(cache=True)
def observe_one(state, player, out, mask, buf):
    """The planes of one state into ``out`` (C, n) and its legal actions into
    the int8 ``mask`` (one compiled call for an adapter's observation)."""
    planes_of(state, player, out)
    mask[:] = 0
    for j in range(legal_actions(state, buf)):
        mask[buf[j]] = 1


@njit(cache=True)
def replay(state, size, opts, actions):
    """``state`` set to the start then every action of ``actions`` (legal ones) applied."""
    init(state, size, opts)
    for a in actions:
        apply(state, a)


@njit(cache=True)
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
