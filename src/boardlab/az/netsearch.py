"""The network-guided search with the tree protocol: what analysis reads.

Analysis (:mod:`boardlab.ai.analysis`) searches a position for as long as it
is given (a limit, or until stopped) and reads the tree as it grows, so it
wants an *anytime* search: :class:`NetSearch` runs PUCT from the root too
(AlphaZero's search; the Gumbel root of :mod:`boardlab.az.gumbel` plans a
fixed budget), in batches of leaves under virtual loss, each batch one
network call. It offers what :class:`boardlab.fast.search.Search` offers
(``run_for``, ``root_visits``, ``root_value``, ``children``, ``proven``,
``principal_variation``, ``best_action``, ``simulations``), so
``analysis.snapshot`` reads it unchanged, plus the network's own view of the
root: :meth:`NetSearch.prior` (its move probabilities) and
:meth:`NetSearch.net_value` (its value), there before any search.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core.game import Game
from ..fast.search import ChildStats, Search, spend
from .evaluator import NetEvaluator
from .gumbel import SETTINGS
from .weights import Weights, check_fits, for_game, load, mismatch, shipped_path

#: leaves per network call
BATCH = 16


def has_network(game: str, size: int, position: Game | None = None) -> bool:
    """Whether a network is shipped for ``game`` at ``size`` (what a front
    end asks before offering ``az`` or a network-guided analysis); with
    ``position``, also whether it was trained under that game's options
    (a komi or pie rule it never saw changes what a position is worth)."""
    path = shipped_path(game, size)
    if not path.exists():
        return False
    return position is None or mismatch(load(path, params=False), position) is None


class NetSearch:
    """See the module doc. ``weights``: default the shipped ones for the game
    and size; ``evaluator``: theirs already built (an agent's, kept across moves)."""

    def __init__(self, game: Game, weights: Weights | None = None, *, seed: int = 0,
                 clock: Callable[[], float] = time.perf_counter, batch: int = BATCH,
                 nodes: int = 400_000, evaluator: NetEvaluator | None = None) -> None:
        w = weights if weights is not None else for_game(game.name, game.size)
        check_fits(w, game)
        self.evaluator = evaluator if evaluator is not None else NetEvaluator(w.params, w.spec)
        settings = SETTINGS.replace(nodes=nodes, edges=min(1_000_000_000, nodes * game.num_distinct_actions))
        self.search = Search(game, settings, seed=seed, clock=clock)
        self.game = self.search.game
        self.clock = clock
        self.batch = batch
        self._prior: dict[int, float] = {}
        self._value = 0.0
        self.run(1)  # the root: its priors and value

    # ------------------------------------------------------------ running
    def run(self, sims: int) -> int:
        """Up to ``sims`` more simulations, ``batch`` leaves a network call;
        fewer when the tree has no leaf left to evaluate."""
        s = self.search
        done = 0
        while done < sims:
            before = s.root_visits
            states, nodes = s.collect(min(self.batch, sims - done))
            if len(nodes):
                values, priors = self.evaluator(states, s.tree.player[nodes])
                s.deliver(states, nodes, values, priors)
                if not self._prior and nodes[0] == s.root:
                    legal = self.game.legal_actions()
                    total = float(priors[0, legal].sum())
                    self._prior = {a: float(priors[0, a]) / total for a in legal}
                    self._value = float(values[0])
            gained = s.root_visits - before
            if gained <= 0:
                break
            done += gained
        return done

    def run_for(self, limit, should_stop: Callable[[], bool] | None = None,
                every: Callable[[], None] | None = None, every_s: float = 0.25) -> int:
        """As :meth:`boardlab.fast.search.Search.run_for`."""
        return spend(limit, self.run, self.clock, should_stop, every, every_s)

    # ------------------------------------------------------------ the network's view
    def prior(self) -> dict[int, float]:
        """The network's move probabilities at the root (legal moves)."""
        return dict(self._prior)

    def net_value(self, color: int) -> float:
        """The network's value of the root for ``color``, in [-1, 1]."""
        mover = self.game.current_player
        return self._value if color == mover else -self._value

    # ------------------------------------------------------------ the tree protocol
    @property
    def simulations(self) -> int:
        return self.search.simulations

    @property
    def proven(self) -> int:
        return self.search.proven

    @property
    def root_visits(self) -> int:
        return self.search.root_visits

    def root_value(self, color: int) -> float:
        return self.search.root_value(color)

    def children(self) -> list[ChildStats]:
        return self.search.children()

    def principal_variation(self, first_action: int, length: int = 12) -> list[int]:
        return self.search.principal_variation(first_action, length)

    def best_action(self) -> int:
        return self.search.best_action()


__all__ = ["BATCH", "NetSearch", "has_network"]
