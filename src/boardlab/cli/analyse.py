"""``boardlab analyse RECORD``: review a recorded game with the engine.

Every position is searched; every move gets a comment with the mover's win
probability before and after it and the engine's choice, and a glyph (``?!``
inaccuracy, ``?`` mistake, ``??`` blunder, by :data:`boardlab.ai.analysis.THRESHOLDS`);
``--plot`` draws the win-rate graph. The annotated record stays a valid record:
the glyph leads the move's comment (``{?? black 0.71 -> 0.38; best c3}``), and
at each mistake and blunder the engine's choice is added as a one-move
variation, as lichess does (``12. d4 {? ...} (12. c3 {black 0.71})``): a reader
replaying the record in a viewer sees the better move on the board. Only
mistakes and blunders get one: an inaccuracy's drop (0.10) is near the noise
of a default-budget search, and a variation at every small slip buries the
ones that matter.
"""

from __future__ import annotations

import os
import sys

from .. import records
from ..ai.analysis import DEFAULT_LIMIT, GameAnalysis, analyse_game
from ..ai.limit import Limit
from ..errors import OptionError
from ..records import Node, Record, RecordError

#: The judgements that get the engine's move as a variation.
BRANCH_LABELS = ("mistake", "blunder")


def engine_limit(spec: str | None) -> Limit:
    """``mcts`` (the default budget) or ``mcts:BUDGET``: the search analysis runs."""
    if spec is None:
        return DEFAULT_LIMIT
    head, _, rest = spec.strip().lower().partition(":")
    if head != "mcts":
        raise OptionError(f"--engine {spec!r}: analysis runs the MCTS search: mcts or "
                          "mcts:BUDGET (e.g. mcts:0.5s, mcts:800)")
    return Limit.parse(rest) if rest else DEFAULT_LIMIT


def annotate(rec: Record, result: GameAnalysis, label: str) -> Record:
    """The record with one comment per move (kept comments come first) and the
    engine's move as a variation at each mistake or blunder (kept variations
    come first; one already there is not repeated)."""
    comments = dict(rec.comments)
    variations = {ply: list(lines) for ply, lines in rec.variations.items()}
    for j in result.judgements:
        if j.label in BRANCH_LABELS and j.best is not None and j.best != j.move:
            lines = variations.setdefault(j.ply, [])
            if all(line.move != j.best for line in lines):
                lines.append(Node(j.best, f"{j.mover} {j.before:.2f}"))
        text = f"{j.mover} {j.before:.2f} -> {j.after:.2f}"
        if j.best is not None and j.best != j.move:
            text += f"; best {j.best}"
        if j.glyph:
            text = f"{j.glyph} {text}"
        ply = j.ply + 1
        comments[ply] = f"{comments[ply]} | {text}" if ply in comments else text
    tags = dict(rec.extra_tags)
    tags["Annotator"] = label
    players = rec.players
    resigned = timeout = None
    if rec.termination is not None and not rec.game.is_over:
        loser = next(c for c in rec.game.colors if c != rec.result)
        if rec.termination.value == "resignation":
            resigned = loser
        else:
            timeout = loser
    return Record.from_game(rec.game, players, date=rec.date, tags=tags, comments=comments,
                            resigned=resigned, timeout=timeout, variations=variations)


def plot(result: GameAnalysis, colors: tuple[str, str], path: str, title: str) -> None:
    """The win-rate graph: the first color's win probability at every ply,
    with the mistakes and blunders marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    first = colors[0]
    ys = [w.get(first, 0.5) for w in result.wins]
    fig, ax = plt.subplots(figsize=(8, 3.2), dpi=120)
    ax.fill_between(range(len(ys)), ys, 0.5, color="#4c72b0", alpha=0.25, step=None)
    ax.plot(range(len(ys)), ys, color="#1f3b6f", linewidth=1.5)
    ax.axhline(0.5, color="#888888", linewidth=0.8)
    marks = {"blunder": ("#d62728", "o"), "mistake": ("#ff7f0e", "s"),
             "inaccuracy": ("#bcbd22", "^")}
    for label, (color, marker) in marks.items():
        pts = [(j.ply + 1, ys[j.ply + 1]) for j in result.judgements
               if j.label == label and j.ply + 1 < len(ys)]
        if pts:
            xs, vs = zip(*pts, strict=True)
            ax.scatter(xs, vs, color=color, marker=marker, s=28, zorder=3, label=label)
    ax.set_xlim(0, max(1, len(ys) - 1))
    ax.set_ylim(0, 1)
    ax.set_xlabel("ply")
    ax.set_ylabel(f"P({first} wins)")
    ax.set_title(title)
    if any(j.label for j in result.judgements):
        ax.legend(loc="upper right", fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def summary(result: GameAnalysis) -> str:
    lines = ["color      inaccuracies  mistakes  blunders"]
    for color, row in result.counts().items():
        lines.append(f"{color:10} {row['inaccuracy']:12} {row['mistake']:9} {row['blunder']:9}")
    return "\n".join(lines)


def run(path: str, engine: str | None, out: str | None, plot_path: str | None,
        game_index: int | None, jobs: int | None, seed: int, quiet: bool) -> int:
    limit = engine_limit(engine)
    try:
        items = records.read(sys.stdin if path == "-" else path)
    except OSError as exc:
        print(f"boardlab analyse: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"boardlab analyse: {path}: {exc}", file=sys.stderr)
        return 1
    if not items:
        print(f"boardlab analyse: {path} holds no game", file=sys.stderr)
        return 1
    k = game_index or 1
    if not 1 <= k <= len(items):
        print(f"boardlab analyse: --game {k}: {path} holds {len(items)} game(s)", file=sys.stderr)
        return 2
    rec = items[k - 1]
    actions = rec.game.action_history
    if plot_path:
        import importlib.util
        if importlib.util.find_spec("matplotlib") is None:
            print("boardlab analyse: --plot needs matplotlib: pip install 'boardlab[plots]'",
                  file=sys.stderr)
            return 2
    bar = None
    if not quiet:
        from tqdm import tqdm
        bar = tqdm(total=len(actions) + 1, unit="position", file=sys.stderr, dynamic_ncols=True)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.n = done
            bar.refresh()

    try:
        result = analyse_game(rec.start_game(), actions, limit, seed=seed,
                              jobs=jobs or os.cpu_count() or 1, progress=progress)
    finally:
        if bar is not None:
            bar.close()
    label = f"boardlab analyse mcts:{limit}"
    print(summary(result))
    if out:
        records.write(annotate(rec, result, label), sys.stdout if out == "-" else out)
    if plot_path:
        plot(result, rec.game.colors, plot_path,
             f"{rec.name} {rec.size}x{rec.size}: {len(actions)} moves, {label}")
    return 0
