"""Decisions outside the move list: yugo's komi and side choice.

docs/rules.md (Yugo): one player names the komi and the other then picks a
color, before the game. Both choices here rest on the same estimate: the value
of yugo's start position for black, ``v(komi)``, the mean return of an MCTS of
the start position (+1 black always wins, -1 always loses) by a plain
search (:class:`boardlab.fast.search.Search`, uniform playouts), which
affords enough simulations for the estimate to settle (1,000 simulations put
9x9's fair komi anywhere from 1 to 18). The root mean, not the best child's
value: the mean counts the exploratory visits to poor moves, so it underrates
the color to move a little, but the most visited child's value overrates it
more (the luckiest of ~80 thinly sampled moves); on yugo 9x9 the two cross
zero at komi ~1 and ~18 after 1,000 simulations, ~2 and ~6 after 16,000.

* :func:`choose_komi`: the namer wants the game even, because the other player
  then takes the better color; it names the komi whose ``|v(komi)|`` is
  smallest. ``v`` falls as komi (white's bonus) grows, so a bisection finds
  where it crosses 0, then the better of the two integers around it.
* :func:`choose_side`: black if ``v(komi) > 0``, else white.

The pie ``swap`` (implo, pilo, robble) needs no function: it is an ordinary
action, chosen by the search when the position after the first move is worth
more to the color just played than to the color to move (see
:mod:`boardlab.fast._search`).
"""

from __future__ import annotations

import boardlab

from .limit import Limit

#: The budget of one estimate: 8,000 simulations take 0.1-0.6 s on 5x5-13x13.
DEFAULT_LIMIT = Limit(8000)


def komi_game(name: str | None = None) -> str:
    """The game these choices are about: ``name`` if it has a ``komi``
    option, else (no name) the one game that has (yugo). Found from the
    games' option facts, so the module names no game."""
    if name is not None:
        if "komi" not in boardlab.game_class(name).option_defaults:
            raise ValueError(f"{name} has no komi to name")
        return name
    found = [g for g in boardlab.GAMES if "komi" in boardlab.game_class(g).option_defaults]
    if len(found) != 1:
        raise ValueError(f"name the game: {', '.join(found) or 'no game'} ha(s/ve) komi")
    return found[0]


def start_value(komi: int, size: int | None = None, limit: Limit = DEFAULT_LIMIT,
                seed: int | None = 0, game: str | None = None) -> float:
    """The first color's expected return at the start with this komi (a
    search within ``limit``); ``game``: see :func:`komi_game`."""
    from ..fast.search import Search
    start = boardlab.new_game(komi_game(game), size, komi=int(komi))
    search = Search(start, seed=seed or 0)
    search.run_for(limit)
    return search.root_value(0)


def choose_komi(size: int | None = None, limit: Limit = DEFAULT_LIMIT,
                seed: int | None = 0, low: int | None = None, high: int | None = None,
                game: str | None = None) -> int:
    """The komi that makes the start as even as this search can tell."""
    game = komi_game(game)
    start = boardlab.new_game(game, size)
    n = start.n_points
    lo = -(n // 4) if low is None else low
    hi = n // 2 if high is None else high
    cache: dict[int, float] = {}

    def v(k: int) -> float:
        if k not in cache:
            cache[k] = start_value(k, start.size, limit, seed, game)
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


def choose_side(komi: int, size: int | None = None, limit: Limit = DEFAULT_LIMIT,
                seed: int | None = 0, game: str | None = None) -> str:
    """The color the second player picks for this komi: the first color if
    the start favours it, else the second (yugo: ``black`` or ``white``)."""
    game = komi_game(game)
    first, second = boardlab.game_class(game).colors
    return first if start_value(komi, size, limit, seed, game) > 0 else second
