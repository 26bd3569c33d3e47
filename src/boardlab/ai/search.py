"""The one search as an agent: ``mcts``, the levels, and (with a network) ``az``.

:class:`SearchAgent` turns a :class:`~boardlab.ai.limit.Limit` into chunks of
the compiled search (:class:`boardlab.fast.search.Search`) and the root's
statistics into a move. It never names a game: what a game knows (move
priors, informed playouts, evaluation, the settings its knowledge measured
best with) comes from the game's plug-in through
:mod:`boardlab.fast.advice`.

Settings: with ``knowledge=True`` (the default) a search starts from the
game's own ``SEARCH_SETTINGS`` and then applies the agent's explicit
``settings``; with ``knowledge=False`` from plain UCB1 with uniform
playouts. :meth:`SearchAgent.settings_for` gives the full resolved settings
(what a study or a published table records).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game
from ..errors import GameOverError
from ..fast.advice import advice
from ..fast.search import RootParallel, Search, Settings
from .agent import BaseAgent
from .comments import SearchComment
from .limit import Limit

#: The budget of one estimate behind a pre-game choice (yugo's komi or color:
#: :mod:`boardlab.ai.decisions`): 8,000 simulations or 1 s, whichever ends first.
DECISION_LIMIT = Limit(8000, 1.0)
#: The levels' simulation budgets where a game's plug-in names none
#: (``SEARCH_SETTINGS["levels"]``).
LEVEL_BUDGETS = (16, 128, 1024, 8192, 32768)


def level_budgets(game: Game | str) -> tuple[int, ...]:
    """The simulation budget of each level (1 first) for a game."""
    name = game if isinstance(game, str) else game.name
    return tuple(advice(name).levels or LEVEL_BUDGETS)


def analysis_settings(game: Game | str, **overrides: Any) -> Settings:
    """The settings analysis searches with: the game's own, with the
    MCTS-solver on for its proven wins and losses."""
    name = game if isinstance(game, str) else game.name
    return Settings(**{**advice(name).settings, "solver": True, **overrides})


@dataclass
class SearchInfo:
    """What the last search did (tests, benchmarks, records)."""

    simulations: int = 0          # added by this search
    seconds: float = 0.0          # clock time of the whole choose_action call
    root_visits: int = 0          # reused ones included
    action: int | None = None
    value: float = 0.0            # expected return of the chosen action, for its owner
    proven_win: bool = False
    children: dict[int, tuple[int, float]] = field(default_factory=dict)  # a -> (visits, value)


class SearchAgent(BaseAgent):
    """``mcts``, ``mcts:500``, ``mcts:0.25s,key=value``: the one search.

    ``limit``: the budget of a move; ``settings``: explicit overrides of the
    search settings (:class:`~boardlab.fast.search.Settings` field names);
    ``knowledge``: start from the game's own settings (else plain UCB1);
    ``threads``: independent trees searched at once and read as one;
    ``clock``: what ``limit.seconds`` is measured on (wall clock, or
    ``time.thread_time`` for matches at equal CPU time on a shared machine);
    ``level``: play level N, whose budget is the game's own (``limit`` unused)."""

    def __init__(self, limit: Limit | None = None, seed: int | None = None, *,
                 settings: Mapping[str, Any] | None = None, knowledge: bool = True,
                 threads: int = 1, name: str | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 level: int | None = None) -> None:
        super().__init__(seed)
        if not 1 <= threads <= 256:
            raise ValueError(f"threads must be 1..256, got {threads}")
        if level is not None and not 1 <= level <= len(LEVEL_BUDGETS):
            raise ValueError(f"level must be 1..{len(LEVEL_BUDGETS)}, got {level}")
        self.level = level
        self.limit = limit or Limit(seconds=1.0)
        self.overrides = dict(settings or {})
        Settings(**self.overrides)  # a bad value fails now, with its name
        self.knowledge = knowledge
        self.threads = threads
        self.name = name or f"mcts:{self.limit}"
        self.clock = clock
        self.info = SearchInfo()
        self._tree: Search | None = None     # the last search, kept for reuse
        self._trees: list[Search] = []       # the other trees of a root-parallel search
        self._pool = None
        self._memo: dict = {}  # the game's special moves keep their plans here

    # ------------------------------------------------------------ settings
    def settings_for(self, game: Game | str) -> Settings:
        """The full settings this agent searches ``game`` (or a game name) with."""
        name = game if isinstance(game, str) else game.name
        base = dict(advice(name).settings) if self.knowledge else {}
        return Settings(**{**base, **self.overrides})

    def limit_for(self, game: Game | str) -> Limit:
        """The budget of a move in ``game``: the level's, or the agent's."""
        if self.level is not None:
            return Limit(level_budgets(game)[self.level - 1])
        return self.limit

    def settings(self, game: Game | None = None) -> dict[str, Any]:
        """Everything that decides this engine's play (the contract of
        :meth:`BaseAgent.settings`): the budget, level, threads, knowledge
        and, given a game, the full search settings it resolves to there
        (without one, the explicit overrides only)."""
        limit = self.limit_for(game) if game is not None else self.limit
        return {"agent": f"{__name__}.{type(self).__qualname__}",
                "limit": {"simulations": limit.simulations, "seconds": limit.seconds},
                "level": self.level, "threads": self.threads, "knowledge": self.knowledge,
                "settings": (self.settings_for(game).as_dict() if game is not None
                             else dict(sorted(self.overrides.items())))}

    # ------------------------------------------------------------ searching
    def _grown(self, old: Search | None, game: Game, settings: Settings) -> Search:
        """``old`` moved on to ``game`` (tree reuse), or a new tree."""
        seed = self.rng.getrandbits(63)
        if old is not None and settings.reuse and old.settings == settings and old.advance(game):
            return old
        return Search(game, settings, seed=seed, clock=self.clock)

    def search(self, game: Game, limit: Limit | None = None):
        """The search of ``game``'s position within ``limit`` (default: the
        agent's, less a small reserve on a running clock:
        :meth:`Limit.for_search`): one tree, or with ``threads`` > 1 a
        :class:`~boardlab.fast.search.RootParallel`."""
        settings = self.settings_for(game)
        s = self._grown(self._tree, game, settings)
        searched: Search | RootParallel = s
        if self.threads > 1:
            from concurrent.futures import ThreadPoolExecutor
            olds = self._trees or [None] * (self.threads - 1)
            self._trees = [self._grown(t, game, settings) for t in olds]
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="mcts")
            searched = RootParallel([s, *self._trees], self._pool)
        self._tree = s if settings.reuse else None
        if not settings.reuse:
            self._trees = []
        if limit is None:
            limit = self.limit_for(game).for_search(self.clock)
        before = searched.simulations
        searched.run_for(limit)
        self.info.simulations = searched.simulations - before
        return searched

    def continues(self, game: Game) -> bool:
        """Whether the kept tree holds ``game``'s position: a caller that
        makes one agent a move (the web) keeps the agent for the next move
        when this is True."""
        s = self._tree
        return s is not None and s.reaches(game) is not None

    def reset(self) -> None:
        self._tree = None
        self._trees = []
        self._memo = {}

    # ------------------------------------------------------------ pre-game choices
    def name_value(self, game: Game) -> int:
        """The value of the pre-game option this agent names at the start
        ``game`` (:mod:`boardlab.core.pregame`; :func:`.decisions.name_value`)."""
        from .decisions import name_value
        return name_value(game, self._decision_limit(), self.seed)

    def choose_color(self, game: Game) -> str:
        """The color this agent picks at the start ``game``, whose options
        hold the value the other player named (:func:`.decisions.choose_side`)."""
        from .decisions import choose_side
        return choose_side(game, self._decision_limit(), self.seed)

    def _decision_limit(self) -> Limit:
        """:data:`DECISION_LIMIT`, within half a timed agent's move time: a
        pre-game choice is not part of a level's strength (level 1's own
        budget named a komi nobody would)."""
        secs = None if self.level is not None else self.limit.seconds
        cap = DECISION_LIMIT.seconds or 1.0
        return Limit(DECISION_LIMIT.simulations, cap if secs is None else min(secs / 2, cap))

    # ------------------------------------------------------------ moves
    def choose_action(self, game: Game) -> int:
        start = self.clock()
        legal = game.legal_actions()
        if not legal:
            raise GameOverError(None, "the game is over: no move to choose")
        info = self.info = SearchInfo()
        special = advice(game.name).special
        action = special(game, self._memo) if special is not None and self.knowledge else None
        if len(legal) == 1 or action is not None:
            info.action = legal[0] if action is None else action
            info.seconds = self.clock() - start
            return info.action
        s = self.search(game)
        action = s.best_action()
        info.root_visits = s.root_visits
        info.action = action
        for ch in s.children():
            if ch.visits:
                info.children[ch.action] = (ch.visits, ch.value)
        if action in info.children:
            info.value = info.children[action][1]
        info.proven_win = s.proven == game.current_player
        info.seconds = self.clock() - start
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
