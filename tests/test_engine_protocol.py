"""``boardlab engine`` driven as GUIs and analysis tools drive it: a real
subprocess speaking UGI (and UCI's spelling), and the JSON-lines analysis
engine with KataGo's field names."""

from __future__ import annotations

import json
import os
import queue
import random
import re
import subprocess
import sys
import threading

import pytest

import boardlab
from conftest import wins_now

PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(__file__), "..", "src")}
#: A generous bound on one answer, for a loaded machine (a hung engine fails, not hangs).
WAIT = 120


class Engine:
    """``boardlab engine ARGS`` as a real subprocess, read line by line by a
    pump thread (so a missing answer fails the test instead of hanging it)."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([PY, "-m", "boardlab", "engine", *args], env=ENV,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def next(self) -> str:
        try:
            return self.lines.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError("the engine said nothing") from None

    def until(self, word: str) -> list[str]:
        """Lines up to and including the first whose first word is ``word``."""
        out = []
        while True:
            out.append(self.next())
            if out[-1].split()[:1] == [word]:
                return out

    def close(self) -> int:
        self.send("quit")
        return self.proc.wait(timeout=WAIT)


@pytest.fixture
def engine():
    engines: list[Engine] = []

    def start(*args: str) -> Engine:
        engines.append(Engine(*args))
        return engines[-1]

    yield start
    for e in engines:
        assert e.close() == 0


def _ready(eng: Engine) -> None:
    eng.send("isready")
    eng.until("readyok")


def _one_bestmove(eng: Engine, go: str) -> list[str]:
    """Send ``go``; the lines up to its bestmove, checking that no second
    bestmove follows (``isready`` is answered next, with nothing between)."""
    eng.send(go)
    lines = eng.until("bestmove")
    eng.send("isready")
    assert eng.until("readyok") == ["readyok"], go
    return lines


def _score(info: str) -> tuple[str, int]:
    kind, value = re.search(r" score (cp|mate) (-?\d+) ", info).groups()
    return kind, int(value)


def _seeded_position(name: str, size: int, seed: int, wanted) -> boardlab.Game:
    """A position of seeded random play where ``wanted(game)`` holds."""
    rng = random.Random(seed)
    for _ in range(300):
        game = boardlab.new_game(name, size)
        while not game.is_over:
            if wanted(game):
                return game
            game.play(rng.choice(game.legal_moves()))
    raise AssertionError("no such position found")


def _every_move_loses_at_once(game: boardlab.Game) -> bool:
    """Every move lets the opponent win at once (and none wins first)."""
    if wins_now(game):
        return False
    for m in game.legal_moves():
        probe = game.copy()
        probe.play(m)
        if probe.is_over or probe.to_move == game.to_move or not wins_now(probe):
            return False
    return True


# ---------------------------------------------------------------- UGI
def test_handshake_names_the_options_and_readyok_follows_the_warm_up(engine):
    eng = engine("robble", "--size", "5", "--seed", "9")
    for hello, ok in (("ugi", "ugiok"), ("uci", "uciok")):
        eng.send(hello)
        lines = eng.until(ok)
        assert lines[0].startswith("id name boardlab") and "robble 5x5" in lines[0]
        options = {m.group(1): m.group(2) for m in
                   (re.fullmatch(r"option name (\S+) type spin default (-?\d+) min -?\d+ max \d+", x)
                    for x in lines) if m}
        assert options == {"MultiPV": "1", "Threads": "1", "Seed": "9", "MoveOverhead": "30"}
    eng.send("isready")
    lines = eng.until("readyok")
    # the compiled search was loaded before readyok, so a clocked first move does not pay for it
    assert any(x.startswith("info string search loaded in") for x in lines[:-1]), lines


def test_every_go_form_gets_exactly_one_legal_bestmove(engine):
    eng = engine("robble", "--size", "5")
    _ready(eng)
    eng.send("position startpos moves c3")
    game = boardlab.new_game("robble", 5)
    game.play("c3")
    for go in ["go nodes 60", "go movetime 60", "go depth 2", "go wtime 900 btime 900",
               "go wtime 900 btime 900 winc 20 binc 20 movestogo 5",
               "go p1time 900 p2time 900 p1inc 0 p2inc 0", "go movestogo 1 wtime 200 btime 200",
               "go nodes 50 movetime 5000"]:
        lines = _one_bestmove(eng, go)
        assert lines[-1].split()[1] in game.legal_moves(), (go, lines)


def test_go_infinite_runs_until_stop_then_answers_once(engine):
    eng = engine("pilo", "--size", "5")
    _ready(eng)
    eng.send("position startpos")
    eng.send("go infinite")
    eng.send("isready")
    assert eng.until("readyok")[-1] == "readyok"  # answered while searching
    eng.send("stop")
    assert eng.until("bestmove")[-1].split()[1] in boardlab.new_game("pilo", 5).legal_moves()
    eng.send("isready")
    assert eng.until("readyok") == ["readyok"]


def test_a_finished_game_and_a_bad_go_answer_the_null_move(engine):
    eng = engine("robble", "--size", "4")
    _ready(eng)
    eng.send("position fen robble 4 XXOO/XXOO/OOXO/1OOX black pie=no moves a1")
    lines = _one_bestmove(eng, "go wtime 1000 btime 1000")
    assert lines == ["info string the game is over: no move to search", "bestmove 0000"]
    eng.send("position startpos moves a1")
    for bad, says in [("go nodes many", "expected a whole number"),
                      ("go sideways 3", "unknown parameter 'sideways'"),
                      ("go", "go needs nodes, movetime, depth"),
                      ("go p1time 100 btime 100", "both name black's clock")]:
        lines = _one_bestmove(eng, bad)
        assert lines[-1] == "bestmove 0000" and lines[0].startswith("info string error:")
        assert says in lines[0], (bad, lines)
    eng.send("query p1turn")  # the position is still the one after a1
    assert eng.until("response") == ["response false"]


def test_go_depth_searches_until_the_line_is_that_deep(engine):
    eng = engine("robble", "--size", "5")
    _ready(eng)
    eng.send("position startpos")
    info = [x for x in _one_bestmove(eng, "go depth 4") if x.startswith("info depth")]
    assert int(info[-1].split()[2]) >= 4


def test_setoption_multipv_threads_and_seed(engine):
    eng = engine("yugo", "--size", "5")
    _ready(eng)
    eng.send("setoption name MultiPV value 3")
    eng.send("position startpos")
    info = [x for x in _one_bestmove(eng, "go nodes 300") if x.startswith("info multipv")]
    last = info[-3:]
    assert [x.split()[2] for x in last] == ["1", "2", "3"]
    assert len({x.split(" pv ")[1].split()[0] for x in last}) == 3  # three different moves

    eng.send("setoption name multipv value 1")  # option names are case-insensitive (UCI)
    eng.send("setoption name Seed value 7")
    runs = []
    for _ in range(2):
        final = [x for x in _one_bestmove(eng, "go nodes 400") if x.startswith("info depth")][-1]
        runs.append(re.sub(r" (time|nps) \d+", "", final))
    assert runs[0] == runs[1] and " nodes 400 " in runs[0]  # a seeded node budget replays

    eng.send("setoption name Threads value 2")
    lines = _one_bestmove(eng, "go nodes 400")
    final = [x for x in lines if x.startswith("info depth")][-1]
    assert " nodes 400 " in final  # two trees of 200, read as one
    assert lines[-1].split()[1] in boardlab.new_game("yugo", 5).legal_moves()

    for bad, says in [("setoption name Hash value 64", "unknown option 'Hash'"),
                      ("setoption name MultiPV value 0", "MultiPV takes a whole number in 1..50"),
                      ("setoption name Threads value two", "got 'two'"),
                      ("setoption MultiPV 2", "setoption name <option> value")]:
        eng.send(bad)
        line = eng.until("info")[-1]
        assert line.startswith("info string error:") and says in line, (bad, line)


def test_a_won_position_scores_mate_and_a_lost_one_negative_mate(engine):
    won = _seeded_position("vimbre", 5, 4, lambda g: len(wins_now(g)) == 1
                           and len(g.legal_moves()) > 10)
    eng = engine("vimbre", "--size", "5")
    _ready(eng)
    eng.send("position startpos moves " + " ".join(won.history))
    lines = _one_bestmove(eng, "go nodes 5000")
    assert _score([x for x in lines if x.startswith("info depth")][-1]) == ("mate", 1)
    assert lines[-1].split()[1] == wins_now(won)[0]

    lost = _seeded_position("vimbre", 4, 1, _every_move_loses_at_once)
    eng = engine("vimbre", "--size", "4")
    _ready(eng)
    eng.send("position startpos moves " + " ".join(lost.history))
    lines = _one_bestmove(eng, "go nodes 20000")
    # every move lets the opponent win at once: lost in one of the opponent's moves
    assert _score([x for x in lines if x.startswith("info depth")][-1]) == ("mate", -1)


def test_bad_lines_are_reported_and_change_nothing(engine):
    eng = engine("yugo", "--size", "5")
    eng.send("position startpos moves c3")
    for bad, says in [
        ("position startpos moves c3 c3", "move 2 (c3)"),
        ("position fen yugo 5 nonsense black", "position"),
        ("position sideways", "startpos or fen"),
        ("frobnicate", "unknown command 'frobnicate'"),
        ("query colour", "gameover, p1turn or result"),
    ]:
        eng.send(bad)
        line = eng.until("info")[-1]
        assert line.startswith("info string error:") and says in line, (bad, line)
    eng.send("query p1turn")  # still the position after c3: white to move
    assert eng.until("response") == ["response false"]
    eng.send("position fen robble 4 XXOO/XXOO/OOXO/1OOX black pie=no")
    assert "info string error:" in eng.until("info")[-1]  # another game's text
    eng.send("query result")
    assert eng.until("response") == ["response none"]


# ---------------------------------------------------------------- JSON lines
def _jsonl(*queries, args=()) -> list[dict]:
    text = "\n".join(q if isinstance(q, str) else json.dumps(q) for q in queries) + "\n"
    proc = subprocess.run([PY, "-m", "boardlab", "engine", "--jsonl", *args], input=text,
                          env=ENV, capture_output=True, text=True, timeout=WAIT)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(x) for x in proc.stdout.splitlines()]


def test_jsonl_speaks_katagos_query_fields():
    out = _jsonl({"id": "q", "game": "yugo", "boardXSize": 5, "boardYSize": 5, "komi": 2,
                  "moves": [["B", "c3"], ["white", "b2"]], "initialPlayer": "B",
                  "analyzeTurns": [2, 0, 1], "maxVisits": 120, "includeOwnership": True,
                  "includePolicy": True, "top": 3})
    assert [(o["id"], o["turnNumber"], o["isDuringSearch"]) for o in out] == \
        [("q", 2, False), ("q", 0, False), ("q", 1, False)]
    game = boardlab.new_game("yugo", 5, komi=2)
    positions = [game.position()]
    for m in ("c3", "b2"):
        game.play(m)
        positions.append(game.position())
    for o in out:
        t = o["turnNumber"]
        assert o["rootInfo"]["position"] == positions[t]
        assert o["rootInfo"]["visits"] == 120  # maxVisits is the budget
        assert o["rootInfo"]["currentPlayer"] == ("black", "white")[t % 2]
        assert [m["order"] for m in o["moveInfos"]] == list(range(len(o["moveInfos"]))) and \
            1 <= len(o["moveInfos"]) <= 3
        probe = boardlab.from_position(positions[t])
        assert set(o["policy"]) == set(probe.legal_moves())
        assert abs(sum(o["policy"].values()) - 1) < 1e-3
        assert len(o["ownership"]) == 25 and all(-1 <= v <= 1 for v in o["ownership"])
    # ownership runs from the top-left corner (a5) and is the mover's: after
    # black's c3 (index 12 either way) white is to move, and c3 leans black
    assert out[2]["ownership"][12] < 0


def test_jsonl_refuses_what_it_cannot_honour_and_goes_on():
    out = _jsonl(
        {"id": 1, "game": "robble", "rules": "tromp-taylor"},
        {"id": 2, "game": "robble", "size": 4, "frobnicate": 1, "wiggle": 2},
        {"id": 3, "game": "robble", "size": 4, "turns": [0]},
        {"id": 4, "game": "robble", "size": 4, "moves": [["W", "a1"]]},
        {"id": 5, "game": "robble", "size": 4, "initialPlayer": "W"},
        {"id": 6, "game": "robble", "size": 4, "maxVisits": 10, "limit": "20"},
        {"id": 7, "game": "robble", "size": 4, "moves": ["a1", "a1"]},
        {"id": 8, "game": "robble", "size": 4, "analyzeTurns": [3]},
        {"id": 9, "game": "chess"},
        {"id": 10, "action": "frobnicate"},
        {"id": 11, "action": "terminate"},
        "not an object", "{broken",
        {"id": 12, "game": "robble", "size": 4, "maxVisits": 30, "includeOwnership": True},
        {"id": 13, "game": "robble", "size": 4, "komi": 1},  # another game's option
    )
    errors = {o.get("id"): o for o in out if "error" in o}
    for rid, field, says in [
        (1, "rules", "not supported"), (2, "frobnicate", "unknown fields 'frobnicate', 'wiggle'"),
        (3, "turns", "analyzeTurns"), (4, "moves", "'W' is not to move (black is)"),
        (5, "initialPlayer", "black is"), (6, "maxVisits", "both set the visits"),
        (7, "moves", "move 2 (a1)"), (8, "analyzeTurns", "0..0"), (9, "game", "unknown game"),
        (10, "action", "unknown action"), (11, "terminateId", "terminateId"),
        (13, "komi", "robble has no such option (options: pie)"),
    ]:
        assert says in errors[rid]["error"] and errors[rid].get("field", "game") == field, rid
    assert "line 13" in errors[None]["error"] or "line 12" in errors[None]["error"]
    # the engine went on: the last query is answered, with a warning that robble has no ownership
    last = [o for o in out if o.get("id") == 12]
    assert last[0]["field"] == "includeOwnership" and "warning" in last[0]
    assert last[1]["rootInfo"]["visits"] == 30 and "ownership" not in last[1]


def test_jsonl_reports_during_search_terminates_and_answers_actions():
    proc = subprocess.Popen([PY, "-m", "boardlab", "engine", "--jsonl", "pilo"], env=ENV,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    answers: queue.Queue[dict | None] = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:
            answers.put(json.loads(line))
        answers.put(None)  # the engine closed its output

    threading.Thread(target=pump, daemon=True).start()

    def send(obj: dict) -> None:
        proc.stdin.write(json.dumps(obj) + "\n")
        proc.stdin.flush()

    def get() -> dict | None:
        return answers.get(timeout=WAIT)

    send({"id": "long", "size": 5, "limit": "600s", "reportDuringSearchEvery": 0.1, "top": 2})
    first = get()
    assert first is not None and first["id"] == "long" and first["isDuringSearch"] and first["moveInfos"]
    # queued behind the long search: the higher priority goes first; "gone" is terminated unsearched
    send({"id": "low", "size": 5, "maxVisits": 40})
    send({"id": "high", "size": 5, "maxVisits": 40, "priority": 5})
    send({"id": "gone", "size": 5, "maxVisits": 40, "priority": 9})
    for action in ({"id": "v", "action": "query_version"}, {"id": "c", "action": "clear_cache"},
                   {"id": "t1", "action": "terminate", "terminateId": "gone"},
                   {"id": "t2", "action": "terminate", "terminateId": "long", "turnNumbers": [0]}):
        send(action)
    proc.stdin.close()  # the engine finishes what is queued, then exits
    rest = []
    while (answer := get()) is not None:
        rest.append(answer)
    assert proc.wait(timeout=WAIT) == 0
    echoed = {o["id"]: o for o in rest if "action" in o}
    assert echoed["v"]["version"] == boardlab.__version__ and echoed["c"] == {"id": "c", "action": "clear_cache"}
    assert set(echoed) == {"v", "c", "t1", "t2"}
    finals = [o for o in rest if "action" not in o and not o.get("isDuringSearch")]
    assert [o["id"] for o in finals] == ["long", "gone", "high", "low"]
    assert finals[0]["moveInfos"] and finals[0]["rootInfo"]["visits"] > 0  # stopped, with what it had
    assert finals[1] == {"id": "gone", "turnNumber": 0, "isDuringSearch": False, "noResults": True}
    assert all(o["rootInfo"]["visits"] == 40 for o in finals[2:])
