"""MCTS on the compiled core: the search of :mod:`boardlab.fast._mcts` as an agent.

The tree, the playouts and the rules all run in compiled code; this class
only turns a :class:`~boardlab.ai.limit.Limit` into chunks of simulations and
the root's statistics into a move. It never names a game.
"""

from __future__ import annotations

import math
import time

from ..core.game import Game
from ..errors import GameOverError
from .agent import BaseAgent
from .comments import SearchComment
from .limit import Limit
from .mcts import DECISION_ITERATIONS, DECISION_SECONDS, SearchInfo

#: Share of a move's time kept back for what follows the search.
_RESERVE = 0.03


class FastMCTSAgent(BaseAgent):
    """``mcts``, ``mcts:500``, ``mcts:0.25s``: compiled UCT with tree reuse.
    ``c``: exploration; ``solver``: prove wins and losses (MCTS-solver; off
    for play: measured no stronger, docs/ai.md; analysis keeps it for its proofs);
    ``fpu``: value of an unvisited child (None: try every child once first);
    ``reuse``: keep the subtree of the position reached for the next move;
    ``rave``: None (off) or the RAVE bias (all-moves-as-first values mixed in);
    ``threads``: independent trees searched at once, one per thread, read as
    one (root parallelisation; 1: a single tree)."""

    def __init__(self, limit: Limit | None = None, seed: int | None = None, *,
                 c: float = 1.0, solver: bool = False, fpu: float | None = None,
                 reuse: bool = True, threads: int = 1, rave: float | None = None,
                 name: str | None = None) -> None:
        super().__init__(seed)
        if not 0 <= c < math.inf:
            raise ValueError(f"the exploration constant c must be >= 0 and finite, got {c}")
        if fpu is not None and not -1 <= fpu <= 1:
            raise ValueError(f"fpu (an unvisited child's value) must be in [-1, 1], got {fpu}")
        if rave is not None and not 0 <= rave < math.inf:
            raise ValueError(f"the RAVE bias must be >= 0 and finite, got {rave}")
        if not 1 <= threads <= 256:
            raise ValueError(f"threads must be 1..256, got {threads}")
        self.threads = threads
        self._pool = None  # the threads of a root-parallel search, made on first use
        self._trees: list = []  # the other trees of a root-parallel search
        self.limit = limit or Limit(seconds=1.0)
        self.c = c
        self.solver = solver
        self.fpu = fpu
        self.reuse = reuse
        self.rave = rave
        self._tree = None  # the last search, kept for reuse
        self.name = name or f"fmcts:{self.limit}"
        self.info = SearchInfo()
        self._moves = 0

    def _grown(self, old, game: Game):
        """``old`` moved on to ``game`` (tree reuse), or a new tree."""
        from ..fast.search import Search

        seed = self.rng.getrandbits(63)
        if old is not None and self.reuse and old.advance(game):
            return old
        return Search(game, c=self.c, solver=self.solver, rave=self.rave,
                      fpu=1e10 if self.fpu is None else self.fpu, seed=seed)

    def search(self, game: Game):
        """The search of ``game``'s position within the limit: one tree, or
        with ``threads`` > 1 a :class:`~boardlab.fast.search.RootParallel`."""
        s = self._grown(self._tree, game)
        searched = s
        if self.threads > 1:
            from concurrent.futures import ThreadPoolExecutor

            from ..fast.search import RootParallel
            olds = self._trees or [None] * (self.threads - 1)
            self._trees = [self._grown(t, game) for t in olds]
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="mcts")
            searched = RootParallel([s, *self._trees], self._pool)
        if self.reuse:
            self._tree = s
        else:
            self._trees = []
        before = searched.simulations
        secs = self.limit.seconds
        searched.run_for(self.limit.simulations, None if secs is None else secs * (1 - _RESERVE))
        self.info.iterations = searched.simulations - before
        return searched

    def continues(self, game: Game) -> bool:
        """Whether the kept tree holds ``game``'s position (the same game, some
        moves on, through visited nodes): a caller that makes one agent a move (the web) keeps the
        agent for the next move when this is True."""
        s = self._tree
        return s is not None and self.reuse and s.reaches(game) is not None

    # ------------------------------------------------------------ pre-game choices
    def decision_budget(self) -> tuple[int, float]:
        """The budget of each estimate behind a komi or color choice (see
        :meth:`boardlab.ai.mcts.MCTSAgent.decision_budget`)."""
        sims = DECISION_ITERATIONS
        secs = self.limit.seconds
        return sims, DECISION_SECONDS if secs is None else min(secs / 2, DECISION_SECONDS)

    def choose_komi(self, game_name: str | None = None, size: int | None = None) -> int:
        from .decisions import choose_komi
        sims, secs = self.decision_budget()
        return choose_komi(size, sims, self.seed, seconds=secs, game=game_name)

    def choose_color(self, komi: int, size: int | None = None) -> str:
        from .decisions import choose_side
        sims, secs = self.decision_budget()
        return choose_side(komi, size, sims, self.seed, seconds=secs)

    # ------------------------------------------------------------ moves
    def choose_action(self, game: Game) -> int:
        start = time.perf_counter()
        legal = game.legal_actions()
        if not legal:
            raise GameOverError(None, "the game is over: no move to choose")
        info = self.info = SearchInfo()
        if len(legal) == 1:
            info.action = legal[0]
            info.seconds = time.perf_counter() - start
            return legal[0]
        s = self.search(game)
        action = s.best_action()
        info.root_visits = s.root_visits
        info.action = action
        for ch in s.children():
            info.children[ch.action] = (ch.visits, ch.value)
        if action in info.children:
            info.value = info.children[action][1]
        info.proven_win = s.proven == game.current_player
        info.seconds = time.perf_counter() - start
        return action

    def move_comment(self) -> str | None:
        info = self.info
        if info.action is None:
            return None
        if info.proven_win:
            return str(SearchComment(info.seconds, 1.0, info.root_visits, proven=True))
        if info.action not in info.children:
            return str(SearchComment(info.seconds))
        return str(SearchComment(info.seconds, info.value, info.root_visits))
