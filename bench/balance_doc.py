"""Fill docs/balance.md's tables and figures from the studies in results/balance.

Each ``<!-- study:NAME -->`` ... ``<!-- /study -->`` block of the page is
replaced by the Markdown table of ``results/balance/NAME`` (what ``boardlab
study GAME --out results/balance/NAME --report-only --format md`` prints),
and each ``<!-- figure:NAME:N -->`` line by figure N of that study, written
to docs/balance/NAME-N.png. Run after bench/balance_studies.sh:

    PYTHONPATH=src python bench/balance_doc.py
"""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path

from boardlab.study.report import figures
from boardlab.study.storage import Store
from boardlab.study.summary import markdown, summarise, swapped_openings

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "balance.md"
PICS = ROOT / "docs" / "balance"
RESULTS = ROOT / "results" / "balance"


def summary_of(name: str) -> dict:
    folder = RESULTS / name
    game = json.loads((folder / "metrics.json").read_text())["game"]
    store = Store(str(folder), game, resume=True)
    try:
        return summarise(game, store.games(), seed=1)  # the CLI default seed
    finally:
        store.close()


def main() -> int:
    text = DOC.read_text()
    cache: dict[str, dict] = {}

    def get(name: str) -> dict:
        if name not in cache:
            cache[name] = summary_of(name)
        return cache[name]

    def table(m: re.Match) -> str:
        s = get(m.group(1))
        body = markdown(s)
        swaps = swapped_openings(s)
        return (f"<!-- study:{m.group(1)} -->\n{body}\n" + (f"\n{swaps}\n" if swaps else "")
                + "<!-- /study -->")

    def figure(m: re.Match) -> str:
        name, k = m.group(1), int(m.group(2))
        title, png, _ = figures(get(name))[k - 1]
        PICS.mkdir(exist_ok=True)
        (PICS / f"{name}-{k}.png").write_bytes(base64.b64decode(png))
        return f"<!-- figure:{name}:{k} -->\n![{title}](balance/{name}-{k}.png)"

    def runs(_m: re.Match) -> str:
        lines = ["<!-- runs -->",
                 "| study | engine | games played | wall s | games/s | workers busy | "
                 "CPU of 2 cores | runner overhead | bytes/game | load average |",
                 "|---|---|---|---|---|---|---|---|---|---|"]
        for folder in sorted(RESULTS.iterdir()):
            log = folder / "runs.jsonl"
            if not log.exists():
                continue
            for line in log.read_text().splitlines():
                r = json.loads(line)
                busy = r.get("occupancy", r["worker_seconds"] / (r["wall_seconds"] * r["workers"]))
                lines.append(
                    f"| {folder.name} | {r['engine']} | {r['played']} | {r['wall_seconds']:.0f} | "
                    f"{r['games_per_second']:.2f} | {busy:.1%} | {r['cpu_utilisation']:.0%} | "
                    f"{r['overhead']:.1%} | {r['bytes_per_game']:,.0f} | {r['load']:.1f} |")
        return "\n".join(lines) + "\n<!-- /runs -->"

    text = re.sub(r"<!-- runs -->.*?<!-- /runs -->", runs, text, flags=re.S)
    text = re.sub(r"<!-- study:([\w.-]+) -->.*?<!-- /study -->", table, text, flags=re.S)
    text = re.sub(r"<!-- figure:([\w.-]+):(\d+) -->(?:\n!\[[^\]]*\]\([^)]*\))?", figure, text)
    DOC.write_text(text)
    print(f"wrote {DOC} and {len(list(PICS.glob('*.png')))} figures", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
