"""The AI's measured acceptance: every match the AI issue asks for, resumable.

    python -m boardlab.ai.acceptance [--games 200] [--steps 20,50,100,200]
        [--jobs 2] [--dir bench/acceptance] [--only REGEX] [--max-minutes M]
        [--report] [--docs docs/ai.md]

Three tables, each over the five games at their default sizes:

* ``random``: MCTS at 1 s a move (``mcts``) against ``random``; passes when
  the 95% Wilson interval of its win rate lies above 95%.
* ``4x``: ``mcts:200`` against ``mcts:50``; passes when the Elo interval lies
  above 0 and the exact sign test gives p < 0.05 (the level ladder adds
  three more 4x steps: 10, 40, 160, 640).
* ``levels``: each level against the one below it; passes likewise.

Every match keeps its games in ``DIR/<table>-<game>-<A>-vs-<B>.rec.gz`` and is
resumed from there, so the run can be stopped at any time (``--max-minutes``
stops it cleanly) and continued later, on this machine or another. ``--steps``
brings every selected match to the first count before any goes on to the next,
so a short run spreads its evidence over all matches. ``--report`` plays
nothing and prints the tables (Markdown) from the files; ``--docs FILE`` also
writes them into FILE between its ``acceptance:begin`` / ``acceptance:end``
markers (``make acceptance-report`` does this for docs/ai.md, and a test checks
that the page shows what the committed records say).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import boardlab

from .engines import make_engine
from .match import MatchResult, MatchSpec, load_finished, match_file_name, run_match
from .stats import chained_elo, elo_estimate, format_elo, wilson_interval

GAMES = tuple(boardlab.GAMES)
REQUIRED_GAMES = 200
WIN_RATE_TARGET = 0.95


@dataclass(frozen=True)
class Planned:
    table: str
    game: str
    a: str
    b: str

    @property
    def key(self) -> str:
        return f"{self.table}/{self.game}/{self.a}-vs-{self.b}"

    def path(self, directory: str) -> str:
        stem = match_file_name(self.game, self.a, self.b)[len("match-"):-len(".rec")]
        return os.path.join(directory, f"{self.table}-{stem}.rec.gz")


def plan() -> list[Planned]:
    """Every match of the acceptance, cheapest table first."""
    out = [Planned("levels", g, f"level{k + 1}", f"level{k}" if k else "random")
           for k in (0, 1, 2, 3) for g in GAMES]
    out += [Planned("4x", g, "mcts:200", "mcts:50") for g in GAMES]
    out += [Planned("random", g, "mcts", "random") for g in GAMES]
    out += [Planned("levels", g, "level5", "level4") for g in GAMES]
    return out


class _OutOfTime(Exception):
    pass


def run(matches: list[Planned], directory: str, steps: list[int], jobs: int,
        deadline: float | None, log: Callable[[str], None] = print) -> bool:
    """Bring each match to each step's game count in turn. Returns False when
    the deadline stopped it (the finished games are saved)."""
    os.makedirs(directory, exist_ok=True)

    def check_time(_result) -> None:
        if deadline is not None and time.time() >= deadline:
            raise _OutOfTime

    for count in steps:
        for m in matches:
            path = m.path(directory)
            if deadline is not None and time.time() >= deadline:
                return False
            have = load(m, directory)
            rounds = [r.index for r in have.results] if have else []
            # an interrupted run may hold rounds past ``count``: keep them
            target = max(count, max(rounds, default=-1) + 1)
            if len(rounds) >= target:
                continue
            try:
                result = run_match(m.game, m.a, m.b, target, jobs=jobs, out=path,
                                   resume=have is not None, on_result=check_time,
                                   progress=sys.stderr.isatty())
            except _OutOfTime:
                log(f"{m.key}: stopped by --max-minutes; games so far kept in {path}")
                return False
            log(f"{m.key}: {_summary(result)}")
    return True


def _summary(result: MatchResult) -> str:
    e = result.elo
    return (f"{e.games} games, A {e.wins}-{e.losses}-{e.draws}, Elo {format_elo(e.elo)} "
            f"({format_elo(e.low)} .. {format_elo(e.high)})")


def load(m: Planned, directory: str) -> MatchResult | None:
    """The match as far as its records file goes (None when it has no games)."""
    path = m.path(directory)
    if not os.path.exists(path):
        return None
    cls = boardlab.game_class(m.game)
    size = cls.default_size
    spec = MatchSpec(cls.name, size, {}, m.a, m.b, 10 ** 9, 1, dict(cls(size).options))
    done = load_finished(spec, path)
    if not done:
        return None
    results = [done[i] for i in sorted(done)]
    wins = sum(r.a_result == 1 for r in results)
    losses = sum(r.a_result == 0 for r in results)
    return MatchResult(spec.game, size, m.a, m.b, results,
                       elo_estimate(wins, losses, len(results) - wins - losses),
                       sum(r.seconds for r in results), path, resumed=len(results))


def _verdict(passed: bool, games: int) -> str:
    if games >= REQUIRED_GAMES:
        return "**yes**" if passed else "**no**"
    return f"{'so far' if passed else 'not yet'} ({games} of {REQUIRED_GAMES} games)"


def _length(result: MatchResult) -> str:
    return f"{sum(r.plies for r in result.results) / len(result.results):.1f}"


def _timed(engine: str) -> bool:
    """Whether the engine plays on a clock (its moves' wall time is then
    what its limit is about; an iteration budget has no time limit)."""
    agent = make_engine(engine)
    limit = getattr(agent, "limit", None)
    return getattr(agent, "seconds", None) is not None or getattr(limit, "seconds", None) is not None


def _longest(r: MatchResult, who: str, engine: str) -> str:
    return f"{r.longest_move(who):.3f} s" if _timed(engine) else "-"


def _win_rate_row(m: Planned, r: MatchResult) -> list[str]:
    e = r.elo
    low, high = wilson_interval(e.wins, e.games)
    return [m.game, str(e.games), f"{e.wins}-{e.losses}-{e.draws}", f"{e.wins / e.games:.1%}",
            f"{low:.1%} .. {high:.1%}", _longest(r, "A", m.a), _length(r),
            _verdict(low >= WIN_RATE_TARGET, e.games)]


def _elo_row(m: Planned, r: MatchResult) -> list[str]:
    e = r.elo
    return [m.game, m.a, m.b, str(e.games), f"{e.wins}-{e.losses}-{e.draws}", f"{e.score:.3f}",
            f"{format_elo(e.elo)} ({format_elo(e.low)} .. {format_elo(e.high)})",
            f"{e.p_sign:.2g}", f"{_longest(r, 'A', m.a)} / {_longest(r, 'B', m.b)}",
            _length(r), _verdict(e.significant and e.score > 0.5, e.games)]


#: table -> (title, column names, row builder, the first columns of a "not run" row)
_TABLES: dict[str, tuple[str, list[str], Callable, Callable[[Planned], list[str]]]] = {
    "random": ("MCTS at 1 s a move against random",
               ["game", "games", "MCTS W-L-D", "win rate", "95% interval (Wilson)",
                "longest MCTS move", "mean length", ">= 95% shown"],
               _win_rate_row, lambda m: [m.game]),
    "4x": ("4x the budget against 1x",
           ["game", "A", "B", "games", "A W-L-D", "score", "Elo A - B (95%)", "p (sign test)",
            "longest move A / B (timed engines)", "mean length", "A beats B"],
           _elo_row, lambda m: [m.game, m.a, m.b]),
}
_TABLES["levels"] = ("Each level against the level below", *_TABLES["4x"][1:])


def report(directory: str, matches: list[Planned] | None = None) -> str:
    """The acceptance tables in Markdown, from the records in ``directory``."""
    matches = matches if matches is not None else plan()
    loaded = {m.key: load(m, directory) for m in matches}  # each file parsed once
    lines: list[str] = []
    for table, (title, columns, row, first) in _TABLES.items():
        rows = [m for m in matches if m.table == table]
        if not rows:
            continue
        lines += [f"### {title}", "", "| " + " | ".join(columns) + " |",
                  "|" + "---|" * len(columns)]
        for m in rows:
            r = loaded[m.key]
            if r is None:
                cells = first(m) + ["0"] + ["-"] * (len(columns) - len(first(m)) - 2)
                cells.append("not run")
            else:
                cells = row(m, r)
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines += _ladder_table(matches, loaded)
    lines += _cost_table(matches, loaded)
    return "\n".join(lines)


def _ladder_table(matches: list[Planned], loaded: dict[str, MatchResult | None]) -> list[str]:
    """Each level's Elo above level 1, chaining the level-against-level-below
    steps (:func:`boardlab.ai.stats.chained_elo`): what a player choosing a
    level wants, from the matches already played. A cell whose chain has a
    step short of the required games says how many that step has."""
    steps = {(m.game, m.a): m for m in matches
             if m.table == "levels" and m.b != "random" and re.fullmatch(r"level\d+", m.a)}
    if not steps:
        return []
    tops = sorted({a for _, a in steps}, key=lambda a: int(a[len("level"):]))
    lines = ["### The level ladder: Elo above level 1, chained", "",
             "| game | " + " | ".join(tops) + " |", "|---|" + "---|" * len(tops)]
    for game in dict.fromkeys(g for g, _ in steps):
        cells, chain, fewest = [], [], REQUIRED_GAMES
        for top in tops:
            r = loaded[steps[game, top].key] if (game, top) in steps else None
            if r is None:
                chain = None
            if chain is None:
                cells.append("-")
                continue
            chain.append(r.elo)
            fewest = min(fewest, r.elo.games)
            elo, low, high = chained_elo(chain)
            cell = f"{format_elo(elo)} ({format_elo(low)} .. {format_elo(high)})"
            cells.append(cell if fewest >= REQUIRED_GAMES else f"{cell}, {fewest} games")
        lines.append(f"| {game} | " + " | ".join(cells) + " |")
    return lines + [""]


def _cost_table(matches: list[Planned], loaded: dict[str, MatchResult | None]) -> list[str]:
    """What is left, in core-hours: each game runs alone in its process, so
    the process's CPU time is the game's cost whatever ``--jobs`` was (games
    recorded before CPU time was kept count their wall time, an overestimate
    on a busy machine)."""
    rows: list[str] = []
    total = 0.0
    unknown = 0
    for m in matches:
        r = loaded[m.key]
        games = 0 if r is None else len(r.results)
        left = max(0, REQUIRED_GAMES - games)
        if not left:
            continue
        costs = [] if r is None else [x.cpu_seconds or x.seconds for x in r.results
                                      if x.cpu_seconds or x.seconds]
        if costs:
            mean = sum(costs) / len(costs)
            total += left * mean / 3600
            rows.append(f"| {m.key} | {games} | {mean:.1f} | {left * mean / 3600:.1f} |")
        else:
            unknown += 1
            rows.append(f"| {m.key} | {games} | ? | ? |")
    title = "### Cost of what is left"
    if not rows:
        return [title, "", f"Nothing: every match has its {REQUIRED_GAMES} games.", ""]
    return [title, "",
            f"| match | games | mean core-seconds a game | core-hours to {REQUIRED_GAMES} games |",
            "|---|---|---|---|", *rows,
            "", f"Left: {total:.1f} core-hours for the matches under way"
            + (f", plus {unknown} not started (no cost known yet)" if unknown else "") + ".", ""]


#: The markers around the generated tables in the docs (docs/ai.md "Results").
DOCS_BEGIN = "<!-- acceptance:begin -->"
DOCS_END = "<!-- acceptance:end -->"


def splice_into_docs(doc: str, tables: str, where: str = "the document") -> str:
    """``doc`` with the text between :data:`DOCS_BEGIN` and :data:`DOCS_END`
    replaced by ``tables`` (a :func:`report`), its headings one level deeper
    (the docs nest them under "Results"). ValueError, naming ``where``, when
    the markers are missing, repeated or out of order: the tables must not
    land in a random place of a hand-written page."""
    begin, end = doc.count(DOCS_BEGIN), doc.count(DOCS_END)
    if begin != 1 or end != 1:
        found = f"found {begin} and {end}"
    elif doc.index(DOCS_BEGIN) > doc.index(DOCS_END):
        found = "found the end before the begin"
    else:
        found = ""
    if found:
        raise ValueError(f"{where} needs exactly one {DOCS_BEGIN} line followed by one "
                         f"{DOCS_END} line ({found})")
    head, rest = doc.split(DOCS_BEGIN)
    _, tail = rest.split(DOCS_END)
    body = "\n".join("#" + line if line.startswith("#") else line
                     for line in tables.strip("\n").splitlines())
    return f"{head}{DOCS_BEGIN}\n{body}\n{DOCS_END}{tail}"


def update_docs(path: str, tables: str) -> bool:
    """Write ``tables`` into the docs file at ``path`` (see
    :func:`splice_into_docs`); True when the file changed."""
    with open(path, encoding="utf-8") as fh:
        doc = fh.read()
    new = splice_into_docs(doc, tables, where=path)
    if new == doc:
        return False
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(new)
    return True


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m boardlab.ai.acceptance",
                                description="Play (or resume) the AI acceptance matches.")
    p.add_argument("--games", type=int, default=REQUIRED_GAMES, help="games per match")
    p.add_argument("--steps", default="20,50,100",
                   help="comma-separated intermediate game counts (then --games)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--dir", default=os.path.join("bench", "acceptance"))
    p.add_argument("--only", default=None, metavar="REGEX",
                   help="matches whose key (table/game/A-vs-B) matches, e.g. 'levels/.*/level3'")
    p.add_argument("--max-minutes", type=float, default=None)
    p.add_argument("--report", action="store_true", help="print the tables; play nothing")
    p.add_argument("--docs", default=None, metavar="FILE",
                   help="also write the tables into FILE between its acceptance markers "
                        "(docs/ai.md)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    matches = plan()
    if args.only:
        try:
            pattern = re.compile(args.only)
        except re.error as exc:
            print(f"acceptance: --only {args.only!r} is not a regular expression: {exc}",
                  file=sys.stderr)
            return 2
        matches = [m for m in matches if pattern.search(m.key)]
        if not matches:
            print(f"acceptance: --only {args.only!r} selects no match; keys look like "
                  f"{plan()[0].key}", file=sys.stderr)
            return 2
    if args.docs and args.only:
        print("acceptance: --docs writes the whole acceptance; it cannot take --only",
              file=sys.stderr)
        return 2
    if not args.report:
        try:
            steps = sorted({int(x) for x in args.steps.split(",") if x.strip()} | {args.games})
        except ValueError:
            print(f"acceptance: --steps {args.steps!r} is not a list of numbers",
                  file=sys.stderr)
            return 2
        steps = [s for s in steps if 0 < s <= args.games]
        deadline = None if args.max_minutes is None else time.time() + 60 * args.max_minutes
        run(matches, args.dir, steps, max(1, args.jobs), deadline,
            log=lambda s: print(s, flush=True))
    tables = report(args.dir, matches)
    print(tables)
    if args.docs:
        try:
            changed = update_docs(args.docs, tables)
        except (OSError, ValueError) as exc:
            print(f"acceptance: --docs: {exc}", file=sys.stderr)
            return 2
        print(f"acceptance: {args.docs} {'updated' if changed else 'already up to date'}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
