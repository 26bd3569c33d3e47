"""Yugo's search advice (the one search's contract: :mod:`boardlab.fast.advice`).

The end of play: which groups to mark as dead.

docs/rules.md (Yugo): after the first double pass the color to move marks
groups (``mark c3`` per group, increasing) and plays ``done``; the other
color accepts (the marked groups are removed, the game ends) or rejects
(play resumes; the next double pass ends the game with no removals).

* **Marking** (:func:`dead_groups`, played by :func:`special` without a tree
  search): the position *as if the proposal were rejected* (play resumes,
  the next double pass ends the game) is played out many times
  (:func:`boardlab.fast.ownership.ownership`: who each point scores for at
  the end of uniform playouts); a group is dead when its points end up
  scoring for the other color more than for its own. It marks exactly those
  groups, of both colors, then ``done``.
* **Answering** is an ordinary move for the search: ``accept`` ends the
  game, so its value is exact, and ``reject`` is valued by simulations; the
  search takes whichever is worth more.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.game import Game
from ...fast._rng import rand_below
from ...fast._yugo import A_COL as _A_COL
from ...fast._yugo import A_EMPL as _A_EMPL
from ...fast._yugo import BORDER as _BORDER
from ...fast._yugo import H_BUTTON as _H_BUTTON
from ...fast._yugo import H_NEMPTY as _H_NEMPTY
from ...fast._yugo import H_NP as _H_NP
from ...fast._yugo import H_PHASE as _H_PHASE
from ...fast._yugo import H_PLAYER as _H_PLAYER
from ...fast._yugo import H_SIZE as _H_SIZE
from ...fast._yugo import H_W as _H_W
from ...fast._yugo import HEADER as _HEADER
from ...fast._yugo import MARK as _MARK
from ...fast._yugo import OVER as _OVER
from ...fast._yugo import PLAY as _PLAY
from ...fast._yugo import _kind, _to_p
from ...fast._yugo import apply as kernel_apply
from ...fast.kernels import SIG_PLAYOUT

PLAY_TOKENS = {"x": 1, "X": 1, "o": 2, "O": 2}
#: uniform playouts behind a marking plan
MARK_PLAYOUTS = 512


def phase(game: Game) -> str:
    """``play``, ``mark`` or ``answer`` (from the legal actions, so no internals)."""
    n = game.n_points
    legal = game.legal_actions()
    if legal and legal[-1] == 3 * n + 2:
        return "mark"
    if legal == [3 * n + 3, 3 * n + 4]:
        return "answer"
    return "play"


def _colors(game: Game) -> list[int]:
    return [PLAY_TOKENS.get(t, 0) if t else 0 for t in game.cells()]


def groups(game: Game) -> dict[int, tuple[int, list[int]]]:
    """Group id (its smallest point) -> (color 1/2, points)."""
    col = _colors(game)
    size = game.size
    seen = [False] * len(col)
    out: dict[int, tuple[int, list[int]]] = {}
    for p, c in enumerate(col):
        if not c or seen[p]:
            continue
        pts = []
        stack = [p]
        seen[p] = True
        while stack:
            x = stack.pop()
            pts.append(x)
            r, k = divmod(x, size)
            for y in ((x - size) if r else -1, (x + size) if r < size - 1 else -1,
                      (x - 1) if k else -1, (x + 1) if k < size - 1 else -1):
                if y >= 0 and not seen[y] and col[y] == c:
                    seen[y] = True
                    stack.append(y)
        out[p] = (c, sorted(pts))
    return out


def resumed(game: Game) -> Game:
    """The position as if the proposal now being made (phase mark) or
    answered (phase answer) were rejected: play resumes with the proposer."""
    text = game.position()
    fields = text.split()
    if phase(game) == "answer":  # the answerer is to move; the proposer resumes
        colors = list(game.colors)
        fields[3] = colors[1 - colors.index(fields[3])]
    out = []
    for f in fields:
        if f.startswith("phase="):
            f = "phase=play"
        elif f.startswith("marks="):
            f = "marks=-"
        elif f.startswith("rejected="):
            f = "rejected=yes"
        elif f.startswith("passes="):
            f = "passes=0"
        out.append(f)
    return type(game).from_position(" ".join(out))


def dead_groups(game: Game, seed: int = 0, playouts: int = MARK_PLAYOUTS) -> list[int]:
    """The groups (by smallest point) that playouts from the resumed position
    say are dead: their points score for the other color on average."""
    from ...fast.ownership import ownership

    start_groups = groups(game)
    if not start_groups:
        return []
    play = resumed(game)
    if play.is_over:
        return []
    owned = ownership(play, playouts, seed)
    if owned is None:
        return []
    dead = []
    for gid, (c, pts) in start_groups.items():
        sign = 1.0 if c == 1 else -1.0
        if sign * sum(owned[p] for p in pts) < 0:
            dead.append(gid)
    return sorted(dead)


def special(game: Game, memo: dict) -> int | None:
    """The action to play while marking (the next dead group, then ``done``);
    None in play and when answering (the search decides). The dead groups
    are found once per proposal and kept in ``memo``."""
    if phase(game) != "mark":
        return None
    key = resumed(game).position()
    if memo.get("plan_key") != key:
        memo["plan_key"], memo["plan"] = key, dead_groups(game, seed=len(game))
    legal = set(game.legal_actions())
    base = 2 * game.n_points + 2
    for g in memo["plan"]:
        if base + g in legal:
            return base + g
    return 3 * game.n_points + 2  # done


# ---------------------------------------------------------------- compiled advice
# The informed playout (``POLICY_PLAYOUT``, the one search's ``policy``
# evaluator), as Go programs' playouts: random legal placements, never a
# point every neighbour of which is the mover's own piece (its own eye:
# filling it only takes a liberty from its own group), a capture (a king)
# taken when one of the few points drawn offers it, and a pass when nothing
# else is left; at the end it proposes no removal and accepts, so a
# playout is scored on the board as it stands, which eye-keeping playouts
# leave settled (dead groups were captured on the way).

@njit(cache=True)
def _own_eye(state, x, mine, col, w):
    return (state[col + x - 1] in (mine, _BORDER) and state[col + x + 1] in (mine, _BORDER)
            and state[col + x - w] in (mine, _BORDER) and state[col + x + w] in (mine, _BORDER))


@njit(cache=True)
def _pick(state, rng, mine, col, empl, w):
    """A legal placement that does not fill the mover's own eye, or (-1, 0)
    when there is none: up to eight uniform draws, taking a capture (a king)
    as soon as one is drawn, else the first legal one drawn; a scan when the
    draws found nothing."""
    e = state[_H_NEMPTY]
    found = -1
    found_kind = 0
    for _ in range(8):
        if e == 0:
            break
        x = state[empl + np.int64(rand_below(rng, e))]
        kind = _kind(state, x, mine)
        if kind == 2:
            return x, kind
        if kind and found < 0 and not _own_eye(state, x, mine, col, w):
            found = x
            found_kind = kind
    if found >= 0:
        return found, found_kind
    off = np.int64(rand_below(rng, e)) if e else 0
    for i in range(e):
        x = state[empl + (i + off) % e]
        kind = _kind(state, x, mine)
        if kind and not _own_eye(state, x, mine, col, w):
            return x, kind
    return -1, 0


@njit(SIG_PLAYOUT, cache=True)
def policy_playout(state, rng, record):
    s = state[_H_SIZE]
    n = s * s
    np_ = state[_H_NP]
    w = state[_H_W]
    col = _HEADER + _A_COL * np_
    empl = _HEADER + _A_EMPL * np_
    cap = record.shape[0]
    plies = 0
    while state[_H_PHASE] != _OVER:
        phase = state[_H_PHASE]
        if phase == _PLAY:
            x, kind = _pick(state, rng, state[_H_PLAYER] + 1, col, empl, w)
            if x >= 0:
                action = _to_p(state, x) + (n if kind == 2 else 0)
            elif state[_H_BUTTON] < 0:
                action = n + n
            else:
                action = n + n + 1
        elif phase == _MARK:
            action = 3 * n + 2            # done: no removals proposed
        else:
            action = 3 * n + 3            # accept
        kernel_apply(state, action)
        if cap > 0:
            if plies >= cap:
                raise ValueError("yugo policy playout: longer than the record array")
            record[plies] = action
        plies += 1
    return plies


POLICY_PLAYOUT = policy_playout
#: every ply of it hands the turn over (it never marks a group, the one
#: action that keeps it): GRAVE reads the movers off its record
POLICY_ALTERNATES = True

#: The one search's settings for yugo (measured: docs/ai.md): the
#: eye-keeping playouts above instead of uniform ones, and GRAVE selection
#: (all-moves-as-first statistics, as in Go programs: at equal simulations
#: it beat the same search without it 29-1).
SEARCH_SETTINGS = {"evaluator": "policy", "grave": True}
#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (yugo 9x9, one core).
LEVELS = (16, 256, 2048, 8192, 45_000)
