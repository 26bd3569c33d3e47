"""Decisions outside the move list: yugo's komi and side choice.

RULES.md (Yugo): "first player names komi, second player picks a color"
happens before the game. Both choices here rest on the same estimate: the value
of yugo's start position for black, ``v(komi)``, the mean return of an MCTS of
the start position (``search_value``, which says why the mean: +1 black always
wins, -1 always loses).

* :func:`choose_komi`: the namer wants the game even, because the other player
  then takes the better color; it names the komi whose ``|v(komi)|`` is
  smallest. ``v`` falls as komi (white's bonus) grows, so a bisection finds
  where it crosses 0, then the better of the two integers around it.
* :func:`choose_side`: black if ``v(komi) > 0``, else white.

The pie ``swap`` (implo, pilo, robble) needs no function: it is an ordinary
action, chosen by the search when the position after the first move is worth
more to the color just played than to the color to move (see
:mod:`boardlab.ai.mcts`).
"""

from __future__ import annotations

import boardlab

from .mcts import search_value

DEFAULT_ITERATIONS = 2000


def start_value(komi: int, size: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                seed: int | None = 0, seconds: float | None = None) -> float:
    """Black's expected return at yugo's start with this komi (MCTS estimate
    of ``iterations`` simulations, or ``seconds``, whichever ends first)."""
    game = boardlab.new_game("yugo", size, komi=int(komi))
    return search_value(game, iterations=iterations, seed=seed, seconds=seconds)[0]


def choose_komi(size: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                seed: int | None = 0, low: int | None = None, high: int | None = None,
                seconds: float | None = None) -> int:
    """The komi that makes yugo's start as even as this search can tell."""
    game = boardlab.new_game("yugo", size)
    n = game.n_points
    lo = -(n // 4) if low is None else low
    hi = n // 2 if high is None else high
    cache: dict[int, float] = {}

    def v(k: int) -> float:
        if k not in cache:
            cache[k] = start_value(k, game.size, iterations, seed, seconds)
        return cache[k]

    # invariant (when the ends bracket 0): v(lo) > 0 >= v(hi)
    if v(lo) <= 0:
        return lo
    if v(hi) > 0:
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if v(mid) > 0:
            lo = mid
        else:
            hi = mid
    return lo if abs(v(lo)) < abs(v(hi)) else hi


def choose_side(komi: int, size: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                seed: int | None = 0, seconds: float | None = None) -> str:
    """The color the second player picks for this komi: ``black`` or ``white``."""
    return "black" if start_value(komi, size, iterations, seed, seconds) > 0 else "white"
