"""The benchmark scripts still run: each quick one once, on tiny budgets and
a small board, as a subprocess from the repository root (as the docs give
the commands). Nothing here is timed: a benchmark's figures are its own
business; a script that no longer starts (bench/kernel_playouts.py once
passed no options to a kernel that needs them) is the suite's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}

RUNS = [
    ["kernel_playouts.py", "robble", "--sizes", "5", "--seconds", "0.05", "--option", "pie=no"],
    ["kernel_playouts.py", "robble", "--sizes", "5", "--seconds", "0.05", "--search"],
    ["batch.py", "yugo", "--seconds", "0.05", "--batches", "1,4"],
    ["vector.py", "implo", "--seconds", "0.05", "--batches", "4"],
    ["batch_scaling.py", "pilo", "--batches", "4,8", "--rounds", "1", "--seconds", "0.02"],
    ["batch_memory.py", "vimbre", "--batches", "4,8", "--rounds", "1"],
    ["batch_memory.py", "robble", "--batches", "64,128", "--rounds", "1", "--seconds", "0.02"],
    ["playout_branches.py", "pilo", "--seconds", "0.05", "--rounds", "1"],
    ["search_speed.py", "robble", "--seconds", "0.05", "--rounds", "1"],
    ["playouts.py", "robble", "--seconds", "0.05", "--size", "5"],
    ["adapters.py", "robble", "--seconds", "0.05", "--rounds", "1", "--size", "5"],
    ["tries.py"],
    ["transpositions.py", "pilo", "--sims", "2000", "--at", "0.5"],
    ["move_speed.py", "robble", "--engine", "mcts:500", "--plies", "3"],
    ["implo_resolutions.py", "--games", "2", "--size", "5", "--playouts", "20", "--points", "3"],
    ["az/gumbel_playouts.py", "--games", "1", "--simulations", "30"],
]


@pytest.mark.parametrize("argv", RUNS, ids=[" ".join(a[:2] + a[-1:]) for a in RUNS])
def test_the_script_runs_and_prints_figures(argv: list[str]) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / argv[0]), *argv[1:]], cwd=ROOT,
                         env=ENV, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert re.search(r"\d", out.stdout), out.stdout  # a table with figures, not an empty run


def test_the_strength_report_names_what_played_and_leaves_the_records_alone(tmp_path: Path) -> None:
    """``bench/strength.py --report-only`` rebuilds the table from the
    records: it must list A's settings as the records name them (an engine's
    spelled-out settings gain names as the search grows) and must not
    rewrite a record with today's names."""
    import gzip
    import shutil

    name = "vimbre-mcts_0.25s-vs-uct_0.25s.rec.gz"
    (tmp_path / "rec").mkdir()
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "bench" / "strength" / name, tmp_path / "rec" / name)
    shutil.copy(ROOT / "docs" / "ai.md", tmp_path / "docs" / "ai.md")
    before = gzip.decompress((tmp_path / "rec" / name).read_bytes()).decode()
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "strength.py"), "--report-only",
                          "--only", "vimbre", "--budgets", "0.25s", "--dir", str(tmp_path / "rec"),
                          "--docs", str(tmp_path / "docs")],
                         cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert gzip.decompress((tmp_path / "rec" / name).read_bytes()).decode() == before
    engine_a = re.search(r'\[EngineA "([^"]+)"\]', before).group(1)
    assert f"- vimbre: `{engine_a}`" in (tmp_path / "docs" / "strength.md").read_text()


def test_a_ladder_report_of_one_game_keeps_the_other_games_rows(tmp_path: Path) -> None:
    """``bench/ladder.py --only GAME`` writes the table of every game with
    records in the folder: a run for one game once left only that game's
    rows in docs/ai.md."""
    import shutil
    (tmp_path / "rec").mkdir()
    for name in ("yugo-level1-vs-random.rec.gz", "vimbre-level1-vs-random.rec.gz"):
        shutil.copy(ROOT / "bench" / "ladder" / name, tmp_path / "rec" / name)
    shutil.copy(ROOT / "docs" / "ai.md", tmp_path / "ai.md")
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "ladder.py"), "--report-only",
                          "--only", "yugo", "--dir", str(tmp_path / "rec"),
                          "--docs", str(tmp_path / "ai.md")],
                         cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    table = (tmp_path / "ai.md").read_text().split("<!-- ladder:begin -->")[1]
    assert "| yugo 9x9 |" in table and "| vimbre 11x11 |" in table and "| pilo 8x8 |" not in table


def test_a_tiled_batch_plays_its_originals_games_in_every_copy() -> None:
    """``bench/batch_memory.py``'s ``tiled`` column rests on each copy
    playing the very game of its original (so the processor sees only 64
    games' branches): every per-game array a step reads must be copied."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from batch_memory import tiled
    finally:
        sys.path.pop(0)
    from boardlab.fast import Batch

    for game in ("yugo", "implo"):
        small = Batch(game, 4, seed=3, auto_reset=True)
        for _ in range(5):
            small.step(small.random_actions())
        env = tiled(game, small, 12)
        for _ in range(40):
            env.step(env.random_actions())
        rows = env.states.reshape(3, 4, -1)
        assert (rows == rows[0]).all()
        assert len({tuple(r) for r in env.states[:4]}) > 1  # the four originals differ
