"""The analysis endpoints (routes/analysis_api.py): drawing any position, one
position's analysis (final, and streamed over the socket), a whole game's
judged analysis, the per-client limit, stopping, and the 4xx answers.

Searches run in the hub's thread pool (``engine_workers=0``) except in one
test that checks the stream crosses the real process pool.
"""

from __future__ import annotations

import random
import time

import pytest

import boardlab
from boardlab.web import create_app
from boardlab.web.settings import Settings
from web_support import BrowserClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    with BrowserClient(create_app(tmp_path / "g.sqlite3", engine_workers=0)) as c:
        yield c


def _random_game(name: str, size: int, plies: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    g = boardlab.new_game(name, size)
    moves = []
    while not g.is_over and len(moves) < plies:
        m = rng.choice(g.legal_moves())
        g.play(m)
        moves.append(m)
    return moves


def _error(r, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()["error"]
    assert body["code"] == code, body
    return body["message"]


# ---------------------------------------------------------------- drawing a position
def test_view_draws_any_position_with_its_legal_moves(client):
    moves = _random_game("yugo", 7, 6)
    r = client.post("/api/analysis/view", json={"game": "yugo", "size": 7, "moves": moves})
    assert r.status_code == 200, r.text
    v = r.json()
    g = boardlab.new_game("yugo", 7)
    for m in moves:
        g.play(m)
    assert v["position"] == g.position()
    assert sorted(v["legal"]) == sorted(g.legal_moves())
    assert set(v["legal_points"]) == set(v["legal"])
    assert v["ply"] == 6 and len(v["movers"]) == 6 and v["movers"][0] == "black"


def test_view_errors_say_what_and_where(client):
    msg = _error(client.post("/api/analysis/view",
                             json={"game": "robble", "size": 5, "moves": ["c3", "b2", "c3"]}),
                 400, "illegal_move")
    assert msg.startswith("move 3 (c3):") and "occupied" in msg
    assert "nope" in _error(client.post("/api/analysis/view", json={"game": "nope"}),
                            400, "unknown_game")
    _error(client.post("/api/analysis/view", json={"game": "robble", "size": 99}),
           400, "bad_option")
    _error(client.post("/api/analysis/view", json={"game": "robble", "start": "robble 4 zz"}),
           400, "bad_position")
    _error(client.post("/api/analysis/view", json={"game": "robble", "moves": "c3"}),
           400, "bad_request")
    many = ["pass"] * 1001
    assert "1000" in _error(client.post("/api/analysis/view",
                                        json={"game": "pilo", "moves": many}),
                            400, "too_many_moves")


# ---------------------------------------------------------------- one position
def test_position_analysis_answers_legal_candidates(client):
    moves = ["c3"]
    r = client.post("/api/analysis/position",
                    json={"game": "robble", "size": 5, "moves": moves, "seconds": 0.3, "top": 3})
    assert r.status_code == 200, r.text
    a = r.json()
    g = boardlab.new_game("robble", 5)
    g.play("c3")
    assert a["done"] and a["to_move"] == g.to_move and a["visits"] > 0
    assert 1 <= len(a["candidates"]) <= 3
    for c in a["candidates"]:
        assert c["move"] in g.legal_moves()
        swap = g.string_to_action(c["move"]) == g.swap_action  # names no point
        assert c["pv"][0] == c["move"] and c["points"] == ([] if swap else [c["move"]])
        assert 0.0 <= c["winrate"] <= 1.0
    assert abs(sum(a["wins"].values()) - 1.0) < 1e-3


def test_final_analysis_carries_the_ownership_map_where_the_game_shows_one(client):
    r = client.post("/api/analysis/position",
                    json={"game": "pilo", "size": 5, "moves": ["c3"], "seconds": 0.2})
    assert r.status_code == 200, r.text
    own = r.json()["ownership"]
    assert own["color"] == "blue" and len(own["values"]) == 25
    assert all(-1 <= v <= 1 for v in own["values"]) and any(v != 0 for v in own["values"])
    for game in ("robble", "yugo"):  # no map: no point score / not shown (measured)
        r = client.post("/api/analysis/position", json={"game": game, "size": 5, "seconds": 0.1})
        assert r.status_code == 200 and r.json()["ownership"] is None


def test_position_budget_and_game_over_errors(client):
    body = {"game": "robble", "size": 5, "moves": []}
    assert "30" in _error(client.post("/api/analysis/position", json={**body, "seconds": 31}),
                          400, "bad_budget")
    _error(client.post("/api/analysis/position", json={**body, "seconds": 0}), 400, "bad_budget")
    _error(client.post("/api/analysis/position", json={**body, "top": 50}), 400, "bad_request")
    over = boardlab.from_position("robble 4 XXOO/XXOO/OOXO/1OOX black pie=no")
    over.play("a1")
    assert over.is_over
    _error(client.post("/api/analysis/position",
                       json={"game": "robble", "start": "robble 4 XXOO/XXOO/OOXO/1OOX black pie=no",
                             "moves": ["a1"], "seconds": 0.1}), 409, "game_over")
    limits = client.get("/api/analysis/limits").json()
    assert limits["position"]["max"] == 30 and limits["game"]["default"] == 0.5


# ---------------------------------------------------------------- the socket
def test_socket_streams_refinements_then_the_final(client):
    with client.websocket_connect("/api/analysis/ws") as ws:
        started = time.perf_counter()
        ws.send_json({"type": "position", "id": 7, "game": "yugo", "size": 7,
                      "moves": [], "seconds": 1.5})
        got = []
        while True:
            m = ws.receive_json()
            assert m["type"] == "analysis" and m["id"] == 7, m
            got.append((time.perf_counter() - started, m["analysis"]))
            if m["analysis"]["done"]:
                break
    assert len(got) >= 3, [t for t, _ in got]          # refined while it ran
    assert not got[0][1]["done"] and got[0][1]["candidates"]
    assert got[0][0] < got[-1][0] - 0.5                  # the first came well before the end
    visits = [a["visits"] for _, a in got]
    assert visits == sorted(visits) and visits[-1] > visits[0]


def test_socket_game_job_judges_every_move(client):
    moves = _random_game("robble", 4, 40, seed=5)
    g = boardlab.new_game("robble", 4)
    for m in moves:
        g.play(m)
    positions = len(moves) + (0 if g.is_over else 1)
    with client.websocket_connect("/api/analysis/ws") as ws:
        ws.send_json({"type": "game", "id": "g", "game": "robble", "size": 4, "moves": moves,
                      "seconds": 0.05})
        progress = []
        while True:
            m = ws.receive_json()
            if m["type"] != "progress":
                break
            progress.append(m)
    assert m["type"] == "game", m
    res = m["result"]
    assert progress and all(p["total"] == positions for p in progress)
    assert [p["done"] for p in progress] == sorted(p["done"] for p in progress)
    assert len(res["plies"]) == positions and len(res["judgements"]) == len(moves)
    assert len(res["wins"]) == len(moves) + 1
    if g.is_over:  # the last point is the result
        assert res["wins"][-1][g.outcome.winner] == 1.0 or g.outcome.winner == "draw"
    labels = [j["label"] for j in res["judgements"] if j["label"]]
    for color, row in res["counts"].items():
        assert sum(row.values()) == sum(1 for j in res["judgements"]
                                        if j["label"] and j["mover"] == color)
    assert sum(sum(r.values()) for r in res["counts"].values()) == len(labels)
    for j in res["judgements"]:
        assert j["move"] == moves[j["ply"]]
        assert (j["label"] is None) == (j["before"] - j["after"] < 0.10)


def test_socket_errors_and_one_analysis_per_client(client):
    with client.websocket_connect("/api/analysis/ws") as ws:
        ws.send_json({"type": "position", "id": 1, "game": "robble", "moves": ["zz9"]})
        m = ws.receive_json()
        assert m["type"] == "error" and m["error"]["code"] == "illegal_move"
        assert m["error"]["status"] == 400 and "move 1 (zz9)" in m["error"]["message"]
        ws.send_json({"type": "bogus"})
        assert ws.receive_json()["error"]["code"] == "bad_request"
        ws.send_json({"type": "game", "id": 2, "game": "robble", "moves": ["c3"] * 0,
                      "seconds": 6})
        assert ws.receive_json()["error"]["code"] == "bad_budget"
        ws.send_json({"type": "position", "id": 3, "game": "robble", "moves": [], "seconds": 20})
        assert ws.receive_json()["type"] == "analysis"   # running now
        r = client.post("/api/analysis/position", json={"game": "robble", "seconds": 0.1})
        _error(r, 429, "analysis_busy")
        t = time.perf_counter()
        ws.send_json({"type": "stop", "id": 4})
        while (m := ws.receive_json())["type"] == "analysis":
            pass
        assert m == {"type": "stopped", "id": 4, "was_running": True}
        assert time.perf_counter() - t < 5
    r = client.post("/api/analysis/position", json={"game": "robble", "seconds": 0.1})
    assert r.status_code == 200, r.text


def test_leaving_stops_the_analysis(client):
    with client.websocket_connect("/api/analysis/ws") as ws:
        ws.send_json({"type": "position", "id": 1, "game": "vimbre", "seconds": 25})
        assert ws.receive_json()["type"] == "analysis"
    t = time.perf_counter()
    while True:  # freed as soon as the worker saw the stop, not after 25 s
        r = client.post("/api/analysis/position", json={"game": "vimbre", "seconds": 0.1})
        if r.status_code == 200:
            break
        assert r.json()["error"]["code"] == "analysis_busy"
        assert time.perf_counter() - t < 8, "the analysis went on after its socket closed"
        time.sleep(0.2)


def test_stream_crosses_the_process_pool(tmp_path):
    settings = Settings(engine_workers=1, engine_warm_up=True)
    app = create_app(tmp_path / "g.sqlite3", settings=settings)
    with BrowserClient(app) as c:
        with c.websocket_connect("/api/analysis/ws") as ws:
            ws.send_json({"type": "position", "id": 1, "game": "pilo", "seconds": 1.5})
            kinds = []
            while True:
                m = ws.receive_json()
                kinds.append(m["analysis"]["done"])
                if m["analysis"]["done"]:
                    break
            assert kinds.count(False) >= 2, kinds
            # a stop crosses to the worker too (its channel's stop file), long before the budget
            ws.send_json({"type": "position", "id": 2, "game": "pilo", "seconds": 25})
            assert ws.receive_json()["type"] == "analysis"
            workers = sorted(app.state.hub.pool.pids())
            t = time.perf_counter()
            ws.send_json({"type": "stop", "id": 3})
            while (m := ws.receive_json())["type"] == "analysis":
                pass
            assert m["type"] == "stopped" and m["was_running"]
            assert time.perf_counter() - t < 5
        r = c.post("/api/analysis/position", json={"game": "pilo", "seconds": 0.2})
        assert r.status_code == 200, r.text     # the worker is free again,
        assert sorted(app.state.hub.pool.pids()) == workers  # and was not killed


def test_socket_refuses_a_flood(client):
    with client.websocket_connect("/api/analysis/ws") as ws:
        codes = []
        for _ in range(30):
            ws.send_json({"type": "stop"})
        for _ in range(30):
            m = ws.receive_json()
            codes.append(m["type"] if m["type"] != "error" else m["error"]["code"])
    assert codes.count("stopped") >= 20 and "rate_limited" in codes, codes


# ---------------------------------------------------------------- the board editor's positions
def test_setup_turns_the_editors_pieces_into_a_position_or_says_why_not(client):
    kinds = {k["name"]: k for k in client.get("/api/kinds").json()}
    assert {"token": "b", "type": "stack", "color": "blue"} in kinds["pilo"]["pieces"]
    cells = [None] * 25
    cells[12], cells[0] = {"token": "X"}, {"token": "O"}
    r = client.post("/api/analysis/setup", json={"game": "robble", "size": 5, "cells": cells,
                                                 "to_move": "white", "options": {"pie": False}})
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["position"] == "robble 5 5/5/2X2/5/O4 white pie=no swap=no"
    assert v["cells"][12] == {"type": "stone", "color": "black"} and "c3" not in v["legal"]
    assert "black moves first" in _error(client.post("/api/analysis/setup", json={
        "game": "robble", "size": 5, "cells": [None] * 25, "to_move": "white"}), 400, "bad_position")
    assert "cells[3]: 'Q' is not a robble piece" in _error(client.post("/api/analysis/setup", json={
        "game": "robble", "size": 5, "cells": [None] * 3 + [{"token": "Q"}] + [None] * 21,
        "to_move": "black"}), 400, "bad_position")
    assert "cells: 25" in _error(client.post("/api/analysis/setup", json={
        "game": "robble", "size": 5, "cells": [None] * 24, "to_move": "black"}), 400, "bad_position")
    stack = [None] * 25
    stack[12] = {"token": "b"}                   # pilo: who played last, from who is to move
    assert client.post("/api/analysis/setup", json={
        "game": "pilo", "size": 5, "cells": stack, "to_move": "orange",
        "options": {"pie": False}}).json()["position"].endswith("last=blue")
    stack[12] = {"token": "b", "height": 2}
    assert "unreachable board" in _error(client.post("/api/analysis/setup", json={
        "game": "pilo", "size": 5, "cells": stack, "to_move": "orange"}), 400, "bad_position")
