"""How long ``boardlab engine`` takes to answer its first clocked moves.

A GUI starts the engine, waits for ``readyok``, then sends ``go movetime MS``
and expects ``bestmove`` about MS later. This starts a fresh engine per game
and measures, wall clock, ``isready`` -> ``readyok`` and each of the first
``--moves`` ``go movetime`` -> ``bestmove`` (the overrun past MS is what a
clock would lose). Timing belongs here, not in the tests (docs/analysis.md).

    python bench/engine_first_move.py [--movetime 1000] [--moves 2] [games ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import boardlab

SIZES = {"yugo": 9}


def measure(game: str, size: int | None, movetime: int, moves: int) -> list[float]:
    args = [sys.executable, "-m", "boardlab", "engine", game]
    if size:
        args += ["--size", str(size)]
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            bufsize=1, env={**os.environ})

    def tell(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def ask(line: str, word: str) -> float:
        start = time.perf_counter()
        tell(line)
        while not proc.stdout.readline().startswith(word):
            pass
        return time.perf_counter() - start

    ask("ugi", "ugiok")
    out = [ask("isready", "readyok")]
    tell("position startpos")
    for _ in range(moves):
        out.append(ask(f"go movetime {movetime}", "bestmove"))
    tell("quit")
    proc.stdin.close()
    proc.wait(timeout=60)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=2)
    a = ap.parse_args()
    print("| game | isready -> readyok (s) | "
          + " | ".join(f"go movetime {a.movetime} #{i + 1} (s)" for i in range(a.moves)) + " |")
    print("|---|---|" + "---|" * a.moves)
    for game in a.games:
        times = measure(game, SIZES.get(game), a.movetime, a.moves)
        print(f"| {game} | " + " | ".join(f"{t:.2f}" for t in times) + " |")


if __name__ == "__main__":
    main()
