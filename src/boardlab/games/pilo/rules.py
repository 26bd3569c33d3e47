"""Pilo: place disks, capture by moving a stack onto an equal enemy stack, own patches.

Rules: src/boardlab/rules/pilo.md (for players), docs/rules.md (Pilo, Every game)
and docs/games/pilo.md (notation, positions, engine rulings).

Summary
-------
Blue moves first. A board play is either a placement of a one-disk stack on an
empty square, or a stack move: one of the mover's stacks travels in a straight
orthogonal line over empty squares and friendly stacks (of any height) to the
first enemy stack on its way, which must have the same height; that enemy
stack is removed, the moved stack lands there one disk taller and a block is
put on the square it left. A block, or an enemy stack of another height,
stops the line (no move). ``pass`` is legal only when no board play exists;
two consecutive passes end the game. Scoring, per patch (maximal orthogonally
connected set of non-block squares): for each group size remove as many
blue/orange pairs of groups of that size as possible (size = squares, not
disks); the color with the biggest leftover group owns the patch (nobody if
none is left). A score is the total size of the owned patches, empty squares
included. Higher score wins (Termination.SCORE); equal scores: the color that
made the last board play loses (Termination.LAST_MOVE). Pie rule (option
``pie``, default on): ``swap`` is legal as orange's first action only; orange
stays to move.

Actions (n = size², m = size - 1)
---------------------------------
``0 .. n-1``                  placement on that point (``c3``);
``n + (p*4 + d)*m + k - 1``   stack move from point p in direction d
                              (core.grid.DIRECTIONS: 0 east, 1 north, 2 west,
                              3 south) over k = 1..m squares (``c3-c7``);
``n + 4nm``                   ``pass``;
``n + 4nm + 1``               ``swap``.
Stack actions whose destination is off the board are never legal; their
string is ``<from>-<direction><k>`` (``a1-west3``) so that every action still
has a distinct string that parses back to it.

Cells
-----
``self._cells[p]``: 0 empty, +h a blue stack of height h, -h an orange stack
of height h, BLOCK a block. Position tokens: ``b`` / ``b(3)``, ``o`` /
``o(2)`` (the height in parentheses when above 1), ``#``.

Position fields (after ``pie``)
-------------------------------
``swap=yes|no`` (swap is legal now), ``passes=0|1`` (consecutive passes just
made; omitted once the game is over: to-move ``-`` means two passes),
``last=blue|orange|-`` (color of the last board play, ``-`` only on an empty
board).

Fast state
----------
A capture lies on one line (a row or a column) and depends on that line only,
so the captures of both colors are kept per line and re-derived only for the
lines a move touches (two for a placement, three for a stack move). The empty
squares are a sorted list (they never come back). Undo snapshots the cells (a
tuple) and the scalars; restoring puts back the cells that differ and rescans
only their lines.

Game length bound (max_game_length_for)
---------------------------------------
An emptied square never becomes empty again, so there are at most n
placements. Every stack move turns a square into a block for good and leaves
its stack on the board, so after s stack moves there are s blocks and at least
one stack: s <= n - 1. A pass needs a full board and no two passes follow
each other except the final two, so passes <= s + 2. With at most one swap:
length <= n + (n - 1) + (n + 1) + 1 = 3n + 1.
"""

from __future__ import annotations

import re
from bisect import insort
from collections import Counter
from functools import cache
from operator import itemgetter
from typing import Any, ClassVar

from ...core import grid, pie
from ...core.game import Game, parse_choice
from ...core.outcome import Outcome, Termination
from ...errors import PositionError

BLUE, ORANGE = 0, 1
BLOCK = 1 << 30  # a cell value no stack height reaches
_CLOSED = pie.CLOSED
DIRECTION_NAMES = ("east", "north", "west", "south")

_TOKEN_RE = re.compile(r"([bo])(?:\(([1-9][0-9]*)\))?\Z")


class _Tables:
    """Per-size constant tables (shared, never mutated)."""

    def __init__(self, size: int) -> None:
        n = size * size
        m = size - 1
        self.size = size
        self.n = n
        self.m = m
        self.pass_action = n + 4 * n * m
        self.swap_action = self.pass_action + 1
        names = grid.point_names(size)
        rays = grid.rays(size)
        # lines: rows 0..size-1 (points west -> east), then columns (south -> north)
        lines = [tuple(r * size + c for c in range(size)) for r in range(size)]
        lines += [tuple(r * size + c for r in range(size)) for c in range(size)]
        self.lines = tuple(lines)
        self.getters = tuple(itemgetter(*line) for line in lines)
        # action of the move from line[k] forwards (east / north) over j squares: fw[k] + j,
        # backwards (west / south): bw[k] + j
        fw, bw = [], []
        for li, line in enumerate(lines):
            dfw, dbw = (0, 2) if li < size else (1, 3)
            fw.append(tuple(n + (p * 4 + dfw) * m - 1 for p in line))
            bw.append(tuple(n + (p * 4 + dbw) * m - 1 for p in line))
        self.fw = tuple(fw)
        self.bw = tuple(bw)
        self.line_info = tuple(zip(self.getters, self.fw, self.bw, strict=True))
        self.place_lines = tuple((p // size, size + p % size) for p in range(n))
        moves: list[tuple[int, int, tuple[int, int, int]] | None] = []
        strings = list(names)
        for p in range(n):
            row, col = divmod(p, size)
            for d in range(4):
                ray = rays[p][d]
                for k in range(1, m + 1):
                    if k <= len(ray):
                        q = ray[k - 1]
                        if d in (0, 2):  # along the row: perpendicular lines are columns
                            lset = (row, size + col, size + q % size)
                        else:
                            lset = (size + col, row, q // size)
                        moves.append((p, q, lset))
                        strings.append(f"{names[p]}-{names[q]}")
                    else:
                        moves.append(None)
                        strings.append(f"{names[p]}-{DIRECTION_NAMES[d]}{k}")
        strings += ["pass", "swap"]
        self.moves = tuple(moves)
        self.strings = tuple(strings)
        self.parse = {s: a for a, s in enumerate(strings)}

    def __reduce__(self):
        # pickles (of games) carry the size only; the tables are rebuilt / shared
        return _tables, (self.size,)


@cache
def _tables(size: int) -> _Tables:
    return _Tables(size)


def _scan_line(vals, fw, bw):
    """Captures on one line: (blue actions, orange actions), each a tuple.

    The non-empty squares between blocks form runs of one color; a capture
    only happens between two neighbouring runs: every stack of a run may take
    the first stack of the next run (moving forwards, over its own run) and
    the last stack of the previous run (moving backwards), if heights match.
    """
    cb = []
    co = []
    cur = []
    csign = 0
    prev = 0
    pk = 0
    k = -1
    for x in vals:
        k += 1
        if not x:
            continue
        if x == BLOCK:
            if csign:
                cur = []
                csign = 0
                prev = 0
            continue
        if x > 0:
            if csign != 1:
                if csign:
                    for j in cur:
                        if vals[j] == -x:
                            co.append(fw[j] + k - j)
                    pk = cur[-1]
                    prev = vals[pk]
                cur = [k]
                csign = 1
            else:
                cur.append(k)
            if prev == -x:
                cb.append(bw[k] + k - pk)
        else:
            if csign != -1:
                if csign:
                    for j in cur:
                        if vals[j] == -x:
                            cb.append(fw[j] + k - j)
                    pk = cur[-1]
                    prev = vals[pk]
                cur = [k]
                csign = -1
            else:
                cur.append(k)
            if prev == -x:
                co.append(bw[k] + k - pk)
    return tuple(cb), tuple(co)


class Pilo(Game):
    name = "pilo"
    colors = ("blue", "orange")
    default_size = 8
    cell_width = 3  # stack heights need a third column in str(game)
    option_defaults: ClassVar[dict[str, Any]] = {pie.OPTION: True}
    option_labels: ClassVar[dict[str, str]] = {pie.OPTION: pie.LABEL}
    option_help: ClassVar[dict[str, str]] = {pie.OPTION: pie.HELP}
    setup_defaults: ClassVar[dict[str, Any]] = pie.SETUP_DEFAULTS
    move_words: ClassVar[dict[str, str]] = {"pass": "Pass", pie.SWAP: pie.SWAP_LABEL}

    @classmethod
    def num_distinct_actions_for(cls, size: int) -> int:
        n = size * size
        return n + 4 * n * (size - 1) + 2

    @classmethod
    def max_game_length_for(cls, size: int) -> int:
        return 3 * size * size + 1

    # ------------------------------------------------------------ state
    def _setup(self) -> None:
        n = self.n_points
        self._t = _tables(self.size)
        self._cells = [0] * n
        self._player = BLUE
        self._pie = pie.initial(self.options["pie"])
        self._passes = 0          # consecutive passes just made (2: game over)
        self._last: int | None = None  # color of the last board play
        # the empty board's caches, without scanning
        self._empty = list(range(n))
        self._caps_b: set[int] = set()
        self._caps_o: set[int] = set()
        self._line_b: list[tuple[int, ...]] = [()] * (2 * self.size)
        self._line_o: list[tuple[int, ...]] = [()] * (2 * self.size)

    def _rebuild(self) -> None:
        """Derive every cache from the cells."""
        t = self._t
        cells = self._cells
        self._empty = [p for p in range(self.n_points) if not cells[p]]
        self._caps_b = set()
        self._caps_o = set()
        self._line_b = []
        self._line_o = []
        for li in range(2 * self.size):
            cb, co = _scan_line(t.getters[li](cells), t.fw[li], t.bw[li])
            self._line_b.append(cb)
            self._line_o.append(co)
            self._caps_b.update(cb)
            self._caps_o.update(co)

    # ------------------------------------------------------------ core hooks
    def _current_player(self) -> int | None:
        return None if self._passes >= 2 else self._player

    def _legal_actions(self) -> list[int]:
        if self._passes >= 2:
            return []
        caps = self._caps_o if self._player else self._caps_b
        empty = self._empty
        if caps:
            legal = empty + sorted(caps)
        elif empty:
            legal = empty[:]
        else:
            return [self._t.pass_action]
        if self._pie == pie.OPEN:
            legal.append(self._t.swap_action)
        return legal

    def _snapshot(self) -> object:
        return tuple(self._cells), self._player, self._pie, self._passes, self._last

    def _restore(self, snapshot) -> None:
        old, self._player, self._pie, self._passes, self._last = snapshot
        cells = self._cells
        changed = [p for p, x in enumerate(old) if cells[p] != x]
        if not changed:  # a pass or a swap
            return
        t = self._t
        touched: set[int] = set()
        for p in changed:
            cells[p] = old[p]
            touched.update(t.place_lines[p])
            if not old[p]:
                insort(self._empty, p)
        self._rescan(touched)

    def _rescan(self, touched) -> None:
        """Re-derive the captures of the given lines (as _apply does inline)."""
        cells = self._cells
        line_info = self._t.line_info
        for li in touched:
            getter, fw, bw = line_info[li]
            cb, co = _scan_line(getter(cells), fw, bw)
            self._caps_b.difference_update(self._line_b[li])
            self._caps_b.update(cb)
            self._line_b[li] = cb
            self._caps_o.difference_update(self._line_o[li])
            self._caps_o.update(co)
            self._line_o[li] = co

    def _apply(self, action: int) -> None:
        # The hot path of every playout: locals only, one helper (the line scan).
        t = self._t
        if self._pie != _CLOSED:
            self._pie = pie.after_turn(self._pie)
        player = self._player
        cells = self._cells
        touched: tuple[int, ...]
        if action < t.n:
            cells[action] = -1 if player else 1
            empty = self._empty
            del empty[empty.index(action)]
            touched = t.place_lines[action]
        elif action < t.pass_action:
            # legal actions never reach an off-board (None) entry of t.moves
            frm, to, touched = t.moves[action - t.n]  # type: ignore[misc]
            h = cells[frm]
            cells[to] = h - 1 if player else h + 1
            cells[frm] = BLOCK
        else:
            if action == t.pass_action:
                self._passes += 1
                self._player = player ^ 1
            # swap: the colors change hands, the same color moves on
            return
        self._passes = 0
        self._last = player
        self._player = player ^ 1
        line_info = t.line_info
        line_b = self._line_b
        line_o = self._line_o
        for li in touched:
            getter, fw, bw = line_info[li]
            cb, co = _scan_line(getter(cells), fw, bw)
            old = line_b[li]
            if old != cb:
                caps = self._caps_b
                caps.difference_update(old)
                caps.update(cb)
                line_b[li] = cb
            old = line_o[li]
            if old != co:
                caps = self._caps_o
                caps.difference_update(old)
                caps.update(co)
                line_o[li] = co

    def _compute_outcome(self) -> Outcome:
        blue, orange = patch_scores(self._cells, self.size)
        scores = {"blue": float(blue), "orange": float(orange)}
        if blue != orange:
            return Outcome("blue" if blue > orange else "orange", Termination.SCORE, scores)
        last = self._last
        if last is None:  # unreachable: a finished game has had a board play
            return Outcome("draw", Termination.SCORE, scores)
        return Outcome(self.colors[1 - last], Termination.LAST_MOVE, scores)

    def _live_scores(self) -> dict[str, float]:
        """What the patches would score if the game ended now."""
        blue, orange = patch_scores(self._cells, self.size)
        return {"blue": float(blue), "orange": float(orange)}

    # ------------------------------------------------------------ notation
    def _action_string(self, action: int) -> str:
        return self._t.strings[action]

    def _parse_action(self, text: str) -> int | None:
        return self._t.parse.get(text)

    def _why_illegal(self, action: int) -> str:
        t = self._t
        size = self.size
        names = grid.point_names(size)
        me = self.colors[self._player]
        if self._passes >= 2:
            return "the game is over"
        if action == t.swap_action:
            return pie.why_no_swap(self._pie, self.options["pie"], self.colors[1])
        if action == t.pass_action:
            if self._empty:
                return (f"pass is only legal when no board play exists: {me} can place "
                        f"on {names[self._empty[0]]}")
            caps = self._caps_o if self._player else self._caps_b
            return (f"pass is only legal when no board play exists: {me} can play "
                    f"{t.strings[min(caps)]}")
        cells = self._cells
        if action < t.n:
            x = cells[action]
            if x == BLOCK:
                return f"{names[action]} holds a block"
            return f"{names[action]} is occupied by {_describe(x)}"
        move = t.moves[action - t.n]
        rel = action - t.n
        frm, k = divmod(rel, t.m)
        frm, d = divmod(frm, 4)
        k += 1
        x = cells[frm]
        sign = -1 if self._player else 1
        if x * sign <= 0 or x == BLOCK:
            what = "is empty" if x == 0 else f"holds {_describe(x)}"
            return f"{names[frm]} {what}: {me} can only move its own stacks"
        if move is None:
            return (f"{t.strings[action]} leaves the board: there are fewer than {k} "
                    f"squares {DIRECTION_NAMES[d]} of {names[frm]}")
        to = move[1]
        ray = grid.rays(size)[frm][d]
        for q in ray[:k - 1]:
            y = cells[q]
            if y == BLOCK:
                return (f"the way from {names[frm]} to {names[to]} is blocked by the block "
                        f"on {names[q]}")
            if y * sign < 0:
                return (f"{names[frm]}-{names[to]} cannot jump over {_describe(y)} on "
                        f"{names[q]}; the stack stops there")
        y = cells[to]
        if y == BLOCK:
            return f"{names[to]} holds a block: a stack cannot move onto it"
        if y == 0:
            return f"{names[to]} is empty: a stack move must end on an enemy stack"
        if y * sign > 0:
            return f"{names[to]} holds a friendly stack: a stack move must end on an enemy stack"
        return (f"{names[to]} holds {_describe(y)} but the stack on {names[frm]} has height "
                f"{abs(x)}: the heights must be equal")

    # ------------------------------------------------------------ position text
    def _cell_tokens(self) -> list[str | None]:
        return [_token(x) for x in self._cells]

    def _state_fields(self) -> list[tuple[str, object]]:
        fields: list[tuple[str, object]] = [("swap", self._pie == pie.OPEN)]
        if self._passes < 2:
            fields.append(("passes", self._passes))
        fields.append(("last", "-" if self._last is None else self.colors[self._last]))
        return fields

    def _load_position(self, cells, player, fields) -> None:
        size = self.size
        names = grid.point_names(size)
        values = [0] * self.n_points
        for p, token in enumerate(cells):
            if token is None:
                continue
            if token == "#":
                values[p] = BLOCK
                continue
            m = _TOKEN_RE.match(token)
            if m is None or m.group(2) == "1":
                raise PositionError(
                    f"pilo: unknown piece {token!r} at {names[p]} "
                    "(use b, o, b(h), o(h) with h >= 2, or #)")
            h = int(m.group(2) or 1)
            values[p] = h if m.group(1) == "b" else -h
        stacks = [x for x in values if x and x != BLOCK]
        blocks = values.count(BLOCK)
        empty_board = not stacks and not blocks
        extra = sum(abs(x) - 1 for x in stacks)
        if extra > blocks:
            raise PositionError(
                f"pilo: unreachable board: the stacks hold {extra} disks above their first "
                f"but there are only {blocks} blocks (each stack move adds one of each)")
        if blocks and not stacks:
            raise PositionError("pilo: unreachable board: blocks but no stack")
        self._pie = pie.load(fields, self.options["pie"], empty_board)
        last_text = parse_choice(fields, "last", ("blue", "orange", "-"),
                                 "-" if empty_board else "")
        if last_text == "":
            raise PositionError("pilo: a non-empty board needs last=blue or last=orange")
        last = None if last_text == "-" else self.colors.index(last_text)
        if empty_board and last is not None:
            raise PositionError(f"pilo: last={last_text} on an empty board: nobody has played")
        if not empty_board and last is None:
            raise PositionError("pilo: last=- on a non-empty board: someone has played")
        if player is None:
            if "passes" in fields:
                raise PositionError("pilo: a finished position (to-move -) has no passes field")
            passes = 2
        else:
            passes = int(parse_choice(fields, "passes", ("0", "1"), "0"))
        self._cells = values
        self._player = BLUE if player is None else player
        self._passes = passes
        self._last = last
        self._rebuild()
        full = not self._empty
        if empty_board:
            if player != BLUE:
                raise PositionError("pilo: on an empty board blue is to move")
            if passes:
                raise PositionError("pilo: passes=1 on an empty board: a pass needs a full board")
            return
        if self._pie == pie.OPEN and (player != ORANGE or stacks != [1] or blocks):
            raise PositionError(
                "pilo: swap=yes needs orange to move after blue's first placement "
                "(one blue disk, nothing else)")
        if player is None:
            # two passes in a row: neither color had a board play
            if not full or self._caps_b or self._caps_o:
                raise PositionError(
                    "pilo: to-move - (two passes) but a board play exists: "
                    + self._some_play_text())
            assert last is not None  # a full board always has a last board play
            self._player = 1 - last  # after last's board play, the other moved first
            return
        if passes == 1:
            other = 1 - player
            if not full or (self._caps_o if other else self._caps_b):
                raise PositionError(
                    f"pilo: passes=1 but {self.colors[other]} had a board play to make")
            if last != player:
                raise PositionError(
                    f"pilo: passes=1 with {self.colors[player]} to move means "
                    f"{self.colors[player]} made the last board play, not {last_text}")
        elif last == player:
            raise PositionError(
                f"pilo: {self.colors[player]} to move with passes=0 means the other color "
                f"made the last board play, not {last_text}")

    def _some_play_text(self) -> str:
        if self._empty:
            return f"{grid.point_name(self._empty[0], self.size)} is empty"
        caps = self._caps_b or self._caps_o
        return f"{self._t.strings[min(caps)]} is a capture"

    def _render_cells(self) -> list[str]:
        return [_token(x, compact=True) or "." for x in self._cells]


def _token(x: int, compact: bool = False) -> str | None:
    """The position-text token of a cell (``b(2)``); ``compact``: the board
    drawing's shorter form (``b2``)."""
    if x == 0:
        return None
    if x == BLOCK:
        return "#"
    letter = "b" if x > 0 else "o"
    h = abs(x)
    if h == 1:
        return letter
    return f"{letter}{h}" if compact else f"{letter}({h})"


def _describe(x: int) -> str:
    if x == BLOCK:
        return "a block"
    color = "a blue" if x > 0 else "an orange"
    return f"{color} stack of height {abs(x)}"


def patch_scores(cells, size: int) -> tuple[int, int]:
    """(blue, orange) territory scores of a board of signed cells (see module doc)."""
    n = size * size
    adj = grid.neighbours(size)
    group_of = [-1] * n
    group_sizes: list[int] = []
    for p in range(n):
        x = cells[p]
        if x and x != BLOCK and group_of[p] < 0:
            g = len(group_sizes)
            blue = x > 0
            group_of[p] = g
            stack = [p]
            count = 0
            while stack:
                q = stack.pop()
                count += 1
                for r in adj[q]:
                    y = cells[r]
                    if group_of[r] < 0 and y and y != BLOCK and (y > 0) == blue:
                        group_of[r] = g
                        stack.append(r)
            group_sizes.append(count if blue else -count)
    seen = bytearray(n)
    scores = [0, 0]
    for p in range(n):
        if cells[p] == BLOCK or seen[p]:
            continue
        seen[p] = 1
        stack = [p]
        squares = 0
        groups: set[int] = set()
        while stack:
            q = stack.pop()
            squares += 1
            if group_of[q] >= 0:
                groups.add(group_of[q])
            for r in adj[q]:
                if not seen[r] and cells[r] != BLOCK:
                    seen[r] = 1
                    stack.append(r)
        owner = patch_owner([group_sizes[g] for g in groups])
        if owner is not None:
            scores[owner] += squares
    return scores[0], scores[1]


def patch_owner(signed_group_sizes) -> int | None:
    """Owner (BLUE / ORANGE / None) of a patch from its groups' sizes, + blue, - orange:
    the color with the biggest group left after equal-size pairs are removed."""
    blue = Counter(s for s in signed_group_sizes if s > 0)
    orange = Counter(-s for s in signed_group_sizes if s < 0)
    best_blue, best_orange = grid.largest_majority_sizes(blue, orange)
    if best_blue == best_orange:  # both 0: nothing left over
        return None
    return BLUE if best_blue > best_orange else ORANGE
