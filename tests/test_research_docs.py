"""docs/research.md: its code runs, and it documents every observation plane."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import boardlab
from boardlab.research import tensors

DOC = Path(__file__).resolve().parent.parent / "docs" / "research.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_doc_has_a_tour_per_interface():
    text = DOC.read_text()
    for heading in ("## OpenSpiel in five minutes", "## PettingZoo in five minutes",
                    "## Gymnasium in five minutes", "## Vector env in five minutes", "## Observations", "## Symmetries", "## Overhead"):
        assert heading in text
    assert "../shared" not in text and "BENCH_TABLE" not in text and "MATCH_RESULTS" not in text


@pytest.mark.parametrize("index", range(6))
def test_the_code_blocks_run(index, capsys):
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    code = blocks()[index]
    exec(compile(code, f"{DOC.name} block {index + 1}", "exec"), {})
    capsys.readouterr()


def test_there_are_six_code_blocks():
    assert len(blocks()) == 6


def test_every_plane_is_documented(game_name):
    text = DOC.read_text()
    section = text.split(f"### {game_name}\n", 1)[1].split("###", 1)[0]
    for i, (name, meaning) in enumerate(tensors.tensors_module(game_name).PLANES):
        assert f"| {i} | `{name}` | {meaning} |" in section
    assert len(tensors.plane_names(game_name)) == tensors.observation_shape(game_name)[0]
    assert boardlab.game_class(game_name)
