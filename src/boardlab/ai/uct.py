"""``uct``: plain UCT on the compiled kernels, the yardstick every search is measured against.

The algorithm is :mod:`boardlab.fast._uct` (textbook UCT: UCB1 with c = 1,
one node a simulation, uniform playouts, the most visited move; pie-aware),
kept deliberately plain: it is what an outside engine author gets in a
hundred lines on our kernels, so beating it at equal time says the search
knows something, not that it runs on faster code. ``pyuct``
(:mod:`boardlab.ai.pyuct`) is the same algorithm over the Python games.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core.game import Game
from ..errors import GameOverError
from ..fast import _loops, _uct
from ..fast._rng import new_rng
from ..fast.search import kernel_state, spend
from .agent import BaseAgent
from .limit import Limit

#: Node and action-slot capacity of a tree (arrays are allocated lazily by
#: the OS, so the unused part costs nothing).
NODES = 1_000_000
POOL = 16_000_000


class UCTAgent(BaseAgent):
    """The ``uct`` engine: ``uct`` (1 s a move), ``uct:500``, ``uct:0.25s``."""

    def __init__(self, limit: Limit | None = None, seed: int | None = None,
                 name: str | None = None, clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(seed)
        self.limit = limit or Limit(seconds=1.0)
        self.name = name or f"uct:{self.limit}"
        self.clock = clock
        self.simulations = 0  # of the last search

    def choose_action(self, game: Game) -> int:
        legal = game.legal_actions()
        if not legal:
            raise GameOverError(None, "the game is over: no move to choose")
        if len(legal) == 1:
            return legal[0]
        state, req = kernel_state(game)
        fns = _loops.kernel_table(req.kernel)
        tree = _uct.UCTTree(NODES, POOL, req.num_actions, req.state_len)
        arrays = tree.arrays()
        swap = game.swap_action if game.swap_action is not None else -1
        rng = new_rng(self.rng.getrandbits(63))

        def run(sims: int) -> int:
            return _uct.uct_chunk(fns, state, swap, req.num_actions, rng, sims, *arrays)

        self.simulations = spend(self.limit, run, self.clock)
        best = int(_uct.most_visited(tree.start, tree.count, tree.tried, tree.n, tree.pool,
                                     tree.kid))
        return best if best >= 0 else legal[0]


__all__ = ["UCTAgent"]
