"""The match runner, its statistics and the engine registry."""

from __future__ import annotations

import math

import pytest

import boardlab
from boardlab.ai import engines, match
from boardlab.ai.mcts import MCTSAgent


def test_elo_hand_computed():
    # 60 wins, 40 losses: s = 0.6, sd of game scores = sqrt(0.24), se = 0.04899
    e = match.elo_estimate(60, 40, 0)
    assert e.score == pytest.approx(0.6)
    assert e.elo == pytest.approx(-400 * math.log10(1 / 0.6 - 1))   # 70.44
    assert e.elo == pytest.approx(70.437, abs=1e-3)
    assert e.stderr == pytest.approx(math.sqrt(0.24 / 100))
    lo, hi = 0.6 - 1.959964 * 0.0489898, 0.6 + 1.959964 * 0.0489898
    assert e.low == pytest.approx(-400 * math.log10(1 / lo - 1), abs=1e-3)   # +2.8
    assert e.high == pytest.approx(-400 * math.log10(1 / hi - 1), abs=1e-3)  # +144.6
    assert e.significant
    assert e.p_value == pytest.approx(math.erfc(0.1 / 0.0489898 / math.sqrt(2)))


def test_elo_with_draws_and_even():
    # 10 wins, 10 losses, 20 draws: s = 0.5, var = (10*.25 + 10*.25)/40 = 0.125
    e = match.elo_estimate(10, 10, 20)
    assert e.score == 0.5 and e.elo == 0.0
    se = math.sqrt(0.125 / 40)
    assert e.stderr == pytest.approx(se)
    assert e.high == pytest.approx(-400 * math.log10(1 / (0.5 + 1.959964 * se) - 1), abs=1e-3)
    assert e.low == pytest.approx(-e.high)
    assert not e.significant
    assert e.p_value == pytest.approx(1.0)


def test_elo_extremes():
    e = match.elo_estimate(5, 0, 0)
    assert e.elo == math.inf and e.high == math.inf
    assert match.format_elo(e.elo) == "+inf"
    assert match.elo_estimate(0, 3, 1).elo == pytest.approx(-400 * math.log10(1 / 0.125 - 1))
    with pytest.raises(ValueError):
        match.elo_estimate(0, 0, 0)


def test_tiny_match_writes_records(tmp_path):
    out = tmp_path / "m.rec"
    result = match.run_match("robble", "mcts:30", "random", 4, size=5, seed=3, out=str(out))
    assert result.elo.games == 4
    assert [r.a_color for r in result.results] == ["black", "white", "black", "white"]
    text = out.read_text()
    assert text.count('[Game "robble"]') == 4
    assert '[Black "mcts:30"]' in text and '[White "mcts:30"]' in text
    # every record replays to the stored result
    try:
        from boardlab.records.text import parse_all
    except ImportError:
        return
    records = parse_all(text)
    assert [r.result for r in records] == [r.winner for r in result.results]
    for rec, res in zip(records, result.results, strict=True):
        assert rec.moves == match.build_game("robble", 5, {}, res.actions).history
        if rec.result != "draw":
            winner = "mcts:30" if res.a_result == 1 else "random"
            assert rec.players[rec.result] == winner


def test_match_reproduces_and_jobs_do_not_change_it(tmp_path):
    one = match.run_match("implo", "mcts:8", "mcts:4", 2, size=4, seed=9)
    two = match.run_match("implo", "mcts:8", "mcts:4", 2, size=4, seed=9, jobs=2)
    assert [r.actions for r in one.results] == [r.actions for r in two.results]


def test_swap_flips_the_seats():
    # a pie game where swaps happen: results are credited to the engine
    result = match.run_match("robble", "mcts:20", "mcts:20", 4, size=4, seed=2)
    for r in result.results:
        game = match.build_game("robble", 4, {}, r.actions)
        players = match.players_after(r, "A", "B", game.colors)
        if r.winner != "draw":
            assert (players[r.winner] == "A") == (r.a_result == 1)


def test_main_prints_the_table(tmp_path, capsys):
    out = tmp_path / "x.rec"
    code = match.main(["vimbre", "--a", "level2", "--b", "random", "--games", "2",
                       "--size", "5", "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "A = level2, B = random, 2 games" in text
    assert "Elo A - B" in text and "95% interval" in text
    assert out.exists()


def test_main_rejects_unknown_engine(capsys):
    assert match.main(["robble", "--a", "deepblue", "--b", "random", "--out", "-"]) == 2
    assert "unknown engine" in capsys.readouterr().err


def test_engine_names():
    assert isinstance(engines.make_engine("mcts"), MCTSAgent)
    a = engines.make_engine("mcts:500+2s,c=0.5,reuse=no,pw=2/0.5", seed=1)
    assert (a.iterations, a.seconds, a.c, a.reuse, a.widening) == (500, 2.0, 0.5, False, (2.0, 0.5))
    assert engines.make_engine("mcts:0.25s").seconds == 0.25
    assert engines.make_engine("level1").iterations == engines.LEVELS[0].iterations
    for bad in ("level0", "level99", "mcts:x", "mcts:10,zz=1", "minimax"):
        with pytest.raises(boardlab.OptionError):
            engines.make_engine(bad)


def test_agents_follow_the_ai_protocol():
    from boardlab import ai
    game = boardlab.new_game("robble", 5)
    for name in ("random", "level1", "mcts:10"):
        agent = engines.make_engine(name, seed=1)
        assert isinstance(agent, ai.Agent)
        assert agent.choose(game) in game.legal_moves()
