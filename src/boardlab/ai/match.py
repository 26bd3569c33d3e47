"""``boardlab match GAME --a ENGINE --b ENGINE --games N [--jobs J]``: engine vs engine.

Game ``i`` (from 0) starts with engine A on the first color when ``i`` is even
and on the second color when it is odd; a pie ``swap`` exchanges the colors
the two engines hold (the agents decide swaps themselves). Each game has its own
seeds (derived from ``--seed`` and ``i``), so a match with iteration budgets
replays exactly, whatever ``--jobs``. Games run in ``--jobs`` worker processes.

Printed: wins / losses / draws of A, its score, the Elo difference A - B with a
95% interval, and how each engine fared with each color. The interval is the
normal approximation on the mean game score (win 1, draw 1/2, loss 0): score
``s`` +- 1.96 * (standard deviation of the game scores) / sqrt(N), each end
turned into Elo by ``-400 * log10(1/s - 1)``. Every game is saved as a record
(``--out``; boardlab's record format, one record after another).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import boardlab

from .engines import make_engine

Z95 = 1.959963984540054


# ---------------------------------------------------------------- statistics
def elo_from_score(score: float) -> float:
    """Elo difference for an expected score in [0, 1] (+-inf at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass
class EloEstimate:
    wins: int
    losses: int
    draws: int
    score: float          # mean game score of A (win 1, draw 1/2)
    elo: float            # Elo difference A - B
    low: float            # 95% interval, Elo
    high: float
    stderr: float         # standard error of the mean score
    p_value: float        # two-sided, H0: score = 1/2 (normal approximation)

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def significant(self) -> bool:
        """True when the 95% interval excludes 0 (a difference at the 5% level)."""
        return self.low > 0 or self.high < 0


def elo_estimate(wins: int, losses: int, draws: int) -> EloEstimate:
    """Elo difference with a 95% interval from W/L/D (normal approximation on
    the mean game score, sample standard deviation of the per-game scores)."""
    n = wins + losses + draws
    if n <= 0:
        raise ValueError("no games")
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    se = math.sqrt(var / n)
    low = max(0.0, s - Z95 * se)
    high = min(1.0, s + Z95 * se)
    if se > 0:
        p = math.erfc(abs(s - 0.5) / se / math.sqrt(2))
    else:
        p = 1.0 if s == 0.5 else 0.0
    return EloEstimate(wins, losses, draws, s, elo_from_score(s), elo_from_score(low),
                       elo_from_score(high), se, p)


def format_elo(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


# ---------------------------------------------------------------- one game
@dataclass
class GameResult:
    index: int
    a_color: str                 # the color A started with
    swapped: bool
    actions: list[int]
    winner: str                  # a color, or "draw"
    a_result: float              # 1, 0.5, 0
    termination: str
    plies: int
    seconds: float
    max_move_seconds: dict[str, float] = field(default_factory=dict)  # "A"/"B" -> max


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    base = (seed * 1_000_003 + index * 7_919) % (2 ** 31)
    return base, base + 1


def play_game(task: tuple) -> GameResult:
    """Play game ``index`` of a match. ``task`` = (game, size, options, a, b, index, seed)."""
    name, size, options, a_spec, b_spec, index, seed = task
    game = boardlab.new_game(name, size, **options)
    seed_a, seed_b = game_seeds(seed, index)
    agents = {"A": make_engine(a_spec, seed_a), "B": make_engine(b_spec, seed_b)}
    first, second = game.colors
    seat = {first: "A", second: "B"} if index % 2 == 0 else {first: "B", second: "A"}
    a_color = first if seat[first] == "A" else second
    swap = _swap_action(game)
    swapped = False
    longest = {"A": 0.0, "B": 0.0}
    start = time.perf_counter()
    while not game.is_over:
        who = seat[game.to_move]
        t0 = time.perf_counter()
        action = agents[who].choose_action(game)
        dt = time.perf_counter() - t0
        longest[who] = max(longest[who], dt)
        game.apply_action(action)  # checked: an illegal move raises here
        if action == swap:
            seat = {first: seat[second], second: seat[first]}
            swapped = True
    out = game.outcome
    if out.winner == "draw":
        a_result = 0.5
    else:
        a_result = 1.0 if seat[out.winner] == "A" else 0.0
    return GameResult(index, a_color, swapped, game.action_history, out.winner, a_result,
                      out.termination.value, len(game), time.perf_counter() - start, longest)


def _swap_action(game) -> int | None:
    try:
        return game.string_to_action("swap")
    except Exception:
        return None


# ---------------------------------------------------------------- records
def build_game(name: str, size: int, options: dict, actions: Iterable[int]):
    game = boardlab.new_game(name, size, **options)
    for a in actions:
        game.apply_action(a)
    return game


def players_after(result: GameResult, a_name: str, b_name: str, colors) -> dict[str, str]:
    """Who holds each color at the end (after any swap), for the record."""
    first, second = colors
    a = result.a_color
    if result.swapped:
        a = second if a == first else first
    b = second if a == first else first
    return {a: a_name, b: b_name}


def write_records(path: str, name: str, size: int, options: dict,
                  results: list[GameResult], a_name: str, b_name: str) -> str:
    """Save every game; returns the format used (``records`` or ``jsonl``)."""
    try:
        from ..records import Record, format_all  # type: ignore[attr-defined]
    except ImportError:
        try:
            from ..records.model import Record
            from ..records.text import format_all
        except ImportError:
            Record = None  # type: ignore[assignment]
    if Record is not None:
        records = []
        for r in results:
            game = build_game(name, size, options, r.actions)
            players = players_after(r, a_name, b_name, game.colors)
            records.append(Record.from_game(
                game, players, tags={"Event": f"match {a_name} vs {b_name}",
                                     "Round": str(r.index + 1)}))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(format_all(records))
        return "records"
    import json  # fallback: one JSON object per line
    with open(path, "w", encoding="utf-8") as fh:
        for r in results:
            game = build_game(name, size, options, r.actions)
            fh.write(json.dumps({
                "game": name, "size": size, "options": options, "moves": game.history,
                "result": r.winner, "termination": r.termination,
                "players": players_after(r, a_name, b_name, game.colors),
                "round": r.index + 1}) + "\n")
    return "jsonl"


# ---------------------------------------------------------------- the match
@dataclass
class MatchResult:
    game: str
    size: int
    a: str
    b: str
    results: list[GameResult]
    elo: EloEstimate
    seconds: float
    records_path: str | None = None
    records_format: str | None = None

    def by_color(self) -> dict[str, tuple[int, int, int]]:
        """A's W/L/D by the color it started with."""
        out: dict[str, list[int]] = {}
        for r in self.results:
            row = out.setdefault(r.a_color, [0, 0, 0])
            row[0 if r.a_result == 1 else 1 if r.a_result == 0 else 2] += 1
        return {k: tuple(v) for k, v in out.items()}  # type: ignore[misc]

    def report(self) -> str:
        e = self.elo
        n = e.games
        lines = [
            f"{self.game} {self.size}x{self.size}: A = {self.a}, B = {self.b}, {n} games",
            f"A: {e.wins} wins, {e.losses} losses, {e.draws} draws; "
            f"score {e.score:.3f} ({e.wins + 0.5 * e.draws:g}/{n})",
            f"Elo A - B: {format_elo(e.elo)} (95% interval {format_elo(e.low)} .. "
            f"{format_elo(e.high)}; normal approximation on the mean score, "
            f"p = {e.p_value:.3g})",
        ]
        if e.stderr == 0:
            lines.append("(every game had the same result: the normal approximation has no "
                         "spread, so the interval is a single point)")
        for color, (won, lost, drawn) in sorted(self.by_color().items()):
            lines.append(f"A starting as {color}: {won}-{lost}-{drawn} (W-L-D)")
        swaps = sum(r.swapped for r in self.results)
        if swaps:
            lines.append(f"games with a swap: {swaps}")
        longest = {k: max(r.max_move_seconds.get(k, 0.0) for r in self.results) for k in "AB"}
        plies = sum(r.plies for r in self.results) / len(self.results)
        lines.append(f"mean length {plies:.1f} moves; longest move A {longest['A']:.3f} s, "
                     f"B {longest['B']:.3f} s; wall {self.seconds:.1f} s")
        if self.records_path:
            lines.append(f"records ({self.records_format}): {self.records_path}")
        return "\n".join(lines)


def run_match(game: str, a: str, b: str, games: int, *, jobs: int = 1, size: int | None = None,
              options: dict[str, Any] | None = None, seed: int = 1, out: str | None = None,
              progress: bool = False) -> MatchResult:
    cls = boardlab.game_class(game)
    name = cls.name
    size = size or cls.default_size
    options = dict(options or {})
    cls(size, **options)  # check the options now
    make_engine(a)
    make_engine(b)  # unknown engines fail before any game
    tasks = [(name, size, options, a, b, i, seed) for i in range(games)]
    start = time.perf_counter()
    results: list[GameResult] = []
    if jobs <= 1:
        for t in tasks:
            results.append(play_game(t))
            if progress:
                _progress(results, games)
    else:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for r in pool.imap_unordered(play_game, tasks):
                results.append(r)
                if progress:
                    _progress(results, games)
    results.sort(key=lambda r: r.index)
    wins = sum(r.a_result == 1 for r in results)
    losses = sum(r.a_result == 0 for r in results)
    draws = len(results) - wins - losses
    match = MatchResult(name, size, a, b, results, elo_estimate(wins, losses, draws),
                        time.perf_counter() - start)
    if out:
        match.records_format = write_records(out, name, size, options, results, a, b)
        match.records_path = out
    return match


def _progress(results: list[GameResult], total: int) -> None:
    s = sum(r.a_result for r in results)
    print(f"\r{len(results)}/{total} games, A score {s:g}", end="", file=sys.stderr, flush=True)
    if len(results) == total:
        print(file=sys.stderr)


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"option {text!r} is not key=value")
    if value in ("yes", "no"):
        return key, value == "yes"
    try:
        return key, int(value)
    except ValueError:
        return key, value


def default_out(game: str, a: str, b: str) -> str:
    def clean(x: str) -> str:
        return re.sub(r"[^A-Za-z0-9.]+", "-", x).strip("-")
    return f"match-{clean(game)}-{clean(a)}-vs-{clean(b)}.rec"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="boardlab match",
                                description="Play engine A against engine B.")
    p.add_argument("game", help=f"one of {', '.join(boardlab.GAMES)}")
    p.add_argument("--a", required=True, metavar="ENGINE",
                   help="random, mcts, mcts:ITERATIONS, mcts:SECONDSs, level1..level5")
    p.add_argument("--b", required=True, metavar="ENGINE")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--size", type=int, default=None)
    p.add_argument("--option", action="append", type=_option, default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. pie=no or komi=6 (repeatable)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None,
                   help="records file (default match-GAME-A-vs-B.rec; '-' for none)")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.games < 1:
        print("boardlab match: --games must be at least 1", file=sys.stderr)
        return 2
    out = args.out or default_out(args.game, args.a, args.b)
    if out == "-":
        out = None
    try:
        match = run_match(args.game, args.a, args.b, args.games, jobs=max(1, args.jobs),
                          size=args.size, options=dict(args.option), seed=args.seed,
                          out=out, progress=not args.quiet and sys.stderr.isatty())
    except (ValueError, boardlab.BoardlabError) as exc:
        print(f"boardlab match: {exc}", file=sys.stderr)
        return 2
    print(match.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
