"""The match runner, its statistics and the engine registry."""

from __future__ import annotations

import gzip
import math
import re
import time

import pytest

import boardlab
from boardlab.ai import engines, match, stats
from boardlab.cli import match as match_cli
from boardlab.records import parse_all


def test_elo_hand_computed():
    # 60 wins, 40 losses: s = 0.6, sd of game scores = sqrt(0.24), se = 0.04899
    e = stats.elo_estimate(60, 40, 0)
    assert e.score == pytest.approx(0.6)
    assert e.elo == pytest.approx(-400 * math.log10(1 / 0.6 - 1))   # 70.44
    assert e.elo == pytest.approx(70.437, abs=1e-3)
    assert e.stderr == pytest.approx(math.sqrt(0.24 / 100))
    lo, hi = 0.6 - 1.959964 * 0.0489898, 0.6 + 1.959964 * 0.0489898
    assert e.low == pytest.approx(-400 * math.log10(1 / lo - 1), abs=1e-3)   # +2.8
    assert e.high == pytest.approx(-400 * math.log10(1 / hi - 1), abs=1e-3)  # +144.6
    assert e.low > 0 and e.p_value == pytest.approx(math.erfc(0.1 / 0.0489898 / math.sqrt(2)))
    # ... but the exact sign test (p = 2 * P(X >= 60 | n = 100) = 0.0569) does not
    # agree at 5%, so the match is not called significant
    assert e.p_sign == pytest.approx(0.0569, abs=1e-4)
    assert not e.significant
    assert stats.elo_estimate(65, 35, 0).significant


def test_elo_with_draws_and_even():
    # 10 wins, 10 losses, 20 draws: s = 0.5, var = (10*.25 + 10*.25)/40 = 0.125
    e = stats.elo_estimate(10, 10, 20)
    assert e.score == 0.5 and e.elo == 0.0
    se = math.sqrt(0.125 / 40)
    assert e.stderr == pytest.approx(se)
    assert e.high == pytest.approx(-400 * math.log10(1 / (0.5 + 1.959964 * se) - 1), abs=1e-3)
    assert e.low == pytest.approx(-e.high)
    assert not e.significant
    assert e.p_value == pytest.approx(1.0)


def test_sign_test_hand_computed():
    # 8-0: 2 * (1/2)^8; 17-3: 2 * (C(20,17)+C(20,18)+C(20,19)+C(20,20)) / 2^20
    assert stats.sign_test(8, 0) == pytest.approx(2 / 256)
    assert stats.sign_test(3, 17) == pytest.approx(2 * (1140 + 190 + 20 + 1) / 2 ** 20)
    assert stats.sign_test(5, 5) == 1.0 and stats.sign_test(0, 0) == 1.0
    # every game one way: the normal interval has no width, the sign test decides
    assert not stats.elo_estimate(4, 0, 0).significant      # p = 0.125
    assert stats.elo_estimate(8, 0, 0).significant          # p = 0.0078
    assert stats.elo_estimate(8, 0, 0).p_sign == pytest.approx(2 / 256)
    assert stats.elo_estimate(0, 6, 3).p_sign == pytest.approx(2 / 64)


def test_elo_extremes():
    e = stats.elo_estimate(5, 0, 0)
    assert e.elo == math.inf and e.high == math.inf
    assert stats.format_elo(e.elo) == "+inf"
    assert stats.elo_estimate(0, 3, 1).elo == pytest.approx(-400 * math.log10(1 / 0.125 - 1))
    with pytest.raises(ValueError):
        stats.elo_estimate(0, 0, 0)


def test_one_sided_matches_get_a_real_interval():
    """No spread (every game the same score): Wilson's interval on the score,
    so 200 wins of 200 says "at least +687 Elo", and p is the sign test's."""
    e = stats.elo_estimate(200, 0, 0)
    low, _ = stats.wilson_interval(200, 200)
    assert e.low == pytest.approx(stats.elo_from_score(low)) and 686 < e.low < 687
    assert e.high == math.inf and e.p_value == e.p_sign < 1e-59
    assert stats.elo_estimate(10, 0, 0).high == math.inf  # not a huge finite number
    e = stats.elo_estimate(0, 5, 0)
    assert e.low == -math.inf and -400 < e.high < 0 and e.p_value == pytest.approx(2 / 32)
    e = stats.elo_estimate(0, 0, 20)                    # all draws: centred on 0
    assert e.elo == 0 and e.low == pytest.approx(-e.high) and e.high > 50
    assert e.p_value == 1.0
    one = stats.elo_estimate(1, 0, 0)                   # a single game proves nothing
    assert one.p_value == 1.0 and not one.significant


def test_elo_never_prints_minus_zero():
    assert stats.format_elo(stats.elo_from_score(0.5)) == "0"
    assert stats.format_elo(-0.4) == "0" and stats.format_elo(-0.6) == "-1"
    assert stats.format_elo(448.7) == "+449" and stats.format_elo(-math.inf) == "-inf"


def test_tiny_match_writes_records(tmp_path):
    out = tmp_path / "m.rec"
    result = match.run_match("robble", "mcts:30", "random", 4, size=5, seed=3, out=str(out))
    assert result.elo.games == 4
    assert [r.a_color for r in result.results] == ["black", "white", "black", "white"]
    text = out.read_text()
    assert text.count('[Game "robble"]') == 4
    assert '[Black "mcts:30"]' in text and '[White "mcts:30"]' in text
    # every record replays to the stored result
    records = parse_all(text)
    assert [r.result for r in records] == [r.winner for r in result.results]
    for rec, res in zip(records, result.results, strict=True):
        assert rec.moves == match.build_game("robble", 5, {}, res.actions).history
        if rec.result != "draw":
            winner = "mcts:30" if res.a_result == 1 else "random"
            assert rec.players[rec.result] == winner


COMMENT = re.compile(r"(?:[+-]\d\.\d\d!?/\d+ )?\d+\.\d\ds")


def test_records_carry_the_engines_comments(tmp_path):
    """Each MCTS move, and no random move, is followed by the engine's comment
    (value/simulations time), and the comments survive a resume."""
    out = str(tmp_path / "c.rec")
    match.run_match("implo", "mcts:25", "random", 2, size=5, seed=4, out=out)
    match.run_match("implo", "mcts:25", "random", 3, size=5, seed=4, out=out, resume=True)
    recs = parse_all(open(out, encoding="utf-8").read())
    assert len(recs) == 3
    searched = 0
    for rec in recs:
        mcts_color = next(c for c, name in rec.players.items() if name == "mcts:25")
        replay = boardlab.new_game("implo", 5)
        movers = []
        for move in rec.moves:
            movers.append(replay.to_move)
            replay.play(move)
        if "swap" in rec.moves:  # the seats changed at the swap: credit by engine, not color
            continue
        mcts_plies = {k + 1 for k, who in enumerate(movers) if who == mcts_color}
        assert set(rec.comments) == mcts_plies
        for text in rec.comments.values():
            assert COMMENT.fullmatch(text), text
            searched += "/" in text
    assert searched > 10


def test_mcts_comment_reads_its_search():
    agent = engines.make_engine("mcts:40", seed=1)
    assert agent.move_comment() is None  # nothing chosen yet
    game = boardlab.new_game("robble", 5)
    agent.choose_action(game)
    value, rest = agent.move_comment().split("/")
    visits, seconds = rest.split()
    info = agent.info
    assert float(value) == pytest.approx(info.value, abs=0.005)
    assert int(visits) == info.root_visits >= 40
    assert float(seconds[:-1]) == pytest.approx(info.seconds, abs=0.005)


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
    code = match_cli.main(["vimbre", "--a", "level2", "--b", "random", "--games", "2",
                       "--size", "5", "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "A = level2, B = random, 2 games" in text
    assert "Elo A - B" in text and "95% interval" in text
    assert out.exists()


def test_main_rejects_unknown_engine(capsys):
    assert match_cli.main(["robble", "--a", "deepblue", "--b", "random", "--out", "-"]) == 2
    assert "unknown engine" in capsys.readouterr().err


def test_engine_names():
    from boardlab.ai.search import SearchAgent
    from boardlab.ai.uct import UCTAgent
    assert isinstance(engines.make_engine("mcts"), SearchAgent)
    assert isinstance(engines.make_engine("uct:0.5s"), UCTAgent)
    f = engines.make_engine("mcts:500+2s,c=0.5,reuse=no,solver=no,fpu=0.2", seed=1)
    s = f.settings_for("robble")
    assert (f.limit.simulations, f.limit.seconds, s.c, s.reuse, s.solver, s.fpu) == \
        (500, 2.0, 0.5, False, False, 0.2)
    assert engines.make_engine("mcts:0.25s").limit.seconds == 0.25
    assert engines.make_engine("level1").level == 1
    for bad in ("level0", "level99", "mcts:x", "mcts:10,zz=1", "mcts:10,pw=2/0.5", "pymcts:10",
                "fmcts", "minimax"):
        with pytest.raises(boardlab.OptionError):
            engines.make_engine(bad)


def test_levels_are_reproducible_simulation_budgets():
    """Every level is a simulation budget (no clock), rising with the level,
    so a level means the same on every machine and replays from its seed."""
    from boardlab.ai.search import level_budgets
    for name in boardlab.GAMES:
        budgets = level_budgets(name)
        assert len(budgets) == len(engines.LEVELS) and list(budgets) == sorted(set(budgets))
    moves = []
    for _ in range(2):
        game = boardlab.new_game("robble", size=4)
        agent = engines.make_engine(f"level{len(engines.LEVELS)}", seed=3)
        while not game.is_over and len(game) < 6:
            game.play(agent.choose(game))
        moves.append(game.history)
    assert moves[0] == moves[1]


@pytest.mark.parametrize("spec,why", [
    ("mcts:nans", "is not a number of seconds"),   # would never stop searching
    ("mcts:infs", "is not a number of seconds"),
    ("mcts:1e400s", "is not a number of seconds"),
    ("mcts:0s", "seconds must be positive and finite"),
    ("mcts:10+20", "names simulations twice"),
    ("mcts:1s+2s", "names seconds twice"),
    ("mcts:100,c=nan", "exploration constant"),            # every UCT value NaN: random play
    ("mcts:100,c=-1", "exploration constant"),
    ("mcts:100,cpuct=nan", "cpuct"),
    ("mcts:100,fpu=2", "fpu"),
    ("mcts:100,maxkids=-1", "maxkids"),
    ("mcts:100,evaluator=foo", "evaluator must be one of"),    # was refused only at move 1
    ("mcts:100,prior_temp=0", "prior_temp"),
])
def test_engine_specs_that_cannot_search_are_refused_when_named(spec, why):
    with pytest.raises(boardlab.OptionError, match=why):
        engines.make_engine(spec)


def test_random_is_one_engine_wherever_it_is_named():
    """`boardlab play`, the web (ai.make_agent) and `boardlab match`
    (engines.make_engine) must replay the same seeded random game."""
    from boardlab import ai
    for seed in range(5):
        games = [boardlab.new_game("robble", 7) for _ in range(2)]
        agents = [ai.make_agent("random", seed), engines.make_engine("random", seed)]
        for _ in range(20):
            moves = [agent.choose(g) for agent, g in zip(agents, games, strict=True)]
            assert moves[0] == moves[1]
            for g in games:
                g.play(moves[0])
    over = boardlab.from_position("robble 4 XOXO/OXOX/XOXO/OXOX - last=white")
    with pytest.raises(boardlab.GameOverError):
        ai.make_agent("random", 1).choose(over)


def test_agents_follow_the_ai_protocol():
    from boardlab import ai
    game = boardlab.new_game("robble", 5)
    for name in ("random", "level1", "mcts:10"):
        agent = engines.make_engine(name, seed=1)
        assert isinstance(agent, ai.Agent)
        assert agent.choose(game) in game.legal_moves()


def test_wilson_interval_hand_computed():
    # 200 of 200: centre (1 + z²/400)/(1 + z²/200), half-width z/(1 + z²/200) * z/400
    z = stats.Z95
    low, high = stats.wilson_interval(200, 200)
    assert high == 1.0
    assert low == pytest.approx((1 + z * z / 400 - z * z / 400) / (1 + z * z / 200))
    assert 0.981 < low < 0.982
    # 190 of 200 (95%): centre 0.95960/1.01921 = 0.94152, half-width 1.92303 *
    # sqrt(0.0475/200 + 3.8415/160000) = 0.03110: 190 wins do not show ">= 95%"
    low, high = stats.wilson_interval(190, 200)
    assert low == pytest.approx(0.9104, abs=1e-4) and high == pytest.approx(0.9726, abs=1e-4)
    assert stats.wilson_interval(0, 10)[0] == 0.0
    with pytest.raises(ValueError):
        stats.wilson_interval(3, 2)
    with pytest.raises(ValueError):
        stats.wilson_interval(0, 0)


def test_resume_plays_only_the_missing_rounds(tmp_path):
    whole = match.run_match("robble", "mcts:12", "mcts:6", 4, size=4, seed=5)
    out = str(tmp_path / "part.rec.gz")
    first = match.run_match("robble", "mcts:12", "mcts:6", 2, size=4, seed=5, out=out)
    assert first.resumed == 0 and len(first.results) == 2
    rest = match.run_match("robble", "mcts:12", "mcts:6", 4, size=4, seed=5, out=out,
                           resume=True, jobs=2)
    assert rest.resumed == 2
    assert [r.actions for r in rest.results] == [r.actions for r in whole.results]
    assert [r.a_result for r in rest.results] == [r.a_result for r in whole.results]
    assert [r.swapped for r in rest.results] == [r.swapped for r in whole.results]
    with gzip.open(out, "rt", encoding="utf-8") as fh:
        recs = parse_all(fh.read())
    assert [int(r.tags["Round"]) for r in recs] == [1, 2, 3, 4]
    # nothing left to play: the file alone gives the same result, and the same bytes
    # (a committed record file is not churned by a resume that adds nothing)
    time.sleep(1.1)  # a gzip header's time is in whole seconds
    before = open(out, "rb").read()
    again = match.run_match("robble", "mcts:12", "mcts:6", 4, size=4, seed=5, out=out,
                            resume=True)
    assert again.resumed == 4 and again.elo == rest.elo
    assert open(out, "rb").read() == before


def test_interrupted_match_keeps_finished_games(tmp_path):
    out = str(tmp_path / "cut.rec")

    def stop_after_two(result, seen=[]):  # noqa: B006 - a counter across calls
        seen.append(result)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        match.run_match("robble", "mcts:8", "random", 5, size=4, seed=1, out=out,
                        on_result=stop_after_two)
    assert len(parse_all(open(out, encoding="utf-8").read())) == 2
    rest = match.run_match("robble", "mcts:8", "random", 5, size=4, seed=1, out=out,
                           resume=True)
    assert rest.resumed == 2 and rest.elo.games == 5


def test_resume_refuses_another_match(tmp_path):
    out = str(tmp_path / "m.rec")
    match.run_match("robble", "mcts:8", "random", 2, size=4, seed=1, out=out)
    with pytest.raises(ValueError, match="EngineA is 'mcts:8', this match has 'mcts:9'"):
        match.run_match("robble", "mcts:9", "random", 2, size=4, seed=1, out=out, resume=True)
    with pytest.raises(ValueError, match="MatchSeed"):
        match.run_match("robble", "mcts:8", "random", 2, size=4, seed=2, out=out, resume=True)
    with pytest.raises(ValueError, match="robble 4x4 .* not this match's robble 5x5"):
        match.run_match("robble", "mcts:8", "random", 2, size=5, seed=1, out=out, resume=True)
    with pytest.raises(ValueError, match="round 2, outside this match's 1..1"):
        match.run_match("robble", "mcts:8", "random", 1, size=4, seed=1, out=out, resume=True)
    text = open(out, encoding="utf-8").read()
    open(out, "w", encoding="utf-8").write(text.replace('[Seconds "', '[Seconds "x', 1))
    with pytest.raises(ValueError, match=r"m\.rec: game 1: tag Seconds is 'x"):
        match.run_match("robble", "mcts:8", "random", 2, size=4, seed=1, out=out, resume=True)
    open(out, "w", encoding="utf-8").write(text + "\n" + text.split("\n\n[Game")[0] + "\n")
    with pytest.raises(ValueError, match="round 1 appears twice"):
        match.run_match("robble", "mcts:8", "random", 2, size=4, seed=1, out=out, resume=True)
    open(out, "w", encoding="utf-8").write(text + "\n[Game")   # a half-written game
    with pytest.raises(ValueError, match=r"m\.rec: line \d+, column \d+"):
        match.run_match("robble", "mcts:8", "random", 2, size=4, seed=1, out=out, resume=True)


def test_main_resume_flag(tmp_path, capsys):
    out = tmp_path / "r.rec"
    args = ["robble", "--a", "mcts:8", "--b", "random", "--size", "4", "--out", str(out)]
    assert match_cli.main([*args, "--games", "2"]) == 0
    capsys.readouterr()
    assert match_cli.main([*args, "--games", "3", "--resume"]) == 0
    assert "3 games (2 from the records file)" in capsys.readouterr().out
    assert match_cli.main(["robble", "--a", "mcts:8", "--b", "random", "--resume",
                       "--out", "-"]) == 2
    assert "--resume needs a records file" in capsys.readouterr().err


def test_main_keeps_an_earlier_match_unless_told(tmp_path, capsys):
    """Rerunning a command must not wipe a long match: --resume or --overwrite."""
    out = tmp_path / "r.rec"
    args = ["robble", "--a", "mcts:8", "--b", "random", "--size", "4", "--out", str(out)]
    assert match_cli.main([*args, "--games", "2"]) == 0
    before = out.read_text(encoding="utf-8")
    assert match_cli.main([*args, "--games", "1"]) == 2
    assert "already holds games: --resume continues" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == before
    assert match_cli.main([*args, "--games", "1", "--overwrite"]) == 0
    assert out.read_text(encoding="utf-8").count("[Game ") == 1


def test_main_reports_an_unwritable_records_file(tmp_path, capsys):
    out = tmp_path / "no-such-folder" / "m.rec"
    assert match_cli.main(["robble", "--a", "random", "--b", "random", "--size", "4",
                       "--games", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boardlab match: cannot write ") and "no-such-folder" in err
    assert "Traceback" not in err


def test_killed_run_keeps_its_games_and_resumes(tmp_path):
    """A real `boardlab match` process killed with SIGKILL mid-match: the games
    it finished are in the gzip file (one member each), a member cut short is
    left out, and --resume completes the match."""
    import os
    import signal
    import subprocess
    import sys
    import time as clock

    out = str(tmp_path / "killed.rec.gz")
    args = ["robble", "--a", "mcts:40", "--b", "random", "--size", "5", "--seed", "4"]
    proc = subprocess.Popen([sys.executable, "-m", "boardlab.cli.match", *args,
                             "--games", "400", "--out", out, "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    spec = match.MatchSpec("robble", 5, {}, "mcts:40", "random", 400, 4,
                           dict(boardlab.new_game("robble", 5).options))
    try:
        end = clock.time() + 60
        while clock.time() < end:
            if os.path.exists(out) and len(match.load_finished(spec, out)) >= 3:
                break
            clock.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    kept = match.load_finished(spec, out)
    assert len(kept) >= 3 and sorted(kept) == list(range(len(kept)))
    # a member cut short, as a kill in the middle of a write leaves it
    with open(out, "ab") as fh:
        fh.write(gzip.compress(b'[Game "robble"]\n[Size "5"]\n')[:-9])
    assert len(match.load_finished(spec, out)) == len(kept)
    n = len(kept) + 2

    def stop(result):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # one more game, then stopped again
        match.run_match("robble", "mcts:40", "random", n, size=5, seed=4, out=out,
                        resume=True, on_result=stop)
    # the game appended after the cut member is readable: the cut one was dropped
    assert len(match.load_finished(spec, out)) == len(kept) + 1
    rest = match.run_match("robble", "mcts:40", "random", n, size=5, seed=4, out=out,
                           resume=True)
    assert rest.resumed == len(kept) + 1 and rest.elo.games == n
    fresh = match.run_match("robble", "mcts:40", "random", n, size=5, seed=4)
    assert [r.actions for r in rest.results] == [r.actions for r in fresh.results]


def test_a_ladder_of_matches_adds_elo_and_variances():
    # 150-50 (s = 0.75) then 120-80 (s = 0.6), 200 games each
    a, b = stats.elo_estimate(150, 50, 0), stats.elo_estimate(120, 80, 0)
    elo, low, high = stats.chained_elo([a, b])
    assert elo == pytest.approx(a.elo + b.elo) == pytest.approx(190.85 + 70.44, abs=0.01)
    k = 400 / math.log(10)
    se_a = k * math.sqrt(0.75 * 0.25 / 200) / (0.75 * 0.25)   # 28.37 Elo
    se_b = k * math.sqrt(0.6 * 0.4 / 200) / (0.6 * 0.4)       # 25.07 Elo
    half = 1.959964 * math.hypot(se_a, se_b)
    assert (low, high) == (pytest.approx(elo - half), pytest.approx(elo + half))
    assert math.isinf(stats.chained_elo([a, stats.elo_estimate(10, 0, 0)])[0])
    with pytest.raises(ValueError):
        stats.chained_elo([])


def test_a_record_from_before_a_setting_existed_still_resumes(tmp_path):
    """A published match names its search with every setting spelled out;
    a setting added later (read as its default, the search as it was) does
    not make the old record "another match", any other difference does."""
    from boardlab.ai.engines import explicit_spec
    a = explicit_spec("mcts:8", "robble")
    assert ",grave=no,grave_ref=50,grave_bias=1e-05," in a
    out = str(tmp_path / "old.rec")
    match.run_match("robble", a, "random", 2, size=4, seed=1, out=out)
    older = a.replace(",grave=no,grave_ref=50,grave_bias=1e-05", "")
    text = open(out, encoding="utf-8").read()
    assert a in text
    open(out, "w", encoding="utf-8").write(text.replace(a, older))
    again = match.run_match("robble", a, "random", 2, size=4, seed=1, out=out, resume=True)
    assert again.resumed == 2
    for other in (a.replace("grave=no", "grave=yes"), a.replace("c=1.0", "c=0.5"),
                  a.replace("mcts:8", "mcts:9"), "mcts:8"):
        with pytest.raises(ValueError, match="from another match"):
            match.run_match("robble", other, "random", 2, size=4, seed=1, out=out, resume=True)
