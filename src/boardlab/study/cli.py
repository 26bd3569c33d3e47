"""``boardlab study GAME``: the command line of a balance study (docs/cli.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys

import boardlab

from ..errors import BoardlabError
from .runner import default_jobs, run_study
from .spec import StudySpec, parse_option_args, parse_sizes
from .storage import DB_NAME, Store, StudyError
from .summary import markdown, summarise, swapped_openings, table

DEFAULT_ENGINE = "mcts:200"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="boardlab study",
        description="Self-play balance study: first-player edge, pie swaps, length, "
                    "branching and the option value that makes a game even (docs/balance.md).")
    p.add_argument("game", help=f"one of {', '.join(boardlab.GAMES)}")
    p.add_argument("--sizes", default=None, help="board sizes, e.g. 5,7,9 (default: the "
                   "game's usual size)")
    p.add_argument("--engine", default=DEFAULT_ENGINE,
                   help=f"the engine of both seats (default {DEFAULT_ENGINE}; a simulation "
                        "budget or a level replays exactly)")
    p.add_argument("--games", type=int, default=20, help="games per configuration")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUES",
                   help="an option's values: komi=0..12, komi=0..12:2, pie=yes,no "
                        "(repeatable; every combination is a configuration)")
    p.add_argument("--out", default=None, help="study folder (default results/study-GAME)")
    p.add_argument("--resume", action="store_true", help="continue the study in --out")
    p.add_argument("--jobs", type=int, default=None,
                   help=f"worker processes (default: all cores, here {default_jobs()})")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-plies", type=int, default=None,
                   help="stop a game after this many moves (it counts as not completed)")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="run the games on Ray: 'local' or a cluster address (needs ray)")
    p.add_argument("--report-only", action="store_true",
                   help="play nothing: rebuild metrics.json and report.html from --out")
    p.add_argument("--format", choices=("text", "md"), default="text",
                   help="the printed table: text, or Markdown (md) with the swapped openings")
    p.add_argument("--figures", default=None, metavar="DIR",
                   help="also write every figure as an SVG file in DIR")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def write_outputs(out: str, game: str, seed: int, figures: str | None = None) -> dict:
    """Read every game in ``out``, write ``metrics.json`` and ``report.html``."""
    store = Store(out, game, resume=True)
    try:
        rows = store.games()
    finally:
        store.close()
    if not rows:
        raise StudyError(f"{os.path.join(out, DB_NAME)} holds no game yet")
    summary = summarise(game, rows, seed=seed)
    with open(os.path.join(out, "metrics.json"), "w", encoding="utf-8") as fh:
        json.dump(summary, fh, indent=1)
    from .report import write_figures, write_report
    write_report(summary, os.path.join(out, "report.html"))
    if figures:
        for path in write_figures(summary, figures, os.path.basename(os.path.normpath(out))):
            print(f"figure: {path}", file=sys.stderr)
    return summary


def _printed(summary: dict, form: str) -> str:
    if form == "md":
        return markdown(summary) + "\n\n" + swapped_openings(summary)
    return table(summary)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        game = boardlab.game_class(args.game).name
        out = args.out or os.path.join("results", f"study-{game}")
        if args.report_only:
            summary = write_outputs(out, game, args.seed, args.figures)
            print(_printed(summary, args.format))
            return 0
        sizes = parse_sizes(args.sizes, game) if args.sizes else \
            [boardlab.game_class(game).default_size]
        spec = StudySpec(game, sizes, parse_option_args(game, args.option), args.engine,
                         args.games, args.seed, args.max_plies)
        if args.jobs is not None and args.jobs < 1:
            raise StudyError(f"--jobs {args.jobs}: at least one worker")
        stats = run_study(spec, out, jobs=args.jobs, resume=args.resume, ray=args.ray,
                          progress=not args.quiet and sys.stderr.isatty())
        summary = write_outputs(out, game, args.seed, args.figures)
    except (BoardlabError, ValueError) as exc:
        print(f"boardlab study: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        what = f"cannot write {exc.filename}: {exc.strerror}" if exc.filename else str(exc)
        print(f"boardlab study: {what}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nboardlab study: interrupted; the finished games are in {out} "
              "(--resume continues)", file=sys.stderr)
        return 130
    print(_printed(summary, args.format))
    print(stats.summary())
    print(f"results: {out}/{DB_NAME}, {out}/metrics.json, {out}/report.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
