"""Regenerate the reproducibility fixtures: tests/fixtures/repro/*.rec.

A few short seeded matches per game (5x5, simulation budgets only, so they
replay on any machine): ``level2`` against ``level1`` (the levels: the one
search at each game's budgets) and ``mcts:300`` against ``uct:300`` (the
one search with the game's knowledge, and the yardstick). ``tests/test_repro.py`` replays every move of them with the
current code. When a change to an engine changes its moves on purpose, run

    python bench/repro_fixtures.py        # or: make repro-fixtures

and commit the new files with the change (the diff shows which games moved).
The long match records in bench/strength and bench/ladder are evidence for
the published tables of the commit that played them; the suite does not
replay them, so a stronger engine can land without replaying hours of games.
"""

from __future__ import annotations

import os

import boardlab
from boardlab.ai.match import run_match

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "tests", "fixtures", "repro")
PAIRS = (("level2", "level1"), ("mcts:300", "uct:300"))
SIZE, GAMES, SEED = 5, 2, 1


def fixture_path(game: str, a: str, b: str) -> str:
    return os.path.join(FOLDER, f"{game}-{a}-vs-{b}.rec".replace(":", "_"))


def main() -> int:
    os.makedirs(FOLDER, exist_ok=True)
    for game in boardlab.GAMES:
        for a, b in PAIRS:
            path = fixture_path(game, a, b)
            res = run_match(game, a, b, GAMES, size=SIZE, seed=SEED, out=path)
            print(f"{path}: {res.elo.games} games, {sum(r.plies for r in res.results)} plies")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
