"""The level ladder, measured: each level against the yardstick, and the ends.

For every game at its default size (records in ``bench/ladder/``, resumable):

* each level against ``uct:0.25s`` (10 games a cell by default), which
  places the levels on one outside scale;
* level 1 against ``random``: a beginner's first opponent still plays the
  game;
* level 5 against ``mcts:1s``: the top level is at least as strong as a
  second of the full search.

Matches run at equal CPU time per move (``--clock cpu``, so the shared
machine's load does not tilt them). The table (W-L, Elo with its 95%
interval, and the median CPU seconds a move of each level, read from the
engines' move comments) is printed and, with ``--docs FILE``, written into
FILE between ``<!-- ladder:begin -->`` and ``<!-- ladder:end -->``.

    python bench/ladder.py [--games 10] [--only robble,yugo] [--docs docs/ai.md]
    python bench/ladder.py --report-only --docs docs/ai.md
    make ladder
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys

from _docs import splice

import boardlab
from boardlab import records
from boardlab.ai.comments import move_seconds
from boardlab.ai.match import run_match
from boardlab.ai.stats import elo_estimate, format_elo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "bench", "ladder")
LEVELS = range(1, 6)


def matches(game: str) -> list[tuple[str, str]]:
    """The (A, B) pairs of the ladder of one game."""
    out = [(f"level{n}", "uct:0.25s") for n in LEVELS]
    return out + [("level1", "random"), ("level5", "mcts:1s")]


def path_of(folder: str, game: str, a: str, b: str) -> str:
    return os.path.join(folder, f"{game}-{a}-vs-{b}.rec.gz".replace(":", "_"))


def read(path: str) -> list[records.Record]:
    if not os.path.exists(path):
        return []
    return records.parse_all(records.read_text(path, drop_cut_off=True))


def tally(recs: list[records.Record]) -> tuple[int, int, int]:
    """A's wins, losses and draws (A: the engine the EngineA tag names)."""
    wins = sum(r.players.get(r.result) == r.tags.get("EngineA") for r in recs)
    draws = sum(r.result == "draw" for r in recs)
    return wins, len(recs) - wins - draws, draws


def cell(recs: list[records.Record]) -> str:
    if not recs:
        return "-"
    w, lo, d = tally(recs)
    e = elo_estimate(w, lo, d)
    return f"{w}-{lo}{f'-{d}' if d else ''} ({format_elo(e.elo)}, {format_elo(e.low)}..{format_elo(e.high)})"


def seconds_a_move(recs: list[records.Record], engine: str) -> tuple[float, float] | None:
    """The median and the 90th percentile of ``engine``'s seconds a move in
    these games (its comments)."""
    times = sorted(t for r in recs for t in move_seconds(r).get(engine, []))
    if not times:
        return None
    return statistics.median(times), times[int(0.9 * (len(times) - 1))]


def report(folder: str, games: list[str]) -> str:
    head = ["| game | " + " | ".join(f"level {n}" for n in LEVELS)
            + " | level 1 vs random | level 5 vs mcts:1s |",
            "|---|" + "---|" * (len(LEVELS) + 2)]
    rows = []
    times = []
    for game in games:
        size = boardlab.game_class(game).default_size
        cells = [cell(read(path_of(folder, game, a, b))) for a, b in matches(game)]
        rows.append(f"| {game} {size}x{size} | " + " | ".join(cells) + " |")
        secs = []
        for n in LEVELS:
            s = seconds_a_move(read(path_of(folder, game, f"level{n}", "uct:0.25s")), f"level{n}")
            secs.append("-" if s is None else f"{s[0]:.2f} ({s[1]:.2f})")
        times.append(f"| {game} {size}x{size} | " + " | ".join(secs) + " |")
    t_head = ["| game | " + " | ".join(f"level {n}" for n in LEVELS) + " |",
              "|---|" + "---|" * len(LEVELS)]
    return ("Each cell: the level's W-L(-D) and its Elo with the 95% interval; the level "
            "columns are against `uct:0.25s`.\n\n" + "\n".join(head + rows)
            + "\n\nCPU seconds a move of each level, median (90th percentile), from its move "
            "comments in the games above:\n\n" + "\n".join(t_head + times) + "\n")



def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--only", default=",".join(boardlab.GAMES))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--dir", default=FOLDER)
    p.add_argument("--report-only", action="store_true")
    p.add_argument("--docs", default=None)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    games = [g for g in re.split(r"[, ]+", args.only) if g]
    os.makedirs(args.dir, exist_ok=True)
    if not args.report_only:
        for game in games:
            for a, b in matches(game):
                path = path_of(args.dir, game, a, b)
                res = run_match(game, a, b, args.games, jobs=args.jobs, seed=1, out=path,
                                resume=os.path.exists(path), clock="cpu",
                                progress=not args.quiet and sys.stderr.isatty())
                e = res.elo
                print(f"{game} {a} vs {b}: {e.wins}-{e.losses}-{e.draws}", file=sys.stderr)
    # every game measured in the folder, not only those played now: a run
    # with --only must not drop the other games' rows from the docs
    measured = [g for g in boardlab.GAMES if g in games or any(
        os.path.exists(path_of(args.dir, g, a, b)) for a, b in matches(g))]
    table = report(args.dir, measured)
    print(table)
    if args.docs:
        splice(args.docs, "ladder", table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
