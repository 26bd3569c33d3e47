"""Publish the studies of bench/balance_studies.sh and rewrite docs/balance.md from them.

1. Each study folder ``results/balance/NAME`` (what bench/balance_studies.sh
   writes; ignored by git) is exported to the package's published studies,
   ``src/boardlab/study/published/NAME.json.gz`` (committed: one row per
   game, the command, the engine's full settings, the runs' throughput; see
   :mod:`boardlab.study.published`). ``--no-export`` skips this step (the
   published files are then the only input).
2. docs/balance.md is rewritten from the published files alone:

   * each ``<!-- study:NAME -->`` ... ``<!-- /study -->`` block: the study's
     answers, metrics table, crossings, settings and swapped openings
     (:func:`boardlab.study.summary.markdown`);
   * each ``<!-- figure:NAME:SLUG -->`` line: the study's figure whose title
     starts with SLUG (words joined by ``-``), written to
     docs/balance/NAME-SLUG.svg;
   * ``<!-- compare -->`` ... ``<!-- /compare -->``: :data:`COMPARE`, the same
     questions under two engines;
   * ``<!-- runs -->`` ... ``<!-- /runs -->``: every run's throughput.

tests/test_balance_docs.py checks the page's figures against the published
files. Run after bench/balance_studies.sh (``make balance-doc``):

    PYTHONPATH=src python bench/balance_doc.py
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from boardlab.study import published
from boardlab.study.figures import figures
from boardlab.study.summary import markdown, swapped_openings

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "balance.md"
PICS = ROOT / "docs" / "balance"
RESULTS = ROOT / "results" / "balance"

#: The comparison table: (game, size, options, metric) asked of two studies
#: that differ in their engine only. Metrics are the tables' column names.
COMPARE = [
    ("robble", 7, {"pie": False}, "first player", ("robble7", "robble7-1000")),
    ("robble", 7, {"pie": True}, "first player", ("robble7", "robble7-1000")),
    ("robble", 7, {"pie": True}, "swap rate", ("robble7", "robble7-1000")),
    ("robble", 7, {"pie": False}, "LeadChange", ("robble7", "robble7-1000")),
    ("robble", 7, {"pie": False}, "DecisivenessThreshold", ("robble7", "robble7-1000")),
    ("implo", 9, {"pie": False}, "first player", ("implo9", "implo9-1000")),
    ("implo", 9, {"pie": True}, "first player", ("implo9", "implo9-1000")),
    ("implo", 9, {"pie": True}, "swap rate", ("implo9", "implo9-1000")),
    ("pilo", 8, {"pie": False}, "first player", ("pilo8", "pilo8-1000")),
    ("pilo", 8, {"pie": True}, "first player", ("pilo8", "pilo8-1000")),
    ("pilo", 8, {"pie": True}, "swap rate", ("pilo8", "pilo8-1000")),
]
METRICS = {"first player": "FirstPlayerScore", "swap rate": "SwapRate"}


def _show(v) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def compare_value(summary: dict, size: int, options: dict, metric: str) -> str:
    """One cell of the comparison table: the metric as the study tables show it."""
    (g,) = [g for g in summary["groups"] if g["size"] == size and g["options"] == options]
    m = g["metrics"]
    if metric in METRICS:
        r = m[METRICS[metric]]
        return f"{r['value']:.2f} [{r['low']:.2f}, {r['high']:.2f}], {m['games']} games"
    if metric == "LeadChange":
        return f"{m['LeadChange']['mean']:.3f}"
    if metric == "DecisivenessThreshold":
        return f"{m['DecisivenessThreshold']['mean']:.2f}"
    raise ValueError(f"no metric {metric!r} in the comparison")


def compare_table(get) -> str:
    lines = ["| question | study (200 simulations) | study (1,000 simulations) |",
             "|---|---|---|"]
    for game, size, options, metric, names in COMPARE:
        opts = " ".join(f"{k}={_show(v)}" for k, v in options.items())
        cells = [f"{name}: {compare_value(get(name), size, options, metric)}" for name in names]
        lines.append(f"| {game} {size}x{size} {opts}: {metric} | {' | '.join(cells)} |")
    return "\n".join(lines)


def runs_table() -> str:
    lines = ["| study | engine | games played | start s | wall s | games/s | workers busy | "
             "CPU of the cores | runner overhead | bytes/game | load average |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name in published.names():
        for r in published.load(name)["runs"]:
            start = r.get("start_seconds")  # not measured before the start was timed apart
            lines.append(
                f"| {name} | {r['engine']} | {r['played']} | "
                f"{'-' if start is None else f'{start:.1f}'} | "
                f"{r['wall_seconds']:.0f} | {r['games_per_second']:.2f} | {r['occupancy']:.1%} | "
                f"{r['cpu_utilisation']:.0%} | {r['overhead']:.1%} | {r['bytes_per_game']:,.0f} | "
                f"{r['load']:.1f} |")
    return "\n".join(lines)


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def export_all() -> list[str]:
    """Every study folder under results/balance, exported; their names."""
    done = []
    if RESULTS.is_dir():
        for folder in sorted(RESULTS.iterdir()):
            if (folder / "results.sqlite").exists():
                published.write(published.export(folder, folder.name),
                                published.DIR / f"{folder.name}.json.gz")
                done.append(folder.name)
    return done


def rewrite(text: str) -> str:
    """docs/balance.md's text with every generated block made anew."""
    cache: dict[str, dict] = {}

    def get(name: str) -> dict:
        if name not in cache:
            cache[name] = published.summary(published.load(name))
        return cache[name]

    def table(m: re.Match) -> str:
        s = get(m.group(1))
        swaps = swapped_openings(s)
        return (f"<!-- study:{m.group(1)} -->\n{markdown(s)}\n"
                + (f"\n{swaps}\n" if swaps else "") + "<!-- /study -->")

    written: list[Path] = []

    def figure(m: re.Match) -> str:
        name, want = m.group(1), m.group(2)
        found = [(t, svg) for t, svg in figures(get(name)) if slug(t).startswith(want)]
        if not found:
            raise SystemExit(f"docs/balance.md: study {name} has no figure {want!r} "
                             f"(figures: {', '.join(slug(t) for t, _ in figures(get(name)))})")
        title, svg = found[0]
        PICS.mkdir(exist_ok=True)
        path = PICS / f"{name}-{want}.svg"
        path.write_text(svg, encoding="utf-8")
        written.append(path)
        return f"<!-- figure:{name}:{want} -->\n![{title}](balance/{name}-{want}.svg)"

    text = re.sub(r"<!-- runs -->.*?<!-- /runs -->",
                  lambda _m: f"<!-- runs -->\n{runs_table()}\n<!-- /runs -->", text, flags=re.S)
    text = re.sub(r"<!-- compare -->.*?<!-- /compare -->",
                  lambda _m: f"<!-- compare -->\n{compare_table(get)}\n<!-- /compare -->",
                  text, flags=re.S)
    text = re.sub(r"<!-- study:([\w.-]+) -->.*?<!-- /study -->", table, text, flags=re.S)
    text = re.sub(r"<!-- figure:([\w.-]+):([a-z0-9-]+) -->(?:\n!\[[^\]]*\]\([^)]*\))?",
                  figure, text)
    for old in PICS.glob("*"):  # figures the page no longer shows (the PNGs of old)
        if old.suffix in (".png", ".svg") and old not in written:
            old.unlink()
    return text


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-export", action="store_true",
                   help="rewrite the page from the published files only")
    args = p.parse_args(argv)
    if not args.no_export:
        for name in export_all():
            print(f"published {name}", file=sys.stderr)
    DOC.write_text(rewrite(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {DOC} and {len(list(PICS.glob('*.svg')))} figures", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
