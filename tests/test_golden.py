"""Golden playthroughs: recorded complete games must replay to the same
positions and outcome (see tests/golden/regenerate.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boardlab
from golden.regenerate import CASES, outcome_line

FILES = sorted((Path(__file__).parent / "golden").glob("*.txt"))


def test_every_game_has_golden_playthroughs():
    names = {path.name.split("-")[0] for path in FILES}
    assert names == set(boardlab.GAMES)
    assert len(FILES) == len(CASES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_replays_exactly(path):
    lines = path.read_text().splitlines()
    header = dict(line.split(": ", 1) for line in lines[:5])
    game = boardlab.new_game(header["game"], int(header["size"]), **json.loads(header["options"]))
    assert game.position() == header["start"]
    for number, line in enumerate(lines[5:-1], start=6):
        move, expected = line.split("\t")
        game.play(move)
        assert game.position() == expected, f"{path.name} line {number}: after {move}"
    assert game.is_over
    assert outcome_line(game) == lines[-1]
