"""Monte Carlo tree search over the integer action space of any boardlab game.

Correctness for these games
---------------------------
* Every node stores the color to act there (``game.current_player``) and the
  sum of *each color's* return over the simulations through it. A node picks
  among its children by the mean return of the color that decides there, so
  a color acting several times in a row (implo's resolution steps, yugo's
  ``mark`` ... ``done``) is handled with no alternation assumption.
* The pie ``swap`` is decided by the person to move, who then owns the *other*
  color (docs/rules.md: the players exchange colors, the same color moves next). So
  the swap edge is valued with the other color's return: swap is chosen exactly
  when the search rates the position better for the color just played than
  for the color to move.
* Actions come from the game's own legal lists; nothing is generated here.
  ``checked=True`` replays every tree step through the public checked
  ``apply_action`` (the tests use it).
* A child reached by a move that ends the game with a win for the color that
  decides is a proven win: the node then always selects it (and the agent
  plays it). Before searching, every root action is tried once (``win_scan``)
  so a one-move win is never missed, even among vimbre's thousands of moves.

Budgets
-------
``iterations`` (exact: that many simulations are added to the tree; with a
reused tree the count is of new ones) and/or ``seconds`` (wall clock, checked
after every playout ply: a playout that would overrun is abandoned and thrown
away, so the limit holds to within one ply plus one tree step). With both,
whichever ends first. With a time limit the moves depend on the machine; with
an iteration limit and a seed they reproduce exactly.

Tree reuse
----------
After a search the agent keeps the tree and the game's action history. At the
next call, when the new game continues that history, the subtree reached by
the moves played since is the new root (its visit counts carried over); any
other game gets a fresh tree.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.game import Game
from .advice import advice_for
from .agent import BaseAgent
from .comments import SearchComment
from .policies import policy_for, policy_names
from .tactics import find_win

INF = float("inf")
#: The simulations of one estimate of a komi / side choice, in the compiled
#: search (:func:`boardlab.ai.decisions.start_value`): 8,000 take 0.1-0.6 s
#: on 5x5-13x13, and a choice makes ~10 estimates.
DECISION_ITERATIONS = 8000
#: ... and the most seconds of one estimate (19x19's choice stays near 10 s).
DECISION_SECONDS = 1.0


class Node:
    __slots__ = ("player", "children", "untried", "n", "w", "result", "win")

    def __init__(self, player: int | None, untried: list[int] | None) -> None:
        self.player = player          # color index to act here; None: game over
        self.children: dict[int, Node] = {}
        self.untried = untried        # legal actions not expanded yet
        self.n = 0                    # simulations through this node
        self.w = [0.0, 0.0]           # sum of returns per color index
        self.result: list[float] | None = None  # exact returns when terminal
        self.win: int | None = None   # an action that wins at once for the decider

    def value(self, color: int) -> float:
        return self.w[color] / self.n if self.n else 0.0


@dataclass
class SearchInfo:
    """What the last search did (for tests, benchmarks and analysis)."""

    iterations: int = 0           # simulations added by this search
    aborted: int = 0              # playouts abandoned at the time limit
    seconds: float = 0.0          # wall time of the whole choose_action call
    reused: int = 0               # root visits carried over from the previous search
    root_visits: int = 0
    action: int | None = None
    value: float = 0.0            # expected return of the chosen action, for its decider
    proven_win: bool = False
    children: dict[int, tuple[int, float]] = field(default_factory=dict)  # a -> (visits, value)


class MCTSAgent(BaseAgent):
    """UCT over each color's own returns, with random (or game-specific) playouts.

    Parameters: ``iterations`` / ``seconds`` (budget per move; neither: 1 s),
    ``c`` (exploration constant, returns in [-1, 1]), ``playout`` (a policy
    name of :mod:`boardlab.ai.policies` or ``"auto"``), ``reuse`` (tree reuse),
    ``widening`` (None, or ``(k, alpha)``: progressive widening, a node may have
    ``k * n**alpha`` children), ``win_scan`` (look for a move that wins at
    once before searching), ``max_plies`` (playout length cap, default
    ``10 * points + 100``; an unfinished playout counts as a draw),
    ``checked`` (validate tree steps through the public API; slow, tests)."""

    setting_attributes = {"playout": "playout_name"}

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 seed: int | None = None, *, c: float = 1.0, playout: str = "auto",
                 reuse: bool = True, widening: tuple[float, float] | None = None,
                 win_scan: bool = True, max_plies: int | None = None,
                 moves: str = "auto", checked: bool = False,
                 name: str | None = None) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            seconds = 1.0
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds is not None and not 0 < seconds < math.inf:
            raise ValueError(f"seconds must be a positive finite number, got {seconds}")
        if not 0 <= c < math.inf:
            raise ValueError(f"the exploration constant c must be >= 0 and finite, got {c}")
        if widening is not None and not (0 < widening[0] < math.inf and 0 <= widening[1] <= 1):
            raise ValueError(f"progressive widening k/alpha needs k > 0 and 0 <= alpha <= 1, "
                             f"got {widening[0]}/{widening[1]}")
        known = policy_names()
        if playout != "auto" and playout not in known:
            raise ValueError(f"unknown playout policy {playout!r} "
                             f"(known: {', '.join(sorted(known))}, auto)")
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.playout_name = playout
        self.reuse = reuse
        self.widening = widening
        self.win_scan = win_scan
        self.max_plies = max_plies
        self.checked = checked
        if moves not in ("auto", "all"):
            raise ValueError(f"moves must be auto or all, got {moves!r}")
        self.moves = moves
        self.name = name or _budget_name(iterations, seconds)
        self.clock = time.perf_counter
        self.info = SearchInfo()
        self._root: Node | None = None
        self._root_history: list[int] = []
        self._root_position = ""
        self._policy_cache: tuple[str, object] | None = None
        self._observer = None      # called with each finished simulation's game
        self._special_memo: dict = {}  # the game's special moves keep their plans here

    # ------------------------------------------------------------ interface
    def settings(self, game: Game | None = None) -> dict:
        """:meth:`BaseAgent.settings`, with ``playout=auto`` resolved to the
        game's own default policy when ``game`` is given."""
        out = super().settings(game)
        if game is not None and out["playout"] == "auto":
            out["playout"] = advice_for(game).default_playout
        return out

    def reset(self) -> None:
        self._root = None
        self._root_history = []
        self._root_position = ""

    def choose_action(self, game: Game) -> int:
        # The tree has no reference cycles: the cyclic collector would only
        # add pauses (tens of ms on big trees), so it is off during a search.
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self._choose(game)
        finally:
            if enabled:
                gc.enable()

    def _choose(self, game: Game) -> int:
        start = self.clock()
        if game.is_over:
            raise ValueError("the game is over: no move to choose")
        # 3% of the budget is kept in reserve for what follows the search and
        # for the scheduler (other processes on the machine)
        deadline = None if self.seconds is None else start + 0.97 * self.seconds
        info = self.info = SearchInfo()
        legal = game.legal_actions()
        root = self._reused_root(game)
        if root is None:
            root = Node(game.current_player, self._node_moves(game.copy(history=False)))
        info.reused = root.n
        special = self._special(game)
        if special is not None:
            action = special
            root = Node(game.current_player, list(legal))
        elif len(legal) == 1:
            action = legal[0]
        else:
            action = self._scan_wins(game, legal, start) if self.win_scan else None
            if action is not None:
                info.proven_win = True
            else:
                self._search(game, root, deadline)
                action = self._best(root, game)
        self._remember(game, root)
        info.action = action
        info.root_visits = root.n
        swap = self._swap
        for a, ch in root.children.items():
            persp = 1 - root.player if a == swap else root.player
            info.children[a] = (ch.n, ch.value(persp))
        if action in info.children:
            info.value = info.children[action][1]
            if root.children[action].result is not None and info.value == 1.0:
                info.proven_win = True
        info.seconds = self.clock() - start
        return action

    def move_comment(self) -> str | None:
        """The last move's :class:`~boardlab.ai.comments.SearchComment`
        (``+0.62/640 0.41s``) as text, for the match record."""
        info = self.info
        if info.action is None:
            return None
        if info.proven_win:
            return str(SearchComment(info.seconds, 1.0, info.root_visits, proven=True))
        if info.action not in info.children:
            return str(SearchComment(info.seconds))
        return str(SearchComment(info.seconds, info.value, info.root_visits))

    # hooks of the boardlab.ai.Agent protocol for yugo's pre-game choice
    def decision_budget(self) -> tuple[int, float]:
        """Budget of each estimate in a komi / side choice:
        :data:`DECISION_ITERATIONS` simulations of the compiled search and at
        most :data:`DECISION_SECONDS` (a time-limited agent: half its move
        time, if less), whichever ends first. The same for every level: naming
        komi is not part of a level's strength, and a weak level's own budget
        (level 1: 10 simulations) named komi nobody would (13 on 7x7). A komi
        choice makes about log2(size²) + 2 estimates: ~2.5 s on 9x9."""
        iterations = DECISION_ITERATIONS
        seconds = DECISION_SECONDS if self.seconds is None else min(self.seconds / 2,
                                                                    DECISION_SECONDS)
        return iterations, seconds

    def choose_komi(self, game_name: str | None = None, size: int | None = None) -> int:
        from .decisions import choose_komi
        iterations, seconds = self.decision_budget()
        return choose_komi(size, iterations, self.seed, seconds=seconds, game=game_name)

    def choose_color(self, komi: int, size: int | None = None) -> str:
        from .decisions import choose_side
        iterations, seconds = self.decision_budget()
        return choose_side(komi, size, iterations, self.seed, seconds=seconds)

    def search(self, game: Game, moves: list[int] | None = None,
               seconds: float | None = None,
               observer: Callable[[Game], None] | None = None,
               root: Node | None = None) -> Node:
        """Run this agent's search from ``game`` and return the root node,
        without choosing a move or touching the kept tree: for analysis and
        for decisions that are not moves (yugo's dead groups and answers).
        ``moves``: the root's candidate actions (default: those the agent's
        own tree would consider). The budget is the agent's iteration limit
        and ``seconds`` (default: its own time limit). ``observer`` is called
        with the game at the end of every simulation. ``root``: an empty
        ``Node(game.current_player, None)`` the caller made, so that it can
        read the tree while the search runs (analysis streams it); its moves
        are filled in here."""
        self._setup_game(game)
        if moves is None:
            moves = self._node_moves(game.copy(history=False))
        if root is None:
            root = Node(game.current_player, None)
        root.untried = list(moves)
        seconds = self.seconds if seconds is None else seconds
        deadline = None if seconds is None else self.clock() + seconds
        saved, self._observer = self._observer, observer
        try:
            self._search(game, root, deadline)
        finally:
            self._observer = saved
        return root

    # ------------------------------------------------------------ a game's own moves
    def _special(self, game: Game) -> int | None:
        """An action the game's search plug-in makes the agent play without a
        tree search (yugo's marking and answering: :mod:`boardlab.ai.advice`)."""
        special = advice_for(game).special
        return None if special is None else special(game, self, self._special_memo)

    # ------------------------------------------------------------ tree reuse
    def _reused_root(self, game: Game) -> Node | None:
        self._setup_game(game)
        root = self._root
        if not self.reuse or root is None:
            return None
        old = self._root_history
        hist = game.action_history
        if len(hist) < len(old) or hist[:len(old)] != old:
            return None
        node = root
        for a in hist[len(old):]:
            node = node.children.get(a)
            if node is None:
                return None
        # same start position? (the history could continue a different game)
        probe = game.copy()
        for _ in range(len(hist) - len(old)):
            probe.undo()
        if probe.position() != self._root_position:
            return None
        if node.player != game.current_player or node.untried is None:
            return None
        return node

    def _remember(self, game: Game, root: Node) -> None:
        if self.reuse:
            self._root = root
            self._root_history = game.action_history
            self._root_position = game.position()

    def _setup_game(self, game: Game) -> None:
        key = f"{game.name}/{game.size}"
        if self._policy_cache is None or self._policy_cache[0] != key:
            self._policy_cache = (key, policy_for(game, self.playout_name))
            self._swap = game.swap_action
            self._root = None
        self._policy = self._policy_cache[1]
        self._prune = None
        if self.moves == "auto":
            self._prune = advice_for(game).node_moves
        self._plies = self.max_plies or 10 * game.n_points + 100

    # ------------------------------------------------------------ win scan
    def _scan_wins(self, game: Game, legal: list[int], start: float) -> int | None:
        """A root action that wins at once for the color to move, if any
        (:func:`boardlab.ai.tactics.find_win`). With a time limit the scan
        stops after a fifth of it."""
        stop = None if self.seconds is None else start + 0.2 * self.seconds
        return find_win(game, legal, stop, self.clock)

    def _node_moves(self, g: Game) -> list[int]:
        """The moves a new tree node considers: all legal moves, or, where the
        list is long, the game's ``node_moves`` advice (vimbre's candidates:
        :mod:`boardlab.ai.advice`)."""
        legal = g.step_actions()
        if self._prune is not None and len(legal) > 60:
            return self._prune(g, legal, self.rng)
        return list(legal)

    # ------------------------------------------------------------ search
    def _search(self, game: Game, root: Node, deadline: float | None) -> None:
        info = self.info
        limit = self.iterations
        clock = self.clock
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and clock() >= deadline:
                break
            if root.win is not None and limit is None:
                break  # proven: more time changes nothing
            if self._iterate(game, root, deadline):
                done += 1
            else:
                info.aborted += 1
        info.iterations = done

    def _iterate(self, game: Game, root: Node, deadline: float | None) -> bool:
        g = game.copy(history=False)
        rng = self.rng
        rand = rng.random
        c = self.c
        swap = self._swap
        widening = self.widening
        checked = self.checked
        apply = g.apply_action if checked else g.step
        node = root
        path = [node]
        while True:
            if node.result is not None:
                ret = node.result
                break
            if node.win is not None:
                a = node.win
                child = node.children[a]
                apply(a)
                path.append(child)
                ret = child.result
                break
            untried = node.untried
            if untried and (widening is None
                            or len(node.children) < widening[0] * (node.n + 1) ** widening[1]):
                i = int(rand() * len(untried))
                a = untried[i]
                untried[i] = untried[-1]
                untried.pop()
                apply(a)
                p = g.current_player
                if p is None:
                    child = Node(None, None)
                    child.result = g.returns()
                    decider = 1 - node.player if a == swap else node.player
                    if child.result[decider] > 0:
                        node.win = a
                else:
                    child = Node(p, self._node_moves(g))
                node.children[a] = child
                path.append(child)
                if child.result is not None:
                    ret = child.result
                    break
                ret = self._policy(g, rng, deadline, self.clock, self._plies)
                if ret is None:  # over the time limit: undo the expansion
                    del node.children[a]
                    untried.append(a)
                    return False
                break
            # selection: UCT on the decider's own mean return
            p = node.player
            logn = c * math.sqrt(math.log(node.n + 1))
            best_a = -1
            best_v = -INF
            best = None
            for a, ch in node.children.items():
                cn = ch.n
                if cn == 0:
                    v = INF
                else:
                    v = ch.w[1 - p if a == swap else p] / cn + logn / math.sqrt(cn)
                if v > best_v:
                    best_v = v
                    best_a = a
                    best = ch
            if best is None:  # no children and nothing to expand (cannot happen)
                ret = [0.0, 0.0]
                break
            apply(best_a)
            node = best
            path.append(node)
        if self._observer is not None:
            self._observer(g)
        r0, r1 = ret
        for nd in path:
            nd.n += 1
            w = nd.w
            w[0] += r0
            w[1] += r1
        return True

    def _best(self, root: Node, game: Game) -> int:
        if root.win is not None:
            return root.win
        if not root.children:  # no simulation finished: any legal action
            legal = game.legal_actions()
            return legal[int(self.rng.random() * len(legal))]
        p = root.player
        swap = self._swap
        return max(root.children.items(),
                   key=lambda item: (item[1].n, item[1].value(1 - p if item[0] == swap else p)))[0]


def _budget_name(iterations: int | None, seconds: float | None) -> str:
    parts = []
    if iterations is not None:
        parts.append(f"{iterations}")
    if seconds is not None:
        parts.append(f"{seconds:g}s")
    return "mcts:" + ",".join(parts)


def search_value(game: Game, iterations: int = 1000, seed: int | None = None,
                 seconds: float | None = None, **kwargs) -> tuple[float, float]:
    """Each color's expected return at ``game``, by color index: the root's
    mean returns after an MCTS of ``iterations`` simulations (or ``seconds``,
    whichever ends first).

    The root mean counts the exploratory visits to poor moves, so it
    underrates the color to move; the most-visited child's value overrates it
    (the luckiest of ~80 thinly sampled moves). On yugo 9x9 the two cross zero
    at komi ~1 and ~18 after 1,000 simulations, ~2 and ~6 after 16,000
    (docs/ai.md): at the budgets a komi choice can afford the root mean errs
    less, so it is the estimate."""
    agent = MCTSAgent(iterations=iterations, seconds=seconds, seed=seed, reuse=False,
                      win_scan=False, **kwargs)
    if game.is_over:
        r = game.returns()
        return r[0], r[1]
    root = agent.search(game)
    return root.value(0), root.value(1)


__all__ = ["MCTSAgent", "Node", "SearchInfo", "search_value"]
