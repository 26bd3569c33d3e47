"""Immediate wins: a move that ends the game at once with a win for the mover.

:func:`find_win` is what the MCTS agent runs before searching, so that a
one-move win is never missed (a random subset of vimbre's thousands of moves
would usually miss it). Every game but vimbre tries each legal action on a
copy; vimbre, whose move list is thousands long, builds the few candidate
placements that could join the mover's two edges and verifies only those.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import grid
from ..core.game import Game

# games whose copy is cheaper than step_with_undo + step_back (which rebuild tables)
_BY_COPY = {"implo", "pilo", "robble"}


def find_win(game: Game, legal: list[int] | None = None, stop: float | None = None,
             clock: Callable[[], float] | None = None) -> int | None:
    """A legal action after which the game is over and won by the color to move
    now; None if there is none (or the scan reached ``stop`` on ``clock``)."""
    if game.is_over:
        return None
    if legal is None:
        legal = game.legal_actions()
    if game.name == "vimbre":
        return _vimbre_win(game, legal)
    return _scan(game, legal, stop, clock)


def _wins(game: Game, action: int, me: int) -> bool:
    g = game.copy(history=False)
    g.step(action)
    return g.current_player is None and g.returns()[me] > 0


def _scan(game: Game, legal: list[int], stop, clock) -> int | None:
    me = game.current_player
    if game.name in _BY_COPY:
        for k, a in enumerate(legal):
            if _wins(game, a, me):
                return a
            if stop is not None and not k & 7 and clock() > stop:
                break
        return None
    g = game.copy(history=False)
    for k, a in enumerate(legal):
        token = g.step_with_undo(a)
        won = g.current_player is None and g.returns()[me] > 0
        g.step_back(token)
        if won:
            return a
        if stop is not None and not k & 7 and clock() > stop:
            break
    return None


def _vimbre_win(game: Game, legal: list[int]) -> int | None:
    board = game.stones
    n = game.n_points
    me = game.current_player
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
        if a in legal_set and _wins(game, a, me):
            return a
    return None
