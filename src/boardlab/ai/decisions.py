"""Decisions outside the move list: a game's pre-game (:mod:`boardlab.core.pregame`).

In a cut-and-choose pre-game one player names a value of an option and the
other then picks a color (docs/rules.md: yugo's komi). Both choices here
rest on the same estimate: the value of the start position for the first
color, ``v(x)`` with the option at ``x``, the mean return of an MCTS of the
start position (+1 the first color always wins, -1 always loses) by a plain
search (:class:`boardlab.fast.search.Search`, uniform playouts), which
affords enough simulations for the estimate to settle (1,000 simulations put
yugo 9x9's even value anywhere from 1 to 18). The root mean, not the best
child's value: the mean counts the exploratory visits to poor moves, so it
underrates the color to move a little, but the most visited child's value
overrates it more (the luckiest of ~80 thinly sampled moves); on yugo 9x9
the two cross zero at ~1 and ~18 after 1,000 simulations, ~2 and ~6 after
16,000.

* :func:`name_value`: the namer wants the game even, because the other
  player then takes the better color; it names the value whose ``|v(x)|`` is
  smallest. ``v`` falls as ``x`` grows when the option favours the second
  color (and rises when it favours the first), so a bisection finds where it
  crosses 0, then the better of the two integers around it.
* :func:`choose_side`: the first color if ``v(x) > 0``, else the second.

The pie ``swap`` (implo, pilo, robble) needs no function: it is an ordinary
action, chosen by the search when the position after the first move is worth
more to the color just played than to the color to move (see
:mod:`boardlab.fast._search`).
"""

from __future__ import annotations

from ..core.game import Game
from ..core.pregame import PreGame
from ..errors import OptionError
from .limit import Limit

#: The budget of one estimate: 8,000 simulations take 0.1-0.6 s on 5x5-13x13.
DEFAULT_LIMIT = Limit(8000)


def _pregame(game: Game) -> PreGame:
    found = game.pregame
    if found is None:
        raise OptionError(f"{game.name} has no pre-game: nothing to name or pick")
    return found


def with_value(start: Game, value: int) -> Game:
    """The start of ``start``'s game with its pre-game option at ``value``."""
    option = _pregame(start).option
    return type(start)(start.size, **{**start.options, option: int(value)})


def start_value(start: Game, limit: Limit = DEFAULT_LIMIT, seed: int | None = 0) -> float:
    """The first color's expected return at ``start`` (a search within ``limit``)."""
    from ..fast.search import Search
    search = Search(start, seed=seed or 0)
    search.run_for(limit)
    return search.root_value(0)


def name_value(start: Game, limit: Limit = DEFAULT_LIMIT, seed: int | None = 0,
               low: int | None = None, high: int | None = None) -> int:
    """The value of ``start``'s pre-game option that makes the start as even
    as this search can tell, between ``low`` and ``high`` (default: the
    game's :attr:`~boardlab.core.pregame.PreGame.searched` range)."""
    pg = _pregame(start)
    lo_default, hi_default = pg.searched(start.size)
    lo = lo_default if low is None else low
    hi = hi_default if high is None else high
    sign = 1.0 if pg.favours == 1 else -1.0  # so that v falls as the value grows
    cache: dict[int, float] = {}

    def v(k: int) -> float:
        if k not in cache:
            cache[k] = sign * start_value(with_value(start, k), limit, seed)
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


def choose_side(start: Game, limit: Limit = DEFAULT_LIMIT, seed: int | None = 0) -> str:
    """The color the second player picks at ``start`` (its options hold the
    named value): the first color if the start favours it, else the second."""
    _pregame(start)
    first, second = start.colors
    return first if start_value(start, limit, seed) > 0 else second
