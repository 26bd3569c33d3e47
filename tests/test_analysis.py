"""Analysis: the search's view of a position, streamed; judging the moves of a
game; ``boardlab analyse``; an outside engine in a match (``cmd:``). The
engine protocols themselves: tests/test_engine_protocol.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading

import pytest

import boardlab
import boardlab.ai
from boardlab import records
from boardlab.ai.analysis import THRESHOLDS, analyse, analyse_game
from boardlab.ai.limit import Limit
from boardlab.ai.match import run_match
from conftest import one_winning_move, wins_now

PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(__file__), "..", "src")}


# ---------------------------------------------------------------- analyse()
@pytest.mark.parametrize("name", boardlab.GAMES)
def test_an_analysis_lists_legal_candidates_with_legal_lines(name):
    game = boardlab.new_game(name, size=5)
    an = analyse(game, Limit(simulations=150), seed=1, top=4)
    assert 1 <= len(an.candidates) <= 4
    assert an.visits >= 150
    assert abs(sum(an.wins.values()) - 1) < 1e-9
    visits = [c.visits for c in an.candidates]
    assert visits == sorted(visits, reverse=True)
    for c in an.candidates:
        probe = game.copy()
        for move in c.pv:  # every principal variation replays legally
            probe.play(move)
        assert c.pv[0] == c.move and 0 <= c.winrate <= 1
    assert json.loads(json.dumps(an.to_json()))["candidates"][0]["move"] == an.best.move


def test_analysis_finds_the_winning_move_and_says_it_is_won():
    game, win = one_winning_move("vimbre", 5, seed=4)
    an = analyse(game, Limit(simulations=2000), seed=1)
    assert an.best.move == win
    assert an.best.proven and an.winrate == 1.0


def test_analysis_streams_snapshots_and_stops_when_asked():
    game = boardlab.new_game("robble", size=7)
    seen = []
    stop = threading.Event()

    def on_update(snap):
        seen.append(snap)
        if len(seen) == 2:
            stop.set()

    an = analyse(game, Limit(seconds=30), seed=1, on_update=on_update, every=0.1, stop=stop)
    assert an.seconds < 30  # the stop ended the search before its budget
    assert len(seen) >= 2 and not seen[0].done and an.done
    assert seen[0].candidates and seen[0].seconds <= seen[1].seconds
    assert seen[0].visits <= seen[1].visits <= an.visits


def test_analysing_a_finished_game_is_refused():
    game = boardlab.from_position("robble 4 XXOO/XXOO/OOXO/1OOX black pie=no")
    game.play("a1")
    with pytest.raises(boardlab.BoardlabError, match="over"):
        analyse(game)


# ---------------------------------------------------------------- judging a game
def _win_or_lose(name: str, size: int, seed: int):
    """A position where the mover wins at once with one move, and another move
    (``bad``) lets the opponent win at once."""
    rng = random.Random(seed)
    for _ in range(300):
        game = boardlab.new_game(name, size)
        while not game.is_over:
            wins = wins_now(game)
            if len(wins) == 1:
                for m in game.legal_moves():
                    probe = game.copy()
                    probe.play(m)
                    if not probe.is_over and probe.to_move != game.to_move and wins_now(probe):
                        return game, wins[0], m
            game.play(rng.choice(game.legal_moves()))
    raise AssertionError("no such position found")


def test_missing_the_only_win_is_a_blunder_and_the_best_move_is_not():
    game, win, bad = _win_or_lose("vimbre", 5, seed=4)
    for move in (bad, win):
        result = analyse_game(game, [game.string_to_action(move)], Limit(simulations=1500), seed=3)
        j = result.judgements[0]
        if move == win:
            assert j.after == 1.0 and j.label is None and j.glyph == ""
            assert len(result.wins) == 2  # the start, and the finished game
        else:
            assert j.before > 0.9 and j.drop >= THRESHOLDS[0][0]
            assert (j.label, j.glyph, j.best) == ("blunder", "??", win)


def test_a_game_is_analysed_in_parallel_like_in_one_process():
    game = boardlab.new_game("robble", size=4)
    rng = random.Random(2)
    actions = []
    probe = game.copy()
    for _ in range(6):
        a = rng.choice(probe.legal_actions())
        actions.append(a)
        probe.apply_action(a)
    one = analyse_game(game, actions, Limit(simulations=120), seed=5, jobs=1)
    two = analyse_game(game, actions, Limit(simulations=120), seed=5, jobs=2)
    assert [a.to_json() | {"seconds": 0} for a in one.analyses] == \
        [a.to_json() | {"seconds": 0} for a in two.analyses]
    assert len(one.analyses) == 7 and len(one.judgements) == 6


# ---------------------------------------------------------------- boardlab analyse
def test_boardlab_analyse_writes_an_annotated_record_and_a_graph(tmp_path):
    match = run_match("robble", "level1", "random", 1, size=4, seed=3,
                      out=str(tmp_path / "g.rec"))
    assert match.elo.games == 1
    out, png = tmp_path / "a.rec", tmp_path / "a.png"
    proc = subprocess.run([PY, "-m", "boardlab", "analyse", str(tmp_path / "g.rec"),
                           "--engine", "mcts:60", "-o", str(out), "--plot", str(png),
                           "--jobs", "1", "--quiet"], env=ENV, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "blunders" in proc.stdout
    rec = records.read(str(out))[0]
    original = records.read(str(tmp_path / "g.rec"))[0]
    assert rec.moves == original.moves and rec.result == original.result
    assert rec.tags["Annotator"] == "boardlab analyse mcts:60"
    assert all("->" in rec.comments[k] for k in range(1, len(rec.moves) + 1))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_boardlab_analyse_adds_the_engines_move_as_a_variation_at_a_blunder(tmp_path):
    game, win, bad = _win_or_lose("vimbre", 5, seed=4)
    start = boardlab.from_position(game.position())
    start.play(bad)                     # misses the only win: a blunder
    path, out = tmp_path / "g.rec", tmp_path / "a.rec"
    path.write_text(records.format(records.Record.from_game(start)))
    proc = subprocess.run([PY, "-m", "boardlab", "analyse", str(path), "--engine", "mcts:1500",
                           "-o", str(out), "--jobs", "1", "--quiet"], env=ENV,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    rec = records.parse(text)
    assert rec.moves == [bad] and rec.comments[1].startswith("??")
    (line,) = rec.variations[0]
    assert line.move == win and not line.variations
    assert line.comment.startswith(f"{game.to_move} ") and float(line.comment.split()[1]) > 0.9
    assert f"{bad} {{{rec.comments[1]}}} (1. {win} {{{line.comment}}})" in " ".join(text.split())
    # a record that already has that variation keeps it once
    again = tmp_path / "b.rec"
    proc = subprocess.run([PY, "-m", "boardlab", "analyse", str(out), "--engine", "mcts:1500",
                           "-o", str(again), "--jobs", "1", "--quiet"], env=ENV,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert [n.move for n in records.read(str(again))[0].variations[0]] == [win]


@pytest.mark.parametrize("args, says", [
    (["--engine", "level3"], "analysis runs the MCTS search"),
    (["--engine", "mcts:0s"], "seconds must be positive"),
])
def test_boardlab_analyse_refuses_bad_engines(tmp_path, args, says):
    path = tmp_path / "g.rec"
    path.write_text('[Game "robble"]\n[Size "4"]\n\n1. a1 *\n')
    proc = subprocess.run([PY, "-m", "boardlab", "analyse", str(path), *args, "--quiet"],
                          env=ENV, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and says in proc.stderr


def test_boardlab_analyse_reports_a_bad_record_with_its_line(tmp_path):
    path = tmp_path / "g.rec"
    path.write_text('[Game "robble"]\n[Size "4"]\n\n1. a1 2. a1 *\n')
    proc = subprocess.run([PY, "-m", "boardlab", "analyse", str(path), "--quiet"],
                          env=ENV, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "line 4" in proc.stderr and "occupied" in proc.stderr


# ---------------------------------------------------------------- outside engines
def test_an_outside_engine_plays_a_match_through_cmd(tmp_path):
    cmd = f"cmd@40:env PYTHONPATH={ENV['PYTHONPATH']} {PY} -m boardlab engine robble --size 4"
    match = run_match("robble", "random", cmd, 2, size=4, seed=1, out=str(tmp_path / "m.rec"))
    assert match.elo.games == 2 and all(r.plies > 0 for r in match.results)
    assert len(records.read(str(tmp_path / "m.rec"))) == 2  # every game replays as a record


def test_an_outside_engine_that_fails_is_named():
    from boardlab.ai.external import EngineError
    game = boardlab.new_game("robble", 4)
    with pytest.raises(EngineError, match="cannot start"):
        boardlab.ai.make_agent("cmd:/nonexistent/engine").choose(game)
    with pytest.raises(EngineError, match="exited"):
        boardlab.ai.make_agent(f"cmd:{PY} -c pass").choose(game)
    with pytest.raises(boardlab.OptionError, match="no command"):
        boardlab.ai.make_agent("cmd:")


def test_accuracy_reads_as_lichess_and_a_blunder_costs_its_player():
    from boardlab.ai.analysis import accuracy, move_accuracy
    assert move_accuracy(0.6, 0.7) == 100.0                    # a move that gains scores 100
    assert move_accuracy(0.6, 0.6) == 100.0
    drops = [move_accuracy(0.9, 0.9 - d) for d in (0.05, 0.1, 0.3, 0.8)]
    assert drops == sorted(drops, reverse=True) and 0 <= drops[-1] < 5 < drops[0] < 100
    judged = [("black", 0.5, 0.52), ("white", 0.48, 0.47), ("black", 0.53, 0.2),
              ("white", 0.8, 0.79)]
    wins = [0.5, 0.52, 0.53, 0.2, 0.21]
    acc = accuracy(judged, wins)
    assert set(acc) == {"black", "white"} and acc["black"] < acc["white"] <= 100
