"""Seconds a move of each level, read from the acceptance records' engine comments.

Every engine move of a match record carries ``{value/simulations seconds}``
(:mod:`boardlab.ai.comments`); this prints, for each level and game, the
median and 90th percentile wall time of that level's moves in the
``levels-*`` acceptance games (as A or as B). The matches ran one per core of the project's 2-core
machine at ``nice`` 10, so the times are those of one busy core (the
longest moves of such a job say more about the scheduler than the engine,
so they are not shown). Only games played since engine comments exist count.

    python bench/level_times.py [--dir bench/acceptance]
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from pathlib import Path

from boardlab import records
from boardlab.ai.comments import parse_comment
from boardlab.core import pie
from boardlab.records.model import player_tag

FILE = re.compile(r"levels-(?P<game>\w+)-(?P<a>level\d)-vs-(?P<b>level\d)\.rec\.gz")


def move_times(rec: records.Record) -> dict[str, list[float]]:
    """Each engine's move times in one record. The engine that makes a move
    is the one in the mover's seat; the player tags name who holds each color
    at the end, after any pie swap (docs/records.md)."""
    game = rec.start_game()
    final = pie.swapped(rec.moves)
    engine_of = [rec.tags.get(player_tag(pie.color_of(game.colors, seat, final)))
                 for seat in (0, 1)]
    out: dict[str, list[float]] = defaultdict(list)
    for ply, move in enumerate(rec.moves):
        comment = rec.comments.get(ply + 1)
        found = parse_comment(comment) if comment else None
        if found is not None:
            out[engine_of[game.seat_of(game.to_move)]].append(found.seconds)
        game.play(move)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default="bench/acceptance")
    args = ap.parse_args()
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    for path in sorted(Path(args.dir).glob("levels-*.rec.gz")):
        m = FILE.fullmatch(path.name)
        if m is None:
            continue
        for rec in records.parse_all(records.read_text(path, drop_cut_off=True)):
            for engine, secs in move_times(rec).items():
                times[engine, m["game"]].extend(secs)
    print("| level | game | moves | median s | 90% s |")
    print("|---|---|---|---|---|")
    for (engine, game), secs in sorted(times.items()):
        secs.sort()
        k = len(secs)
        print(f"| {engine[5:]} | {game} | {k} | {secs[k // 2]:.2f} | {secs[(9 * k) // 10]:.2f} |")


if __name__ == "__main__":
    main()
