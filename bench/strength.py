"""Search strength against the yardstick: ``mcts`` vs ``uct`` at equal time.

For every game at its default size and every budget (default 0.25 s and 1 s
a move, CPU time of each engine's own thread: ``--clock cpu``, so both get
equal computation on a shared machine), plays ``A:BUDGET`` against
``B:BUDGET`` with alternating colors and a sequential test (SPRT: H0 "A
scores 75%" = +191 Elo against H1 "A scores 90%" = +382 Elo, alpha = beta =
0.05), stopping as soon as it decides or at ``--games``. ``A`` is written
into the records with every search setting spelled out
(:func:`boardlab.ai.engines.explicit_spec`), so the table says exactly
what played, whatever the engine's defaults become later.
Records go to ``--dir`` (resumable: a killed run continues where it
stopped). Then writes ``docs/strength.md`` (the table: W-L-D, score, Elo
with its 95% interval, the test's LLR and verdict, the command) and
``docs/strength.png`` (score per game with its interval, the 90% line),
from every match whose records are in ``--dir`` (a run with ``--only``
refreshes its own rows), naming the engines as the records do.

    python bench/strength.py                      # play what is missing, then report
    python bench/strength.py --report-only        # the docs from the records alone
    make strength                                 # the same as the first line

On the project's 2-core machine a full run takes a few hours (1 s a move is
4x the 0.25 s run); ``--budgets 0.25s`` alone is under an hour.
"""

from __future__ import annotations

import argparse
import os
import sys

from _docs import splice

import boardlab
from boardlab import records
from boardlab.ai.engines import explicit_spec
from boardlab.ai.limit import Limit
from boardlab.ai.match import run_match
from boardlab.ai.stats import SPRT, format_elo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def records_path(folder: str, game: str, a: str, b: str) -> str:
    return os.path.join(folder, f"{game}-{a}-vs-{b}.rec.gz".replace(":", "_"))


def engines_of(game: str, a: str, b: str, budget: str) -> tuple[str, str]:
    """The two engine names of one match: A with its settings spelled out."""
    return explicit_spec(f"{a}:{budget}", game), f"{b}:{budget}"


def play(games: list[str], budgets: list[str], a: str, b: str, n: int, sprt: SPRT, jobs: int,
         folder: str, quiet: bool) -> None:
    """Play (or resume) each game's match at each budget into ``folder``."""
    os.makedirs(folder, exist_ok=True)
    for budget in budgets:
        for game in games:
            ea, eb = engines_of(game, a, b, budget)
            path = records_path(folder, game, f"{a}:{budget}", eb)
            res = run_match(game, ea, eb, n, jobs=jobs, seed=1, out=path, clock="cpu",
                            resume=os.path.exists(path), progress=not quiet, sprt=sprt)
            if not quiet:
                e = res.elo
                print(f"{game} {budget}: {e.wins}-{e.losses}-{e.draws} "
                      f"{res.sprt_status}", file=sys.stderr)


def report(results: list, sprt: SPRT, a: str, b: str) -> tuple[str, dict]:
    rows = ["| game | budget | games | A W-L-D | score | Elo A - B (95%) | LLR | verdict |",
            "|---|---|---|---|---|---|---|---|"]
    figure: dict = {}
    for budget, res in results:
        e = res.elo
        llr = sprt.llr(e.wins, e.losses, e.draws)
        status = res.sprt_status
        verdict = {"H1": "**above 75%** (H1: 90%)", "H0": "not above 75% (H0)",
                   "continue": "undecided at the game limit"}[status]
        rows.append(f"| {res.game} {res.size}x{res.size} | {budget} | {e.games} | "
                    f"{e.wins}-{e.losses}-{e.draws} | {e.score:.3f} | {format_elo(e.elo)} "
                    f"({format_elo(e.low)} .. {format_elo(e.high)}) | {llr:.2f} | {verdict} |")
        low, high = _score_interval(e)
        figure.setdefault(budget, []).append((res.game, e.score, low, high, e.games))
    head = (f"A = `{a}:BUDGET`, B = `{b}:BUDGET`, each game at its default size, colors "
            f"alternating, equal CPU time a move; SPRT H0 +{sprt.elo0:g} Elo (A scores "
            f"{100 / (1 + 10 ** (-sprt.elo0 / 400)):.0f}%) against H1 +{sprt.elo1:g} "
            f"({100 / (1 + 10 ** (-sprt.elo1 / 400)):.0f}%), "
            f"alpha = beta = {sprt.alpha:g} (bounds {sprt.lower:.2f} / {sprt.upper:.2f}).")
    return head + "\n\n" + "\n".join(rows) + "\n", figure


def _score_interval(e) -> tuple[float, float]:
    from boardlab.ai.stats import score_from_elo
    return score_from_elo(e.low), score_from_elo(e.high)


def plot(figure: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    budgets = list(figure)
    width = 0.8 / max(1, len(budgets))
    games = sorted({row[0] for rows in figure.values() for row in rows})
    for k, budget in enumerate(budgets):
        rows = {r[0]: r for r in figure[budget]}
        xs = [i + (k - (len(budgets) - 1) / 2) * width for i, g in enumerate(games) if g in rows]
        ys = [rows[g][1] for g in games if g in rows]
        lo = [rows[g][1] - rows[g][2] for g in games if g in rows]
        hi = [rows[g][3] - rows[g][1] for g in games if g in rows]
        ax.bar(xs, ys, width * 0.9, yerr=[lo, hi], capsize=3, label=f"{budget} a move")
    ax.axhline(0.9, color="#d62728", linewidth=1, linestyle="--", label="90% (goal)")
    ax.axhline(0.75, color="#ff7f0e", linewidth=1, linestyle=":", label="75% (bar)")
    ax.set_xticks(range(len(games)), games)
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("mcts score against uct")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("The one search against plain UCT at equal CPU time (95% intervals)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=120, help="the most games of one match")
    p.add_argument("--budgets", default="0.25s,1s")
    p.add_argument("--only", default=",".join(boardlab.GAMES), help="games, comma-separated")
    p.add_argument("--a", default="mcts")
    p.add_argument("--b", default="uct")
    p.add_argument("--sprt", default="191,382")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--dir", default=os.path.join(ROOT, "bench", "strength"))
    p.add_argument("--report-only", action="store_true",
                   help="no new games: the docs from the records already played")
    p.add_argument("--docs", default=os.path.join(ROOT, "docs"))
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    sprt = SPRT.parse(args.sprt)
    games = [g.strip() for g in args.only.split(",") if g.strip()]
    budgets = [x.strip() for x in args.budgets.split(",") if x.strip()]
    if not args.report_only:
        play(games, budgets, args.a, args.b, args.games, sprt, args.jobs, args.dir, args.quiet)
    # The report reads the records, every game and budget present (a run with
    # --only refreshes its rows, not the whole table), and names the engines
    # as the records do: an engine's spelled-out settings gain names as the
    # search grows, and a report must not rename what played.
    seen = set(budgets) | set(p.get_default("budgets").split(","))
    every = sorted(seen, key=lambda bu: Limit.parse(bu).seconds or 0.0)
    played: dict[str, str] = {}  # game: A's settings, as its first budget's records say
    results = []
    for bu in every:
        for g in boardlab.GAMES:
            path = records_path(args.dir, g, f"{args.a}:{bu}", f"{args.b}:{bu}")
            if not os.path.exists(path):
                continue
            recs = records.parse_all(records.read_text(path, drop_cut_off=True))
            ea, eb = recs[0].tags["EngineA"], recs[0].tags["EngineB"]
            played.setdefault(g, ea)
            # resume with the games already there as the limit: nothing new is
            # played. The limit is the highest round, not the count: with two
            # games at a time, the game in flight when the test decided is left
            # out while a later round may be in.
            n = max(int(r.tags.get("Round", k)) for k, r in enumerate(recs, 1))
            results.append((bu, run_match(g, ea, eb, n, seed=1, out=path, resume=True,
                                          sprt=sprt, clock="cpu")))
    table, figure = report(results, sprt, args.a, args.b)
    png = os.path.join(args.docs, "strength.png")
    plot(figure, png)
    md = os.path.join(args.docs, "strength.md")
    with open(md, "w", encoding="utf-8") as f:
        f.write("# Search strength against plain UCT\n\n"
                "Generated by `python bench/strength.py` (records: `bench/strength/`, each "
                "naming A's full settings); see [ai.md](ai.md) for the engines.\n\n" + table +
                "\nA's settings, spelled out as the records name them:\n\n" +
                "\n".join(f"- {g}: `{a}`" for g, a in played.items()) +
                "\n\n![mcts score against uct per game](strength.png)\n")
    splice(os.path.join(args.docs, "ai.md"), "strength",
           table + "\n![mcts score against uct per game](strength.png)\n")
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
