"""Vimbre's search advice (the plug-in contract: :mod:`boardlab.ai.advice`).

**Candidate moves** for the search tree (:func:`node_moves`).

Mid-game vimbre has thousands of legal moves (every pair of legal points), far
more than a search of a few hundred simulations can try once each. The tree
therefore only considers moves built from the ``k`` most promising points:

* every point gets the length of the shortest chain *through it* joining the
  mover's two edges and the opponent's (0-1 breadth-first search: own stone
  costs 0, empty point 1, enemy stone is a wall); its *slack* for a color is
  how much longer that is than the color's shortest chain;
* points are ranked by the smaller of the two slacks (a point on either
  color's shortest chain ranks first: it extends one's own chain or blocks the
  opponent's), then by the sum, ties broken at random;
* candidates: the single stones and the pairs of the top ``k`` points that are
  legal, every legal flip, and ``pass`` when that is the only move.

The list is a subset of the legal moves, never empty when a move exists (all
legal moves are kept if the construction finds none). One-move wins are found
separately (:func:`find_win`) over the full move list.

**Playouts** (policy ``vimbre``, the default: it beat uniform playouts,
docs/ai.md): two random legal single-stone points per turn (a pair), never a
flip unless nothing else is legal. It never builds vimbre's full move list
(~3,500 actions mid-game, most of the cost of a uniform playout), so it is
about ten times faster.

**One-move wins** (:func:`find_win`): instead of trying thousands of moves,
it builds the few placements that could join the mover's two edges and
verifies only those.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from ..ai.policies import Returns, unfinished_returns
from ..ai.tactics import wins
from ..core import grid

if TYPE_CHECKING:
    from .vimbre import Vimbre

DEFAULT_PLAYOUT = "vimbre"

INF = 1 << 20


def _distances(board, size: int, orth, v: int, sources) -> list[int]:
    """0-1 BFS distance (cost of the points entered, source included) from a set
    of edge points, for color value ``v``; enemy stones are walls."""
    n = size * size
    dist = [INF] * n
    dq: deque[int] = deque()
    for p in sources:
        x = board[p]
        if x == v:
            dist[p] = 0
            dq.appendleft(p)
        elif x == 0:
            dist[p] = 1
            dq.append(p)
    while dq:
        p = dq.popleft()
        d = dist[p]
        for q in orth[p]:
            x = board[q]
            if x == v:
                if d < dist[q]:
                    dist[q] = d
                    dq.appendleft(q)
            elif x == 0 and d + 1 < dist[q]:
                dist[q] = d + 1
                dq.append(q)
    return dist


def _edges(size: int, color: int) -> tuple[list[int], list[int]]:
    n = size * size
    if color == 0:  # black: row 1 to row size
        return list(range(size)), list(range(n - size, n))
    return list(range(0, n, size)), list(range(size - 1, n, size))


def slacks(game, color: int) -> list[int]:
    """Per point: length of the shortest chain of ``color`` through it minus the
    shortest chain overall (INF where no chain can pass)."""
    size = game.size
    board = game.stones
    orth = grid.neighbours(size)
    v = color + 1
    a, b = _edges(size, color)
    d1 = _distances(board, size, orth, v, a)
    d2 = _distances(board, size, orth, v, b)
    through = [INF] * (size * size)
    best = INF
    for p in range(size * size):
        x = board[p]
        if x and x != v:
            continue
        t = d1[p] + d2[p] - (0 if x else 1)
        through[p] = t
        if t < best:
            best = t
    return [t - best if t < INF else INF for t in through]


def candidates(game, legal: list[int], rng, k: int = 10) -> list[int]:
    """The candidate moves (a subset of ``legal``), best-ranked first."""
    n = game.n_points
    me = game.current_player
    board = game.stones
    sm = slacks(game, me)
    so = slacks(game, 1 - me)
    rand = rng.random
    empty = [p for p in range(n) if not board[p]]
    ranked = sorted(empty, key=lambda p: (min(sm[p], so[p]), sm[p] + so[p], rand()))
    top = ranked[:k]
    legal_set = set(legal)
    out: list[int] = []
    for x, i in enumerate(top):
        if i in legal_set:
            out.append(i)
        for j in top[x + 1:]:
            a = game.pair_action(i, j)
            if a in legal_set:
                out.append(a)
    first_flip = game.flip_action(0)
    out.extend(a for a in legal if a >= first_flip)  # flips and pass
    if not out:
        return list(legal)
    return out


def node_moves(game, legal: list[int], rng) -> list[int]:
    """The moves a new tree node considers: :func:`candidates`."""
    return candidates(game, legal, rng)


def vimbre_pairs(game, rng) -> int:
    """A random action of the ``vimbre`` policy for the color to move.

    Uses the engine's single-stone legality (``single_points``). Two
    points that are not diagonal neighbours can always be played together when
    each is legal alone (orthogonal neighbours included: a new orthogonal
    neighbour never breaks the diagonal rule); diagonal neighbours are skipped
    (the single stone is played instead). No legal single: the full move list
    (flips, pairs that need each other, pass)."""
    s = game.size
    singles = game.single_points(game.current_player)
    k = len(singles)
    if not k:
        legal = game.step_actions()
        return legal[int(rng.random() * len(legal))]
    rand = rng.random
    ii = int(rand() * k)
    if game.first_turn or k == 1:
        return singles[ii]
    jj = int(rand() * (k - 1))
    if jj >= ii:  # a second point different from the first, uniformly
        jj += 1
    i = singles[ii]
    j = singles[jj]
    if j < i:
        i, j = j, i
    d = j - i
    if (d == s - 1 and i % s) or (d == s + 1 and i % s != s - 1):
        return i  # diagonal neighbours: keep it simple, one stone
    return game.pair_action(i, j)


def vimbre_playout(game, rng, deadline, clock, max_plies) -> Returns | None:
    apply = game.step
    for _ in range(max_plies):
        if game.current_player is None:
            return game.returns()
        apply(vimbre_pairs(game, rng))
        if deadline is not None and clock() > deadline:
            return None
    return unfinished_returns(game)


def find_win(game: Vimbre, legal: list[int]) -> int | None:
    """A legal action that joins the mover's two edges at once, or None."""
    board = game.stones
    n = game.n_points
    me = game.current_player
    assert me is not None, "a finished game has no win to find"
    v = me + 1
    if board.count(v) + 2 < game.size:  # a chain needs a stone on every row/column
        return None
    edge = game.edge_bits(me)
    orth = grid.neighbours(game.size)
    # own groups: id per point and edge mask per group
    gid = [-1] * n
    gmask: list[int] = []
    for s in range(n):
        if board[s] != v or gid[s] >= 0:
            continue
        g = len(gmask)
        gid[s] = g
        stack = [s]
        mask = 0
        while stack:
            x = stack.pop()
            mask |= edge[x]
            for y in orth[x]:
                if board[y] == v and gid[y] < 0:
                    gid[y] = g
                    stack.append(y)
        gmask.append(mask)

    def groups(p: int) -> set[int]:
        return {gid[q] for q in orth[p] if gid[q] >= 0}

    def mask_of(p: int) -> int:
        m = edge[p]
        for q in orth[p]:
            if gid[q] >= 0:
                m |= gmask[gid[q]]
        return m

    legal_set = set(legal)
    candidates: list[int] = []
    masks = {}
    for p in range(n):
        if board[p] == 0:
            masks[p] = mask_of(p)
    for p, m in masks.items():
        if m == 3:
            if p in legal_set:
                candidates.append(p)
            else:  # illegal alone: with any partner that makes it legal
                candidates.extend(a for a in legal
                                  if game.is_pair(a) and p in game.pair_points(a))
    for p in range(n):
        if board[p] and board[p] != v and game.flip_action(p) in legal_set \
                and mask_of(p) == 3:
            candidates.append(game.flip_action(p))
    if not game.first_turn:
        # two stones: adjacent to each other, or both touching one group
        libs: dict[int, list[int]] = {}
        for p, m in masks.items():
            for g in groups(p):
                libs.setdefault(g, []).append(p)
            for q in orth[p]:
                if q > p and q in masks and (m | masks[q]) == 3:
                    candidates.append(game.pair_action(p, q))
        for pts in libs.values():
            for x in range(len(pts)):
                i = pts[x]
                for y in range(x + 1, len(pts)):
                    j = pts[y]
                    if (masks[i] | masks[j]) == 3:
                        candidates.append(game.pair_action(i, j))
    for a in candidates:
        if a in legal_set and wins(game, a, me):
            return a
    return None


PLAYOUTS = {"vimbre": vimbre_playout}
