"""The level ladder against the outside baseline, from the records played.

Reads ``bench/parts/ladder-<game>-level<N>-vs-<B>.rec.gz`` (each level
against ``uct:0.25s``, made by ``boardlab match GAME --a levelN --b
uct:0.25s --games 10 --jobs 2 --seed 1 --out FILE --resume``) and prints a
markdown table: per game and level, the level's W-L and its Elo against the
baseline with the 95% interval (``boardlab.ai.stats.elo_estimate``).

    python bench/ladder_table.py [--b uct:0.25s]
"""

from __future__ import annotations

import argparse
import os
import sys

import boardlab
from boardlab import records
from boardlab.ai.stats import elo_estimate, format_elo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = range(1, 6)


def cell(path: str) -> str:
    if not os.path.exists(path):
        return "-"
    recs = records.parse_all(records.read_text(path, drop_cut_off=True))
    wins = sum(r.players.get(r.result) == r.tags.get("EngineA") for r in recs)
    draws = sum(r.result == "draw" for r in recs)
    losses = len(recs) - wins - draws
    e = elo_estimate(wins, losses, draws)
    return f"{wins}-{losses} ({format_elo(e.elo)}, {format_elo(e.low)}..{format_elo(e.high)})"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--b", default="uct:0.25s")
    args = p.parse_args(argv)
    print("| game | " + " | ".join(f"level {n}" for n in LEVELS) + " |")
    print("|---|" + "---|" * len(LEVELS))
    for game in boardlab.GAMES:
        size = boardlab.game_class(game).default_size
        cells = [cell(os.path.join(ROOT, "bench", "parts",
                                   f"ladder-{game}-level{n}-vs-{args.b.replace(':', '_')}.rec.gz"))
                 for n in LEVELS]
        if any(c != "-" for c in cells):
            print(f"| {game} {size}x{size} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
