"""boardlab study: option grids, storage and resume, metrics by hand, the CLI."""

from __future__ import annotations

import gzip
import importlib.util
import json
import math
import os

import pytest

from boardlab import records
from boardlab.errors import OptionError
from boardlab.study import StudyError, StudySpec, parse_option_args, parse_values, run_study
from boardlab.study.cli import main as study_main
from boardlab.study.crossing import crossing, interpolated, margin_crossing
from boardlab.study.metrics import Z95, balance_of, histogram, metrics, rate, wilson
from boardlab.study.storage import Store, lead_changes, loser_max
from boardlab.study.summary import summarise, table

TIMES = ("seconds", "engine_seconds", "cpu_seconds")


def _rows(out: str) -> list[dict]:
    store = Store(out, "robble", resume=True)
    try:
        return [{k: v for k, v in r.items() if k not in TIMES} for r in store.games()]
    finally:
        store.close()


def _spec(**kw) -> StudySpec:
    args = {"game": "robble", "sizes": [4], "grid": {"pie": [True, False]},
            "engine": "mcts:20", "games": 3, "seed": 7} | kw
    return StudySpec(**args)


# ---------------------------------------------------------------- option grids
def test_option_values_ranges_steps_and_lists():
    assert parse_values("komi", "0..4", 0) == [0, 1, 2, 3, 4]
    assert parse_values("komi", "0..12:4", 0) == [0, 4, 8, 12]
    assert parse_values("komi", "-2,3", 0) == [-2, 3]
    assert parse_values("pie", "yes,no", True) == [True, False]
    assert parse_option_args("yugo", ["komi=1..3"]) == {"komi": [1, 2, 3]}


@pytest.mark.parametrize("game, items, words", [
    ("yugo", ["komi=5..2"], "range is empty"),
    ("yugo", ["komi=0..4:0"], "step must be above 0"),
    ("yugo", ["komi=0..2:0.5"], "whole numbers"),
    ("yugo", ["komi=a..3"], "not a number"),
    ("yugo", ["pie=yes"], "has no option 'pie'"),
    ("robble", ["pie=maybe"], "yes or no"),
    ("robble", ["pie"], "KEY=VALUES"),
    ("yugo", ["komi=1,1"], "appears twice"),
])
def test_bad_options_name_the_problem(game, items, words):
    with pytest.raises(OptionError, match=words):
        parse_option_args(game, items)


def test_spec_checks_game_sizes_range_engine():
    with pytest.raises(OptionError, match="unknown game"):
        StudySpec("chess", [8])
    with pytest.raises(OptionError, match="outside"):
        StudySpec("robble", [99])
    with pytest.raises(OptionError, match="komi"):
        StudySpec("yugo", [5], {"komi": [0, 5000]})
    with pytest.raises(OptionError, match="unknown engine"):
        StudySpec("robble", [5], engine="stockfish")
    with pytest.raises(OptionError, match="at least one game"):
        StudySpec("robble", [5], games=0)
    assert len(StudySpec("yugo", [5, 7], {"komi": [0, 1, 2]}).configs()) == 6


# ---------------------------------------------------------------- metrics by hand
def test_wilson_matches_the_textbook_values():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    with pytest.raises(ValueError):
        wilson(3, 0)


def test_balance_interval_reaches_one_when_the_score_interval_holds_half():
    b = balance_of(rate(6, 10))
    assert b["value"] == pytest.approx(0.8) and b["high"] == 1.0
    b = balance_of({"value": 0.9, "low": 0.7, "high": 0.95, "n": 10})
    assert b["low"] == pytest.approx(0.1) and b["high"] == pytest.approx(0.6)


def _row(**kw) -> dict:
    base = {"engine": "e", "size": 5, "options": {}, "game_index": 0, "seed": 1,
            "winner": "black", "first_color_won": 1.0, "first_mover_won": 1.0, "plies": 10,
            "turns": 10, "swapped": 0, "first_move": "c3", "termination": "score",
            "branching_mean": 10.0, "branching_max": 25, "evaluated": 0, "lead_changes": None,
            "loser_max": None}
    return base | kw


def test_metrics_of_a_hand_built_list():
    rows = [
        _row(plies=10, turns=8, branching_mean=10.0, branching_max=25),
        _row(winner="white", first_color_won=0.0, first_mover_won=0.0, plies=20, turns=16,
             branching_mean=12.0, branching_max=20, first_move="b2", swapped=1,
             evaluated=5, lead_changes=2, loser_max=0.75),
        _row(winner="draw", first_color_won=0.5, first_mover_won=0.5, plies=30, turns=24,
             branching_mean=14.0, branching_max=30, evaluated=3, lead_changes=0,
             loser_max=None),
        _row(winner=None, first_color_won=None, first_mover_won=None, plies=40, turns=32,
             termination="unfinished"),
    ]
    m = metrics(rows, swap_possible=True)
    assert m["Completion"]["value"] == 0.75                       # 3 of 4 finished
    assert m["FirstPlayerScore"]["value"] == pytest.approx(1.5 / 3)  # 1 + 0 + 0.5
    assert m["Balance"]["value"] == pytest.approx(1.0)
    assert m["Drawishness"]["value"] == pytest.approx(1 / 3)
    assert m["DurationPlies"]["mean"] == 25 and m["DurationPlies"]["median"] == 25
    assert m["DurationTurns"]["mean"] == 20
    assert m["BranchingFactor"] == {"mean": pytest.approx(11.5), "max": 30}
    assert m["SwapRate"]["value"] == 0.25
    assert m["LeadChange"]["mean"] == pytest.approx((2 / 4 + 0 / 2) / 2)
    assert m["DecisivenessThreshold"]["mean"] == 0.75
    fm = m["FirstMoves"]
    assert fm["c3"]["games"] == 3 and fm["c3"]["first_player_score"] == pytest.approx(0.75)
    assert fm["b2"]["swap_rate"] == 1.0
    assert "SwapRate" not in metrics(rows, swap_possible=False)
    assert "ScoreMargin" not in m
    scored = metrics([_row(margin=3.0), _row(margin=-1.0), _row(margin=1.0)],
                     swap_possible=False)["ScoreMargin"]
    assert scored["value"] == pytest.approx(1.0) and scored["median"] == 1.0
    assert scored["high"] - scored["value"] == pytest.approx(Z95 * 2.0 / math.sqrt(3))


def test_lead_changes_and_the_losers_best_hope():
    evals = [0.65, None, 0.45, 0.5, 0.3, 0.7, 0.8]
    assert lead_changes(evals) == 2  # ahead; None, 0.45, 0.5 in the margin; behind; ahead
    near_even = [0.65, 0.55, 0.45, 0.7]
    assert lead_changes(near_even) == 0 and lead_changes(near_even, margin=0.0) == 2
    assert loser_max(evals, 1.0) == pytest.approx(0.7)  # the second color peaked at 1 - 0.3
    assert loser_max(evals, 0.0) == pytest.approx(0.8)
    assert loser_max(evals, 0.5) is None


def test_histogram_counts_every_value():
    h = histogram([1, 2, 2, 5], bins=2)
    assert h == {"edges": [1, 4, 7], "counts": [3, 1]}


def test_crossing_of_a_symmetric_curve():
    # scores falling linearly through 50% at komi 6
    points = {k: [1.0] * (12 - k) + [0.0] * k for k in range(0, 13, 2)}
    c = crossing(points, seed=1, bootstrap=200)
    assert c["crossing"] == pytest.approx(6.0, abs=0.05)
    assert c["low"] < 6 < c["high"]
    assert interpolated([0, 2, 4], [0.9, 0.7, 0.3]) == pytest.approx(3.0)
    assert interpolated([0, 2], [0.9, 0.7]) is None
    # margins falling by one point per komi point from +5: even at komi 5
    margins = {k: [5.0 - k + d for d in (-2.0, 0.0, 2.0)] for k in range(0, 11, 2)}
    mc = margin_crossing(margins, seed=1, bootstrap=200)
    assert mc["crossing"] == pytest.approx(5.0) and mc["low"] < 5 < mc["high"]
    assert margin_crossing({0: [1.0, -1.0], 2: [1.0, -1.0]}, bootstrap=10) is None
    flat = crossing({0: [1.0, 0.0], 1: [1.0, 0.0]}, bootstrap=10)
    assert flat["crossing"] is None or not math.isfinite(flat["crossing"]) or flat["note"]


# ---------------------------------------------------------------- real studies
def test_small_study_stores_every_game_and_replays(tmp_path):
    out = str(tmp_path / "s")
    stats = run_study(_spec(), out, jobs=1)
    assert stats.played == 6 and stats.stored_games == 6 and stats.bytes_per_game > 0
    rows = _rows(out)
    assert len(rows) == 6
    assert {r["game_index"] for r in rows} == {0, 1, 2}
    for r in rows:
        assert r["plies"] >= r["turns"] >= 1 and r["branching_max"] >= 1
        assert r["evaluated"] > 0 and r["first_move"]
    recs = [rec for f in sorted(os.listdir(os.path.join(out, "records")))
            for rec in records.read(os.path.join(out, "records", f))]
    assert len(recs) == 6 and all(rec.game.is_over for rec in recs)
    from boardlab.ai.match import replay_check
    assert replay_check(recs[0], 6) == 6  # the engines still play these moves
    summary = summarise("robble", _rows(out) and Store(out, "robble", resume=True).games())
    assert len(summary["groups"]) == 2 and "pie=yes" in table(summary)
    with pytest.raises(StudyError, match="already holds a study"):
        run_study(_spec(), out, jobs=1)


def test_resume_after_a_kill_gives_the_uninterrupted_table(tmp_path):
    whole, cut = str(tmp_path / "whole"), str(tmp_path / "cut")
    run_study(_spec(), whole, jobs=2)
    run_study(_spec(), cut, jobs=1, limit=2)      # stopped partway
    assert len(_rows(cut)) == 2
    # what a kill leaves: records written whose rows were never committed (the
    # whole run's file for one configuration: rounds 2 and 3 have no row) ...
    names = sorted(os.listdir(os.path.join(cut, "records")))
    with open(os.path.join(whole, "records", names[1]), "rb") as src, \
            open(os.path.join(cut, "records", names[1]), "wb") as dst:
        dst.write(src.read())
    # ... and a half-written gzip member at the end of a records file
    path = os.path.join(cut, "records", names[0])
    whole_member = gzip.compress(b"[Game \"robble\"]\n" * 20)
    with open(path, "ab") as fh:
        fh.write(whole_member[: len(whole_member) // 2])
    stats = run_study(_spec(), cut, jobs=2, resume=True)
    assert stats.resumed == 2 and stats.played == 4
    assert _rows(cut) == _rows(whole)
    for f in os.listdir(os.path.join(cut, "records")):
        assert len(records.read(os.path.join(cut, "records", f))) == 3


def test_a_corrupt_results_file_is_named_and_kept(tmp_path, capsys):
    out = tmp_path / "s"
    out.mkdir()
    db = out / "results.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    before = db.read_bytes()
    with pytest.raises(StudyError, match="results.sqlite is not a readable study"):
        run_study(_spec(), str(out), resume=True)
    assert db.read_bytes() == before
    code = study_main(["robble", "--sizes", "4", "--games", "1", "--out", str(out),
                       "--resume", "--quiet"])
    assert code == 2 and "results.sqlite" in capsys.readouterr().err


def test_a_corrupt_records_file_is_named(tmp_path):
    out = str(tmp_path / "s")
    run_study(_spec(games=1), out, jobs=1)
    path = os.path.join(out, "records", sorted(os.listdir(os.path.join(out, "records")))[0])
    with open(path, "wb") as fh:
        fh.write(b"\x1f\x8bnot gzip at all")
    with pytest.raises(StudyError, match=os.path.basename(path)):
        run_study(_spec(games=2), out, jobs=1, resume=True)


def test_cli_errors_and_a_run(tmp_path, capsys):
    assert study_main(["chess"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert study_main(["yugo", "--option", "komi=9..1", "--out", str(tmp_path / "x")]) == 2
    assert "range is empty" in capsys.readouterr().err
    assert study_main(["vimbre", "--option", "pie=yes,no", "--out", str(tmp_path / "x")]) == 2
    assert "has no option 'pie'" in capsys.readouterr().err
    out = str(tmp_path / "y")
    assert study_main(["yugo", "--sizes", "4", "--option", "komi=0..2", "--games", "2",
                       "--engine", "random", "--out", out, "--jobs", "1", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "games/s" in text and "komi = " in text
    summary = json.load(open(os.path.join(out, "metrics.json")))
    assert summary["games"] == 6 and summary["crossings"][0]["option"] == "komi"
    page = open(os.path.join(out, "report.html")).read()
    assert page.count("<svg") >= 3 and "class=verdicts" in page and "Every metric" in page


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_gives_the_local_games(tmp_path):
    import ray

    from boardlab.study.ray_backend import batch_size
    local, remote = str(tmp_path / "l"), str(tmp_path / "r")
    run_study(_spec(games=2), local, jobs=1)
    stats = run_study(_spec(games=2), remote, ray="local")
    assert _rows(remote) == _rows(local)
    assert stats.backend == "ray" and 1 <= stats.workers <= 4 and stats.start_seconds > 0
    # the workers of a Ray started here run at the driver's priority (Ray's
    # default, niceness 15, starves them on a shared machine)
    def niceness() -> int:  # (nested: Ray ships it by value, not by module name)
        import os
        return os.getpriority(os.PRIO_PROCESS, 0)
    assert ray.get(ray.remote(niceness).remote()) == niceness()
    assert [batch_size(n, 2) for n in (1, 12, 13, 200, 10_000)] == [1, 1, 2, 8, 8]


def test_ray_missing_is_a_clear_error(tmp_path, monkeypatch):
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed")
    with pytest.raises(StudyError, match="needs the ray package"):
        run_study(_spec(games=1), str(tmp_path / "r"), ray="local")


def test_a_search_smaller_than_the_move_list_gives_no_evaluation():
    from boardlab.ai.selfplay import GameTask
    from boardlab.study.study_game import StudyTask, play_study_game

    def task(engine):
        return StudyTask("k", GameTask("robble", 4, {}, engine, engine, 0, 5))

    # robble 4x4 opens with 16 legal moves: 3 simulations see at most 3 of them
    thin = play_study_game(task("mcts:3"))
    assert thin.evals[0] is None and thin.legal[0] == 16
    full = play_study_game(task("mcts:64"))
    assert full.evals[0] is not None and 0 <= full.evals[0] <= 1


# ---------------------------------------------------------------- settings
def test_resume_with_other_engine_settings_is_refused(tmp_path):
    import sqlite3

    out = str(tmp_path / "s")
    run_study(_spec(games=1), out, jobs=1)
    store = Store(out, "robble", resume=True)
    recorded = store.recorded("mcts:20")
    store.close()
    assert recorded["engine"]["limit"]["simulations"] == 20 and recorded["seed"] == 7
    assert recorded["boardlab"] and recorded["engine"]["settings"]["solver"] is False
    # what an upgrade looks like: the same engine string, another default
    older = recorded | {"boardlab": "0.0.1",
                        "engine": recorded["engine"] | {"settings": recorded["engine"]["settings"]
                                                        | {"solver": True}}}
    db = sqlite3.connect(os.path.join(out, "results.sqlite"))
    with db:
        db.execute("UPDATE meta SET value=? WHERE key='settings:mcts:20'", (json.dumps(older),))
    db.close()
    with pytest.raises(StudyError) as err:
        run_study(_spec(games=2), out, jobs=1, resume=True)
    assert "engine.settings.solver: recorded true, now false" in str(err.value)
    assert "boardlab: recorded \"0.0.1\"" in str(err.value)
    assert len(_rows(out)) == 2  # nothing played, nothing lost
    other = str(tmp_path / "s2")
    run_study(_spec(games=1), other, jobs=1)
    with pytest.raises(StudyError, match="seed: recorded 7, now 8"):
        run_study(_spec(games=1, seed=8), other, jobs=1, resume=True)


def test_a_study_without_recorded_settings_is_not_resumed(tmp_path):
    import sqlite3

    out = str(tmp_path / "s")
    run_study(_spec(games=1), out, jobs=1)
    db = sqlite3.connect(os.path.join(out, "results.sqlite"))
    with db:
        db.execute("DELETE FROM meta WHERE key LIKE 'settings:%'")
    db.close()
    with pytest.raises(StudyError, match="before studies recorded their engine's settings"):
        run_study(_spec(games=2), out, jobs=1, resume=True)


# ---------------------------------------------------------------- engine too weak
def test_adequacy_criteria_by_hand():
    from boardlab.study.adequacy import adequacy, first_move_skew, search_sizes, sides

    assert search_sizes([(16, 20), (10, 30), (1, None), (5, None)]) == {
        "searched": 2, "thin": 1, "opening_legal": 16, "opening_visits": 20}
    # 25 points; a1 (0) and b1 (1) in the low half, e5 (24) in the high one, c3 the centre
    points = {"a1": [0], "b1": [1], "e5": [24], "c3": [12]}

    def rows(moves, visits=100, thin=0):
        return [{"first_move": m, "searched": 10, "thin": thin, "opening_legal": 25,
                 "opening_visits": visits} for m in moves]
    assert sides(rows(["a1", "e5", "c3"]), points, 25) == [-1, 1]
    even, warning = first_move_skew(sides(rows(["a1", "e5"] * 6 + ["c3"]), points, 25))
    assert warning is None and even["n"] == 12 and even["value"] == 0.5
    skew, warning = first_move_skew(sides(rows(["a1", "b1"] * 6 + ["e5"]), points, 25))
    assert warning.startswith("skewed first moves: 12 of 13") and skew["low"] > 0.5
    assert first_move_skew([-1] * 9)[1] is None  # too few games to tell
    assert adequacy(rows(["c3"] * 4))["warnings"] == []
    weak = adequacy(rows(["c3"] * 4, visits=30, thin=4))
    assert [w.split(":")[0] for w in weak["warnings"]] == ["thin play", "thin opening"]


def test_a_weak_engine_is_flagged_and_a_strong_one_is_not(tmp_path):
    weak, strong = str(tmp_path / "w"), str(tmp_path / "s")
    run_study(StudySpec("robble", [5], engine="mcts:10", games=12, seed=3), weak, jobs=2)
    run_study(StudySpec("robble", [4], engine="mcts:300", games=6, seed=3), strong, jobs=2)
    (w,) = summarise("robble", Store(weak, "robble", resume=True).games())["groups"]
    (s,) = summarise("robble", Store(strong, "robble", resume=True).games())["groups"]
    assert any(x.startswith("thin opening") for x in w["warnings"])
    assert w["adequacy"]["OpeningSimulationsPerMove"]["median"] == pytest.approx(10 / 25)
    assert s["warnings"] == [] and s["adequacy"]["OpeningSimulationsPerMove"]["median"] > 2


def test_verdicts_in_plain_words():
    from boardlab.study.verdict import crossing_verdict, group_verdict, verdicts

    def g(value, low, high, n=400, options=None, warnings=()):
        return {"engine": "mcts:1000", "size": 7, "options": options or {"pie": True},
                "warnings": list(warnings), "metrics": {"games": n, "FirstPlayerScore": {
                    "value": value, "low": low, "high": high, "n": n}}}
    fair = group_verdict("robble", g(0.51, 0.46, 0.56))
    assert fair["kind"] == "fair" and fair["text"] == "With pie, robble 7x7 is fair within ±6%"
    assert group_verdict("robble", g(0.62, 0.52, 0.72))["kind"] == "first"
    assert group_verdict("robble", g(0.38, 0.28, 0.48))["text"].endswith("the second player")
    unclear = group_verdict("robble", g(0.45, 0.36, 0.55, n=100))
    assert unclear["kind"] == "unclear" and "±14%" in unclear["text"]
    c = {"engine": "mcts:1000", "size": 7, "option": "komi", "fixed": {}, "values": [0, 6, 12],
         "games": [30, 30, 30], "crossing": 5.2, "low": 3.1, "high": 7.4, "note": ""}
    assert crossing_verdict("yugo", c)["text"] == "Yugo 7x7 is even at komi 5.2 (95% interval 3.1 to 7.4)"
    wide = crossing_verdict("yugo", c | {"low": -20.0, "high": 30.0})
    assert wide["kind"] == "open" and "from -20 to 30" in wide["text"]
    # one weak board: one "not answered" line, and the komi it swept is not called
    weak = [g(0.5, 0.3, 0.7, options={"komi": k}, warnings=["thin opening: 1.4 ..."])
            for k in (0, 6, 12)]
    said = verdicts({"game": "yugo", "groups": weak, "crossings": [c]})
    assert [v["kind"] for v in said] == ["weak"]
    assert said[0]["text"] == ("Yugo 7x7: not answered: mcts:1000 is too weak for this board "
                               "(thin opening)")
