"""One self-contained HTML report of a study: figures as base64 PNGs, each
with the JSON of the numbers it draws, and the metrics table.

Figures (matplotlib, the ``plots`` extra): the first color's score against a
numeric option with the fitted logistic curve and its 50% crossing (Yugo's
fair komi); the distribution of game lengths; the first player's score,
length and branching by board size; a board heat map of first moves (the
first player's score, and the swap rate where a pie rule exists). Nothing is
loaded from outside the file, so it can be mailed or archived as it is.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _opts(options: dict[str, Any]) -> str:
    return " ".join(f"{k}={('yes' if v else 'no') if isinstance(v, bool) else v}"
                    for k, v in options.items()) or "default options"


def crossing_figure(c: dict[str, Any], colors: list[str]) -> tuple[str, dict]:
    margin = c.get("margin")
    fig, axes = plt.subplots(1, 2 if margin else 1, figsize=(11 if margin else 6, 3.6),
                             squeeze=False)
    ax = axes[0][0]
    xs, rates, ns = c["values"], c["rates"], c["games"]
    from .metrics import wilson
    lows, highs = zip(*(wilson(r * n, n) for r, n in zip(rates, ns, strict=True)), strict=True)
    ax.errorbar(xs, rates, yerr=[[r - lo for r, lo in zip(rates, lows, strict=True)],
                                 [hi - r for r, hi in zip(rates, highs, strict=True)]],
                fmt="o", color="#1f3b6f", capsize=3, label="observed (95% Wilson)")
    lo_x, hi_x = min(xs), max(xs)
    grid = [lo_x + (hi_x - lo_x) * k / 100 for k in range(101)]
    ax.plot(grid, [1 / (1 + math.exp(-(c["a"] + c["b"] * x))) for x in grid],
            color="#4c72b0", label="logistic fit")
    ax.axhline(0.5, color="#888", linewidth=0.8)
    inside = c.get("crossing") is not None and lo_x <= c["crossing"] <= hi_x
    if c.get("crossing") is not None and not inside:
        ax.text(0.02, 0.04, f"50% outside the values played (fit: {c['crossing']:.1f})",
                transform=ax.transAxes, fontsize=7, color="#d62728")
    if inside:
        ax.axvline(c["crossing"], color="#d62728", linewidth=1,
                   label=f"50% at {c['crossing']:.2f}")
        if c.get("low") is not None:
            ax.axvspan(max(c["low"], lo_x - 1), min(c["high"], hi_x + 1), color="#d62728",
                       alpha=0.12, label=f"95% [{c['low']:.2f}, {c['high']:.2f}]")
    ax.set_ylim(0, 1)
    ax.set_xlabel(c["option"])
    ax.set_ylabel(f"{colors[0]}'s score")
    ax.set_title(f"{c['engine']} {c['size']}x{c['size']} {_opts(c['fixed'])}".strip())
    ax.legend(fontsize=7, frameon=False)
    if margin:
        mx = axes[0][1]
        mx.plot(xs, margin["means"], "o", color="#1f3b6f", label="mean margin")
        mx.plot([lo_x, hi_x], [margin["intercept"] + margin["slope"] * x for x in (lo_x, hi_x)],
                color="#4c72b0", label="straight-line fit")
        mx.axhline(0, color="#888", linewidth=0.8)
        label = (f"0 at {margin['crossing']:.2f} [{margin['low']:.2f}, "
                 f"{margin['high']:.2f}]")
        if lo_x <= margin["crossing"] <= hi_x:
            mx.axvline(margin["crossing"], color="#d62728", linewidth=1, label=label)
        else:
            mx.text(0.02, 0.04, f"{label}: outside the values played",
                    transform=mx.transAxes, fontsize=7, color="#d62728")
        mx.set_xlabel(c["option"])
        mx.set_ylabel(f"{colors[0]} minus {colors[1]} (points)")
        mx.set_title("final score margin", fontsize=9)
        mx.legend(fontsize=7, frameon=False)
    data = {k: c[k] for k in ("engine", "size", "option", "fixed", "values", "rates", "games",
                              "a", "b", "crossing", "low", "high", "interpolated", "margin")}
    return _png(fig), data


def lengths_figure(groups: list[dict[str, Any]]) -> tuple[str, dict]:
    fig, ax = plt.subplots(figsize=(6, 3.6))
    data = {}
    for g in groups[:12]:
        h = g["metrics"]["DurationPlies"]["histogram"]
        label = f"{g['engine']} {g['size']} {_opts(g['options'])}"
        ax.stairs(h["counts"], h["edges"], label=label)
        data[label] = h
    ax.set_xlabel("plies")
    ax.set_ylabel("games")
    ax.set_title("game length")
    ax.legend(fontsize=6, frameon=False)
    return _png(fig), data


def by_size_figure(groups: list[dict[str, Any]]) -> tuple[str, dict] | None:
    lines: dict[str, list[tuple[int, dict]]] = {}
    for g in groups:
        lines.setdefault(f"{g['engine']} {_opts(g['options'])}", []).append(
            (g["size"], g["metrics"]))
    if not any(len(v) > 1 for v in lines.values()):
        return None
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.2))
    data: dict[str, Any] = {}
    for label, pts in lines.items():
        pts.sort(key=lambda t: t[0])
        sizes = [s for s, _ in pts]
        fp = [m.get("FirstPlayerScore") for _, m in pts]
        ok = [(s, r) for s, r in zip(sizes, fp, strict=True) if r]
        if ok:
            axes[0].errorbar([s for s, _ in ok], [r["value"] for _, r in ok],
                             yerr=[[r["value"] - r["low"] for _, r in ok],
                                   [r["high"] - r["value"] for _, r in ok]],
                             marker="o", capsize=3, label=label)
        axes[1].plot(sizes, [m["DurationPlies"]["mean"] for _, m in pts], marker="o")
        axes[2].plot(sizes, [m.get("BranchingFactor", {}).get("mean", 0) for _, m in pts],
                     marker="o")
        data[label] = {"sizes": sizes, "first_player": fp,
                       "plies": [m["DurationPlies"]["mean"] for _, m in pts],
                       "branching": [m.get("BranchingFactor", {}).get("mean") for _, m in pts]}
    axes[0].axhline(0.5, color="#888", linewidth=0.8)
    axes[0].set_ylim(0, 1)
    for ax, title in zip(axes, ("first player's score", "mean plies", "mean branching"),
                         strict=True):
        ax.set_xlabel("board size")
        ax.set_title(title, fontsize=9)
    axes[0].legend(fontsize=6, frameon=False)
    return _png(fig), data


def heat_figure(g: dict[str, Any]) -> tuple[str, dict] | None:
    moves = g["metrics"]["FirstMoves"]
    size = g["size"]
    swap = "SwapRate" in g["metrics"]
    panels = [("first_player_score", "first player's score")] + \
        ([("swap_rate", "swap rate")] if swap else [])
    cells: dict[str, list[list[float | None]]] = {}
    counts = [[0] * size for _ in range(size)]
    for key, _ in panels:
        cells[key] = [[None] * size for _ in range(size)]
    for row in moves.values():
        for p in row["points"][:1]:
            r, c = divmod(p, size)
            counts[r][c] += row["games"]
            for key, _ in panels:
                cells[key][r][c] = row[key]
    if not any(any(x) for x in counts):
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4), squeeze=False)
    for ax, (key, title) in zip(axes[0], panels, strict=True):
        grid = [[math.nan if v is None else v for v in row] for row in cells[key]]
        im = ax.imshow(grid, origin="lower", vmin=0, vmax=1, cmap="coolwarm")
        for r in range(size):
            for c in range(size):
                if counts[r][c]:
                    ax.text(c, r, str(counts[r][c]), ha="center", va="center", fontsize=6)
        ax.set_xticks(range(size), [chr(ord("a") + i) for i in range(size)], fontsize=6)
        ax.set_yticks(range(size), [str(i + 1) for i in range(size)], fontsize=6)
        ax.set_title(f"{title} by first move (numbers: games)", fontsize=8)
        fig.colorbar(im, ax=ax, shrink=0.8)
    fig.suptitle(f"{g['engine']} {size}x{size} {_opts(g['options'])}", fontsize=9)
    return _png(fig), {"size": size, "counts": counts, **cells}


def _rate(r: dict | None) -> str:
    return "-" if not r else f"{r['value']:.3f} [{r['low']:.3f}, {r['high']:.3f}]"


def metrics_table(summary: dict[str, Any]) -> str:
    heads = ["engine", "size", "options", "games", "first player", "first color", "Balance",
             "Drawishness", "Completion", "swap rate", "plies mean/median", "turns mean",
             "branching mean/max", "LeadChange", "DecisivenessThreshold"]
    rows = []
    for g in summary["groups"]:
        m = g["metrics"]
        bf = m.get("BranchingFactor")
        cells = [g["engine"], g["size"], _opts(g["options"]), m["games"],
                 _rate(m.get("FirstPlayerScore")), _rate(m.get("FirstColorScore")),
                 _rate(m.get("Balance")), _rate(m.get("Drawishness")), _rate(m["Completion"]),
                 _rate(m.get("SwapRate")),
                 f"{m['DurationPlies']['mean']:.1f} / {m['DurationPlies']['median']:g}",
                 f"{m['DurationTurns']['mean']:.1f}",
                 f"{bf['mean']:.1f} / {bf['max']}" if bf else "-",
                 f"{m['LeadChange']['mean']:.3f}" if "LeadChange" in m else "-",
                 f"{m['DecisivenessThreshold']['mean']:.3f}" if "DecisivenessThreshold" in m
                 else "-"]
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    head = "<tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr>"
    return f"<table>{head}{''.join(rows)}</table>"


def figures(summary: dict[str, Any]) -> list[tuple[str, str, dict]]:
    """(title, base64 PNG, data) of every figure of the report."""
    out = []
    colors = summary["colors"]
    for c in summary["crossings"]:
        png, data = crossing_figure(c, colors)
        out.append((f"{colors[0]}'s score against {c['option']}, {c['size']}x{c['size']}",
                    png, data))
    png, data = lengths_figure(summary["groups"])
    out.append(("game lengths", png, data))
    made = by_size_figure(summary["groups"])
    if made:
        out.append(("metrics by board size", *made))
    for g in summary["groups"]:
        made = heat_figure(g)
        if made:
            out.append((f"first moves, {g['engine']} {g['size']}x{g['size']} "
                        f"{_opts(g['options'])}", *made))
    return out


STYLE = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
         "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;"
         "padding:3px 6px}th{background:#eee}img{max-width:100%}pre{font-size:11px;"
         "max-height:300px;overflow:auto;background:#f7f7f7}")


def render(summary: dict[str, Any]) -> str:
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>boardlab study: "
             f"{html.escape(summary['game'])}</title><style>{STYLE}</style></head><body>",
             f"<h1>Balance study: {html.escape(summary['game'])}</h1>",
             f"<p>{summary['games']} games. Rates with 95% Wilson intervals; crossings with "
             "95% bootstrap intervals. The first player is the seat that moved first "
             "(after a pie swap it holds the second color).</p>",
             "<h2>Metrics</h2>", metrics_table(summary)]
    for title, png, data in figures(summary):
        parts.append(f"<h2>{html.escape(title)}</h2><img alt='{html.escape(title)}' "
                     f"src='data:image/png;base64,{png}'>")
        parts.append("<details><summary>data (JSON)</summary><pre>"
                     f"{html.escape(json.dumps(data, indent=1))}</pre></details>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_pngs(summary: dict[str, Any], directory: str, prefix: str) -> list[str]:
    """Every figure as ``DIRECTORY/PREFIX-N-TITLE.png`` (for docs); the paths."""
    import os
    import re
    os.makedirs(directory, exist_ok=True)
    paths = []
    for k, (title, png, _data) in enumerate(figures(summary), 1):
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60]
        path = os.path.join(directory, f"{prefix}-{k}-{slug}.png")
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(png))
        paths.append(path)
    return paths


def write_report(summary: dict[str, Any], path: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(render(summary))
