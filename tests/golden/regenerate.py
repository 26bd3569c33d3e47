"""Write the golden playthrough files (run by hand, never by the suite).

    .venv/bin/python tests/golden/regenerate.py

Each file is one complete game played with seeded random moves: a header of
``key: value`` lines, then one ``move<TAB>position after the move`` line per
move, then ``outcome: winner termination scores``. The test replays the moves
and demands the same positions and outcome, so any change in the rules
engines shows up as a diff here. Regenerate only for a deliberate rules
change, and review the diff move by move.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import boardlab

HERE = Path(__file__).parent
CASES = [  # (game, size, options, seed)
    ("implo", 5, {}, 1), ("implo", 9, {}, 2), ("implo", 6, {"pie": False}, 3),
    ("yugo", 5, {}, 1), ("yugo", 9, {"komi": 3}, 2), ("yugo", 11, {}, 3),
    ("pilo", 5, {}, 1), ("pilo", 8, {}, 2), ("pilo", 6, {"pie": False}, 3),
    ("vimbre", 5, {}, 1), ("vimbre", 11, {}, 2), ("vimbre", 7, {}, 3),
    ("robble", 4, {}, 1), ("robble", 7, {}, 2), ("robble", 5, {"pie": False}, 3),
]


def outcome_line(game: boardlab.Game) -> str:
    out = game.outcome
    return f"outcome: {out.winner} {out.termination.value} {json.dumps(out.scores, sort_keys=True)}"


def write(name: str, size: int, options: dict, seed: int) -> Path:
    rng = random.Random(seed)
    game = boardlab.new_game(name, size, **options)
    lines = [f"game: {name}", f"size: {size}", f"options: {json.dumps(game.options, sort_keys=True)}",
             f"seed: {seed}", f"start: {game.position()}"]
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        game.play(move)
        lines.append(f"{move}\t{game.position()}")
    lines.append(outcome_line(game))
    path = HERE / f"{name}-{size}-{seed}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":
    for case in CASES:
        print(write(*case))
