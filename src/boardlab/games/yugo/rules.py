"""Yugo: a finite Go variant with pawns, kings and a button (Luis Bolaños Mures).

Rules: src/boardlab/rules/yugo.md (for players), docs/rules.md (Yugo, Every game)
and docs/games/yugo.md (notation, positions, every engine ruling).

Summary
-------
Black moves first. A turn is one of: take the ``button`` (once per game, either
color; worth half a point), ``pass`` (only once the button is taken), a pawn
``c3`` (legal iff the total number of surrounded groups, both colors, does not
change) or a king ``kc3`` (legal iff it increases the number of surrounded
enemy groups; every pawn of every surrounded enemy group is removed, then every
pawn of every surrounded friendly group). Kings are never removed by play, so
at the start of every turn every surrounded group consists of kings only.

The first time both colors pass in a row, the color due to move proposes
removals (``mark c3`` per group, by the group's smallest point, in increasing
order, then ``done``); the other color plays ``accept`` (the marked groups are
removed and the game ends) or ``reject`` (play resumes with the proposer to
move; the next double pass ends the game at once with no removals).
Score: own territory + own pieces in groups with a liberty + enemy kings in
groups without liberties + 0.5 for the button + ``komi`` for white.

Actions (n = size * size)
-------------------------
``0..n-1`` pawn on point i; ``n + i`` king on i; ``2n`` button; ``2n+1`` pass;
``2n+2+p`` mark the group whose smallest point is p; ``3n+2`` done;
``3n+3`` accept; ``3n+4`` reject. ``num_distinct_actions = 3n + 5``.

State and cell encoding
-----------------------
The board is kept as int bitboards (bit i = point i): ``_stones[0]`` black
pieces, ``_stones[1]`` white pieces, ``_kings`` kings of both colors,
``_empty`` empty points. Groups are maintained incrementally: ``_col`` (a
list per point: 0 empty, 1 black, 2 white), ``_gid`` (per point the id
of its group, -1 if empty; an id is one of the group's points), ``_gst`` /
``_glib`` (id -> stones / liberties bitboards), ``_atari0`` / ``_atari1``
(id -> the single liberty, for black's / white's groups with exactly one
liberty) and ``_weak`` (per color, the stones of those groups).

Legal placements are then a few bitboard operations: a king is legal exactly
on the single liberty of an enemy group in atari (a point's placement
surrounds a group iff that point is the group's only liberty); a pawn is legal
on any other empty point that touches an empty point or a friendly group with
two or more liberties. The bitboard is turned into the ascending action list
by a per-size generated function (one list display over its bytes, each byte
looked up in a table), which is why the per-size tables ``_t`` are left out
of pickles and rebuilt on load. A placement touches only the groups next to
its point; a king's removals also update the groups next to removed points.

Undo snapshots hold only the board bitboards and the scalar state
(``_player``, ``_button``, ``_passes``, ``_phase``, ``_marks``, ``_rejected``);
``_restore`` rebuilds the group tables from the board (ids may then differ
from before, nothing observable does).

Position text
-------------
Board tokens: ``x`` black pawn, ``o`` white pawn, ``X`` black king, ``O``
white king. Fields after ``komi`` (always written, in this order):
``button=black|white|-``, ``passes=0|1`` (consecutive passes just made in the
play phase), ``phase=play|mark|answer``, ``marks=-|a1,c3,...`` (the smallest
points of the groups proposed so far, increasing), ``rejected=yes|no``.
A finished game has to-move ``-`` and ``passes=0 phase=play marks=-``;
``rejected`` then tells how it ended (no: proposal accepted; yes: second
double pass). Missing fields read as their start values.

Game length
-----------
:meth:`Yugo.max_game_length_for` returns a proven (loose) bound: kings are
never removed by play, so at most n kings are placed; between two king
placements pawns are only added, so with j kings on the board at most n - j
pawns are placed before the next king; placements <= n + n(n+1)/2 = P.
No three passes come in a row and a double pass happens at most twice
(the second one, or an accept, ends the game), so passes <= (P + 1) + 3,
and the one proposal takes at most n marks + done + accept/reject. Hence
length <= 2(P + 1) + 3 + n + 2.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cache

from ...core import grid
from ...core.game import Game, parse_choice, parse_flag
from ...core.outcome import Outcome, Termination
from ...core.pregame import PreGame
from ...errors import PositionError

PLAY, MARK, ANSWER, OVER = 0, 1, 2, 3
_PHASES = ("play", "mark", "answer")          # the position field's values
_PHASE_FIELD = ("play", "mark", "answer", "play")  # a finished game writes phase=play
_TOKENS = ("x", "o", "X", "O")  # index: color + 2 * is_king
_POINTISH = re.compile(r"(k?)([a-z][0-9]+)")


def fair_komi(size: int) -> int:
    """The komi a player names without searching: a plain rule of thumb,
    written down so it can be argued with: Go's area komi scaled to the
    board, at most 7 (``min(7, size*size // 12)``)."""
    return min(7, size * size // 12)


def reasonable_komi(size: int) -> tuple[int, int]:
    """The komi a player would name: ``0 .. 2 * fair_komi(size)``. Komi
    compensates the first player, and no player would name more than twice
    the rule of thumb (a weak search of the start is mostly noise: level 1
    named 13 on 7x7 and -6 on 5x5)."""
    return 0, 2 * fair_komi(size)


def searched_komi(size: int) -> tuple[int, int]:
    """Where a search for the even komi looks: ``-n/4 .. n/2`` for ``n`` points."""
    n = size * size
    return -(n // 4), n // 2


class Yugo(Game):
    name = "yugo"
    colors = ("black", "white")
    default_size = 9
    option_defaults = {"komi": 0}
    #: a komi beyond the board's 361 points decides nothing more; the bound
    #: keeps scoring's arithmetic (and every text that shows it) finite
    option_ranges = {"komi": (-1000, 1000)}
    option_help = {"komi": "points added to white's score"}
    option_notes = {"komi": "a whole number: scores are whole but for the button's half point, "
                            "which is what makes a tie impossible; a half-point komi would "
                            "allow ties (docs/rules.md, Yugo)"}
    move_words = {"button": "Take the button (+½)", "pass": "Pass", "done": "Done marking",
                  "accept": "Accept removals", "reject": "Reject"}
    point_words = ("mark",)
    #: before the first move black names the komi and white picks a color
    #: (docs/rules.md, Yugo)
    pregame = PreGame("komi", 1, option_help["komi"], rule_of_thumb=fair_komi,
                      reasonable=reasonable_komi, searched=searched_komi)

    @classmethod
    def num_distinct_actions_for(cls, size: int) -> int:
        return 3 * size * size + 5

    @classmethod
    def max_game_length_for(cls, size: int) -> int | None:
        n = size * size
        placements = n + n * (n + 1) // 2
        return 2 * (placements + 1) + 3 + n + 2

    # ------------------------------------------------------------ state
    def _setup(self) -> None:
        n = self.n_points
        self._t = _tables(self.size)
        self._pawns = self._t[5]     # the legal pawn generator, used every ply
        self._stones = [0, 0]
        self._kings = 0
        self._empty = (1 << n) - 1
        self._col = [0] * n
        self._gid = [-1] * n
        self._gst: dict[int, int] = {}
        self._glib: dict[int, int] = {}
        self._atari0: dict[int, int] = {}
        self._atari1: dict[int, int] = {}
        self._weak = [0, 0]
        self._player = 0
        self._button = -1          # -1: not taken, else the color index that took it
        self._passes = 0
        self._phase = PLAY
        self._marks: tuple[int, ...] = ()
        self._marks_for: tuple[int, ...] | None = None  # cache: every mark action, ascending
        self._rejected = False

    # the per-size tables hold a generated function: pickle without them
    def __getstate__(self) -> dict:
        state = super().__getstate__()
        del state["_t"], state["_pawns"]
        return state

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        self._t = _tables(self.size)
        self._pawns = self._t[5]

    def _rebuild(self) -> None:
        """Recompute every derived table (_empty, _col, _gid, _gst, _glib, _atari0,
        _atari1, _weak) from the board bitboards. Group ids are then the groups'
        smallest points (play keeps whatever id a group already had)."""
        n = self.n_points
        nf, nl, s = self._t[2], self._t[3], self.size
        stones = self._stones
        self._empty = emp = ((1 << n) - 1) & ~(stones[0] | stones[1])
        col = self._col = [0] * n
        gid = self._gid = [-1] * n
        gst = self._gst = {}
        glib = self._glib = {}
        ataris: tuple[dict[int, int], dict[int, int]]
        ataris = self._atari0, self._atari1 = {}, {}
        weak = self._weak = [0, 0]
        for c in (0, 1):
            rest = stones[c]
            atari = ataris[c]
            while rest:
                grp = _flood(rest & -rest, rest, nl, nf, s)
                rest ^= grp
                gi = (grp & -grp).bit_length() - 1
                libs = (((grp & nl) << 1) | ((grp & nf) >> 1) | (grp << s) | (grp >> s)) & emp
                gst[gi] = grp
                glib[gi] = libs
                if libs.bit_count() == 1:
                    atari[gi] = libs
                    weak[c] |= grp
                b = grp
                while b:
                    low = b & -b
                    i = low.bit_length() - 1
                    col[i] = c + 1
                    gid[i] = gi
                    b ^= low

    def _smallest(self, g: int) -> int:
        """The smallest point of group ``g``."""
        grp = self._gst[g]
        return (grp & -grp).bit_length() - 1

    # ------------------------------------------------------------ core hooks
    def _current_player(self) -> int | None:
        return None if self._phase == OVER else self._player

    def _legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == PLAY:
            me = self._player
            n = self.n_points
            emp = self._empty
            y = emp | (self._stones[me] ^ self._weak[me])  # empty or strong own stones
            at = self._atari0 if me else self._atari1      # enemy groups in atari
            if not at:
                out = self._pawns(emp, y)
            elif len(at) == 1:
                for kill in at.values():
                    out = self._pawns(emp ^ kill, y)
                    out.append(n - 1 + kill.bit_length())
            else:
                kills = 0
                for kill in at.values():
                    kills |= kill
                out = self._pawns(emp ^ kills, y)
                out += sorted({n - 1 + kill.bit_length() for kill in at.values()})
            out.append(n + n if self._button < 0 else n + n + 1)
            return out
        n = self.n_points
        if phase == MARK:
            marks = self._marks_for
            if marks is None:      # the board is fixed during a proposal: list it once
                base = n + n + 2
                marks = self._marks_for = tuple(sorted(
                    base + (grp & -grp).bit_length() - 1 for grp in self._gst.values()))
            if self._marks:
                out = list(marks[bisect_right(marks, n + n + 2 + self._marks[-1]):])
            else:
                out = list(marks)
            out.append(3 * n + 2)
            return out
        if phase == ANSWER:
            return [3 * n + 3, 3 * n + 4]
        return []

    def _snapshot(self) -> object:
        # Never called on a finished game. The group tables are rebuilt on restore.
        return (self._stones[0], self._stones[1], self._kings, self._player, self._button,
                self._passes, self._phase, self._marks, self._rejected)

    def _restore(self, snapshot) -> None:
        (b, w, self._kings, self._player, self._button, self._passes, self._phase,
         self._marks, self._rejected) = snapshot
        self._stones = [b, w]
        self._marks_for = None
        self._rebuild()

    def _apply(self, action: int) -> None:
        n = self.n_points
        if action < n + n:
            # ---- placement: the hot path, locals only
            king = action >= n
            p = action - n if king else action
            me = self._player
            t = self._t
            bit = t[8][p]
            emp = self._empty ^ bit
            self._empty = emp
            self._stones[me] |= bit
            col = self._col
            gid = self._gid
            gst = self._gst
            glib = self._glib
            mine = me + 1
            col[p] = mine
            friends = []
            enemies = []
            for q in t[0][p]:
                v = col[q]
                if v:
                    g = gid[q]
                    if v == mine:
                        if g not in friends:
                            friends.append(g)
                    elif g not in enemies:
                        enemies.append(g)
            libs = t[1][p] & emp
            at_me = self._atari1 if me else self._atari0
            if not friends:                      # a new group of one
                gi = p
                gid[p] = p
                gst[p] = bit
                glib[p] = libs
                if libs.bit_count() == 1:
                    at_me[p] = libs
                    self._weak[me] |= bit
            elif len(friends) == 1:              # p joins one group
                gi = friends[0]
                gid[p] = gi
                old = gst[gi]
                grp = old | bit
                gst[gi] = grp
                libs = (glib[gi] | libs) & emp
                glib[gi] = libs
                if libs.bit_count() == 1:
                    at_me[gi] = libs
                    self._weak[me] |= grp
                elif gi in at_me:
                    del at_me[gi]
                    self._weak[me] ^= old
            else:                                # p joins several groups: keep the
                weak = self._weak                # biggest one's id, relabel the others
                gi = friends[0]
                most = gst[gi].bit_count()
                for g in friends:
                    size = gst[g].bit_count()
                    if size > most:
                        gi = g
                        most = size
                grp = bit
                for g in friends:
                    st = gst[g]
                    grp |= st
                    libs |= glib[g]
                    if g in at_me:
                        del at_me[g]
                        weak[me] ^= st
                    if g != gi:
                        del gst[g]
                        del glib[g]
                        while st:
                            low = st & -st
                            gid[low.bit_length() - 1] = gi
                            st ^= low
                gid[p] = gi
                libs &= emp
                gst[gi] = grp
                glib[gi] = libs
                if libs.bit_count() == 1:
                    at_me[gi] = libs
                    weak[me] |= grp
            captured = None
            if enemies:
                at_en = self._atari0 if me else self._atari1
                for g in enemies:
                    lib = glib[g] ^ bit
                    glib[g] = lib
                    if not lib:
                        del at_en[g]
                        self._weak[1 - me] ^= gst[g]
                        if captured is None:
                            captured = [g]
                        else:
                            captured.append(g)
                    elif lib.bit_count() == 1:
                        at_en[g] = lib
                        self._weak[1 - me] |= gst[g]
            if king:
                self._kings |= bit
                self._king_removals(me, gi, captured)
            self._player = 1 - me
            self._passes = 0
            return
        if action == n + n:                      # button
            self._button = self._player
            self._player ^= 1
            self._passes = 0
        elif action == n + n + 1:                # pass
            self._player ^= 1
            if self._passes == 0:
                self._passes = 1
            elif self._rejected:                 # second double pass: the game ends as is
                self._passes = 0
                self._phase = OVER
            else:                                # first double pass: propose removals
                self._passes = 0
                self._phase = MARK
                self._marks_for = None
        elif action < 3 * n + 2:                 # mark
            self._marks += (action - n - n - 2,)
        elif action == 3 * n + 2:                # done
            self._phase = ANSWER
            self._player ^= 1
        elif action == 3 * n + 3:                # accept
            gst = self._gst
            gid = self._gid
            gone = 0
            for p in self._marks:
                gone |= gst[gid[p]]
            self._stones = [self._stones[0] & ~gone, self._stones[1] & ~gone]
            self._kings &= ~gone
            self._marks = ()
            self._phase = OVER
            # group tables: rebuilt when next needed (the only None; play never reads it)
            self._gst = None  # type: ignore[assignment]
        else:                                    # reject
            self._marks = ()
            self._phase = PLAY
            self._rejected = True
            self._player ^= 1

    def _king_removals(self, me: int, own_id: int, captured: list[int] | None) -> None:
        """After a king on a point: remove the pawns of the newly surrounded enemy
        groups, then those of the own group if it is still surrounded, and redo
        the group tables around the removed points. (The caller has already
        dropped the captured groups from the atari table.)"""
        t = self._t
        kings = self._kings
        stones = self._stones
        gst = self._gst
        glib = self._glib
        removed = 0
        remnants = 0       # kings of the groups that lost pawns: regrouped below
        for g in captured or ():   # a legal king always captures; None only defensively
            grp = gst[g]
            pawns = grp & ~kings
            if pawns:              # (a group of kings only stays, surrounded, as it is)
                del gst[g]
                del glib[g]
                removed |= pawns
                remnants |= grp ^ pawns
        if removed:
            stones[1 - me] ^= removed
            emp = self._empty | removed
        else:
            emp = self._empty
        s, nf, nl = t[7], t[2], t[3]
        # the own group, in the position after the enemy removals
        if not glib[own_id]:
            grp = gst[own_id]
            if not (((grp & nl) << 1) | ((grp & nf) >> 1) | (grp << s) | (grp >> s)) & emp:
                pawns = grp & ~kings
                if pawns:
                    del gst[own_id]
                    del glib[own_id]
                    removed |= pawns
                    remnants |= grp ^ pawns
                    stones[me] ^= pawns
                    emp |= pawns
        self._empty = emp
        col = self._col
        gid = self._gid
        neigh = t[0]
        if not remnants:
            # Only enemy pawns went (the own group kept its pieces): the groups
            # that gain liberties are own groups next to the removed points.
            b = removed
            while b:
                low = b & -b
                i = low.bit_length() - 1
                col[i] = 0
                gid[i] = -1
                b ^= low
            halo = (((removed & nl) << 1) | ((removed & nf) >> 1) | (removed << s)
                    | (removed >> s)) & stones[me]
            atari = self._atari1 if me else self._atari0
            weak = self._weak
            g = own_id     # first, as its atari status may have changed in any case
            while True:
                grp = gst[g]
                libs = (((grp & nl) << 1) | ((grp & nf) >> 1) | (grp << s) | (grp >> s)) & emp
                glib[g] = libs
                if libs.bit_count() == 1:
                    if g not in atari:
                        weak[me] |= grp
                    atari[g] = libs
                elif g in atari:
                    del atari[g]
                    weak[me] ^= grp
                halo &= ~grp
                if not halo:
                    return
                g = gid[(halo & -halo).bit_length() - 1]
        gained: dict[int, int] = {}    # group id -> removed points next to it
        # Kings were left behind (or the own group lost its pawns): regroup them
        # and credit every removed point to the groups next to it.
        points = []
        b = removed
        while b:
            low = b & -b
            i = low.bit_length() - 1
            col[i] = 0
            gid[i] = -1
            points.append((i, low))
            b ^= low
        # the kings left behind, color by color (they have no liberty yet)
        for c in (0, 1):
            rest = remnants & stones[c]
            while rest:
                grp = rest & -rest
                if rest != grp:
                    while True:
                        grown = (grp | ((grp & nl) << 1) | ((grp & nf) >> 1)
                                 | (grp << s) | (grp >> s)) & rest
                        if grown == grp:
                            break
                        grp = grown
                rest ^= grp
                gi = (grp & -grp).bit_length() - 1
                gst[gi] = grp
                glib[gi] = 0
                b = grp
                while b:
                    low = b & -b
                    gid[low.bit_length() - 1] = gi
                    b ^= low
        for i, low in points:
            for q in neigh[i]:
                if col[q]:
                    g = gid[q]
                    gained[g] = gained.get(g, 0) | low
        if own_id not in gained:
            gained[own_id] = 0         # its atari status may have changed in any case
        ataris = (self._atari0, self._atari1)
        weak = self._weak
        for g, more in gained.items():
            if g not in gst:           # the own group, removed
                continue
            libs = glib[g] | more
            glib[g] = libs
            c = col[g] - 1
            atari = ataris[c]
            if libs.bit_count() == 1:
                if g not in atari:
                    weak[c] |= gst[g]
                atari[g] = libs
            elif g in atari:
                del atari[g]
                weak[c] ^= gst[g]

    def _compute_outcome(self) -> Outcome:
        scores = self._tally()
        b, w = scores["black"], scores["white"]
        winner = "black" if b > w else "white" if w > b else "draw"
        return Outcome(winner, Termination.SCORE, scores)

    def _tally(self) -> dict[str, float]:
        """The score of each color for the board as it stands."""
        if self._gst is None:
            self._rebuild()
        t = self._t
        s, nf, nl = t[7], t[2], t[3]
        stones = self._stones
        pts = [0.0, 0.0]
        # territories: maximal empty regions touching exactly one color
        rest = self._empty
        while rest:
            reg = _flood(rest & -rest, rest, nl, nf, s)
            rest ^= reg
            edge = ((reg & nl) << 1) | ((reg & nf) >> 1) | (reg << s) | (reg >> s)
            touches_black = edge & stones[0]
            touches_white = edge & stones[1]
            if touches_black and not touches_white:
                pts[0] += reg.bit_count()
            elif touches_white and not touches_black:
                pts[1] += reg.bit_count()
        # pieces: own pieces in groups with a liberty, enemy kings in surrounded groups
        col = self._col
        for g, grp in self._gst.items():
            c = col[g] - 1
            if self._glib[g]:
                pts[c] += grp.bit_count()
            else:
                pts[1 - c] += (grp & self._kings).bit_count()
        if self._button >= 0:
            pts[self._button] += 0.5
        pts[1] += self.options["komi"]
        return {"black": float(pts[0]), "white": float(pts[1])}

    def _live_scores(self) -> dict[str, float] | None:
        return self.scores if self._phase == OVER else self._tally()

    # ------------------------------------------------------------ notation
    def _action_string(self, action: int) -> str:
        n = self.n_points
        names = grid.point_names(self.size)
        if action < n:
            return names[action]
        if action < n + n:
            return "k" + names[action - n]
        if action == n + n:
            return "button"
        if action == n + n + 1:
            return "pass"
        if action < 3 * n + 2:
            return "mark " + names[action - n - n - 2]
        return ("done", "accept", "reject")[action - 3 * n - 2]

    def _parse_action(self, text: str) -> int | None:
        n = self.n_points
        index = grid.point_index(self.size)
        p = index.get(text)
        if p is not None:
            return p
        if text[:1] == "k":
            p = index.get(text[1:])
            if p is not None:
                return n + p
        if text[:5] == "mark ":
            p = index.get(text[5:])
            if p is not None:
                return n + n + 2 + p
            return None
        simple = {"button": n + n, "pass": n + n + 1, "done": 3 * n + 2,
                  "accept": 3 * n + 3, "reject": 3 * n + 4}
        return simple.get(text)

    def _malformed_reason(self, text: str) -> str | None:
        size = self.size
        board = f"{size}x{size} board (columns a..{grid.FILES[size - 1]}, rows 1..{size})"
        if text.startswith("mark"):
            return f"a mark is 'mark <point>' with one space, e.g. 'mark c3', on a {board}"
        m = _POINTISH.fullmatch(text)
        if m:
            point = m.group(2)
            return (f"no point {point} on a {board}; a pawn is written as its point (c3), "
                    f"a king as k + point (kc3)")
        return None

    def _why_illegal(self, action: int) -> str:
        n = self.n_points
        if self._phase == OVER:
            return "the game is over"
        phase = self._phase
        me = self._player
        names = grid.point_names(self.size)
        if action < n + n:
            if phase != PLAY:
                return self._wrong_phase("placing a piece")
            king = action >= n
            p = action - n if king else action
            name = names[p]
            if self._col[p]:
                return f"{name} is occupied"
            opp = self.colors[1 - me]
            enemy_atari = self._atari0 if me else self._atari1
            last_liberty_of = [g for g, lib in enemy_atari.items() if lib >> p & 1]
            if king:
                if not last_liberty_of:
                    return (f"k{name}: a king must surround a {opp} group, and {name} is not "
                            f"the last liberty of any {opp} group")
                return f"k{name} is not legal"  # unreachable: a legal king is listed
            if last_liberty_of:
                at = names[min(self._smallest(g) for g in last_liberty_of)]
                return (f"{name}: a pawn may not surround a group ({name} is the last liberty "
                        f"of the {opp} group at {at}; a king there is k{name})")
            return (f"{name}: a pawn there would leave its own group without a liberty "
                    f"(the number of surrounded groups must not change)")
        if action == n + n:
            if phase != PLAY:
                return self._wrong_phase("button")
            return f"the button has already been taken (by {self.colors[self._button]})"
        if action == n + n + 1:
            if phase != PLAY:
                return self._wrong_phase("pass")
            return "pass is only legal once the button has been taken"
        if action < 3 * n + 2:
            if phase != MARK:
                return self._wrong_phase("mark")
            p = action - n - n - 2
            name = names[p]
            if not self._col[p]:
                return f"mark {name}: {name} is empty (mark a group by its smallest point)"
            low = self._smallest(self._gid[p])
            if low != p:
                return (f"mark {name}: {name} is not the smallest point of its group "
                        f"(that group is marked as mark {names[low]})")
            last = self._marks[-1]
            if p == last or p in self._marks:
                return f"mark {name}: that group is already marked"
            return (f"mark {name}: groups are marked in increasing point order and "
                    f"{name} comes before the last mark, {names[last]}")
        word = ("done", "accept", "reject")[action - 3 * n - 2]
        return self._wrong_phase(word)

    def _wrong_phase(self, what: str) -> str:
        who = self.colors[self._player]
        other = self.colors[1 - self._player]
        if self._phase == PLAY:
            if what in ("mark", "done"):
                when = "while proposing removals after both colors pass"
            elif what in ("accept", "reject"):
                when = "in answer to a finished proposal"
            else:
                when = "in the play phase"
            return f"wrong phase: {what} is only legal {when}; it is {who}'s turn to play"
        if self._phase == MARK:
            return (f"wrong phase: {who} is proposing removals (mark <point> for each group, "
                    f"then done); {what} is not legal now")
        return (f"wrong phase: {who} must accept or reject {other}'s proposal; "
                f"{what} is not legal now")

    # ------------------------------------------------------------ position text
    def _cell_tokens(self) -> list[str | None]:
        if self._gst is None:
            self._rebuild()
        kings = self._kings
        return [None if not c else _TOKENS[c - 1 + 2 * (kings >> i & 1)]
                for i, c in enumerate(self._col)]

    def _state_fields(self) -> list[tuple[str, object]]:
        names = grid.point_names(self.size)
        return [
            ("button", self.colors[self._button] if self._button >= 0 else "-"),
            ("passes", self._passes),
            ("phase", _PHASE_FIELD[self._phase]),
            ("marks", ",".join(names[m] for m in self._marks) if self._marks else "-"),
            ("rejected", self._rejected),
        ]

    def _load_position(self, cells, player, fields) -> None:
        size = self.size
        names = grid.point_names(size)
        black = white = kings = 0
        for i, token in enumerate(cells):
            if token is None:
                continue
            if token not in _TOKENS:
                raise PositionError(f"yugo: unknown piece {token!r} at {names[i]} "
                                    f"(use x, o for pawns and X, O for kings)")
            k = _TOKENS.index(token)
            if k % 2 == 0:
                black |= 1 << i
            else:
                white |= 1 << i
            if k >= 2:
                kings |= 1 << i
        self._stones = [black, white]
        self._kings = kings
        self._rebuild()
        for g, libs in self._glib.items():
            if not libs and self._gst[g] & ~kings:
                raise PositionError(
                    f"yugo: the {self.colors[self._col[g] - 1]} group at {names[g]} has no "
                    f"liberty but holds pawns (play never leaves a surrounded pawn)")

        button = parse_choice(fields, "button", ("black", "white", "-"), "-")
        self._button = -1 if button == "-" else self.colors.index(button)
        self._passes = int(parse_choice(fields, "passes", ("0", "1"), "0"))
        self._phase = _PHASES.index(parse_choice(fields, "phase", _PHASES, "play"))
        self._rejected = parse_flag(fields, "rejected", False)
        marks_text = fields.pop("marks", "-")
        marks: list[int] = []
        if marks_text != "-":
            for item in marks_text.split(","):
                p = grid.parse_point(item, size)
                if p is None:
                    raise PositionError(f"yugo: marks: {item!r} is not a point on a "
                                        f"{size}x{size} board")
                if not self._col[p] or self._smallest(self._gid[p]) != p:
                    raise PositionError(f"yugo: marks: {item} is not the smallest point of a group")
                if marks and p <= marks[-1]:
                    raise PositionError("yugo: marks must be in increasing point order, "
                                        f"each group once ({item} after {names[marks[-1]]})")
                marks.append(p)
        self._marks = tuple(marks)
        self._player = 0 if player is None else player

        taken = self._button >= 0
        if player is None:
            if not taken:
                raise PositionError("yugo: a game cannot end before the button is taken")
            if self._passes or self._phase != PLAY or self._marks:
                raise PositionError("yugo: a finished position has passes=0 phase=play marks=-")
            self._phase = OVER
            return
        if self._phase == PLAY:
            if self._marks:
                raise PositionError("yugo: marks are only possible in phase mark or answer")
            if not taken and (self._passes or self._rejected):
                raise PositionError("yugo: nobody can pass before the button is taken")
        else:
            if self._passes:
                raise PositionError("yugo: passes=1 is only possible in phase play")
            if self._rejected:
                raise PositionError("yugo: after a rejected proposal there is no other one")
            if not taken:
                raise PositionError("yugo: proposals follow passes, which need the button taken")
        if not (black | white) and not taken and player != 0:
            raise PositionError("yugo: on an empty board before the button black moves first")

    def _render_cells(self) -> list[str]:
        return [tok or "." for tok in self._cell_tokens()]


@cache
def _tables(size: int) -> tuple:
    """Per-size constants: (neighbours, neighbour masks, not-first-column mask,
    not-last-column mask, bytes per bitboard, pawn generator, full mask, size,
    single-bit masks)."""
    n = size * size
    neigh = grid.neighbours(size)
    masks = tuple(sum(1 << q for q in neigh[p]) for p in range(n))
    first = sum(1 << (r * size) for r in range(size))
    last = first << (size - 1)
    full = (1 << n) - 1
    nbytes = (n + 7) // 8
    return (neigh, masks, full & ~first, full & ~last, nbytes,
            _pawn_generator(size, full & ~first, full & ~last), full, size,
            tuple(1 << p for p in range(n)))


def _pawn_generator(size: int, not_first: int, not_last: int):
    """A function ``(free, y) -> ascending list of the points of free that touch y``.

    The legal pawns are ``free`` = empty points that are not the last liberty of
    an enemy group, touching ``y`` = empty points and the mover's stones in groups
    with two or more liberties. Generated per size: the neighbour masks are
    constants and the result is one list display over the bytes of the bitboard,
    each byte looked up in a table of index tuples, with no Python-level loop."""
    n = size * size
    nbytes = (n + 7) // 8
    env = {f"D{k}": tuple(tuple(8 * k + i for i in range(8) if c >> i & 1) for c in range(256))
           for k in range(nbytes)}
    names = ", ".join(f"x{k}" for k in range(nbytes))
    items = ", ".join(f"*D{k}[x{k}]" for k in range(nbytes))
    src = (f"def pawns(free, y):\n"
           f"    {names}, = (free & (((y & {not_last}) << 1) | ((y & {not_first}) >> 1)"
           f" | (y << {size}) | (y >> {size}))).to_bytes({nbytes}, 'little')\n"
           f"    return [{items}]\n")
    exec(src, env)
    return env["pawns"]


def _flood(seed: int, within: int, not_last_col: int, not_first_col: int, size: int) -> int:
    """The points of ``within`` connected to ``seed`` (bitboards, bit i = point i).
    ``not_last_col`` / ``not_first_col`` mask the points that may step east / west."""
    region = seed
    while True:
        grown = (region | ((region & not_last_col) << 1) | ((region & not_first_col) >> 1)
                 | (region << size) | (region >> size)) & within
        if grown == region:
            return region
        region = grown
