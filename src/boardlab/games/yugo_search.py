"""Yugo's search advice (the plug-in contract: :mod:`boardlab.ai.advice`).

The end of game: which groups to mark as dead, and whether to accept.

docs/rules.md (Yugo): after the first double pass the color to move marks groups (``mark
c3`` per group, increasing) and plays ``done``; the other color accepts (the
marked groups are removed, the game ends) or rejects (play resumes; the next
double pass ends the game with no removals).

* **Marking** (:func:`dead_groups`): the agent searches the position *as if
  the proposal were rejected* (play resumes, the next double pass ends the
  game) with its usual MCTS and budget, and watches every simulation's final
  board: a group is dead when, in most simulations, most of its points end up
  without a piece of its color (its pieces were captured). It marks exactly
  those groups, of both colors, then ``done``.
* **Answering** (:func:`answer`): ``accept`` ends the game, so its result is
  known exactly; ``reject`` is valued by the search. The agent accepts exactly
  when accepting does not change the result it expects: when accepting wins,
  or when its search expects to lose anyway (value of rejecting <= 0).

Policy ``yugo``: uniform during play; at the end it proposes no removal
(``done``) and accepts, so a playout is scored on the board as it stands. Not
the default: it lost a match to uniform playouts (3-9 at 50 simulations a
move, docs/ai.md), whose random rejections make play go on until the board
is more settled.
"""

from __future__ import annotations

from ..ai.policies import Returns, play_out
from ..core.game import Game

#: Trying a move with step_with_undo is cheaper than on a copy of a yugo game.
SCAN_BY_COPY = False

PLAY_TOKENS = {"x": 1, "X": 1, "o": 2, "O": 2}


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


def dead_groups(game: Game, agent) -> list[int]:
    """The groups (by smallest point) the agent's search says are dead."""
    from ..ai.mcts import MCTSAgent

    start_groups = groups(game)
    if not start_groups:
        return []
    play = resumed(game)
    if play.is_over:
        return []
    lost = {g: 0 for g in start_groups}
    sims = [0]

    def observe(g: Game) -> None:
        sims[0] += 1
        col = _colors(g)
        for gid, (c, pts) in start_groups.items():
            gone = sum(col[p] != c for p in pts)
            if 2 * gone > len(pts):
                lost[gid] += 1

    probe = MCTSAgent(iterations=agent.iterations, seconds=agent.seconds,
                      seed=agent.rng.randrange(2 ** 31), c=agent.c,
                      playout=agent.playout_name, reuse=False, win_scan=False,
                      widening=agent.widening)
    seconds = None if agent.seconds is None else 0.8 * agent.seconds
    probe.search(play, play.legal_actions(), seconds, observe)
    if not sims[0]:
        return []
    return sorted(g for g, k in lost.items() if 2 * k > sims[0])


def answer(game: Game, agent) -> int:
    """``accept`` or ``reject`` (integer actions) by the rule in the module docstring."""
    n = game.n_points
    accept, reject = 3 * n + 3, 3 * n + 4
    me = game.current_player
    assert me is not None, "answering is a move of a game in progress"
    g = game.copy(history=False)
    g.apply_action(accept)
    accept_wins = g.returns()[me] > 0
    if accept_wins:
        return accept
    root = agent.search(game, [reject], None if agent.seconds is None else 0.9 * agent.seconds)
    child = root.children.get(reject)
    expected = child.value(me) if child is not None and child.n else 0.0
    return reject if expected > 0 else accept


def special(game: Game, agent, memo: dict) -> int | None:
    """The action the agent plays while marking or answering (no tree search
    of its own: :func:`dead_groups` and :func:`answer`); None in play. The
    dead groups are found once per proposal and kept in ``memo``."""
    now = phase(game)
    if now == "answer":
        return answer(game, agent)
    if now != "mark":
        return None
    key = resumed(game).position()
    if memo.get("plan_key") != key:
        memo["plan_key"], memo["plan"] = key, dead_groups(game, agent)
    legal = set(game.legal_actions())
    base = 2 * game.n_points + 2
    for g in memo["plan"]:
        if base + g in legal:
            return base + g
    return 3 * game.n_points + 2  # done


def yugo_playout(game, rng, deadline, clock, max_plies) -> Returns | None:
    n = game.n_points
    done = 3 * n + 2
    accept = 3 * n + 3
    rand = rng.random

    def choose(legal: list[int]) -> int:
        last = legal[-1]
        if last == done:          # marking phase: propose no removal
            return done
        if last == accept + 1:    # [accept, reject]
            return accept
        return legal[int(rand() * len(legal))]

    return play_out(game, choose, deadline, clock, max_plies)


PLAYOUTS = {"yugo": yugo_playout}
