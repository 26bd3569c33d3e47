"""What the engine thinks of a position, and of every move of a game.

One value type, :class:`Analysis`, is what every front end shows: the web's
evaluation bar and candidate arrows, ``boardlab analyse``'s annotated records
and win-rate graph, the UGI engine's ``info`` lines and the JSON-lines
analysis answers. It comes from an MCTS search (``analyse``) that can report
snapshots while it runs and can be stopped from another thread, so a user
sees the first candidates at once and watches them refine.

Win probabilities: a node's mean return r in [-1, 1] (draws 0) read as
(r + 1) / 2. Per *color* for the evaluation bar; per *mover* (the person to
move) for candidates. They differ only for the pie ``swap``: who swaps takes
over the other color, so a swap candidate's win rate is that color's.

Move quality (:func:`judge`): the drop in the mover's win probability from
the best move's to the position after the move played. Thresholds
(:data:`THRESHOLDS`) are 0.10 / 0.20 / 0.30: lichess's numbers, but on the
probability scale rather than its [-1, 1] "winning chances" (which would
make them 0.05 / 0.10 / 0.15). A search at the default budget is too noisy
for a 5-point drop to mean anything (two searches of one position differ by
several points: docs/analysis.md has the measurement), so the smallest mark
must stand clear of that noise.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..core import pie
from ..core.game import Game
from ..errors import GameOverError
from .limit import Limit

#: The budget of one position when none is given.
DEFAULT_LIMIT = Limit(seconds=0.5)
#: Drops in the mover's win probability that mark an inaccuracy, a mistake, a blunder.
THRESHOLDS = ((0.30, "blunder", "??"), (0.20, "mistake", "?"), (0.10, "inaccuracy", "?!"))
#: The longest principal variation a candidate carries (moves).
PV_LENGTH = 12
#: The most tree nodes read to measure one proof's length (a bound on the
#: time a snapshot spends there; past it the length is left unknown).
_PROOF_NODES = 20_000
_PV_MIN_VISITS = 2


@dataclass(frozen=True)
class Candidate:
    """One move the search considered."""

    move: str
    action: int
    visits: int
    winrate: float                  # the mover's win probability after this move
    wins: dict[str, float]          # each color's win probability after this move
    pv: tuple[str, ...]             # principal variation, starting with ``move``
    proven: bool = False            # a move that ends the game with the mover's win
    lost: bool = False              # a move proven to lose for the mover, whatever it plays next
    plies_to_end: int | None = None  # a proven move: plies to the end, this one included, under
                                     # the proof (the winner's shortest, the loser's longest)


@dataclass(frozen=True)
class Analysis:
    """A search's view of one position (a snapshot while it runs, or final).

    ``wins`` (the evaluation bar) is the root's mean over all simulations, as
    KataGo reports a root value: it counts every move the search tried, so it
    is a little pessimistic for the mover at small budgets, but it is the same
    kind of number at every position, which is what comparing two positions
    (judging a move) needs. The best candidate's own win rate is higher: the
    maximum over noisy estimates is biased upwards."""

    position: str
    to_move: str
    visits: int
    seconds: float
    candidates: tuple[Candidate, ...]
    wins: dict[str, float]
    done: bool = True

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    @property
    def winrate(self) -> float:
        """The mover's win probability (the root value; 0.5 before any simulation)."""
        return self.wins.get(self.to_move, 0.5)

    def to_json(self) -> dict:
        return {
            "position": self.position, "to_move": self.to_move, "visits": self.visits,
            "seconds": round(self.seconds, 3), "done": self.done,
            "winrate": round(self.winrate, 4),
            "wins": {c: round(p, 4) for c, p in self.wins.items()},
            "candidates": [{"move": c.move, "visits": c.visits, "winrate": round(c.winrate, 4),
                            "pv": list(c.pv), **({"proven": True} if c.proven else {})}
                           for c in self.candidates],
        }


def snapshot(game: Game, search, started: float, top: int = 5, done: bool = True) -> Analysis:
    """The analysis a search (the tree protocol of
    :class:`boardlab.fast.search.Search`) shows now; it may still be growing."""
    mover = game.current_player
    assert mover is not None
    swap = game.swap_action
    colors = game.colors
    rows = []
    for ch in search.children():
        if ch.visits == 0:
            continue
        owned = pie.played_for(mover, ch.action, swap)
        wins = {colors[c]: (ch.returns[c] + 1.0) / 2.0 for c in (0, 1)}
        proven = ch.proven == owned and ch.action != swap
        lost = ch.proven == 1 - owned and ch.action != swap
        plies = _proof_plies(search, ch.action) if proven or lost else None
        pv = _pv_strings(game, search.principal_variation(ch.action, PV_LENGTH))
        rows.append(Candidate(game.action_to_string(ch.action), ch.action, ch.visits,
                              wins[colors[owned]], wins, pv, proven, lost, plies))
    rows.sort(key=lambda c: (c.proven, c.visits, c.winrate), reverse=True)
    if rows and rows[0].proven:
        wins = dict(rows[0].wins)
    else:
        wins = {colors[c]: (search.root_value(c) + 1.0) / 2.0 if search.root_visits else 0.5
                for c in (0, 1)}
    return Analysis(game.position(), colors[mover], search.root_visits,
                    time.perf_counter() - started, tuple(rows[:top]), wins, done)


def _proof_plies(search, action: int) -> int | None:
    """How many plies the game lasts after the root's move ``action`` (that
    move included) when the winner the solver proved takes the shortest proven
    win and the loser the longest resistance, read from the proof in the tree;
    None when no tree holds a proof of it, or reading it would take too long.
    (A root-parallel search reads the first of its trees that proved it.)"""
    for s in getattr(search, "trees", (search,)):
        start = s.child_node(s.root, action)
        if start is not None and int(s.tree.proven[start]) in (0, 1):
            found = _proof_length(s, start)
            if found is not None:
                return found
    return None


def _proof_length(search, start: int) -> int | None:
    """Plies from node ``start``'s parent to the end under the proof of ``start``."""
    from ..fast import _tree
    t, swap = search.tree, search.swap
    winner = int(t.proven[start])
    memo: dict[int, int] = {}
    budget = [_PROOF_NODES]

    def plies(node: int) -> int | None:
        if node in memo:
            return memo[node]
        budget[0] -= 1
        if budget[0] < 0:
            return None
        f, k = int(t.first[node]), int(t.tried[node])
        if f < 0 or int(t.player[node]) == _tree.TERMINAL:
            return 0
        winning = int(t.player[node]) == winner
        best: int | None = None
        for e in range(f, f + k):
            j = int(t.child[e]) - 1
            if int(t.action[e]) == swap or (winning and int(t.proven[j]) != winner):
                continue
            d = plies(j)
            if d is None:
                return None
            if best is None or (d < best if winning else d > best):
                best = d
        if best is None:
            return None
        memo[node] = 1 + best
        return memo[node]

    found = plies(start)
    return None if found is None else 1 + found


def _pv_strings(game: Game, actions: list[int]) -> tuple[str, ...]:
    """A principal variation's actions as move text, each in its own position."""
    g = game.copy()
    out = []
    for a in actions:
        out.append(g.action_to_string(a))
        g.apply_action(a)
    return tuple(out)


def _search(game: Game, seed: int | None, threads: int = 1):
    """The search analysis runs: the game's knowledge with the MCTS-solver on
    (:func:`boardlab.ai.search.analysis_settings`); ``threads`` > 1: that many
    trees searched at once, read as one
    (:class:`~boardlab.fast.search.RootParallel`)."""
    from ..fast.search import RootParallel, Search
    from .search import analysis_settings
    settings = analysis_settings(game)
    base = 0 if seed is None else seed
    trees = [Search(game, settings, seed=base + i) for i in range(threads)]
    if threads == 1:
        return trees[0]
    from concurrent.futures import ThreadPoolExecutor
    return RootParallel(trees, ThreadPoolExecutor(threads, thread_name_prefix="analyse"))


class Stoppable(Protocol):
    """What stops an analysis: ``threading.Event`` or anything with ``is_set``."""

    def is_set(self) -> bool: ...


def analyse(game: Game, limit: Limit = DEFAULT_LIMIT, *, seed: int | None = 0, top: int = 5,
            on_update: Callable[[Analysis], None] | None = None, every: float = 0.25,
            stop: Stoppable | None = None, threads: int = 1) -> Analysis:
    """Search ``game`` (not changed) within ``limit`` and return the final
    analysis. ``on_update`` gets a snapshot about every ``every`` seconds of
    search; setting ``stop`` (from another thread) ends the search at the next
    simulation, and the analysis so far is returned. ``threads`` > 1 searches
    that many trees at once (root parallelisation, seeds ``seed``, ``seed + 1``,
    ...), read as one; a simulation budget is shared out among them."""
    if game.is_over:
        raise GameOverError(None, "the game is over: nothing to analyse")
    if top < 1:
        raise ValueError("top must be at least 1")
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
        raise ValueError(f"threads must be a whole number in 1..256, got {threads!r}")
    started = time.perf_counter()
    search = _search(game, seed, threads)
    lock = threading.Lock()
    period = min(every, 0.2)  # the first snapshot after 0.2 s at most: a viewer sees moves at once
    due = [started + period]

    def report() -> None:
        # every tree of a root-parallel search calls this: one snapshot per period
        now = time.perf_counter()
        if on_update is None or now < due[0] or not lock.acquire(blocking=False):
            return
        try:
            due[0] = now + period
            on_update(snapshot(game, search, started, top, done=False))
        finally:
            lock.release()

    try:
        search.run_for(limit, should_stop=None if stop is None else stop.is_set,
                       every=report if on_update is not None else None, every_s=period)
        return snapshot(game, search, started, top)
    finally:
        pool = getattr(search, "pool", None)
        if pool is not None:
            pool.shutdown()


@dataclass(frozen=True)
class Judgement:
    """How one move of a game was judged."""

    ply: int                      # the move's index in the game (0 = first move)
    move: str
    mover: str                    # the color that made it
    before: float                 # the mover's win probability before the move
    after: float                  # ... after the move played
    best: str | None              # the engine's choice
    label: str | None = None      # inaccuracy / mistake / blunder, or None
    glyph: str = ""

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)


def judge(game: Game, analyses: Sequence[Analysis], ply: int, move: int,
          after_game: Game) -> Judgement:
    """Judge the move ``move`` played at ``game`` (the position ``analyses[ply]``
    describes), given the position after it (``after_game``) and its analysis
    ``analyses[ply + 1]`` if the game goes on."""
    mover = game.current_player
    assert mover is not None
    owned = game.colors[pie.played_for(mover, move, game.swap_action)]
    here = analyses[ply]
    before = here.winrate
    if after_game.is_over:
        out = after_game.outcome
        assert out is not None
        after = 0.5 if out.winner == "draw" else float(out.winner == owned)
    else:
        after = analyses[ply + 1].wins.get(owned, 0.5)
    label, glyph = None, ""
    drop = before - after
    for threshold, name, mark in THRESHOLDS:
        if drop >= threshold:
            label, glyph = name, mark
            break
    best = here.best.move if here.best else None
    return Judgement(ply, game.action_to_string(move), game.colors[mover], before, after, best,
                     label, glyph)


def move_accuracy(before: float, after: float) -> float:
    """How good a move was, 0..100, from the mover's win probability before
    and after it: lichess's curve (``103.17 e^(-0.0435 d) - 3.17`` of the drop
    ``d`` in percentage points, plus its 1-point allowance for noise), so
    the figure reads as lichess's does. A move that raises the win
    probability scores 100."""
    drop = (before - after) * 100.0
    if drop <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1.0))


def accuracy(judged: Sequence[tuple[str, float, float]],
             wins: Sequence[float]) -> dict[str, float]:
    """Each player's accuracy, 0..100, as lichess computes it: the mean of a
    volatility-weighted mean and the harmonic mean of their moves'
    :func:`move_accuracy`. ``judged``: (mover, before, after) per move, the
    mover's win probabilities; ``wins``: the first color's win probability
    at each position (0 .. moves), whose spread over a window of moves
    weighs the moves of a tense stretch more than those of a decided one.
    A player without a move is left out."""
    n = len(judged)
    window = min(8, max(2, n // 10))
    series = [float(w) * 100.0 for w in wins] or [50.0]
    weights = []
    for i in range(n):
        lo = max(0, min(i, len(series) - window))
        part = series[lo:lo + window] or series
        mean = sum(part) / len(part)
        spread = math.sqrt(sum((x - mean) ** 2 for x in part) / len(part))
        weights.append(min(12.0, max(0.5, spread)))
    per: dict[str, list[tuple[float, float]]] = {}
    for (mover, before, after), weight in zip(judged, weights, strict=True):
        per.setdefault(mover, []).append((move_accuracy(before, after), weight))
    out = {}
    for mover, rows in per.items():
        weighted = sum(a * w for a, w in rows) / sum(w for _, w in rows)
        harmonic = len(rows) / sum(1.0 / max(a, 1e-9) for a, _ in rows)
        out[mover] = round((weighted + harmonic) / 2.0, 1)
    return out


@dataclass
class GameAnalysis:
    """Every position of a game analysed, and every move judged."""

    analyses: list[Analysis]              # one per position not over (before each move, and the last)
    judgements: list[Judgement]
    wins: list[dict[str, float]] = field(default_factory=list)  # per position, for the graph

    def accuracy(self) -> dict[str, float]:
        """Each player's accuracy, 0..100 (:func:`accuracy`)."""
        first = next(iter(self.wins[0]), None) if self.wins else None  # the first color
        series = [w.get(first, 0.5) for w in self.wins] if first else []
        return accuracy([(j.mover, j.before, j.after) for j in self.judgements], series)

    def counts(self) -> dict[str, dict[str, int]]:
        """Inaccuracies, mistakes and blunders per color."""
        out: dict[str, dict[str, int]] = {}
        for j in self.judgements:
            row = out.setdefault(j.mover, {"inaccuracy": 0, "mistake": 0, "blunder": 0})
            if j.label:
                row[j.label] += 1
        return out


def _analyse_one(task: tuple) -> Analysis:
    position, limit, seed, top = task
    from .. import from_position
    return analyse(from_position(position), limit, seed=seed, top=top)


def analyse_game(start: Game, actions: Sequence[int], limit: Limit = DEFAULT_LIMIT, *,
                 seed: int = 0, jobs: int = 1, top: int = 5,
                 progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
    """Analyse every position of the game ``start`` + ``actions`` (``start``
    not changed): positions in parallel over ``jobs`` processes, each with its
    own seed (``seed + ply``), so a run with a simulation limit reproduces.
    ``progress(done, total)`` is called as positions finish."""
    games = [start.copy()]
    for a in actions:
        g = games[-1].copy()
        g.apply_action(a)  # IllegalMoveError names the move
        games.append(g)
    # every position with a move to choose: the last one too when the game goes on
    todo = [(g.position(), limit, seed + i, top) for i, g in enumerate(games) if not g.is_over]
    results: dict[int, Analysis] = {}
    if jobs <= 1 or len(todo) <= 1:
        for i, t in enumerate(todo):
            results[i] = _analyse_one(t)
            if progress:
                progress(len(results), len(todo))
    else:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(min(jobs, len(todo))) as pool:
            for i, res in pool.imap_unordered(_indexed, list(enumerate(todo))):
                results[i] = res
                if progress:
                    progress(len(results), len(todo))
    analyses = [results[i] for i in range(len(todo))]
    judgements = [judge(games[i], analyses, i, a, games[i + 1]) for i, a in enumerate(actions)]
    wins = [an.wins for an in analyses]
    final = games[-1]
    if final.is_over and final.outcome is not None:
        wins.append({c: 0.5 if final.outcome.winner == "draw" else float(final.outcome.winner == c)
                     for c in final.colors})
    return GameAnalysis(analyses, judgements, wins)


def _indexed(item: tuple[int, tuple]) -> tuple[int, Analysis]:
    return item[0], _analyse_one(item[1])
