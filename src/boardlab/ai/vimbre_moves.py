"""Vimbre: a short list of candidate moves for the search tree.

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
separately (:mod:`boardlab.ai.tactics`) over the full move list.
"""

from __future__ import annotations

from collections import deque

from ..core import grid

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
