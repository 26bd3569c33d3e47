"""Vimbre: place one or two stones under the diagonal rule, or flip a sandwiched stone;
join your two edges with an orthogonal chain to win.

Rules: src/boardlab/rules/vimbre.md (for players), docs/rules.md (Vimbre,
Every game) and docs/games/vimbre.md (notation, positions, engine rulings).

Summary. Black (top and bottom edges, rows 1 and ``size``) and White (left and
right edges, columns a and the last one) alternate, Black first. A turn is one of:

* place one or two stones of your color on empty points (Black's first turn:
  exactly one). At the end of the turn any two like-colored diagonally adjacent
  stones must share a like-colored orthogonal neighbour (one of the two
  "corner" points both touch), else the placement is illegal; a two-stone
  placement is judged as a whole;
* flip an enemy stone that has a friendly stone on both sides on one orthogonal
  line (left+right or below+above) and at least one empty orthogonal neighbour;
* ``pass``, only when nothing else is legal.

The mover wins at once when, after the move, an orthogonally connected chain of
their stones touches both of their edges (Termination.CONNECTION, no scores).

Notation: ``c3`` one stone; ``c3,e5`` two stones (points in increasing point
order, no blanks); ``xd4`` flip; ``pass``.

Actions (n = size², pairs i < j)::

    0 .. n-1                 one stone on point i
    n + i*n - i*(i+1)//2 + (j-i-1)   two stones on i and j (lexicographic (i, j))
    n + n(n-1)/2 + p         flip the stone on p
    n + n(n-1)/2 + n         pass

so ``num_distinct_actions = 2n + n(n-1)/2 + 1`` and ascending legal actions are
the singles, then the pairs in (i, j) order, then the flips, then pass.

Cells: a bytearray ``_board`` of n cells, 0 empty, 1 black, 2 white. Kept
incrementally beside it (a placement or flip only changes them in the 3x3 block
around each changed point):

* ``_ok`` (2n bytes): ``_ok[c*n + p]`` is 1 iff color c may place a single stone
  on p (p empty and no diagonal pair of p lacks a corner);
* ``_rescue`` (2n bytes): for an empty p that color c may not fill alone, the
  direction bits (E=1, N=2, W=4, S=8) of the empty orthogonal neighbours whose
  stone, placed in the same turn, supplies every missing corner of p.

Move generation: two points that are not neighbours (orthogonal or diagonal)
cannot interact, so such a pair is legal iff both singles are. The row of
partners of a point i legal alone is therefore the legal singles after i with
at most four forward neighbours fixed (i+s±1: a diagonal pair needs an own
corner; i+1, i+s: rescued pairs); the fixes and the flips are found for the
whole board at once with "byte-lane" int masks, and each row is emitted by
``itertools.compress`` over precomputed action tuples (no int allocation).

Position text: board tokens ``X`` (black) and ``O`` (white); field
``first=yes|no`` (yes: Black's first turn, single stones only; it holds exactly
when the board is empty). A finished game has to-move ``-``; the winner is the
color that has a chain.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache
from itertools import compress

from ...core import grid
from ...core.game import Game, parse_flag
from ...core.outcome import Outcome, Termination
from ...errors import PositionError

EMPTY, BLACK, WHITE = 0, 1, 2
_TOKENS = {BLACK: "X", WHITE: "O"}
_CELLS = {"X": BLACK, "O": WHITE}

# bytes.translate tables: cell value -> 1 where it is the wanted value, else 0.
_IS_EMPTY = bytes([1] + [0] * 255)
_IS_VALUE = (None, bytes([0, 1] + [0] * 254), bytes([0, 0, 1] + [0] * 253))

# Direction bits of an orthogonal neighbour: east, north, west, south.
_E, _N, _W, _S = 1, 2, 4, 8


class _Tables:
    """Precomputed, immutable per-size tables (shared by every game of that size)."""

    __slots__ = (
        "diag",
        "diag_bits",
        "edge",
        "flip_actions",
        "flip_base",
        "index",
        "inner",
        "king",
        "lanes",
        "n",
        "names",
        "not_first",
        "not_last",
        "npairs",
        "off",
        "orth",
        "pass_action",
        "prow",
        "sand",
        "size",
        "starts",
    )

    def __init__(self, size: int) -> None:
        s = self.size = size
        n = self.n = s * s
        self.orth = grid.neighbours(s)
        self.names = grid.point_names(s)
        self.index = grid.point_index(s)

        def direction(p: int, q: int) -> int:  # q is an orthogonal neighbour of p
            return {1: _E, s: _N, -1: _W, -s: _S}[q - p]

        diag = []
        diag_bits = []
        king = []
        sand = []
        for p in range(n):
            row, col = divmod(p, s)
            entries = []
            for d in grid.diagonals(s)[p]:
                drow, dcol = divmod(d, s)
                # the two corners: p's row and d's column, d's row and p's column
                entries.append((d, row * s + dcol, drow * s + col))
            diag.append(tuple(entries))
            diag_bits.append(tuple((d, c1, c2, direction(p, c1), direction(p, c2))
                                   for d, c1, c2 in entries))
            king.append(tuple(r * s + c for r in range(row - 1, row + 2)
                              for c in range(col - 1, col + 2)
                              if 0 <= r < s and 0 <= c < s))
            pairs = []
            if 0 < col < s - 1:
                pairs.append((p - 1, p + 1))
            if 0 < row < s - 1:
                pairs.append((p - s, p + s))
            sand.append(tuple(pairs))
        self.diag = tuple(diag)
        self.diag_bits = tuple(diag_bits)
        self.king = tuple(king)
        self.sand = tuple(sand)
        # pair (i, j) -> off[i] + j; starts[i]: the action of the pair (i, i+1)
        self.off = tuple(n + i * n - i * (i + 1) // 2 - i - 1 for i in range(n))
        self.starts = tuple(self.off[i] + i + 1 for i in range(n))
        # prow[i]: the actions of the pairs (i, j) for j = i+1 .. n-1
        self.prow = tuple(tuple(range(self.starts[i], self.starts[i] + n - 1 - i))
                          for i in range(n))
        self.npairs = n * (n - 1) // 2
        self.flip_base = n + self.npairs
        self.pass_action = self.flip_base + n
        self.flip_actions = tuple(range(self.flip_base, self.pass_action))
        # Byte-lane masks: an int whose byte p (little-endian) is 1 for the
        # points selected; see Vimbre._legal_actions.
        def lane(flags) -> int:
            return int.from_bytes(bytes(flags), "little")
        self.lanes = lane([1] * n)
        self.not_first = lane([1 if p % s else 0 for p in range(n)])
        self.not_last = lane([1 if p % s < s - 1 else 0 for p in range(n)])
        self.inner = self.not_first & self.not_last
        # edge bits per color index: black rows 1 / size, white columns a / last
        black = [(1 if p < s else 0) | (2 if p >= n - s else 0) for p in range(n)]
        white = [(1 if p % s == 0 else 0) | (2 if p % s == s - 1 else 0) for p in range(n)]
        self.edge = (tuple(black), tuple(white))

    def pair(self, action: int) -> tuple[int, int]:
        i = bisect_right(self.starts, action) - 1
        return i, action - self.off[i]


@cache
def _tables(size: int) -> _Tables:
    return _Tables(size)


def _broken(board, diag, points, v: int):
    """The first (p, d, c1, c2) among ``points`` whose diagonal pair with a
    like-colored (v) stone d has no v-colored corner c1/c2; None if none."""
    for p in points:
        if board[p] != v:
            continue
        for d, c1, c2 in diag[p]:
            if board[d] == v and board[c1] != v and board[c2] != v:
                return p, d, c1, c2
    return None


def _has_chain(board, t: _Tables, v: int) -> bool:
    """Whether color v (1 black, 2 white) joins its two edges (full search)."""
    edge = t.edge[v - 1]
    orth = t.orth
    seen: set[int] = set()
    for start in range(t.n):
        if board[start] != v or start in seen or not edge[start] & 1:
            continue
        seen.add(start)
        stack = [start]
        while stack:
            x = stack.pop()
            if edge[x] & 2:
                return True
            for y in orth[x]:
                if board[y] == v and y not in seen:
                    seen.add(y)
                    stack.append(y)
    return False


class Vimbre(Game):
    name = "vimbre"
    colors = ("black", "white")
    default_size = 11
    move_words = {"pass": "Pass"}

    @classmethod
    def num_distinct_actions_for(cls, size: int) -> int:
        n = size * size
        return 2 * n + n * (n - 1) // 2 + 1

    # ------------------------------------------------------------ state
    def _setup(self) -> None:
        n = self.n_points
        self._t = _tables(self.size)
        self._board = bytearray(n)
        # _ok[c*n + p]: color c may place one stone on p (p empty, no diagonal problem)
        self._ok = bytearray(b"\x01" * (2 * n))
        # _rescue[c*n + p]: for an empty p that color c may not fill alone, the
        # direction bits (_E/_N/_W/_S) of the empty orthogonal neighbours whose
        # stone, placed in the same turn, supplies every missing corner; else 0
        self._rescue = bytearray(2 * n)
        self._player = 0
        self._first = True
        self._winner: int | None = None

    def _update_flags(self, points) -> None:
        """Recompute _ok and _rescue of both colors on ``points``."""
        n = self.n_points
        board = self._board
        ok = self._ok
        rescue = self._rescue
        diag_bits = self._t.diag_bits
        for e in points:
            if board[e]:
                ok[e] = ok[n + e] = rescue[e] = rescue[n + e] = 0
                continue
            o1 = o2 = 1
            r1 = r2 = 15
            for d, c1, c2, b1, b2 in diag_bits[e]:
                x = board[d]
                if x:
                    y1 = board[c1]
                    y2 = board[c2]
                    if y1 != x and y2 != x:
                        r = (0 if y1 else b1) | (0 if y2 else b2)
                        if x == 1:
                            o1 = 0
                            r1 &= r
                        else:
                            o2 = 0
                            r2 &= r
            ok[e] = o1
            ok[n + e] = o2
            rescue[e] = 0 if o1 else r1
            rescue[n + e] = 0 if o2 else r2

    # ------------------------------------------------------------ core hooks
    def _current_player(self) -> int | None:
        return None if self._winner is not None else self._player

    def _legal_actions(self) -> list[int]:
        if self._winner is not None:
            return []
        t = self._t
        n = t.n
        board = self._board
        player = self._player
        v = player + 1
        ok = self._ok[n * player:n * player + n]  # a bytearray: slices are mutable
        singles = list(compress(range(n), ok))
        if self._first:
            return singles
        acts = singles[:]
        # Bulk tests on "byte-lane" ints: byte p of the int is a 0/1 flag of
        # point p, so a shift by 8*k looks at point p+k (>>) or p-k (<<) and
        # &, |, ~ combine flags of all points at once.
        s = t.size
        s8 = 8 * s
        lanes = t.lanes
        not_first = t.not_first
        not_last = t.not_last
        cur = _IS_VALUE[v]
        ok_l = int.from_bytes(ok, "little")
        mine = int.from_bytes(board.translate(cur), "little")
        # pairs (i, i+s+1) / (i, i+s-1) of points legal alone that touch
        # diagonally with no own stone on either corner: illegal
        ne_bad = ok_l & (ok_l >> (s8 + 8)) & ~((mine >> 8) | (mine >> s8)) & not_last
        nw_bad = ok_l & (ok_l >> (s8 - 8)) & ~((mine << 8) | (mine >> s8)) & not_first
        # pairs (i, i+1) / (i, i+s) legal together though not both legal alone
        # (see _rescue): each one illegal alone must be rescued by the other
        rescue = int.from_bytes(self._rescue[n * player:n * player + n], "little")
        if rescue:
            r_e = rescue & lanes
            r_n = (rescue >> 1) & lanes
            r_w_next = (rescue >> 10) & lanes   # west bit of point p+1
            r_s_up = (rescue >> (s8 + 3)) & lanes  # south bit of point p+s
            e_add = (r_e & ((ok_l >> 8) | r_w_next)) | (ok_l & r_w_next)
            n_add = (r_n & ((ok_l >> s8) | r_s_up)) | (ok_l & r_s_up)
            fix = nw_bad | (ne_bad << 1) | (e_add << 2) | (n_add << 3)
            rows: bytes | bytearray = (ok_l | e_add | n_add).to_bytes(n, "little")
        else:
            fix = nw_bad | (ne_bad << 1)
            rows = ok
        fix_b = fix.to_bytes(n, "little")
        # Row i lists the partners j > i. Two points that are not neighbours
        # cannot interact, so the row of an i legal alone starts as the legal
        # singles after i and only its four forward neighbours are fixed;
        # compress over the row's precomputed actions allocates nothing.
        extend = acts.extend
        append = acts.append
        prow = t.prow
        nw, ne, north = s - 2, s, s - 1
        for i in compress(range(n), rows):
            x = fix_b[i]
            if ok[i]:
                row = ok[i + 1:]
                if x:
                    if x & 1:
                        row[nw] = 0
                    if x & 2:
                        row[ne] = 0
                    if x & 4:
                        row[0] = 1
                    if x & 8:
                        row[north] = 1
                extend(compress(prow[i], row))
            else:
                if x & 4:
                    append(prow[i][0])
                if x & 8:
                    append(prow[i][north])
        # flips: an enemy stone between two own stones on a row or a column,
        # with an empty orthogonal neighbour
        enemy = int.from_bytes(board.translate(_IS_VALUE[3 - v]), "little")
        if enemy:
            empty = int.from_bytes(board.translate(_IS_EMPTY), "little")
            flips = enemy & (
                ((mine << 8) & (mine >> 8) & t.inner) | ((mine << s8) & (mine >> s8))
            ) & (((empty << 8) & not_first) | ((empty >> 8) & not_last)
                 | (empty << s8) | (empty >> s8))
            if flips:
                extend(compress(t.flip_actions, flips.to_bytes(n, "little")))
        if not acts:
            return [t.pass_action]
        return acts

    def _snapshot(self) -> object:
        # Never called on a finished game, so _restore knows _winner was None.
        return (bytes(self._board), bytes(self._ok), bytes(self._rescue), self._player,
                self._first)

    def _restore(self, snapshot) -> None:
        board, ok, rescue, self._player, self._first = snapshot
        self._board = bytearray(board)
        self._ok = bytearray(ok)
        self._rescue = bytearray(rescue)
        self._winner = None

    def _apply(self, action: int) -> None:
        n = self.n_points
        t = self._t
        board = self._board
        player = self._player
        v = player + 1
        if action < n:
            board[action] = v
            changed: tuple[int, ...] = (action,)
        elif action < t.flip_base:
            i = bisect_right(t.starts, action) - 1
            j = action - t.off[i]
            board[i] = v
            board[j] = v
            changed = (i, j)
        elif action < t.pass_action:
            p = action - t.flip_base
            board[p] = v
            changed = (p,)
        else:  # pass
            self._player = player ^ 1
            return
        self._first = False
        # the flags change only in the 3x3 block around a changed point
        king = t.king
        if len(changed) == 1:
            self._update_flags(king[changed[0]])
        else:
            self._update_flags(set(king[changed[0]]).union(king[changed[1]]))
        # the mover wins when the group of a new stone joins both edges
        # (only worth a search when the mover has stones on both edges)
        s = self.size
        if v == BLACK:
            both_edges = v in board[:s] and v in board[n - s:]
        else:
            both_edges = v in board[::s] and v in board[s - 1::s]
        if both_edges:
            edge = t.edge[player]
            orth = t.orth
            seen: set[int] = set()
            for c in changed:
                if c in seen:
                    continue
                seen.add(c)
                stack = [c]
                mask = edge[c]
                while stack and mask != 3:
                    x = stack.pop()
                    for y in orth[x]:
                        if board[y] == v and y not in seen:
                            seen.add(y)
                            stack.append(y)
                            mask |= edge[y]
                if mask == 3:
                    self._winner = player
                    return
        self._player = player ^ 1

    def _compute_outcome(self) -> Outcome:
        assert self._winner is not None
        return Outcome(self.colors[self._winner], Termination.CONNECTION, None)

    # ------------------------------------------------------------ notation
    def _action_string(self, action: int) -> str:
        t = self._t
        names = t.names
        if action < t.n:
            return names[action]
        if action < t.flip_base:
            i, j = t.pair(action)
            return f"{names[i]},{names[j]}"
        if action < t.pass_action:
            return "x" + names[action - t.flip_base]
        return "pass"

    def _parse_action(self, text: str) -> int | None:
        t = self._t
        index = t.index
        p = index.get(text)
        if p is not None:
            return p
        if text == "pass":
            return t.pass_action
        if text.startswith("x"):
            p = index.get(text[1:])
            return None if p is None else t.flip_base + p
        first, comma, second = text.partition(",")
        if comma:
            i = index.get(first)
            j = index.get(second)
            if i is not None and j is not None and i < j:
                return t.off[i] + j
        return None

    def _malformed_reason(self, text: str) -> str | None:
        return self._pair_text_problem(text) if "," in text else None

    def _pair_text_problem(self, text: str) -> str:
        parts = text.split(",")
        if len(parts) != 2:
            return ("a turn places at most two stones: write one point (c3) "
                    "or two points joined by one comma (c3,e5)")
        index = self._t.index
        for part in parts:
            if part != part.strip():
                return ("write a two-stone move without blanks, "
                        f"e.g. {parts[0].strip()},{parts[1].strip()}")
            if part not in index:
                return f"{part!r} is not a point on the {self.size}x{self.size} board"
        i, j = index[parts[0]], index[parts[1]]
        if i == j:
            return ("the two stones of a two-stone move need two different points, "
                    f"not {parts[0]} twice")
        return (f"a two-stone move lists its points in increasing point order: "
                f"write {parts[1]},{parts[0]}, not {parts[0]},{parts[1]}")

    def _why_illegal(self, action: int) -> str:
        if self._winner is not None:
            return "the game is over"
        t = self._t
        names = t.names
        n = t.n
        board = self._board
        color = self.colors[self._player]
        v = self._player + 1
        if action < t.flip_base:
            if action < n:
                points: tuple[int, ...] = (action,)
            else:
                if self._first:
                    return (f"wrong phase: {color}'s first turn places exactly one stone, "
                            f"not two")
                points = t.pair(action)
            for p in points:
                if board[p]:
                    return f"{names[p]} is occupied"
            move = self._action_string(action)
            trial = bytearray(board)
            for p in points:
                trial[p] = v
            bad = _broken(trial, t.diag, points, v)
            if bad is not None:
                p, d, c1, c2 = bad
                a, b = sorted((p, d))
                return (f"{move} breaks the diagonal rule at {names[a]}/{names[b]}: "
                        f"neither {names[min(c1, c2)]} nor {names[max(c1, c2)]} is {color}")
            return f"{move} is not legal here"
        if action < t.pass_action:
            p = action - t.flip_base
            name = names[p]
            if board[p] == EMPTY:
                return f"{name} is empty: only an enemy stone can be flipped"
            if board[p] == v:
                return f"{name} is {color}'s own stone: only an enemy stone can be flipped"
            if not any(board[a] == v and board[b] == v for a, b in t.sand[p]):
                return (f"{name} is not sandwiched between two {color} stones on one row "
                        f"or column")
            if all(board[q] for q in t.orth[p]):
                return f"{name} has no empty orthogonal neighbour, so it cannot be flipped"
            return f"x{name} is not legal here"
        legal = self.legal_actions()
        example = self._action_string(legal[0]) if legal else "none"
        return (f"pass is only legal when no other move is ({len(legal)} legal moves, "
                f"e.g. {example})")

    # ------------------------------------------------------------ position text
    def _cell_tokens(self) -> list[str | None]:
        return [_TOKENS.get(v) for v in self._board]

    def _state_fields(self) -> list[tuple[str, object]]:
        return [("first", self._first)]

    def _load_position(self, cells, player, fields) -> None:
        t = self._t
        n = self.n_points
        board = self._decode_cells(cells, _CELLS)
        for v in (BLACK, WHITE):
            bad = _broken(board, t.diag, range(n), v)
            if bad is not None:
                p, d, c1, c2 = bad
                a, b = sorted((p, d))
                raise PositionError(
                    f"vimbre: the diagonal rule is broken at {t.names[a]}/{t.names[b]} "
                    f"({self.colors[v - 1]}: neither {t.names[min(c1, c2)]} nor "
                    f"{t.names[max(c1, c2)]} is {self.colors[v - 1]})")
        empty_board = not any(board)
        first = parse_flag(fields, "first", empty_board and player == 0)
        self._board = board
        self._ok = bytearray(2 * n)
        self._rescue = bytearray(2 * n)
        self._update_flags(range(n))
        self._first = first
        self._winner = None
        self._player = 0 if player is None else player
        chains = [c for c in (0, 1) if _has_chain(board, t, c + 1)]
        if len(chains) == 2:
            raise PositionError("vimbre: both colors have a chain; at most one can")
        if chains:
            if player is not None:
                raise PositionError(f"vimbre: {self.colors[chains[0]]} has a chain, so the "
                                    f"game is over; to-move must be -")
            if first:
                raise PositionError("vimbre: first=yes but the game is over")
            self._winner = chains[0]
            self._player = chains[0]
            return
        if player is None:
            raise PositionError("vimbre: to-move is - but neither color has a chain")
        if empty_board:
            if player != 0:
                raise PositionError("vimbre: on an empty board black moves first")
            if not first:
                raise PositionError("vimbre: an empty board with black to move is black's "
                                    "first turn: first must be yes")
        elif first:
            raise PositionError("vimbre: first=yes (black's first turn) needs an empty board")

    def _render_cells(self) -> list[str]:
        return [_TOKENS.get(v, ".") for v in self._board]

    # ------------------------------------------------------------ search view
    # Read-only access for search code (boardlab.ai), so it needs no private
    # state: the engine's own containers, valid until the next move, never to
    # be changed.
    @property
    def stones(self) -> bytearray:
        """Per point: 0 empty, 1 black, 2 white."""
        return self._board

    @property
    def first_turn(self) -> bool:
        """Black's first turn: single stones only."""
        return self._first

    def single_points(self, color: int) -> list[int]:
        """The points where ``color`` (0 black, 1 white) may place one stone
        (empty, and no diagonal pair of it would lack a corner)."""
        n = self.n_points
        return list(compress(range(n), self._ok[color * n:color * n + n]))

    def pair_action(self, i: int, j: int) -> int:
        """The action placing stones on points ``i`` and ``j`` (i != j, any order)."""
        return self._t.off[i] + j if i < j else self._t.off[j] + i

    def pair_points(self, action: int) -> tuple[int, int]:
        """The two points (ascending) of a two-stone action."""
        return self._t.pair(action)

    def is_pair(self, action: int) -> bool:
        return self.n_points <= action < self._t.flip_base

    def flip_action(self, point: int) -> int:
        """The action flipping the stone on ``point``; every action from
        ``flip_action(0)`` on is a flip or ``pass``."""
        return self._t.flip_base + point

    def edge_bits(self, color: int) -> tuple[int, ...]:
        """Per point: 1 on ``color``'s first edge, 2 on its second, 0 elsewhere."""
        return self._t.edge[color]

    # ------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["_t"]  # rebuilt from the size
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._t = _tables(self.size)
