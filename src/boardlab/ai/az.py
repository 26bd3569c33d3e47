"""``az``: the one search guided by a trained policy-value network.

``az`` (1 s a move), ``az:0.25s``, ``az:800``, ``az:800+1s``: the compiled
search (:class:`boardlab.fast.search.Search`, external evaluator) with a
Gumbel AlphaZero root (:mod:`boardlab.az.gumbel`: sequential halving over
the network's best moves, no noise) and PUCT below it; every leaf is
evaluated by the network shipped for the game and board size
(:mod:`boardlab.az.weights`), in plain NumPy. Where no network was trained
for a game and size the agent refuses, at its first move, saying which
exist.

A timed move needs a simulation count before it starts (sequential halving
plans its phases from it): the agent estimates it from the simulations a
second of its earlier moves (the first move: of its root evaluation) and
stops at the deadline whatever is left.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..core.game import Game
from ..errors import GameOverError
from .agent import BaseAgent
from .comments import SearchComment
from .limit import Limit

DEFAULT_SECONDS = 1.0
#: the searches a move can run: Gumbel AlphaZero's root (sequential halving,
#: made for small budgets) or AlphaZero's PUCT from the root
ROOTS = ("gumbel", "puct")
#: leaves a move asks the network for at once, at least (spread over the
#: considered moves): small batches waste NumPy's time on call overhead
MIN_BATCH = 8


class AZAgent(BaseAgent):
    """See the module doc. ``weights``: a :class:`boardlab.az.weights.Weights`
    to play with instead of the shipped ones (training evaluates its own)."""

    def __init__(self, limit: Limit | None = None, seed: int | None = None, *,
                 name: str | None = None, clock: Callable[[], float] = time.perf_counter,
                 weights=None, root: str = "gumbel") -> None:
        super().__init__(seed)
        if root not in ROOTS:
            from ..errors import OptionError
            raise OptionError(f"az: root must be one of {', '.join(ROOTS)}, got {root!r}")
        self.root = root
        self.limit = limit or Limit(seconds=DEFAULT_SECONDS)
        self.name = name or f"az:{self.limit}"
        self.clock = clock
        self._weights = weights
        self._evaluator = None
        self._net = None                  # the Weights the evaluator was built from
        self._key: tuple | None = None
        self._rate: float | None = None   # simulations per clock second, measured
        self.np_rng = np.random.default_rng(seed)
        self.last = None                  # the last move's GumbelMove (tests, comments)
        self._puct = None                 # the last move's NetSearch (root=puct)
        self._seconds = 0.0

    def evaluator(self, game: Game):
        """The network evaluator for ``game``'s name, size and options (loaded once)."""
        from ..az.evaluator import NetEvaluator
        from ..az.weights import check_fits, for_game
        key = (game.name, game.size, tuple(sorted(game.options.items())))
        if self._evaluator is None or self._key != key:
            w = self._weights if self._weights is not None else for_game(game.name, game.size)
            check_fits(w, game)
            self._evaluator = NetEvaluator(w.params, w.spec)
            self._net = w
            self._key = key
        return self._evaluator

    def choose_action(self, game: Game) -> int:
        from ..az.gumbel import GumbelMove, play_settings, run
        from ..fast.search import Search
        start = self.clock()
        legal = game.legal_actions()
        if not legal:
            raise GameOverError(None, "the game is over: no move to choose")
        evaluate = self.evaluator(game)
        if len(legal) == 1:
            self.last = None
            self._seconds = self.clock() - start
            return legal[0]
        if self.root == "puct":
            return self._choose_puct(game, evaluate, start)
        lim = self.limit
        deadline = lim.for_search(self.clock).deadline(start)
        sims = lim.simulations
        search = Search(game, play_settings(lim, game.num_distinct_actions), seed=int(self.np_rng.integers(2 ** 62)),
                        clock=self.clock)
        mv = GumbelMove(search, sims or 1 << 30, self.np_rng, noise=0.0, min_batch=MIN_BATCH,
                        deadline=deadline, clock=self.clock)
        # the root first: its cost sets a timed move's first estimate
        states, nodes = mv.request()
        mv.receive(states, nodes, *evaluate(states, search.tree.player[nodes]))
        if sims is None:
            assert deadline is not None
            rate = self._rate or 2.0 / max(self.clock() - start, 1e-4)
            mv.simulations = max(len(mv.considered), int(rate * (deadline - self.clock())))
            mv.reschedule()
        t0 = self.clock()
        run([mv], evaluate)
        spent = self.clock() - t0
        if mv.sims and spent > 0:
            rate = mv.sims / spent
            self._rate = rate if self._rate is None else 0.5 * (self._rate + rate)
        self.last = mv
        self._seconds = self.clock() - start
        return mv.action()

    def _choose_puct(self, game: Game, evaluate, start: float) -> int:
        """AlphaZero's search: PUCT from the root on the network's priors
        (:class:`boardlab.az.netsearch.NetSearch`), the most visited move."""
        from ..az.netsearch import NetSearch
        lim = self.limit.for_search(self.clock)
        nodes = 400_000 if lim.simulations is None else max(1_000, lim.simulations + 2 * MIN_BATCH)
        ns = NetSearch(game, self._net, seed=int(self.np_rng.integers(2 ** 62)), clock=self.clock,
                       batch=2 * MIN_BATCH, nodes=nodes, evaluator=evaluate)
        left = None if lim.seconds is None else start + lim.seconds - self.clock()
        if left is None or left > 0:
            sims = None if lim.simulations is None else max(1, lim.simulations - 1)
            ns.run_for(Limit(sims, left))
        self.last = None
        self._puct = ns
        self._seconds = self.clock() - start
        return ns.best_action()

    def reset(self) -> None:
        self.last = None
        self._puct = None

    def move_comment(self) -> str | None:
        mv = self.last
        ns = self._puct
        if mv is None and ns is not None:
            value = ns.root_value(ns.game.current_player)
            return str(SearchComment(self._seconds, round(value, 4), int(ns.root_visits)))
        if mv is None:
            return str(SearchComment(self._seconds))
        visits, q = mv.root_stats()
        a = mv.action()
        i = int(np.searchsorted(mv.legal, a))
        value = float(q[i]) if visits[i] > 0 else mv.raw_value
        return str(SearchComment(self._seconds, round(value, 4), int(mv.search.root_visits)))


def make(rest: str, seed: int | None, name: str) -> AZAgent:
    """``az[:BUDGET][,net=PATH][,root=gumbel|puct]``: BUDGET as for ``mcts``
    (simulations, seconds or both); ``net``: a weights file to play instead
    of the shipped network (a training run's ``weights.npz``); ``root``: the
    search (:data:`ROOTS`; default Gumbel's)."""
    items = rest.split(",") if rest else []
    limit = Limit(seconds=DEFAULT_SECONDS)
    if items and "=" not in items[0]:
        limit = Limit.parse(items.pop(0))
    weights = None
    root = "gumbel"
    for item in items:
        key, _, value = item.partition("=")
        if key == "net" and value:
            from ..az.weights import load
            weights = load(value)
        elif key == "root" and value:
            root = value
        else:
            raise ValueError(f"unknown engine option {item!r} in {name!r} "
                             "(az takes net=PATH and root=gumbel|puct)")
    return AZAgent(limit, seed, name=name, weights=weights, root=root)


class WithNetwork(BaseAgent):
    """``net`` (an :class:`AZAgent`) on a game and size with a shipped
    network, ``other`` elsewhere: how a level can be "the network where there
    is one" without knowing the game when it is made. Anything else
    (``choose_komi``, ``clock``, ...) is ``other``'s."""

    def __init__(self, net: AZAgent, other: BaseAgent, name: str | None = None) -> None:
        super().__init__(other.seed)
        self.net = net
        self.other = other
        self.name = name or other.name
        self._last: BaseAgent = other

    def pick(self, game: Game) -> BaseAgent:
        from ..az.netsearch import has_network
        return self.net if has_network(game.name, game.size, game) else self.other

    def choose_action(self, game: Game) -> int:
        self._last = self.pick(game)
        return self._last.choose_action(game)

    def move_comment(self) -> str | None:
        return self._last.move_comment()

    def reset(self) -> None:
        self.net.reset()
        self.other.reset()

    @property
    def clock(self) -> Callable[[], float]:
        return self.net.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        """Both agents' (the match runner sets it for ``--clock cpu``)."""
        self.net.clock = clock
        if hasattr(self.other, "clock"):
            self.other.clock = clock

    def __getattr__(self, name: str):
        if name in ("net", "other", "_last"):
            raise AttributeError(name)
        return getattr(self.other, name)
