"""The curves of a training run: a picture and a Markdown table (docs/az.md).

Read from the run's ``log.jsonl`` (:mod:`boardlab.az.train`): the losses of
every generation and the strength matches, against the CPU-hours the run
had spent (self-play, training and the matches themselves), so two runs on
different machines compare by the work done, not the wall clock.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from .train import CONFIG, LOG


def read_log(folder: Path) -> list[dict[str, Any]]:
    path = folder / LOG
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] \
        if path.exists() else []


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a score rate (draws counted as half a win)."""
    if games == 0:
        return 0.0, 1.0
    p = score / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def write_report(folder: Path, png: Path) -> str:
    """Draw ``folder``'s curves into ``png``; return the Markdown table of its strength matches."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_log(folder)
    gens = [r for r in rows if r["kind"] in ("expert", "generation")]  # the expert games first
    evals = [r for r in rows if r["kind"] == "eval"]
    config = json.loads((folder / CONFIG).read_text())
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    hours = [r["cpu_hours"] for r in gens]
    ax1.plot(hours, [r["policy_loss"] for r in gens], label="policy (cross-entropy)")
    ax1.plot(hours, [r["value_loss"] for r in gens], label="value (squared error)")
    ax1.set_xlabel("CPU-hours")
    ax1.set_ylabel("loss")
    ax1.set_title("training losses")
    ax1.legend()
    ax1.grid(alpha=0.3)
    for engine in sorted({r["engine"] for r in evals}):
        mine = [r for r in evals if r["engine"] == engine]
        xs = [r["cpu_hours"] for r in mine]
        ys = [r["rate"] for r in mine]
        lo = [r["rate"] - wilson(r["score"], r["games"])[0] for r in mine]
        hi = [wilson(r["score"], r["games"])[1] - r["rate"] for r in mine]
        ax2.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=f"vs {engine}")
    ax2.axhline(0.5, color="grey", lw=0.8)
    ax2.set_ylim(-0.02, 1.02)
    ax2.set_xlabel("CPU-hours")
    ax2.set_ylabel("score of the network")
    az = evals[0]["az"] if evals else "az"
    ax2.set_title(f"{az} against the engines ({evals[0]['clock'] if evals else 'cpu'} clock)")
    ax2.legend()
    ax2.grid(alpha=0.3)
    fig.suptitle(f"{config['game']} {config['size']}x{config['size']}: "
                 f"{config['blocks']} blocks x {config['channels']} channels, "
                 f"{config['simulations']} simulations a move")
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=90)
    plt.close(fig)
    lines = ["| generation | CPU-hours | games | policy loss | value loss | "
             + " | ".join(f"vs {e}" for e in sorted({r['engine'] for r in evals})) + " |",
             "|---:|---:|---:|---:|---:|" + "---|" * len({r["engine"] for r in evals})]
    by_gen: dict[int, dict[str, str]] = {}
    for r in evals:
        low, high = wilson(r["score"], r["games"])
        by_gen.setdefault(r["generation"], {})[r["engine"]] = \
            f"{r['score']:g}/{r['games']} ({low:.2f}-{high:.2f})"
    games = 0
    for r in gens:
        games += r["games"]
        if r["generation"] in by_gen:
            cells = [by_gen[r["generation"]].get(e, "") for e in sorted({x["engine"] for x in evals})]
            label = "0 (expert games)" if r["kind"] == "expert" else r["generation"]
            lines.append(f"| {label} | {r['cpu_hours']:.2f} | {games:,} | "
                         f"{r['policy_loss']:.3f} | {r['value_loss']:.3f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
