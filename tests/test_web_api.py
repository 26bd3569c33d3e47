"""The web app's JSON API: every endpoint, good and bad input (FastAPI TestClient).

The computer's moves run in a thread pool here (``engine_workers=0``) except in
one test that checks the real process pool.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import time

import pytest

import boardlab
from boardlab import ai
from boardlab.study import published
from boardlab.web import (
    create_app,
    view,
)
from boardlab.web import hub as hub_module
from boardlab.web.db import Store
from web_support import BrowserClient  # keeps owner tokens as the page does

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class _Swapper:
    """Swaps whenever it may; otherwise plays the first legal move."""
    name = "swapper"

    def __init__(self, seed=None):
        pass

    def choose(self, game):
        legal = game.legal_moves()
        return "swap" if "swap" in legal else legal[0]


class _BoardReader(_Swapper):
    """Names komi and picks a color from the board size it is told (yugo's
    pre-game hooks): black and komi 3 on 5x5 only, so a caller that drops the
    size shows."""
    name = "board-reader"

    def name_value(self, game):
        return 3 if game.size == 5 else 0

    def choose_color(self, game):
        return "black" if game.size == 5 else "white"


class _KomiCounter:
    """Counts the komi searches it is asked for (the hub should remember them)."""
    name = "komi-counter"
    calls: list[int] = []

    def __init__(self, seed=None):
        pass

    def name_value(self, game):
        _KomiCounter.calls.append(game.size)
        return game.size - 3  # within 0 .. 2 * fair_komi(size) on 5x5 and 7x7


class _Broken:
    name = "broken"

    def __init__(self, seed=None):
        pass

    def choose(self, game):
        raise RuntimeError("out of cheese")


class _Quitter(_Broken):
    def choose(self, game):
        raise SystemExit(3)


@pytest.fixture(autouse=True, scope="module")
def _test_engines():
    """Two test-only engines, taken out of the shared registry afterwards."""
    ai.register("test-swapper", _Swapper, strength=-10, summary="test only")
    ai.register("test-broken", _Broken, strength=-10, summary="test only")
    ai.register("test-board-reader", _BoardReader, strength=-10, summary="test only")
    ai.register("test-komi-counter", _KomiCounter, strength=-10, summary="test only")
    ai.register("test-quitter", _Quitter, strength=-10, summary="test only")
    yield
    registry = getattr(ai, "_REGISTRY", {})
    for name in ("test-swapper", "test-broken", "test-board-reader", "test-komi-counter",
                 "test-quitter"):
        registry.pop(name, None)


@pytest.fixture
def client(tmp_path):
    app = create_app(tmp_path / "games.sqlite3", engine_workers=0)
    with BrowserClient(app) as c:
        yield c


def new(client, **spec) -> dict:
    r = client.post("/api/games", json=spec)
    assert r.status_code == 201, r.text
    return r.json()


def move(client, gid, mv, **extra):
    return client.post(f"/api/games/{gid}/moves", json={"move": mv, **extra})


def wait_turn(client, state, timeout=10.0) -> dict:
    """Long-poll until it is the human's turn again (or the game is over)."""
    while not state["your_turn"] and not state["over"]:
        r = client.get(f"/api/games/{state['id']}", params={"after": state["version"], "wait": timeout})
        assert r.status_code == 200
        if r.json()["version"] == state["version"]:
            raise AssertionError(f"no change within {timeout}s: {r.json()['engine_error']}")
        state = r.json()
    return state


def err(r, status, code):
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body["error"]["message"]


# ---------------------------------------------------------------- catalogue
def test_kinds(client):
    kinds = client.get("/api/kinds").json()
    assert [k["name"] for k in kinds] == list(boardlab.GAMES)
    by = {k["name"]: k for k in kinds}
    assert by["pilo"]["colors"] == ["blue", "orange"] and by["pilo"]["board"] == "squares"
    assert by["yugo"]["options"] == {"komi": 0} and by["vimbre"]["options"] == {}
    assert by["implo"]["board"] == "points" and by["robble"]["default_size"] == 7


def test_engines_lists_the_registry(client):
    names = [e["name"] for e in client.get("/api/engines").json()]
    # the form offers the first: a newcomer meets the weakest real level, not random moves
    assert names[0] == "level1" and names[-1] == "random"
    assert set(ai.agent_names()) <= set(names)


def test_yugo_komi_proposal(client):
    assert client.get("/api/yugo/pregame", params={"size": 9}).json() == {"option": "komi",
                                                                          "value": 6}
    err(client.get("/api/yugo/pregame", params={"size": 3}), 400, "bad_request")
    err(client.get("/api/robble/pregame", params={"size": 7}), 400, "bad_option")  # none there
    err(client.get("/api/chess/pregame", params={"size": 7}), 404, "unknown_game")
    kinds = {k["name"]: k for k in client.get("/api/kinds").json()}
    assert kinds["yugo"]["pregame"]["option"] == "komi" and kinds["robble"]["pregame"] is None


# ---------------------------------------------------------------- creating games
@pytest.mark.parametrize("name", boardlab.GAMES)
def test_new_hot_seat_game_of_each_kind(client, name):
    st = new(client, game=name, size=5, opponent="human")
    assert st["game"] == name and st["size"] == 5 and st["ply"] == 0 and not st["over"]
    assert st["your_turn"] and st["legal"] and st["to_move"] == st["colors"][0]
    assert len(st["cells"]) == 25 and all(c is None for c in st["cells"])
    assert [s["kind"] for s in st["seats"]] == ["human", "human"]
    assert boardlab.new_game(name, 5).legal_moves() == st["legal"]


def test_new_game_against_the_computer_moving_first(client):
    st = new(client, game="robble", size=5, opponent="computer", engine="random", color="white")
    assert st["seats"][0]["kind"] == "computer" and st["seats"][1]["kind"] == "human"
    st = wait_turn(client, st)
    assert st["ply"] == 1 and st["movers"] == ["black"] and st["to_move"] == "white"


def test_new_game_defaults_and_options(client):
    st = new(client, game="implo", opponent="human", options={"pie": False})
    assert st["size"] == 9 and st["options"] == {"pie": False}


@pytest.mark.parametrize("spec, status, code", [
    ({"game": "chess"}, 400, "unknown_game"),
    ({"game": "robble", "size": 3}, 400, "bad_option"),
    ({"game": "robble", "size": 20}, 400, "bad_option"),
    ({"game": "robble", "options": {"komi": 1}}, 400, "bad_option"),
    ({"game": "robble", "options": {"pie": "yes"}}, 400, "bad_option"),
    ({"game": "robble", "engine": "deep-blue"}, 400, "unknown_engine"),
    ({"game": "robble", "color": "green"}, 400, "bad_option"),
    ({"game": "robble", "opponent": "alien"}, 400, "bad_request"),
    ({"game": "robble", "extra": 1}, 400, "bad_request"),
    ({"size": 5}, 400, "bad_request"),
    ({"game": "robble", "pregame": {"namer": "human", "value": 3}}, 400, "bad_option"),
    ({"game": "yugo", "pregame": {"namer": "human"}}, 400, "bad_option"),
    ({"game": "yugo", "pregame": {"namer": "computer", "color": "red"}}, 400, "bad_option"),
])
def test_new_game_bad_requests(client, spec, status, code):
    err(client.post("/api/games", json=spec), status, code)


def test_new_game_malformed_json(client):
    r = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    err(r, 400, "bad_request")


def test_yugo_komi_negotiation(client):
    # the human names komi, the computer picks a color
    st = new(client, game="yugo", size=9, pregame={"namer": "human", "value": 10})
    assert st["options"]["komi"] == 10
    assert st["meta"]["pregame"]["computer_color"] == "white"  # generous komi: it takes white
    assert st["seats"][1]["kind"] == "computer"
    st = new(client, game="yugo", size=9, pregame={"namer": "human", "value": 0})
    assert st["meta"]["pregame"]["computer_color"] == "black" and st["seats"][0]["kind"] == "computer"
    # the computer names komi, the human picks a color
    st = new(client, game="yugo", size=9, pregame={"namer": "computer", "color": "white"})
    assert st["options"]["komi"] == 6 and st["seats"][1]["kind"] == "human"
    # hot-seat: the komi named by the first player is just an option
    st = new(client, game="yugo", size=5, opponent="human", options={"komi": 3})
    assert st["options"]["komi"] == 3


def test_yugo_pre_game_hooks_see_the_board_size(client):
    """The engine's komi and color choices are made for the game's board, not 9x9."""
    st = new(client, game="yugo", size=5, engine="test-board-reader",
             pregame={"namer": "human", "value": 3})
    assert st["meta"]["pregame"]["computer_color"] == "black"
    st = new(client, game="yugo", size=5, engine="test-board-reader",
             pregame={"namer": "computer", "color": "white"})
    assert st["options"]["komi"] == 3
    r = client.get("/api/yugo/pregame", params={"size": 5, "engine": "test-board-reader"})
    assert r.json() == {"option": "komi", "value": 3}
    err(client.get("/api/yugo/pregame", params={"size": 5, "engine": "deepblue"}), 400,
        "unknown_engine")


# ---------------------------------------------------------------- reading games
def test_list_and_get_games(client):
    a = new(client, game="robble", size=5, opponent="human")
    b = new(client, game="pilo", size=6, opponent="human")
    move(client, a["id"], "c3")
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [a["id"], b["id"]]  # most recently changed first
    assert listed[0]["moves"] == 1 and listed[0]["status"] == "playing"
    st = client.get(f"/api/games/{a['id']}").json()
    assert st["moves"] == ["c3"] and st["last_move"] == "c3" and st["last_points"] == ["c3"]


def test_get_unknown_game(client):
    err(client.get("/api/games/nope"), 404, "not_found")
    err(client.get("/api/nothing-here"), 404, "not_found")


def test_view_an_earlier_ply_without_changing_the_game(client):
    st = new(client, game="robble", size=5, opponent="human", options={"pie": False})
    for mv in ("c3", "c2", "b3"):
        st = move(client, st["id"], mv).json()
    past = client.get(f"/api/games/{st['id']}", params={"ply": 1}).json()
    assert past["view_ply"] == 1 and past["viewing"] and past["ply"] == 3
    assert past["legal"] == [] and past["last_move"] == "c3"
    assert sum(c is not None for c in past["cells"]) == 1
    now = client.get(f"/api/games/{st['id']}").json()
    assert now["ply"] == 3 and now["moves"] == ["c3", "c2", "b3"] and not now["viewing"]
    err(client.get(f"/api/games/{st['id']}", params={"ply": -1}), 400, "bad_request")


def test_long_poll_returns_at_once_on_a_stale_version_and_times_out_otherwise(client):
    st = new(client, game="robble", size=5, opponent="human")
    r = client.get(f"/api/games/{st['id']}", params={"after": "old", "wait": 5})
    assert r.json()["version"] == st["version"]
    r = client.get(f"/api/games/{st['id']}", params={"after": st["version"], "wait": 0.2})
    assert r.json()["version"] == st["version"]


# ---------------------------------------------------------------- moves
def test_moves_are_validated_by_the_library(client):
    st = new(client, game="robble", size=5, opponent="human")
    gid = st["id"]
    st = move(client, gid, " C3 ").json()  # case and blanks are ignored; stored canonical
    assert st["moves"] == ["c3"] and st["to_move"] == "white"
    msg = err(move(client, gid, "c3"), 400, "illegal_move")
    assert "occupied" in msg
    err(move(client, gid, "z9"), 400, "malformed_move")
    err(move(client, gid, "hello"), 400, "malformed_move")
    err(client.post(f"/api/games/{gid}/moves", json={}), 400, "bad_request")
    err(client.post(f"/api/games/{gid}/moves", json={"move": 3}), 400, "bad_request")
    err(move(client, gid, "c2", color="black"), 409, "not_your_turn")
    err(move(client, gid, "c2", ply=0), 409, "stale")
    assert move(client, gid, "c2", ply=1, color="white").status_code == 200
    err(move(client, "nope", "c3"), 404, "not_found")


def test_not_your_turn_while_the_computer_moves(client):
    st = new(client, game="robble", size=5, engine="test-broken", color="white")
    assert st["to_move_seat"] == 0 and not st["your_turn"] and st["legal"] == []
    err(move(client, st["id"], "c3"), 409, "not_your_turn")


def test_moves_after_the_end(client):
    st = new(client, game="vimbre", size=4, opponent="human")
    rng = random.Random(5)
    while not st["over"]:
        st = move(client, st["id"], rng.choice(st["legal"])).json()
    assert st["result"]["termination"] == "connection" and st["result_text"]
    err(move(client, st["id"], "a1"), 409, "game_over")


def test_a_game_against_the_computer_to_the_end(client):
    st = new(client, game="implo", size=4, engine="random", color="black")
    rng = random.Random(2)
    plies = 0
    while not st["over"]:
        st = move(client, st["id"], rng.choice(st["legal"])).json()
        st = wait_turn(client, st)
        plies += 1
        assert plies < 200
    assert st["result"]["winner"] in ("black", "white")
    game = boardlab.new_game("implo", 4)
    for mv in st["moves"]:
        game.play(mv)
    assert game.is_over and game.outcome.winner == st["result"]["winner"]


def test_swap_flips_the_seats(client):
    st = new(client, game="robble", size=5, engine="test-swapper", color="black")
    st = move(client, st["id"], "c3").json()
    st = wait_turn(client, st)
    assert st["moves"] == ["c3", "swap"] and st["swapped"]
    assert st["seats"][0] == {"kind": "human", "label": "You", "color": "white"}
    assert st["seats"][1]["color"] == "black"
    assert st["to_move"] == "white" and st["your_turn"]


def test_engine_failure_is_reported_and_can_be_retried(client):
    st = new(client, game="robble", size=5, engine="test-broken", color="white")
    st = wait_turn_or_error(client, st)
    assert "out of cheese" in st["engine_error"] and not st["thinking"]
    r = client.post(f"/api/games/{st['id']}/engine")
    assert r.status_code == 200
    st = wait_turn_or_error(client, r.json())
    assert st["engine_error"]
    err(client.post("/api/games/nope/engine"), 404, "not_found")


def wait_turn_or_error(client, st):
    for _ in range(50):
        if st["engine_error"]:
            return st
        st = client.get(f"/api/games/{st['id']}", params={"after": st["version"], "wait": 5}).json()
    raise AssertionError("no engine error")


# ---------------------------------------------------------------- hints for the page
def _play_until(client, name, size, want, seed_range=range(200)):
    for seed in seed_range:
        rng = random.Random(seed)
        game = boardlab.new_game(name, size)
        while not game.is_over:
            if want(game):
                st = new(client, game=name, size=size, opponent="human")
                for mv in game.history:
                    st = move(client, st["id"], mv).json()
                return st
            game.play(rng.choice(game.legal_moves()))
    raise AssertionError("position not found")


def test_implo_patch_hints(client):
    st = _play_until(client, "implo", 5, lambda g: any("/" in m for m in g.legal_moves()))
    assert st["mid_turn"]
    patches = st["hints"]["patches"]
    tied = [p for p in patches if p["choices"]]
    assert tied
    for p in tied:
        assert p["anchor"] in p["points"] and 1 <= len(p["points"]) <= 4
        for ch in p["choices"]:
            assert ch["move"] in st["legal"] and ch["group"] in ch["points"]
            assert all(st["cells"][view_index(q)]["type"] == "stone" for q in ch["points"])
    # markers are drawn as markers
    game = boardlab.new_game("implo", 5)
    for mv in st["moves"]:
        game.play(mv)
    assert view.board_cells(game) == st["cells"]


def view_index(name, size=5):
    return (int(name[1:]) - 1) * size + "abcdefghijklmnopqrs".index(name[0])


def test_pilo_stack_heights_and_blocks(client):
    st = _play_until(client, "pilo", 5, lambda g: any("-" in m for m in g.legal_moves()))
    mv = next(m for m in st["legal"] if "-" in m)
    a, b = mv.split("-")
    h = st["cells"][view_index(a)]["height"]
    st = move(client, st["id"], mv).json()
    assert st["cells"][view_index(a)] == {"type": "block", "color": None}
    assert st["cells"][view_index(b)]["height"] == h + 1
    assert st["last_points"] == [a, b]


def test_yugo_marking_hints(client):
    def marking(g):
        return "phase=mark" in g.position()
    st = _play_until(client, "yugo", 5, marking, seed_range=range(400))
    assert st["hints"]["phase"] == "mark"
    marks = [m for m in st["legal"] if m.startswith("mark ")]
    if marks:
        st = move(client, st["id"], marks[0]).json()
        assert st["hints"]["marked"][0]["point"] == marks[0].split()[1]
    st = move(client, st["id"], "done").json()
    assert st["hints"]["phase"] == "answer" and set(st["legal"]) == {"accept", "reject"}


# ---------------------------------------------------------------- undo and resign
def test_undo_against_the_computer_takes_back_a_whole_exchange(client):
    st = new(client, game="robble", size=5, engine="random", color="black", options={"pie": False})
    st = wait_turn(client, move(client, st["id"], "c3").json())
    st = wait_turn(client, move(client, st["id"], st["legal"][0]).json())
    assert st["ply"] == 4 and st["can_undo"]
    r = client.post(f"/api/games/{st['id']}/undo")
    assert r.status_code == 200
    st = r.json()
    assert st["ply"] == 2 and st["your_turn"] and st["movers"] == ["black", "white"]
    st = client.post(f"/api/games/{st['id']}/undo").json()
    assert st["ply"] == 0 and not st["can_undo"]
    err(client.post(f"/api/games/{st['id']}/undo"), 409, "cannot_undo")
    err(client.post("/api/games/nope/undo"), 404, "not_found")


def test_undo_when_the_computer_moved_first(client):
    st = wait_turn(client, new(client, game="robble", size=5, engine="random", color="white"))
    assert st["ply"] == 1 and not st["can_undo"]
    err(client.post(f"/api/games/{st['id']}/undo"), 409, "cannot_undo")


def test_undo_hot_seat_takes_back_one_move(client):
    st = new(client, game="robble", size=5, opponent="human")
    move(client, st["id"], "c3")
    move(client, st["id"], "c2")
    st = client.post(f"/api/games/{st['id']}/undo").json()
    assert st["moves"] == ["c3"]


def test_resign(client):
    # pie off: a random engine could otherwise swap, making the human orange
    st = new(client, game="pilo", size=5, engine="random", color="blue", options={"pie": False})
    st = wait_turn(client, move(client, st["id"], "c3").json())
    err(client.post(f"/api/games/{st['id']}/resign", json={"color": "orange"}), 409, "not_your_turn")
    r = client.post(f"/api/games/{st['id']}/resign")
    assert r.status_code == 200
    st = r.json()
    assert st["over"] and st["result"] == {"winner": "orange", "termination": "resignation",
                                           "resigned": "blue", "scores": None}
    assert "resigned" in st["result_text"]
    err(client.post(f"/api/games/{st['id']}/resign"), 409, "game_over")
    err(move(client, st["id"], "a1"), 409, "game_over")
    err(client.post(f"/api/games/{st['id']}/undo"), 409, "cannot_undo")
    hs = new(client, game="robble", size=5, opponent="human")
    err(client.post(f"/api/games/{hs['id']}/resign", json={"color": "red"}), 400, "bad_request")
    assert client.post(f"/api/games/{hs['id']}/resign", json={"color": "white"}).json()["result"]["winner"] == "black"


def test_delete(client):
    st = new(client, game="robble", size=5, opponent="human")
    assert client.delete(f"/api/games/{st['id']}").status_code == 204
    err(client.get(f"/api/games/{st['id']}"), 404, "not_found")
    err(client.delete(f"/api/games/{st['id']}"), 404, "not_found")


# ---------------------------------------------------------------- records
def _finished(client, name="robble", size=4):
    st = new(client, game=name, size=size, opponent="human")
    rng = random.Random(1)
    while not st["over"]:
        st = move(client, st["id"], rng.choice(st["legal"])).json()
    return st


def test_download_and_load_records(client):
    st = _finished(client)
    r = client.get(f"/api/games/{st['id']}/record")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert "attachment" in r.headers["content-disposition"]
    text = r.text
    assert '[Game "robble"]' in text
    r = client.get(f"/api/games/{st['id']}/record", params={"format": "json"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    data = r.json()
    assert data  # the records package's JSON
    err(client.get(f"/api/games/{st['id']}/record", params={"format": "pdf"}), 400, "bad_request")
    err(client.get("/api/games/nope/record"), 404, "not_found")
    for body in (text, json.dumps(data)):
        r = client.post("/api/records", json={"text": body})
        assert r.status_code == 201, r.text
        loaded = r.json()
        assert loaded["moves"] == st["moves"] and loaded["over"] and loaded["view_ply"] == 0
        assert loaded["meta"]["source"] == "record" and loaded["id"] != st["id"]
        assert loaded["result"]["winner"] == st["result"]["winner"]


def test_record_of_a_resigned_game_round_trips(client):
    st = new(client, game="robble", size=5, opponent="human")
    move(client, st["id"], "c3")
    client.post(f"/api/games/{st['id']}/resign", json={"color": "white"})
    text = client.get(f"/api/games/{st['id']}/record").text
    loaded = client.post("/api/records", json={"text": text}).json()
    assert loaded["over"] and loaded["result"]["termination"] == "resignation"
    assert loaded["result"]["winner"] == "black"


def test_load_bad_records(client):
    err(client.post("/api/records", json={"text": ""}), 400, "bad_record")
    err(client.post("/api/records", json={"text": "hello world"}), 400, "bad_record")
    err(client.post("/api/records", json={"text": "{\"game\": 1"}), 400, "bad_record")
    st = new(client, game="robble", size=5, opponent="human")
    move(client, st["id"], "c3")
    text = client.get(f"/api/games/{st['id']}/record").text
    err(client.post("/api/records", json={"text": text.replace("c3", "c3 c3")}), 400, "bad_record")
    err(client.post("/api/records", json={}), 400, "bad_request")


# ---------------------------------------------------------------- rules, page, docs
def test_rules(client):
    r = client.get("/api/rules/robble")
    assert r.status_code == 200
    body = r.json()
    assert body["game"] == "robble" and "<h1>" in body["html"] and "Robble" in body["markdown"]
    err(client.get("/api/rules/chess"), 404, "unknown_game")
    page = client.get("/rules/robble")
    assert page.status_code == 200 and "<h1>Robble" in page.text


def test_rules_of_every_game_when_written(client):
    for name in boardlab.GAMES:
        r = client.get(f"/api/rules/{name}")
        if r.status_code == 404:
            assert r.json()["error"]["code"] == "no_rules"
        else:
            assert r.json()["html"]


def test_page_static_and_openapi(client):
    r = client.get("/")
    assert r.status_code == 200 and "<svg id=\"board\"" in r.text
    assert client.get("/static/app.js").status_code == 200
    icon = client.get("/favicon.ico")           # every page has the icon: /rules, /studies, /api too
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    for page in ("/rules/robble", "/api", "/studies", "/studies/published/" + published.names()[0]):
        assert "rel=icon href='/static/favicon.svg'" in client.get(page).text
    assert client.get("/static/style.css").status_code == 200
    ref = client.get("/api")
    assert ref.status_code == 200 and "/api/games/{gid}/moves" in ref.text
    spec = client.get("/api/openapi.json").json()
    paths = set(spec["paths"])
    for p in ("/api/kinds", "/api/engines", "/api/games", "/api/games/{gid}",
              "/api/games/{gid}/moves", "/api/games/{gid}/undo", "/api/games/{gid}/resign",
              "/api/games/{gid}/record", "/api/records", "/api/rules/{name}",
              "/api/{game}/pregame", "/api/games/{gid}/engine"):
        assert p in paths, p


# ---------------------------------------------------------------- persistence
def test_restart_loses_no_game_and_no_move(tmp_path):
    db = tmp_path / "games.sqlite3"
    with BrowserClient(create_app(db, engine_workers=0)) as c:
        st = new(c, game="implo", size=5, opponent="human")
        rng = random.Random(4)
        for _ in range(12):
            st = move(c, st["id"], rng.choice(st["legal"])).json()
        c.post(f"/api/games/{st['id']}/undo")
        before = c.get(f"/api/games/{st['id']}").json()
        done = _finished(c, "vimbre", 4)
        c.post(f"/api/games/{new(c, game='robble', size=5, opponent='human')['id']}/resign")
    with BrowserClient(create_app(db, engine_workers=0), tokens=c.owner_tokens) as c:
        after = c.get(f"/api/games/{st['id']}").json()
        for key in ("moves", "cells", "legal", "to_move", "position", "movers"):
            assert after[key] == before[key], key
        assert c.get(f"/api/games/{done['id']}").json()["result"] == done["result"]
        statuses = sorted(g["status"] for g in c.get("/api/games").json())
        assert statuses == ["over", "over", "playing"]
        assert move(c, st["id"], after["legal"][0]).status_code == 200


def test_computer_moves_in_a_worker_process(tmp_path):
    with BrowserClient(create_app(tmp_path / "g.sqlite3", engine_workers=1)) as c:
        st = new(c, game="robble", size=5, engine="random", color="white")
        st = wait_turn(c, st, timeout=30)
        assert st["ply"] == 1 and st["engine_error"] is None


# ---------------------------------------------------------------- regressions (web audit)
def test_size_in_options_is_a_bad_option(client):
    """`options: {"size": 5}` gave the game class size twice (a TypeError): 500 internal."""
    err(client.post("/api/games", json={"game": "robble", "opponent": "human",
                                        "options": {"size": 5}}), 400, "bad_option")


@pytest.mark.parametrize("neg", [{"namer": "human", "value": 3},
                                 {"namer": "computer", "color": "black"}])
def test_komi_negotiation_against_an_mcts_engine_checks_the_size_first(client, neg):
    """Yugo against level1 with komi negotiation ran the engine's komi hook on a size the
    library refuses, and that OptionError from the worker answered 500."""
    err(client.post("/api/games", json={"game": "yugo", "size": 2, "opponent": "computer",
                                        "engine": "level1", "pregame": neg}),
        400, "bad_option")


@pytest.mark.parametrize("opponent", ["computer", "human", "online"])
def test_komi_negotiation_refuses_unknown_fields(client, opponent):
    """KomiNegotiation ignored unknown fields (201) although the API refuses them elsewhere."""
    err(client.post("/api/games", json={"game": "yugo", "size": 5, "opponent": opponent,
                                        "pregame": {"namer": "human", "value": 3, "zz": 1}}),
        400, "bad_request")


def test_a_deeply_nested_json_record_is_a_bad_record(client):
    """A JSON record nested 50,000 deep made json.loads raise RecursionError: 500 internal."""
    text = '{"a":' + "[" * 50_000 + "]" * 50_000 + "}"
    assert len(text) < 200_000  # well under the body limit: the record itself is refused
    err(client.post("/api/records", json={"text": text}), 400, "bad_record")


def test_a_stored_game_that_no_longer_replays_can_be_deleted(tmp_path):
    """DELETE replayed the game to check its token, so a game the library refuses
    (409 corrupt_game) could never be deleted and stayed listed for ever."""
    db = tmp_path / "games.sqlite3"
    with BrowserClient(create_app(db, engine_workers=0)) as c:
        gid = new(c, game="robble", size=5, opponent="human")["id"]
        assert move(c, gid, "c3").status_code == 200
        on = c.post("/api/games", json={"game": "robble", "size": 5, "opponent": "online",
                                        "color": "black"}).json()
        assert c.post(f"/api/games/{on['id']}/moves", json={"move": "c3", "ply": 0},
                      headers={"X-Seat-Token": on["tokens"]["you"]}).status_code == 200
    con = sqlite3.connect(db)
    for g in (gid, on["id"]):  # the same move twice: no longer a legal game
        con.execute("INSERT INTO moves VALUES (?, 1, 'c3', 0)", (g,))
    con.commit()
    con.close()
    with BrowserClient(create_app(db, engine_workers=0), tokens=c.owner_tokens) as c:
        err(c.get(f"/api/games/{gid}", headers={"X-Seat-Token": "nope"}), 404, "not_found")
        err(c.get(f"/api/games/{gid}"), 409, "corrupt_game")
        assert c.delete(f"/api/games/{gid}").status_code == 204
        assert gid not in [g["id"] for g in c.get("/api/games").json()]
        err(c.get(f"/api/games/{gid}"), 404, "not_found")
        # a game by link still needs one of its tokens, checked on the stored row
        err(c.delete(f"/api/games/{on['id']}"), 404, "not_found")
        err(c.delete(f"/api/games/{on['id']}", headers={"X-Seat-Token": "nope"}), 404, "not_found")
        assert c.delete(f"/api/games/{on['id']}",
                        headers={"X-Seat-Token": on["tokens"]["invite"]}).status_code == 204
        err(c.get(f"/api/games/{on['id']}"), 404, "not_found")


def test_saved_games_are_listed_past_the_list_limit_of_online_games(tmp_path, client):
    """The store took the newest N games before the route dropped the online ones, so
    N newer games by link hid every saved game."""
    store = Store(tmp_path / "list.sqlite3")
    try:
        seats = [{"kind": "human", "label": "Player 1"}, {"kind": "human", "label": "Player 2"}]
        saved = store.create("robble", 5, {}, seats)
        for _ in range(5):
            store.create("robble", 5, {}, seats, {"online": True})
        listed = [row.id for row, _ in store.list(limit=3, online=False)]
        assert listed == [saved.id]
        assert len(store.list(limit=3)) == 3  # online=True (the default) keeps them all
    finally:
        store.close()
    # through the API: one hot-seat game, then more games by link than the list's limit (200)
    gid = new(client, game="robble", size=4, opponent="human")["id"]
    hub = client.app.state.hub
    for _ in range(201):
        hub.store.create("robble", 4, {}, seats, {"online": True})
    assert [g["id"] for g in client.get("/api/games").json()] == [gid]


class _Slow:
    """Thinks for a second, counting how often it is asked."""
    name = "slow"
    THINK = 1.0
    calls: list[int] = []

    def __init__(self, seed=None):
        pass

    def choose(self, game):
        _Slow.calls.append(len(game.history))
        time.sleep(self.THINK)
        return game.legal_moves()[0]


@pytest.fixture
def slow_engine():
    ai.register("test-slow", _Slow, strength=-10, summary="test only")
    _Slow.calls.clear()
    yield _Slow
    getattr(ai, "_REGISTRY", {}).pop("test-slow", None)


def test_retry_while_the_computer_thinks_keeps_its_move(client, slow_engine):
    """POST /engine while the computer was thinking bumped the version, so its answer was
    dropped as stale and nothing asked the engine again until a later poll."""
    start = time.monotonic()
    st = new(client, game="robble", size=5, opponent="computer", engine="test-slow",
             color="white")
    assert st["thinking"]
    r = client.post(f"/api/games/{st['id']}/engine")
    assert r.status_code == 200
    st = r.json()
    assert st["thinking"] and st["engine_error"] is None and st["moves"] == []
    while not st["moves"] and time.monotonic() - start < 15:
        st = client.get(f"/api/games/{st['id']}", params={"after": st["version"], "wait": 5}).json()
    assert st["moves"] == ["a1"] and st["engine_error"] is None and st["your_turn"]
    assert slow_engine.calls == [0]  # one computation, kept: a dropped answer is asked again


def test_undo_whose_write_fails_changes_nothing(tmp_path):
    """The undo popped the moves from the live game before the SQLite write, so a failed
    write left the live game behind the stored one (and every later move failing)."""
    db = tmp_path / "games.sqlite3"
    app = create_app(db, engine_workers=0)
    with BrowserClient(app, raise_server_exceptions=False) as c:
        # a locked file fails a write after the store's busy timeout: keep it short here
        app.state.hub.store.conn.execute("PRAGMA busy_timeout = 50")
        gid = new(c, game="robble", size=5, opponent="human")["id"]
        for mv in ("c3", "b2"):
            assert move(c, gid, mv).status_code == 200
        other = sqlite3.connect(db, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another writer (a backup, a second server)
            err(c.post(f"/api/games/{gid}/undo"), 500, "internal")
            live = c.get(f"/api/games/{gid}").json()
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert live["moves"] == ["c3", "b2"] and live["ply"] == 2
        with BrowserClient(create_app(db, engine_workers=0),
                           tokens=c.owner_tokens) as fresh:  # what is stored
            stored = fresh.get(f"/api/games/{gid}").json()
        for key in ("moves", "movers", "cells", "to_move", "position"):
            assert stored[key] == live[key], key
        st = c.post(f"/api/games/{gid}/undo")
        assert st.status_code == 200 and st.json()["moves"] == ["c3"]
        assert move(c, gid, "d4").json()["moves"] == ["c3", "d4"]
    with BrowserClient(create_app(db, engine_workers=0), tokens=c.owner_tokens) as c:
        assert c.get(f"/api/games/{gid}").json()["moves"] == ["c3", "d4"]


def _wait_computer(client, st, timeout=30.0):
    """Long-poll until it is the human's turn, the game is over or the engine failed."""
    end = time.monotonic() + timeout
    while not (st["your_turn"] or st["over"] or st["engine_error"]):
        assert time.monotonic() < end, "the computer did not move"
        st = client.get(f"/api/games/{st['id']}", params={"after": st["version"], "wait": 5}).json()
    return st


def _warm_pool(app, client, n: int = 1) -> list[int]:
    """Start ``n`` engine workers (pebble starts them for their first task; a
    spawn and imports take seconds on a loaded machine) by having level 1
    answer ``n`` games at once; their pids."""
    games = [new(client, game="robble", size=5, engine="level1", color="white",
                 options={"pie": False}) for _ in range(n)]
    for st in games:
        assert _wait_computer(client, st, timeout=90)["ply"] == 1
    pids = app.state.hub.pool.pids()
    assert len(pids) == n
    return pids


def _thinking(client, st, timeout: float = 30.0) -> dict:
    end = time.monotonic() + timeout
    while not st["thinking"]:
        assert time.monotonic() < end, "the computer did not start thinking"
        st = client.get(f"/api/games/{st['id']}").json()
    return st


def test_a_worker_killed_while_thinking_is_retried_by_itself(tmp_path):
    """A killed worker broke the whole pool (a new one was made for every game)
    and, killed twice, showed "A process in the process pool was terminated
    abruptly...". Now only that call fails, and it is tried again by itself."""
    from boardlab.web.settings import Settings
    app = create_app(tmp_path / "g.sqlite3", settings=Settings(engine_workers=1,
                                                                engine_retries=1))
    with BrowserClient(app) as c:
        pool = app.state.hub.pool
        first = _warm_pool(app, c)
        st = new(c, game="robble", size=5, engine="level5", color="white", options={"pie": False})
        st = _thinking(c, st)
        time.sleep(0.3)  # inside the search (level 5 takes over a second here)
        for pid in first:
            os.kill(pid, signal.SIGKILL)
        st = _wait_computer(c, st, timeout=60)
        assert st["engine_error"] is None and st["ply"] == 1 and st["your_turn"]
        assert app.state.hub.pool is pool            # the same pool, a new worker
        assert not set(first) & set(pool.pids())


def test_a_worker_killed_past_its_retries_tells_the_player(tmp_path):
    from boardlab.web.settings import Settings
    app = create_app(tmp_path / "g.sqlite3", settings=Settings(engine_workers=1,
                                                                engine_retries=0))
    with BrowserClient(app) as c:
        pids = _warm_pool(app, c)
        st = new(c, game="robble", size=5, engine="level5", color="white", options={"pie": False})
        st = _thinking(c, st)
        time.sleep(0.3)
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        st = _wait_computer(c, st, timeout=60)
        assert st["ply"] == 0 and st["engine_error"] == hub_module.ENGINE_DIED.format(n=0)
        assert "abruptly" not in st["engine_error"] and "Retry" in st["engine_error"]
        st = c.post(f"/api/games/{st['id']}/engine").json()
        st = _wait_computer(c, st, timeout=60)
        assert st["engine_error"] is None and st["ply"] == 1


def test_a_hung_engine_costs_only_its_own_game(tmp_path):
    """An engine call past the engine timeout (level 5 on vimbre 19x19, ~11 s
    of CPU a move, against 3 s) ends as an engine error the player sees, and only its
    worker is stopped: another game thinking at the same time gets its move,
    and the pool (the same one) goes on serving."""
    app = create_app(tmp_path / "g.sqlite3", engine_workers=2, engine_timeout=60)
    with BrowserClient(app) as c:
        before = _warm_pool(app, c, 2)
        pool = app.state.hub.pool
        app.state.hub.engine_timeout = 3
        hung = new(c, game="vimbre", size=19, engine="level5", color="white")
        other = new(c, game="robble", size=5, engine="level3", color="white",
                    options={"pie": False})
        other = _wait_computer(c, other, timeout=60)
        assert other["engine_error"] is None and other["ply"] == 1
        hung = _wait_computer(c, hung, timeout=60)
        assert hung["ply"] == 0 and "level5" in hung["engine_error"]
        assert "took too long" in hung["engine_error"]
        deadline = time.monotonic() + 10
        while all(_alive(pid) for pid in before):
            assert time.monotonic() < deadline, "the hung worker was not stopped"
            time.sleep(0.1)
        assert app.state.hub.pool is pool
        app.state.hub.engine_timeout = 60
        st = move(c, other["id"], other["legal"][0]).json()
        st = _wait_computer(c, st, timeout=60)
        assert st["engine_error"] is None and st["ply"] == 3


def _alive(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)   # reap it if it is our dead child
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_computers_komi_is_searched_once_per_engine_and_size(client):
    """Yugo's pre-game choices are seeded, so the hub remembers them: a page
    asking again (or anyone else) does not occupy the engine pool again."""
    _KomiCounter.calls.clear()
    for size in (5, 5, 7, 5, 7):
        r = client.get("/api/yugo/pregame", params={"size": size, "engine": "test-komi-counter"})
        assert r.status_code == 200 and r.json() == {"option": "komi", "value": size - 3}
    st = new(client, game="yugo", size=7, engine="test-komi-counter",
             pregame={"namer": "computer", "color": "black"})
    assert st["options"]["komi"] == 4
    assert _KomiCounter.calls == [5, 7]


def test_request_fields_of_the_wrong_type_are_refused_not_coerced(client):
    """"5" is not a size and "yes" not a flag: the client is told which field
    is wrong instead of having its request guessed at."""
    for body, field in (({"game": "robble", "size": "5"}, "size"),
                        ({"game": "robble", "size": 5.0}, "size"),
                        ({"game": "robble", "size": True}, "size"),
                        ({"game": 7}, "game")):
        r = client.post("/api/games", json=body)
        err(r, 400, "bad_request")
        assert field in r.json()["error"]["message"], r.text
    st = new(client, game="robble", size=5, opponent="human")
    r = move(client, st["id"], "c3", ply="0")
    err(r, 400, "bad_request")
    assert "ply" in r.json()["error"]["message"]
    assert client.get(f"/api/games/{st['id']}").json()["ply"] == 0   # nothing was played


def test_an_engine_that_calls_exit_fails_its_move_not_the_server(client):
    """SystemExit raised by an engine would leave asyncio's event loop and stop
    the server for everyone; it is an engine error like any other."""
    st = new(client, game="robble", size=5, engine="test-quitter", color="white")
    st = _wait_computer(client, st)
    assert "SystemExit" in st["engine_error"] and st["ply"] == 0
    other = new(client, game="robble", size=5, engine="random", color="white")
    assert _wait_computer(client, other)["ply"] == 1     # the server still plays
