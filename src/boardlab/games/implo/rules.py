"""Implo: place a stone, then resolve every small territory ("patch") into markers.

Rules: src/boardlab/rules/implo.md (for players), docs/rules.md (Implo, Every
game) and docs/games/implo.md (actions, positions, engine rulings).

Summary
-------
A *territory* is a maximal connected set of empty points; a *patch* is a
territory of at most four points. Its *owner* is the color with the biggest
stone group adjacent to it; when there is none, or the two biggest are the same
size, the owner is the opponent of the mover (the mover placed the last stone).
Resolving a patch puts a marker of the owner's color on each of its points and
removes the owner's biggest adjacent stone group (the mover picks among tied
biggest groups; nothing is removed when no stone touches the patch). A turn is
one placement followed by one resolution action per patch, in any order, until
no patch is left (a removal can merge pending patches or create new ones). The
game ends when a turn ends with no empty point. Score: the largest size ``s``
at which you have strictly more marker groups of size ``s`` than the opponent
(0 if none); higher score wins (SCORE); both 0: more stones wins (STONES);
still tied: the color that made the last turn loses (LAST_MOVE).

Actions (``n = size * size``, points in the order of docs/rules.md)
-------------------------------------------------------
* ``0 .. n-1``         placement on point ``i``                          ``c3``
* ``n + p``            resolve the patch whose smallest point is ``p``   ``@d4``
* ``2n + p*n + g``     resolve patch ``p``, removing the owner's tied
                       biggest group whose smallest point is ``g``       ``@d4/e5``
* ``2n + n*n``         ``swap`` (pie rule)

``num_distinct_actions = 2n + n*n + 1``. For each pending patch exactly one
form is legal: ``@p/g`` (one action per tied group) iff the owner has two or
more biggest adjacent stone groups tied for size, else ``@p``.

Cells
-----
A bytearray of ``n`` cells: 0 empty, 1 black stone, 2 white stone, 3 black
marker, 4 white marker (stone of color c = c + 1, marker = c + 3). Position
tokens: ``X`` black stone, ``O`` white stone, ``x`` black marker, ``o`` white
marker.

Position fields
---------------
``pie=yes|no`` (the option, written by the façade), ``swap=yes|no`` (``yes``
exactly when ``swap`` is legal now) and, only in a finished position (no empty
point, to-move ``-``), ``last=black|white``: the color that made the last turn.
A position with patches on the board is in the middle of the to-move color's
turn (resolution phase); without patches it is at the start of a turn.

Incremental state
-----------------
Stone groups never split (only whole groups are removed), so each stone
carries a group label (``_gid``: a point of the group, whose stone stays in
the group for the group's whole life) and ``_gmem[label]`` is the tuple of the
group's points; a merge relabels the smaller groups. Patches can only appear
next to the placed stone or where a group was removed, and are found with a
flood fill that gives up at five points. Pending patches, with their owner and
removal candidates (fixed for the patch's lifetime, see ``_patch_info``), live
in ``_patches``. A snapshot is board / mover / pie / end flag / pending patches,
all immutable; ``_deltas`` holds, per action, the group entries it changed, so
undo puts the groups back without a flood fill.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from functools import cache
from typing import Any, ClassVar

from ...core import grid, pie
from ...core.game import Game
from ...core.outcome import Outcome, Termination
from ...errors import PositionError

EMPTY, BLACK_STONE, WHITE_STONE, BLACK_MARKER, WHITE_MARKER = 0, 1, 2, 3, 4
_TOKENS = {BLACK_STONE: "X", WHITE_STONE: "O", BLACK_MARKER: "x", WHITE_MARKER: "o"}
_CELLS = {token: value for value, token in _TOKENS.items()}
_RENDER = (".", "X", "O", "x", "o")
_WORDS = ("nothing", "black stone", "white stone", "black marker", "white marker")
PATCH_MAX = 4  # a patch is a territory of at most four points


class Implo(Game):
    name = "implo"
    colors = ("black", "white")
    default_size = 9
    option_defaults: ClassVar[dict[str, Any]] = {pie.OPTION: True}
    option_labels: ClassVar[dict[str, str]] = {pie.OPTION: pie.LABEL}
    option_help: ClassVar[dict[str, str]] = {pie.OPTION: pie.HELP}
    setup_defaults: ClassVar[dict[str, Any]] = pie.SETUP_DEFAULTS
    move_words: ClassVar[dict[str, str]] = {pie.SWAP: pie.SWAP_LABEL}

    @classmethod
    def num_distinct_actions_for(cls, size: int) -> int:
        n = size * size
        return 2 * n + n * n + 1

    @classmethod
    def max_game_length_for(cls, size: int) -> int:
        """``n*n + 1`` actions, where ``n = size*size``.

        Let ``M`` be the number of markers and ``S`` the number of stones at
        the end, so ``S + M <= n``. Markers are never removed and every
        resolution adds at least one, so there are at most ``M`` resolutions.
        Each resolution removes at most one group, of at most ``n - 1`` stones
        (the resolved patch's points are not stones). Every placement puts a
        stone on the board that is either there at the end or was removed, so
        placements ``<= S + M*(n-1)``. With at most one swap, the number of
        actions is ``<= S + M*(n-1) + M + 1 <= (n - M) + M*n + 1
        = n + M*(n-1) + 1 <= n*n + 1`` (as ``M <= n``).
        """
        n = size * size
        return n * n + 1

    # ------------------------------------------------------------ state
    def _setup(self) -> None:
        n = self.n_points
        self._adj = grid.neighbours(self.size)
        self._links = _placement_links(self.size)
        self._swap_action = 2 * n + n * n
        self._board = bytearray(n)
        self._player = 0           # the color whose turn it is (the mover while resolving)
        self._pie = pie.initial(self.options["pie"])
        self._ended = False        # once True, _player is the color that made the last turn
        self._empty = list(range(n))   # sorted empty points: the placements
        self._gid = [0] * n            # stone point -> its group's label
        self._gmem: list[tuple[int, ...] | None] = [None] * n  # label -> the group's points
        # Pending patches: smallest point -> (points, owner, label, choices); see
        # _patch_info. Not empty exactly while the mover is resolving.
        self._patches: dict[int, tuple] = {}
        # Per applied action, what undo needs to put the groups back:
        # ((label, members before or None), ...) for every _gmem entry it changed.
        self._deltas: list[tuple] = []

    def _rebuild(self) -> None:
        """Recompute every derived cache from _board, _player and _ended."""
        board = self._board
        n = self.n_points
        adj = self._adj
        self._empty = [i for i in range(n) if not board[i]]
        gid = [0] * n
        gmem: list[tuple[int, ...] | None] = [None] * n
        seen = bytearray(n)
        for i in range(n):
            v = board[i]
            if (v == BLACK_STONE or v == WHITE_STONE) and not seen[i]:
                group = grid.region(i, board, adj)
                label = group[0]
                for q in group:
                    gid[q] = label
                    seen[q] = 1
                gmem[label] = tuple(group)
        self._gid = gid
        self._gmem = gmem
        self._patches = {}
        if self._ended:
            return
        for i in self._empty:
            if seen[i]:
                continue
            territory = grid.region(i, board, adj)
            for q in territory:
                seen[q] = 1
            if len(territory) <= PATCH_MAX:
                self._patches[territory[0]] = self._patch_info(tuple(territory))

    def _patch_info(self, points: tuple[int, ...]) -> tuple:
        """``(points, owner, label, choices)`` of a patch, for the current mover.

        ``label`` is the group ``@p`` removes (-1: none); ``choices`` is ``()``
        unless the owner has two or more biggest adjacent groups, and then lists
        ``(g, label)`` for each (g = the group's smallest point), ascending.
        Owner and groups never change while the patch is pending: no stone is
        placed during resolution, and a removed group that touches the patch
        merges it into a new territory (so it is no longer pending)."""
        board = self._board
        gid = self._gid
        gmem = self._gmem
        adj = self._adj
        labels: list[int] = []
        for q in points:
            for r in adj[q]:
                v = board[r]
                if v == BLACK_STONE or v == WHITE_STONE:
                    label = gid[r]
                    if label not in labels:
                        labels.append(label)
        if not labels:
            return points, 1 - self._player, -1, ()  # no stone: the mover's opponent
        best = [0, 0, 0]  # by stone value
        for label in labels:
            v = board[label]
            best[v] = max(best[v], len(gmem[label]))  # type: ignore[arg-type]
        if best[1] > best[2]:
            owner = 0
        elif best[2] > best[1]:
            owner = 1
        else:
            owner = 1 - self._player  # a tie: the mover's opponent
        stone = owner + 1
        size = best[stone]
        cands = [label for label in labels
                 if board[label] == stone and len(gmem[label]) == size]  # type: ignore[arg-type]
        if len(cands) == 1:
            return points, owner, cands[0], ()
        choices = sorted((min(gmem[label]), label) for label in cands)  # type: ignore[arg-type]
        return points, owner, -1, tuple(choices)

    # ------------------------------------------------------------ core hooks
    def _current_player(self) -> int | None:
        return None if self._ended else self._player

    def _mid_turn(self) -> bool:
        return bool(self._patches)  # resolutions pending: the mover's turn goes on

    def _legal_actions(self) -> list[int]:
        if self._ended:
            return []
        patches = self._patches
        if patches:
            n = self.n_points
            out: list[int] = []
            for p, (_, _, _, choices) in patches.items():
                if choices:
                    base = 2 * n + p * n
                    out.extend(base + g for g, _ in choices)
                else:
                    out.append(n + p)
            out.sort()
            return out
        if self._pie == pie.OPEN:
            return self._empty + [self._swap_action]
        return self._empty  # the façade copies before handing it out

    def _snapshot(self) -> object:
        patches = self._patches
        return (bytes(self._board), self._player, self._pie, self._ended,
                tuple(patches.items()) if patches else ())

    def _restore(self, snapshot) -> None:
        board, self._player, self._pie, self._ended, patches = snapshot
        self._board[:] = board
        self._patches = dict(patches)
        gid = self._gid
        gmem = self._gmem
        for label, members in self._deltas.pop():
            gmem[label] = members
            if members is not None:
                for q in members:
                    gid[q] = label
        self._empty = [i for i in range(self.n_points) if not board[i]]

    def _apply(self, action: int) -> None:
        if action < self.n_points:
            self._place(action)
        elif action == self._swap_action:
            self._pie = pie.CLOSED  # the players exchange colors; board and mover stay
            self._deltas.append(())
        else:
            self._resolve(action)

    def _place(self, p: int) -> None:
        # The hot path of every playout: locals only.
        board = self._board
        stone = self._player + 1
        board[p] = stone
        empty = self._empty
        del empty[bisect_left(empty, p)]
        if self._pie == pie.OPEN:
            self._pie = pie.CLOSED  # white's first action was a placement
        adj = self._adj
        gid = self._gid
        gmem = self._gmem
        # --- join the new stone to its friendly neighbours' groups
        label = -1
        others = None
        for q in adj[p]:
            if board[q] == stone:
                lq = gid[q]
                if label < 0:
                    label = lq
                elif lq != label:
                    if others is None:
                        others = [lq]
                    elif lq not in others:
                        others.append(lq)
        if label < 0:
            gid[p] = p
            gmem[p] = (p,)
            self._deltas.append(((p, None),))
        elif others is None:
            gid[p] = label
            old = gmem[label]
            gmem[label] = old + (p,)  # type: ignore[operator]
            self._deltas.append(((label, old),))
        else:
            others.append(label)
            big = label
            for lq in others:
                if len(gmem[lq]) > len(gmem[big]):  # type: ignore[arg-type]
                    big = lq
            self._deltas.append(tuple((lq, gmem[lq]) for lq in others))
            members = gmem[big] + (p,)  # type: ignore[operator]
            for lq in others:
                if lq != big:
                    pts = gmem[lq]
                    for q in pts:  # type: ignore[union-attr]
                        gid[q] = big
                    members += pts  # type: ignore[operator]
                    gmem[lq] = None
            gid[p] = big
            gmem[big] = members
        # --- new patches: only the territories next to p have shrunk
        found = None          # smallest point -> sorted region, for the patches found
        found_pts: list[int] | tuple = ()
        known_big = 0         # bits of the neighbours whose territory is known to be big
        for bit, q, links in self._links[p]:
            if board[q] or q in found_pts:
                continue
            for link_bit, d in links:
                if known_big & link_bit and not board[d]:
                    known_big |= bit
                    break
            else:
                region = _small_region(q, board, adj)
                if region is None:
                    known_big |= bit
                else:
                    region.sort()
                    if found is None:
                        found = {}
                        found_pts = region
                    else:
                        found_pts = found_pts + region  # type: ignore[operator]
                    found[region[0]] = region
        if found is None:
            self._end_turn()
            return
        patches = self._patches
        for key, region in found.items():
            patches[key] = self._patch_info(tuple(region))

    def _resolve(self, action: int) -> None:
        n = self.n_points
        patches = self._patches
        if action < 2 * n:
            points, owner, label, _ = patches.pop(action - n)
        else:
            p, g = divmod(action - 2 * n, n)
            points, owner, _, _ = patches.pop(p)
            label = self._gid[g]
        board = self._board
        empty = self._empty
        marker = owner + 3
        for q in points:
            board[q] = marker
            del empty[bisect_left(empty, q)]
        if label < 0:
            self._deltas.append(())
        else:
            gmem = self._gmem
            group = gmem[label]
            gmem[label] = None
            self._deltas.append(((label, group),))
            for q in group:  # type: ignore[union-attr]
                board[q] = EMPTY
                insort(empty, q)
            adj = self._adj
            if patches:
                # A pending patch was a whole territory: an empty neighbour outside it
                # can only be a point of the removed group, and then it merged.
                merged = [key for key, (pts, _, _, _) in patches.items()
                          if any(not board[r] and r not in pts for q in pts for r in adj[q])]
                for key in merged:
                    del patches[key]
            region = _small_region(group[0], board, adj)  # type: ignore[index]
            if region is not None:
                region.sort()
                patches[region[0]] = self._patch_info(tuple(region))
        if not patches:
            self._end_turn()

    def _end_turn(self) -> None:
        if not self._empty:
            self._ended = True  # _player stays: the color that made the last turn
            return
        if self._pie == pie.PENDING:
            self._pie = pie.OPEN
        self._player ^= 1

    # ------------------------------------------------------------ outcome
    def marker_scores(self) -> tuple[int, int]:
        """(black, white) scores of the markers now on the board (see :func:`marker_scores`)."""
        return marker_scores(self._board, self.size)

    def _compute_outcome(self) -> Outcome:
        board = self._board
        sb, sw = marker_scores(board, self.size)
        scores = {"black": float(sb), "white": float(sw)}
        if sb != sw:
            return Outcome("black" if sb > sw else "white", Termination.SCORE, scores)
        nb = board.count(BLACK_STONE)
        nw = board.count(WHITE_STONE)
        if nb != nw:
            return Outcome("black" if nb > nw else "white", Termination.STONES, scores)
        return Outcome(self.colors[1 - self._player], Termination.LAST_MOVE, scores)

    def _live_scores(self) -> dict[str, float] | None:
        sb, sw = marker_scores(self._board, self.size)
        return {"black": float(sb), "white": float(sw)}

    # ------------------------------------------------------------ notation
    def _action_string(self, action: int) -> str:
        n = self.n_points
        names = grid.point_names(self.size)
        if action < n:
            return names[action]
        if action < 2 * n:
            return "@" + names[action - n]
        if action == self._swap_action:
            return "swap"
        p, g = divmod(action - 2 * n, n)
        return f"@{names[p]}/{names[g]}"

    def _parse_action(self, text: str) -> int | None:
        index = grid.point_index(self.size)
        if text == "swap":
            return self._swap_action
        if text[:1] != "@":
            return index.get(text)
        n = self.n_points
        p_text, sep, g_text = text[1:].partition("/")
        p = index.get(p_text)
        if p is None:
            return None
        if not sep:
            return n + p
        g = index.get(g_text)
        if g is None:
            return None
        return 2 * n + p * n + g

    def _why_illegal(self, action: int) -> str:
        if self._ended:
            return "the game is over"
        n = self.n_points
        names = grid.point_names(self.size)
        mover = self.colors[self._player]
        patches = self._patches
        if action == self._swap_action:
            return pie.why_no_swap(self._pie, self.options["pie"], self.colors[1])
        if action < n:
            if patches:
                pending = ", ".join(self._action_string(a) for a in self._legal_actions())
                return (f"wrong phase: {mover} must resolve the pending patches before "
                        f"placing again ({pending})")
            return f"{names[action]} is occupied (by a {_WORDS[self._board[action]]})"
        if action < 2 * n:
            p, g = action - n, -1
        else:
            p, g = divmod(action - 2 * n, n)
        written = self._action_string(action)
        if not patches:
            return f"wrong phase: {written} resolves a patch, but none is pending; {mover} must place a stone"
        if p not in patches:
            for key, (pts, _, _, _) in patches.items():
                if p in pts:
                    return (f"{written}: {names[p]} is not the smallest point of its patch "
                            f"(write @{names[key]})")
            listed = ", ".join("@" + names[key] for key in sorted(patches))
            return f"{written}: {names[p]} is not in a patch (patches: {listed})"
        _, owner, _, choices = patches[p]
        owner_name = self.colors[owner]
        if g < 0:  # @p, but the mover must name the group
            listed = ", ".join(f"@{names[p]}/{names[c]}" for c, _ in choices)
            return (f"{written}: {owner_name} has {len(choices)} biggest groups tied next to "
                    f"the patch; name the one removed ({listed})")
        if not choices:
            return (f"{written}: there is no group to choose at this patch "
                    f"(write @{names[p]})")
        listed = ", ".join(names[c] for c, _ in choices)
        return (f"{written}: {names[g]} is not the smallest point of one of {owner_name}'s "
                f"tied biggest groups next to the patch (choose from {listed})")

    # ------------------------------------------------------------ position text
    def _cell_tokens(self) -> list[str | None]:
        return [_TOKENS.get(v) for v in self._board]

    def _state_fields(self) -> list[tuple[str, object]]:
        fields: list[tuple[str, object]] = [("swap", self._pie == pie.OPEN)]
        if self._ended:
            fields.append(("last", self.colors[self._player]))
        return fields

    def _load_position(self, cells, player, fields) -> None:
        board = self._decode_cells(cells, _CELLS)
        self._board = board
        self._deltas = []
        board_empty = not any(board)
        self._pie = pie.load(fields, self.options["pie"], board_empty)
        last = fields.pop("last", None)
        if EMPTY not in board:
            if player is not None:
                raise PositionError("implo: a board without empty points is a finished game; "
                                    "to-move must be -")
            if last not in self.colors:
                raise PositionError("implo: a finished position needs last=black or "
                                    "last=white (the color that made the last turn)")
            if self._pie == pie.OPEN:
                raise PositionError("implo: swap=yes in a finished game")
            self._ended = True
            self._player = self.colors.index(last)
            self._rebuild()
            return
        if player is None:
            raise PositionError("implo: to-move is - but the board has empty points")
        if last is not None:
            raise PositionError("implo: last= is only for finished positions (to-move -)")
        if board_empty and player != 0:
            raise PositionError("implo: on an empty board black moves first")
        self._ended = False
        self._player = player
        self._rebuild()
        if self._pie == pie.OPEN:
            if player != 1:
                raise PositionError("implo: swap=yes, but swap is white's option and "
                                    f"{self.colors[player]} is to move")
            if self._patches:
                raise PositionError("implo: swap=yes, but patches are pending (mid-turn)")

    def _render_cells(self) -> list[str]:
        return [_RENDER[v] for v in self._board]


def _small_region(start: int, board, adj) -> list[int] | None:
    """The territory (empty region) of ``start`` if it has at most four points,
    else None. Visits at most five points."""
    seen = [start]
    count = 1
    for p in seen:  # the list grows while it is walked
        for r in adj[p]:
            if not board[r] and r not in seen:
                if count == PATCH_MAX:
                    return None
                seen.append(r)
                count += 1
    return seen


@cache
def _placement_links(size: int) -> tuple:
    """For each point p: ``(bit, q, links)`` for each orthogonal neighbour q (east,
    north, west, south; bit = 1 << its slot), where links holds ``(bit_k, d)`` for
    each earlier neighbour q_k that shares the diagonal point d with q. When q_k's
    territory is known to be big and d is empty, q lies in that same big territory
    (q, d and q_k are a chain of adjacent empty points)."""
    step = grid.steps(size)
    table = []
    for p in range(size * size):
        slots: list[tuple[int, int]] = []  # (q, direction from p)
        for dir_q in range(4):
            q = step[dir_q][p]
            if q >= 0:
                slots.append((q, dir_q))
        entries = []
        for i, (q, dir_q) in enumerate(slots):
            links = []
            for k in range(i):
                dir_k = slots[k][1]
                if (dir_k - dir_q) % 2:  # perpendicular: they share a diagonal point
                    links.append((1 << k, step[dir_k][q]))
            entries.append((1 << i, q, tuple(links)))
        table.append(tuple(entries))
    return tuple(table)


def marker_scores(board, size: int) -> tuple[int, int]:
    """(black, white) scores of a board: for each color, the largest size s at
    which it has strictly more marker groups of size s than the other (0 if none)."""
    counts = grid.group_size_counts(board, (BLACK_MARKER, WHITE_MARKER), size)
    return grid.largest_majority_sizes(*counts)
