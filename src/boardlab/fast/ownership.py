"""Ownership: who each point is likely to score for, estimated by playouts.

For games whose score is a count of points (yugo's territory and live
pieces, pilo's patches), a kernel may offer ``owner(state, out)``: each
point's share of the score if the game ended now (1 for the first color,
-1 for the second, 0 neither). Averaged over random playouts from a
position, it is the Monte Carlo "territory statistics" of Go programs
(Fuego, Pachi): a number in [-1, 1] per point, the heat map of analysis.

Games without such a score (implo's majority of marker-group sizes, robble
and vimbre's connections) have no ``owner``: a point there does not carry a
share of the result, so a map would suggest a reading the rules do not
support. docs/analysis.md has the measurement of what the map predicts.
"""

from __future__ import annotations

import numpy as np

from ..core.game import Game
from ..errors import OptionError
from ._rng import new_rng
from .kernels import kernel

#: Playouts per estimate: the standard error of a point's mean is at most
#: 1/sqrt(256) = 0.06, below what a reader tells apart on a colour scale.
DEFAULT_PLAYOUTS = 256


def has_ownership(game: Game) -> bool:
    """Whether ``game``'s kernel defines a per-point owner (its score is a count of points)."""
    try:
        k = kernel(game.name)
    except OptionError:
        return False
    return hasattr(k, "owner") and hasattr(k, "from_game")


def ownership(game: Game, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> np.ndarray | None:
    """Each point's mean owner over ``playouts`` uniform random playouts from
    ``game``'s position (float64, one per point, a1 first; +1 always the
    first color's). A finished game gives its final owners exactly. None for
    a game without an owner, or a position its kernel cannot load."""
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
        raise OptionError(f"ownership: playouts must be a positive integer, got {playouts!r}")
    if not has_ownership(game):
        return None
    k = kernel(game.name)
    try:
        start = k.from_game(game)
    except OptionError:
        return None
    n = game.n_points
    out = np.zeros(n, dtype=np.int64)
    if game.is_over:
        k.owner(start, out)
        return out.astype(np.float64)
    total = np.zeros(n, dtype=np.int64)
    rng = new_rng(seed)
    no_record = np.zeros(0, dtype=np.int64)
    for _ in range(playouts):
        state = start.copy()
        k.playout(state, rng, no_record)
        k.owner(state, out)
        total += out
    return total / playouts
