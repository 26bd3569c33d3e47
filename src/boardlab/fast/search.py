"""The compiled search from Python: a tree, a budget, a snapshot of the root.

``Search(game)`` builds the kernel state of a Python game (by replaying its
moves in the kernel from its start, so history-dependent rules such as
robble's repetitions are exact) and runs :mod:`boardlab.fast._mcts` in
chunks until a :class:`~boardlab.ai.limit.Limit` is spent.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.game import Game
from ..errors import OptionError
from . import _loops, _mcts
from ._resolve import resolve
from ._rng import new_rng


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


@dataclass(frozen=True)
class ChildStats:
    action: int
    visits: int
    value: float         # mean return for the color its mover owns after it, in [-1, 1]
    proven: int          # -1 unknown, else the winning color (2: draw)
    returns: tuple[float, float] = (0.0, 0.0)  # each color's mean return


class Search:
    """One compiled MCTS tree rooted at a game position."""

    #: chunk size bounds: small enough to watch the clock, big enough that
    #: the Python round trip (~10 us) is lost in the simulations
    MIN_CHUNK, MAX_CHUNK = 8, 4096

    def __init__(self, game: Game, *, c: float = 1.0, fpu: float = 1e10, solver: bool = True,
                 rave: float | None = None, seed: int = 0, nodes: int | None = None) -> None:
        """``rave``: None for no RAVE, else its bias (>= 0; see :mod:`boardlab.fast._mcts`)."""
        if game.is_over:
            raise OptionError("the game is over: nothing to search")
        self.game = game.copy()
        self.state, self.req = kernel_state(game)
        self.fns = _loops.kernel_table(self.req.kernel)
        self.swap = game.swap_action if game.swap_action is not None else -1
        if rave is not None and not 0 <= rave < float("inf"):
            raise OptionError(f"the RAVE bias must be >= 0 and finite, got {rave}")
        self.params = np.array([c, fpu, 1.0 if solver else 0.0, 0.0 if rave is None else 1.0,
                                rave or 0.0], dtype=np.float64)
        self.rng = new_rng(seed)
        self.capacity = nodes or 500_000
        # RAVE records each playout: room for the longest game the adapters allow
        plies = 0 if rave is None else 20 * game.size * game.size + 1000
        self.tree = _mcts.Tree(self.capacity, self.req.num_actions, self.req.state_len, plies)
        t = self.tree
        _mcts.reset_tree(game.current_player, t.action, t.parent, t.first, t.kids, t.player,
                         t.proven, t.n, t.w, t.meta, t.amaf_n, t.amaf_w)
        self.simulations = 0
        self.root = 0  # the node of ``self.game``'s position (moves on with :meth:`advance`)

    def run(self, sims: int) -> int:
        """Up to ``sims`` more simulations (fewer once the root is proven)."""
        t = self.tree
        done = _mcts.search_chunk(self.fns, self.state, self.root, self.swap, self.params,
                                  self.rng, sims,
                                  *t.arrays())
        self.simulations += done
        return done

    def run_for(self, simulations: int | None, seconds: float | None,
                should_stop: Callable[[], bool] | None = None,
                every: Callable[[], None] | None = None, every_s: float = 0.25) -> int:
        """Until ``simulations`` more, ``seconds`` of wall clock, a proven root
        or ``should_stop()``; ``every()`` about every ``every_s`` seconds."""
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        next_every = start + every_s
        chunk = self.MIN_CHUNK
        done = 0
        while simulations is None or done < simulations:
            want = chunk if simulations is None else min(chunk, simulations - done)
            t0 = time.perf_counter()
            got = self.run(want)
            done += got
            if got < want or self.proven != _mcts.UNKNOWN:
                break
            now = time.perf_counter()
            if deadline is not None:
                left = deadline - now
                if left <= 0:
                    break
                per = (now - t0) / max(got, 1)
                chunk = int(min(self.MAX_CHUNK, max(self.MIN_CHUNK, 0.2 * left / max(per, 1e-9))))
            else:
                chunk = min(self.MAX_CHUNK, chunk * 2)
            if every is not None and now >= next_every:
                every()
                next_every = now + every_s
            if should_stop is not None and should_stop():
                break
        return done

    #: past this share of the node capacity, a new position gets a fresh tree
    REUSE_FILL = 0.6

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
        if self.tree.meta[0] > self.REUSE_FILL * self.capacity:
            return None
        node = self.root
        for a in now[len(past):]:
            nxt = self.child_node(node, a)
            if nxt is None or self.tree.player[nxt] == _mcts.UNVISITED:
                return None
            node = nxt
        return node if self.tree.player[node] == game.current_player else None

    def advance(self, game: Game) -> bool:
        """Move the root to ``game``'s position if :meth:`reaches` finds it;
        False (and nothing changed) if not."""
        node = self.reaches(game)
        if node is None:
            return False
        for a in game.action_history[len(self.game.action_history):]:
            self.req.kernel.apply(self.state, a)
        self.root = node
        self.game = game.copy()
        return True

    # ------------------------------------------------------------ reading the tree
    @property
    def proven(self) -> int:
        return int(self.tree.proven[self.root])

    @property
    def root_visits(self) -> int:
        return int(self.tree.n[self.root])

    def root_value(self, color: int) -> float:
        t = self.tree
        r = self.root
        return float(t.w[r, color] / t.n[r]) if t.n[r] else 0.0

    def children(self, node: int | None = None) -> list[ChildStats]:
        t = self.tree
        node = self.root if node is None else node
        f, k = int(t.first[node]), int(t.kids[node])
        if f < 0:
            return []
        mover = int(t.player[node])
        out = []
        for j in range(f, f + k):
            a = int(t.action[j])
            col = 1 - mover if a == self.swap else mover
            nj = t.n[j]
            rets = (float(t.w[j, 0] / nj), float(t.w[j, 1] / nj)) if nj else (0.0, 0.0)
            out.append(ChildStats(a, int(nj), rets[col], int(t.proven[j]), rets))
        return out

    def child_node(self, node: int, action: int) -> int | None:
        t = self.tree
        f, k = int(t.first[node]), int(t.kids[node])
        if f < 0:
            return None
        i = int(np.searchsorted(t.action[f:f + k], action))
        return f + i if i < k and t.action[f + i] == action else None

    def best_action(self) -> int:
        """A proven win if there is one, else the most visited child (ties: the better value)."""
        t = self.tree
        mover = int(t.player[self.root])
        kids = self.children()
        if not kids:
            legal = self.game.legal_actions()
            return legal[0]
        wins = [c for c in kids if c.proven != _mcts.UNKNOWN and c.action != self.swap
                and c.proven == mover]
        if wins:
            return wins[0].action
        return max(kids, key=lambda c: (c.visits, c.value)).action

    def principal_variation(self, first_action: int, length: int = 12) -> list[int]:
        node = self.child_node(self.root, first_action)
        pv = [first_action]
        t = self.tree
        while node is not None and len(pv) < length and t.first[node] >= 0:
            f, k = int(t.first[node]), int(t.kids[node])
            j = f + int(np.argmax(t.n[f:f + k]))
            if t.n[j] < 2:
                break
            pv.append(int(t.action[j]))
            node = j
        return pv


class RootParallel:
    """Several independent trees of one position searched at once, one per
    thread (root parallelisation: the compiled search releases the GIL), read
    as one: a child's visits are summed over the trees and its values are
    the visit-weighted means. The reading API is :class:`Search`'s."""

    def __init__(self, trees: list[Search], pool) -> None:
        self.trees = trees
        self.pool = pool
        self.game = trees[0].game

    def run_for(self, simulations: int | None, seconds: float | None, **kw) -> int:
        share = None if simulations is None else -(-simulations // len(self.trees))
        return sum(self.pool.map(lambda t: t.run_for(share, seconds, **kw), self.trees))

    @property
    def simulations(self) -> int:
        return sum(t.simulations for t in self.trees)

    @property
    def proven(self) -> int:
        for t in self.trees:
            if t.proven != _mcts.UNKNOWN:
                return t.proven
        return _mcts.UNKNOWN

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
                m = merged.setdefault(ch.action, [0, 0.0, _mcts.UNKNOWN, 0.0, 0.0])
                m[0] += ch.visits
                m[1] += ch.value * ch.visits
                m[3] += ch.returns[0] * ch.visits
                m[4] += ch.returns[1] * ch.visits
                if ch.proven != _mcts.UNKNOWN:
                    m[2] = ch.proven
        out = []
        for a in sorted(merged):
            n, v, proven, r0, r1 = merged[a]
            out.append(ChildStats(a, n, v / n if n else 0.0, proven,
                                  (r0 / n, r1 / n) if n else (0.0, 0.0)))
        return out

    def best_action(self) -> int:
        """A proven win if a tree found one, else the most visited child over
        all trees (ties: the better value)."""
        first = self.trees[0]
        mover = int(first.tree.player[first.root])
        kids = self.children()
        if not kids:
            return first.best_action()
        wins = [c for c in kids if c.proven == mover and c.action != first.swap]
        if wins:
            return wins[0].action
        return max(kids, key=lambda c: (c.visits, c.value)).action

    def principal_variation(self, first_action: int, length: int = 12) -> list[int]:
        """The line of the tree that visited ``first_action`` most."""
        def visits(t: Search) -> int:
            node = t.child_node(t.root, first_action)
            return int(t.tree.n[node]) if node is not None else 0
        return max(self.trees, key=visits).principal_variation(first_action, length)
