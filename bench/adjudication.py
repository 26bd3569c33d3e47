"""Would resign adjudication have called the acceptance games right, and what
would it save? (The rule: :mod:`boardlab.ai.adjudication`.)

For each rule (threshold T, K moves) over the match records that carry engine
comments: how many games it would have ended early, how many of those it
would have called wrongly (the game's real result differs), and the share of
the engines' time and of the plies it would have saved.

    python bench/adjudication.py [FILE ...]   (default: bench/ladder/*.rec.gz)
"""

from __future__ import annotations

import argparse
import glob
import gzip

from boardlab import records
from boardlab.ai.adjudication import engine_moves, first_call

RULES = [(0.9, 3), (0.95, 3), (0.98, 3), (0.95, 5), (0.98, 5)]


def load(paths: list[str]) -> list[records.Record]:
    """The records of ``paths`` that carry comments."""
    out = []
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as fh:
            out += [r for r in records.parse_all(fh.read()) if r.comments]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    paths = args.files or sorted(glob.glob("bench/ladder/*.rec.gz"))
    recs = load(paths)
    print(f"{len(recs)} games with engine comments in {len(paths)} files")
    if not recs:
        return
    moves = [engine_moves(rec) for rec in recs]
    time_total = sum(m.seconds for ms in moves for m in ms)
    plies_total = sum(len(rec.moves) for rec in recs)
    print("| rule (T, K) | games ended early | called wrongly | engine time saved | plies saved |")
    print("|---|---|---|---|---|")
    for threshold, k in RULES:
        ended = wrong = plies_saved = 0
        time_saved = 0.0
        for rec, ms in zip(recs, moves, strict=True):
            call = first_call(ms, threshold, k)
            if call is None:
                continue
            ply, winner = call
            ended += 1
            wrong += winner != rec.result
            time_saved += sum(m.seconds for m in ms if m.ply > ply)
            plies_saved += len(rec.moves) - ply
        print(f"| {threshold:.2f}, {k} | {ended} of {len(recs)} | {wrong} | "
              f"{time_saved / max(time_total, 1e-9):.0%} | {plies_saved / plies_total:.0%} |")


if __name__ == "__main__":
    main()
