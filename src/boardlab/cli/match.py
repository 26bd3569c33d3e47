"""``boardlab match GAME --a ENGINE --b ENGINE --games N [--jobs J]``: engine vs engine.

The command around :func:`boardlab.ai.match.run_match` (docs/ai.md, "Match
runner"): its options, where the records go, and the report it prints: wins /
losses / draws of A, its score, the Elo difference A - B with a 95% interval,
and how each engine fared with each color. ``--resume`` plays only the games
the records file does not hold yet; ``--clock cpu`` gives timed engines equal
CPU time (the records then carry a ``Clock`` tag).
"""

from __future__ import annotations

import argparse
import os
import re
import sys

import boardlab

from ..ai.match import MatchResult, run_match
from ..ai.selfplay import CLOCKS
from ..ai.stats import SPRT, format_elo
from .args import option_pair


def report(match: MatchResult) -> str:
    """What ``boardlab match`` prints at the end: A's score and Elo, by color,
    swaps, lengths and times, the test's verdict, the records file."""
    e = match.elo
    n = e.games
    lines = [
        f"{match.game} {match.size}x{match.size}: A = {match.a}, B = {match.b}, {n} games"
        + (f" ({match.resumed} from the records file)" if match.resumed else ""),
        f"A: {e.wins} wins, {e.losses} losses, {e.draws} draws; "
        f"score {e.score:.3f} ({e.wins + 0.5 * e.draws:g}/{n})",
        f"Elo A - B: {format_elo(e.elo)} (95% interval {format_elo(e.low)} .. "
        f"{format_elo(e.high)}; normal approximation on the mean score, "
        f"p = {e.p_value:.3g}; exact sign test p = {e.p_sign:.3g})",
    ]
    if e.stderr == 0:
        lines.append("(every game had the same result: the normal approximation has no "
                     "spread, so the interval is a single point)")
    for color, (won, lost, drawn) in sorted(match.by_color().items()):
        lines.append(f"A starting as {color}: {won}-{lost}-{drawn} (W-L-D)")
    swaps = sum(r.swapped for r in match.results)
    if swaps:
        lines.append(f"games with a swap: {swaps}")
    plies = sum(r.plies for r in match.results) / len(match.results)
    lines.append(f"mean length {plies:.1f} moves; longest move A "
                 f"{match.longest_move('A'):.3f} s, B {match.longest_move('B'):.3f} s; "
                 f"wall {match.seconds:.1f} s")
    if match.sprt is not None:
        verdict = {"H1": f"H1 accepted: A is at least {match.sprt.elo1:g} Elo stronger",
                   "H0": f"H0 accepted: A is at most {match.sprt.elo0:g} Elo stronger",
                   "continue": "undecided at the game limit"}[match.sprt_status or "continue"]
        lines.append(f"{match.sprt}: LLR {match.sprt.llr(e.wins, e.losses, e.draws):+.2f} "
                     f"(bounds {match.sprt.lower:.2f}, {match.sprt.upper:.2f}): {verdict}")
    if match.records_path:
        lines.append(f"records: {match.records_path}")
    return "\n".join(lines)


#: Where a match's records go without --out: a folder .gitignore leaves out, so a
#: match run in a checkout does not litter it with untracked files.
RESULTS_DIR = "results"


def _sprt(text: str) -> SPRT:
    try:
        return SPRT.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def match_file_name(game: str, a: str, b: str) -> str:
    """``match-GAME-A-vs-B.rec``, the names cleaned to letters, digits and dots."""
    def clean(x: str) -> str:
        return re.sub(r"[^A-Za-z0-9.]+", "-", x).strip("-")
    return f"match-{clean(game)}-{clean(a)}-vs-{clean(b)}.rec"


def default_out(game: str, a: str, b: str) -> str:
    return os.path.join(RESULTS_DIR, match_file_name(game, a, b))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="boardlab match",
                                description="Play engine A against engine B.")
    p.add_argument("game", help=f"one of {', '.join(boardlab.GAMES)}")
    p.add_argument("--a", required=True, metavar="ENGINE",
                   help="random, uct, mcts, level1..level5, or a budget: mcts:500, uct:0.25s")
    p.add_argument("--b", required=True, metavar="ENGINE")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--size", type=int, default=None)
    p.add_argument("--option", action="append", type=option_pair, default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. pie=no or komi=6 (repeatable)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None,
                   help="records file (default results/match-GAME-A-vs-B.rec, the folder "
                        "made if needed; '-' for none; gzip when it ends in .gz)")
    p.add_argument("--resume", action="store_true",
                   help="keep the games already in the records file and play the rest")
    p.add_argument("--overwrite", action="store_true",
                   help="replace a records file that already holds games")
    p.add_argument("--sprt", type=_sprt, default=None, metavar="ELO0,ELO1[,ALPHA,BETA]",
                   help="stop as soon as a sequential test decides between A being ELO0 and "
                        "ELO1 Elo stronger (alpha = beta = 0.05 by default); --games is then "
                        "the most games played")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                   help="what a timed engine's seconds are: wall clock (default) or the CPU "
                        "time of its thread (equal computation on a shared machine)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.games < 1:
        print("boardlab match: --games must be at least 1", file=sys.stderr)
        return 2
    out = args.out or default_out(args.game, args.a, args.b)
    if out == "-":
        out = None
    if args.out is None and out:
        os.makedirs(os.path.dirname(out), exist_ok=True)
    if out and not (args.resume or args.overwrite) and os.path.isfile(out) \
            and os.path.getsize(out) > 0:
        print(f"boardlab match: {out} already holds games: --resume continues that match, "
              "--overwrite replaces it, or name another --out", file=sys.stderr)
        return 2
    try:
        match = run_match(args.game, args.a, args.b, args.games, jobs=max(1, args.jobs),
                          size=args.size, options=dict(args.option), seed=args.seed,
                          out=out, resume=args.resume, sprt=args.sprt, clock=args.clock,
                          progress=not args.quiet and sys.stderr.isatty())
    except (ValueError, boardlab.BoardlabError) as exc:
        print(f"boardlab match: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the records file: a missing folder, no permission, a full disk
        what = f"cannot write {exc.filename}: {exc.strerror}" if exc.filename else str(exc)
        print(f"boardlab match: {what}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        saved = f"; the finished games are in {out} (--resume continues)" if out else ""
        print(f"\nboardlab match: interrupted{saved}", file=sys.stderr)
        return 130
    print(report(match))
    return 0


if __name__ == "__main__":
    sys.exit(main())
