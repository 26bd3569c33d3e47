"""The one search from Python: a tree, its settings, a budget, and the tree protocol.

``Search(game, settings)`` builds the kernel state of a Python game (by
replaying its moves in the kernel from its start, so history-dependent rules
such as robble's repetitions are exact) and runs :mod:`boardlab.fast._search`
in chunks until a :class:`~boardlab.ai.limit.Limit` is spent. What play,
analysis and the engine protocols read of it is one *tree protocol*:
``root_visits``, ``root_value(color)``, ``children()``, ``proven``,
``principal_variation(action)`` and ``best_action()``.

With ``evaluator="external"`` the search does not evaluate leaves itself:
:meth:`Search.collect` returns a batch of leaf positions, the caller
evaluates them (a neural network: :mod:`boardlab.ai.az`) and hands priors
and values back with :meth:`Search.deliver`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from types import ModuleType
from typing import Any

import numpy as np

from ..core import pie
from ..core.game import Game
from ..errors import OptionError
from . import _loops, _search, _tree
from ._resolve import resolve
from ._rng import new_rng
from .advice import Advice, advice

EVALUATORS = {"playout": _tree.EVAL_PLAYOUT, "policy": _tree.EVAL_POLICY,
              "mast": _tree.EVAL_MAST, "nst": _tree.EVAL_NST, "heuristic": _tree.EVAL_HEURISTIC,
              "external": _tree.EVAL_EXTERNAL}


@dataclass(frozen=True)
class Settings:
    """Everything that decides how the search plays, as one value (an
    engine's full settings: studies and published tables record it).

    ``c``: UCB1 exploration; ``cpuct``: PUCT exploration on the priors;
    ``pb``: progressive bias weight; ``fpu``: an unvisited child's value
    (None: try every child once before any twice); ``fpu_red``: with priors,
    an unvisited child's value is the parent's minus this (None: ``fpu``);
    ``priors``: order and weigh children by the game's move priors;
    ``prior_temp``: softmax temperature of the game's move scores;
    ``maxkids``: keep a node's best children only (0: all); ``evaluator``:
    ``playout`` (uniform), ``policy`` (the game's informed playout),
    ``mast``, ``nst`` (MAST with 2-grams: an action valued also as the
    reply to the one before), ``heuristic`` (static evaluation) or
    ``external``;
    ``cutoff``: playout plies before the heuristic judges (0: to the end);
    ``mast_eps``: MAST's (and NST's) share of uniform choices;
    ``mast_plies``: MAST (NST) chooses a playout's first plies only, the
    kernel's uniform playout the rest (0: MAST to the end); ``score``: weight of the
    score margin in a win's value (0: wins are +1); ``score_scale``: the
    margin worth a full bonus / the heuristic's tanh scale (0: a quarter of
    the board's points); ``implicit``: weight of implicit minimax values;
    ``solver``: MCTS-solver; ``grave``: GRAVE selection (each move's
    all-moves-as-first statistics, from the closest node above with the same
    mover and more than ``grave_ref`` visits, blended into its mean with
    bias ``grave_bias``; :func:`boardlab.fast._select._select_grave`);
    ``grave_max``: a node past this many visits, all its moves tried,
    selects by its moves' own means, as without GRAVE (0: never);
    ``forced``: a new node with a single legal move is expanded and passed
    through in the same simulation (a forced move teaches nothing);
    ``leaf_playouts``: playouts averaged at each leaf (uniform or the
    game's; a steadier value for the price of the tree's growth);
    ``transpose``: a position reached by another move order shares its
    node (the game's ``position_key``), so every path into it gains from
    what was searched below it; each edge keeps its own statistics;
    ``vloss``: virtual loss of a waiting leaf
    (external evaluation); ``reuse``: keep the subtree of the position
    reached; ``nodes``, ``edges``: tree capacity (positions reached, moves
    listed)."""

    c: float = 1.0
    cpuct: float = 0.0
    pb: float = 0.0
    fpu: float | None = None
    fpu_red: float | None = None
    priors: bool = False
    prior_temp: float = 1.0
    maxkids: int = 0
    evaluator: str = "playout"
    cutoff: int = 0
    mast_eps: float = 0.1
    mast_plies: int = 0
    score: float = 0.0
    score_scale: float = 0.0
    implicit: float = 0.0
    solver: bool = False
    vloss: float = 1.0
    grave: bool = False
    grave_ref: int = 50
    grave_bias: float = 1e-5
    grave_max: int = 0
    forced: bool = False
    leaf_playouts: int = 1
    transpose: bool = False
    reuse: bool = True
    nodes: int = 2_000_000
    edges: int = 16_000_000

    def __post_init__(self) -> None:
        def check(ok: bool, what: str) -> None:
            if not ok:
                raise OptionError(what)
        check(0 <= self.c < math.inf, f"c (the exploration constant) must be >= 0 and finite, got {self.c}")
        check(0 <= self.cpuct < math.inf, f"cpuct (the prior's exploration) must be >= 0 and finite, got {self.cpuct}")
        check(0 <= self.pb < math.inf, f"pb (progressive bias) must be >= 0 and finite, got {self.pb}")
        check(self.fpu is None or -1 <= self.fpu <= 1, f"fpu must be in [-1, 1], got {self.fpu}")
        check(self.fpu_red is None or 0 <= self.fpu_red <= 2,
              f"fpu_red must be in [0, 2], got {self.fpu_red}")
        check(0 < self.prior_temp < math.inf, f"prior_temp must be > 0, got {self.prior_temp}")
        check(0 <= self.maxkids <= 1_000_000, f"maxkids must be >= 0, got {self.maxkids}")
        check(self.evaluator in EVALUATORS,
              f"evaluator must be one of {', '.join(EVALUATORS)}, got {self.evaluator!r}")
        check(0 <= self.cutoff <= 100_000, f"cutoff must be >= 0 plies, got {self.cutoff}")
        check(0 <= self.mast_eps <= 1, f"mast_eps must be in [0, 1], got {self.mast_eps}")
        check(0 <= self.mast_plies <= 100_000,
              f"mast_plies must be >= 0 plies (0: the whole playout), got {self.mast_plies}")
        check(0 <= self.score <= 10, f"score must be in [0, 10], got {self.score}")
        check(0 <= self.score_scale < math.inf, f"score_scale must be >= 0, got {self.score_scale}")
        check(0 <= self.implicit <= 1, f"implicit must be in [0, 1], got {self.implicit}")
        check(0 <= self.grave_ref <= 1_000_000, f"grave_ref must be >= 0 visits, got {self.grave_ref}")
        check(0 <= self.grave_bias < math.inf, f"grave_bias must be >= 0, got {self.grave_bias}")
        check(0 <= self.grave_max <= 100_000_000, f"grave_max must be >= 0 visits, got {self.grave_max}")
        check(not (self.grave and self.evaluator == "external"),
              "grave needs the search's own leaf evaluations: not with evaluator=external")
        check(not (self.forced and self.evaluator == "external"),
              "forced passes forced moves in the search's own simulations: not with evaluator=external")
        check(1 <= self.leaf_playouts <= 64,
              f"leaf_playouts must be 1..64 playouts a leaf, got {self.leaf_playouts}")
        check(self.leaf_playouts == 1 or self.evaluator in ("playout", "policy"),
              "leaf_playouts averages playouts: only with evaluator=playout or policy")
        check(not (self.transpose and self.evaluator == "external"),
              "transpose links positions in the search's own simulations: not with "
              "evaluator=external")
        check(0 <= self.vloss <= 10, f"vloss must be in [0, 10], got {self.vloss}")
        check(1000 <= self.nodes <= 50_000_000, f"nodes must be 1,000..50,000,000, got {self.nodes}")
        check(1000 <= self.edges <= 1_000_000_000,
              f"edges must be 1,000..1,000,000,000, got {self.edges}")

    def replace(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def params(self, points: int) -> np.ndarray:
        """The compiled search's parameter vector for a board of ``points``."""
        p = _tree.default_params()
        p[_tree.P_C] = self.c
        p[_tree.P_CPUCT] = self.cpuct
        p[_tree.P_PB] = self.pb
        p[_tree.P_FPU] = 2 * _tree.INF_FPU if self.fpu is None else self.fpu
        p[_tree.P_FPU_RED] = -1.0 if self.fpu_red is None else self.fpu_red
        p[_tree.P_PRIORS] = 1.0 if self.priors else 0.0
        p[_tree.P_PRIOR_TEMP] = self.prior_temp
        p[_tree.P_MAXKIDS] = self.maxkids
        p[_tree.P_EVAL] = EVALUATORS[self.evaluator]
        p[_tree.P_CUTOFF] = self.cutoff
        p[_tree.P_MAST_EPS] = self.mast_eps
        p[_tree.P_MAST_PLIES] = self.mast_plies
        p[_tree.P_SCORE] = self.score
        p[_tree.P_SCORE_SCALE] = self.score_scale or max(1.0, points / 4)
        p[_tree.P_IMPLICIT] = self.implicit
        p[_tree.P_SOLVER] = 1.0 if self.solver else 0.0
        p[_tree.P_VLOSS] = self.vloss
        p[_tree.P_GRAVE] = 1.0 if self.grave else 0.0
        p[_tree.P_GRAVE_REF] = self.grave_ref
        p[_tree.P_GRAVE_BIAS] = self.grave_bias
        p[_tree.P_GRAVE_MAX] = self.grave_max
        p[_tree.P_FORCED] = 1.0 if self.forced else 0.0
        p[_tree.P_LEAF] = self.leaf_playouts
        p[_tree.P_TRANSPOSE] = 1.0 if self.transpose else 0.0
        return p


def kernel_state(game: Game) -> tuple[np.ndarray, object]:
    """The kernel state equal to ``game`` (and the resolved kernel request)."""
    g = resolve(game.name, game.size, dict(game.options))
    start = game.copy()
    while len(start):
        start.undo()
    fresh = type(game)(game.size, **game.options)
    if start.position() != fresh.position():
        loader = getattr(g.kernel, "from_game", None)
        if loader is None:
            raise OptionError(f"{game.name}: the compiled core cannot start from a set-up position yet")
        return np.ascontiguousarray(loader(game), dtype=np.int64), g
    state = np.zeros(g.state_len, dtype=np.int64)
    g.kernel.init(state, g.size, g.opts)
    for a in game.action_history:
        g.kernel.apply(state, a)
    return state, g


def search_state(game: Game, evaluator: str) -> tuple[np.ndarray, ModuleType, Advice, object]:
    """What a search of ``game`` with ``evaluator`` plays on: the state, the
    module keeping the kernel contract on it, the advice for it, and the
    resolved kernel request. The plug-in's own state where it has one for
    this board (``SEARCH_STATE``, :mod:`boardlab.fast.advice`), else the kernel's."""
    state, req = kernel_state(game)
    own, adv = advice(game.name).for_state(game.size, evaluator)
    if own is None:
        return state, req.kernel, adv, req
    mine = np.zeros(own.state_len(game.size), dtype=np.int64)
    own.from_kernel(mine, state)
    return mine, own, adv, req


#: chunk size bounds of :func:`spend`: small enough to watch the clock, big
#: enough that the Python round trip (~10 us) is lost in the simulations
MIN_CHUNK, MAX_CHUNK = 8, 4096


def spend(limit, run: Callable[[int], int], clock: Callable[[], float] = time.perf_counter,
          should_stop: Callable[[], bool] | None = None,
          every: Callable[[], None] | None = None, every_s: float = 0.25,
          done: Callable[[], bool] | None = None) -> int:
    """Call ``run(chunk)`` (which does up to ``chunk`` simulations and says
    how many) until ``limit``'s simulations or seconds on ``clock`` are
    spent, a chunk comes back short, ``done()`` or ``should_stop()``; the
    chunks grow to fill about a fifth of the time left. ``every()`` about
    every ``every_s`` seconds. Returns the simulations done."""
    simulations, seconds = limit.simulations, limit.seconds
    start = clock()
    deadline = None if seconds is None else start + seconds
    next_every = start + every_s
    chunk = MIN_CHUNK
    total = 0
    while simulations is None or total < simulations:
        want = chunk if simulations is None else min(chunk, simulations - total)
        t0 = clock()
        got = run(want)
        total += got
        if got < want or (done is not None and done()):
            break
        now = clock()
        if deadline is not None:
            left = deadline - now
            if left <= 0:
                break
            per = (now - t0) / max(got, 1)
            chunk = int(min(MAX_CHUNK, max(MIN_CHUNK, 0.2 * left / max(per, 1e-9))))
        else:
            chunk = min(MAX_CHUNK, chunk * 2)
        if every is not None and now >= next_every:
            every()
            next_every = now + every_s
        if should_stop is not None and should_stop():
            break
    return total


@dataclass(frozen=True)
class ChildStats:
    action: int
    visits: int
    value: float         # mean return for the color its mover owns after it, in [-1, 1]
    proven: int          # -1 unknown, else the winning color (2: draw)
    returns: tuple[float, float] = (0.0, 0.0)  # each color's mean return
    prior: float = 0.0   # the move prior the search gave it


class Search:
    """One compiled MCTS tree rooted at a game position."""

    #: past this share of the node or edge capacity, a new position gets a fresh tree
    REUSE_FILL = 0.6

    def __init__(self, game: Game, settings: Settings | None = None, *, seed: int = 0,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if game.is_over:
            raise OptionError("the game is over: nothing to search")
        self.settings = settings or Settings()
        self.game = game.copy()
        self.state, self.kernel, self.advice, self.req = search_state(game, self.settings.evaluator)
        self.fns = _loops.kernel_table(self.kernel)
        self.swap = game.swap_action if game.swap_action is not None else -1
        self.params = self.settings.params(game.n_points)
        # who played each playout ply, for GRAVE: read off the record where
        # the turns alternate (any kernel action, or the game's playout), else replayed
        alternates = getattr(self.kernel, "ALTERNATES", False) or (
            self.settings.evaluator == "policy" and self.advice.policy_alternates)
        self.params[_tree.P_ALTERNATES] = 1.0 if alternates else 0.0
        self.rng = new_rng(seed)
        self.clock = clock
        if self.settings.transpose and not hasattr(self.kernel, "position_key"):
            raise OptionError(f"{game.name}: transpose needs the game's position keys "
                              "(position_key), which its compiled core does not have")
        self.tree = _tree.Tree(self.settings.nodes, self.settings.edges, self.req.num_actions,
                               len(self.state), self.settings.transpose,
                               self.settings.evaluator == "nst")
        t = self.tree
        _tree.reset_tree(game.current_player, t.parent, t.pedge, t.first, t.kids, t.tried,
                           t.nlegal, t.player, t.proven, t.n, t.w, t.hv, t.meta)
        self.simulations = 0
        self.root = 0  # the node of ``self.game``'s position (moves on with :meth:`advance`)

    # ------------------------------------------------------------ running
    def run(self, sims: int) -> int:
        """Up to ``sims`` more simulations (fewer once the root is proven)."""
        if self.settings.evaluator == "external":
            raise OptionError("an external evaluator's search runs by collect() and deliver()")
        done = _search.search_chunk(self.fns, self.advice.table, self.state, self.root, self.swap,
                                    self.params, self.rng, sims, *self.tree.arrays())
        self.simulations += done
        return done

    def run_for(self, limit, should_stop: Callable[[], bool] | None = None,
                every: Callable[[], None] | None = None, every_s: float = 0.25) -> int:
        """Until ``limit`` (a :class:`~boardlab.ai.limit.Limit`: more
        simulations, or seconds on this search's clock) is spent, the root is
        proven or ``should_stop()``; ``every()`` about every ``every_s`` seconds."""
        return spend(limit, self.run, self.clock, should_stop, every, every_s,
                     done=lambda: self.proven != _tree.UNKNOWN)

    # ------------------------------------------------------------ external evaluation
    def collect(self, want: int, force: int = -1) -> tuple[np.ndarray, np.ndarray]:
        """Up to ``want`` leaf positions waiting for an evaluation (kernel
        states, one row each) and their nodes; ``force``: the root action
        each path starts with (Gumbel's sequential halving), or -1."""
        if self.settings.evaluator != "external":
            raise OptionError("collect() is for a search with evaluator='external'")
        states = np.empty((want, self.req.state_len), dtype=np.int64)
        nodes = np.empty(want, dtype=np.int64)
        got = _search.collect(self.fns, self.state, self.root, self.swap, self.params, self.rng,
                              want, force, states, nodes, *self.tree.arrays())
        return states[:got], nodes[:got]

    def deliver(self, states: np.ndarray, nodes: np.ndarray, values: np.ndarray,
                priors: np.ndarray) -> None:
        """The evaluations of leaves :meth:`collect` returned: ``values[i]``
        for the color to move at leaf i, ``priors[i, action]`` its move
        probabilities. Each counts as one simulation."""
        count = len(nodes)
        if count == 0:
            return
        _search.deliver(self.fns, self.root, self.swap, self.params, self.rng,
                        np.ascontiguousarray(states, dtype=np.int64),
                        np.ascontiguousarray(nodes, dtype=np.int64),
                        np.ascontiguousarray(values, dtype=np.float64),
                        np.ascontiguousarray(priors, dtype=np.float64), count,
                        *self.tree.arrays())
        self.simulations += count

    @property
    def pending(self) -> int:
        """Leaves collected and not yet delivered."""
        return int(self.tree.meta[2])

    # ------------------------------------------------------------ tree reuse
    def reaches(self, game: Game) -> int | None:
        """The node of ``game``'s position if it lies in this tree (the same
        game, some moves on, through visited nodes) and the tree has room to
        grow; None otherwise. Changes nothing."""
        old = self.game
        if (game.name, game.size, dict(game.options)) != (old.name, old.size, dict(old.options)):
            return None
        past, now = old.action_history, game.action_history
        if len(now) < len(past) or list(now[:len(past)]) != list(past) or game.is_over:
            return None
        t = self.tree
        if (t.meta[0] > self.REUSE_FILL * len(t.parent) or t.meta[1] > self.REUSE_FILL * len(t.action)
                or self.pending):
            return None
        node = self.root
        for a in now[len(past):]:
            nxt = self.child_node(node, a)
            if nxt is None:
                return None
            node = nxt
        if t.first[node] == _tree.WAITING:
            return None
        return node if self.tree.player[node] == game.current_player else None

    def advance(self, game: Game) -> bool:
        """Move the root to ``game``'s position if :meth:`reaches` finds it;
        False (and nothing changed) if not."""
        node = self.reaches(game)
        if node is None:
            return False
        for a in game.action_history[len(self.game.action_history):]:
            self.kernel.apply(self.state, a)
        if self.settings.transpose:  # room for the new root's positions (the table
            self.tree.table[:] = 0   # keeps the first ones made, see _tree.Tree)
        self.root = node
        self.game = game.copy()
        return True

    # ------------------------------------------------------------ the tree protocol
    @property
    def proven(self) -> int:
        """The root's proof: -1 none, else the winning color (2: a draw)."""
        return int(self.tree.proven[self.root])

    @property
    def root_visits(self) -> int:
        return int(self.tree.n[self.root])

    def root_value(self, color: int) -> float:
        """The root's mean return for ``color`` (0 before any simulation)."""
        t = self.tree
        r = self.root
        if not t.n[r]:
            return 0.0
        v = float(t.w[r] / t.n[r])
        return v if color == 0 else -v

    def children(self, node: int | None = None) -> list[ChildStats]:
        """The moves of ``node`` (default: the root) the tree keeps, in action
        order, with their statistics (zero visits for a move not taken yet)."""
        t = self.tree
        node = self.root if node is None else node
        f, k = int(t.first[node]), int(t.kids[node])
        if f < 0:
            return []
        mover = int(t.player[node])
        uniform = not self.settings.priors and self.settings.evaluator != "external"
        out = []
        for e in range(f, f + k):
            a = int(t.action[e])
            col = pie.played_for(mover, a, self.swap)
            j = int(t.child[e]) - 1
            nj = float(t.en[e])
            v0 = float(t.ew[e] / nj) if nj else 0.0
            rets = (v0, -v0)
            proven = int(t.proven[j]) if j >= 0 else _tree.UNKNOWN
            prior = 1.0 / k if uniform else float(t.prior[e])
            out.append(ChildStats(a, int(nj), rets[col], proven, rets, prior))
        out.sort(key=lambda ch: ch.action)
        return out

    def child_node(self, node: int, action: int) -> int | None:
        """The node reached from ``node`` by ``action`` (None if no simulation took it)."""
        t = self.tree
        f, k = int(t.first[node]), int(t.tried[node])
        if f < 0:
            return None
        hits = np.flatnonzero(t.action[f:f + k] == action)
        return int(t.child[f + int(hits[0])]) - 1 if len(hits) else None

    def best_action(self) -> int:
        """A proven win if there is one, else the most visited child (ties:
        the better value), else the highest prior."""
        mover = int(self.tree.player[self.root])
        kids = self.children()
        if not kids:
            return self.game.legal_actions()[0]
        wins = [c for c in kids if c.proven == mover and c.action != self.swap]
        if wins:
            return wins[0].action
        return max(kids, key=lambda c: (c.visits, c.value if c.visits else -2.0, c.prior)).action

    def principal_variation(self, first_action: int, length: int = 12) -> list[int]:
        """``first_action``, then the most visited move at each node after it
        (while that move has at least two visits and the game goes on: with
        ``transpose`` a node may have been reached first by a line on which
        a repetition had not yet ended the game)."""
        node = self.child_node(self.root, first_action)
        pv = [first_action]
        t = self.tree
        line = self.game.copy() if self.settings.transpose else None
        if line is not None:
            line.apply_action(first_action)
        while node is not None and len(pv) < length and t.first[node] >= 0 and t.tried[node]:
            f, k = int(t.first[node]), int(t.tried[node])
            e = f + int(np.argmax(t.en[f:f + k]))
            j = int(t.child[e]) - 1
            a = int(t.action[e])
            if t.n[j] < 2 or (line is not None and (line.is_over or a not in line.legal_actions())):
                break
            if line is not None:
                line.apply_action(a)
            pv.append(a)
            node = j
        return pv


class RootParallel:
    """Several independent trees of one position searched at once, one per
    thread (root parallelisation: the compiled search releases the GIL), read
    as one: a child's visits are summed over the trees and its values are
    the visit-weighted means. The tree protocol is :class:`Search`'s."""

    def __init__(self, trees: list[Search], pool) -> None:
        self.trees = trees
        self.pool = pool
        self.game = trees[0].game
        self.swap = trees[0].swap

    def run_for(self, limit, **kw) -> int:
        from ..ai.limit import Limit
        share = limit
        if limit.simulations is not None:
            share = Limit(-(-limit.simulations // len(self.trees)), limit.seconds)
        return sum(self.pool.map(lambda t: t.run_for(share, **kw), self.trees))

    @property
    def simulations(self) -> int:
        return sum(t.simulations for t in self.trees)

    @property
    def proven(self) -> int:
        for t in self.trees:
            if t.proven != _tree.UNKNOWN:
                return t.proven
        return _tree.UNKNOWN

    @property
    def root_visits(self) -> int:
        return sum(t.root_visits for t in self.trees)

    def root_value(self, color: int) -> float:
        n = self.root_visits
        return sum(t.root_value(color) * t.root_visits for t in self.trees) / n if n else 0.0

    def children(self) -> list[ChildStats]:
        merged: dict[int, list] = {}
        for t in self.trees:
            for ch in t.children():
                m = merged.setdefault(ch.action, [0, 0.0, _tree.UNKNOWN, 0.0, 0.0, 0.0])
                m[0] += ch.visits
                m[1] += ch.value * ch.visits
                m[3] += ch.returns[0] * ch.visits
                m[4] += ch.returns[1] * ch.visits
                m[5] = max(m[5], ch.prior)
                if ch.proven != _tree.UNKNOWN:
                    m[2] = ch.proven
        out = []
        for a in sorted(merged):
            n, v, proven, r0, r1, p = merged[a]
            out.append(ChildStats(a, n, v / n if n else 0.0, proven,
                                  (r0 / n, r1 / n) if n else (0.0, 0.0), p))
        return out

    def best_action(self) -> int:
        first = self.trees[0]
        mover = int(first.tree.player[first.root])
        kids = self.children()
        if not kids:
            return first.best_action()
        wins = [c for c in kids if c.proven == mover and c.action != first.swap]
        if wins:
            return wins[0].action
        return max(kids, key=lambda c: (c.visits, c.value if c.visits else -2.0, c.prior)).action

    def principal_variation(self, first_action: int, length: int = 12) -> list[int]:
        """The line of the tree that visited ``first_action`` most."""
        def visits(t: Search) -> int:
            node = t.child_node(t.root, first_action)
            return int(t.tree.n[node]) if node is not None else 0
        return max(self.trees, key=visits).principal_variation(first_action, length)
