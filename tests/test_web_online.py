"""Play a friend by link: seat tokens, stale and concurrent moves, undo by
consent, resign, yugo komi negotiation and marking, the pie swap, limits
(FastAPI TestClient; no browser)."""

from __future__ import annotations

import json
import logging
import random
import threading
import time

import pytest

import boardlab
from boardlab.web import create_app
from web_support import BrowserClient  # keeps owner tokens as the page does

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    with BrowserClient(create_app(tmp_path / "games.sqlite3", engine_workers=0)) as c:
        yield c


def H(token):
    return {"X-Seat-Token": token}


class Online:
    """A game by link as its two players and a spectator see it."""

    def __init__(self, client, **spec):
        r = client.post("/api/games", json={"opponent": "online", **spec})
        assert r.status_code == 201, r.text
        self.c = client
        self.created = st = r.json()
        self.id = st["id"]
        self.me, self.friend, self.spectator = (st["tokens"][k] for k in ("you", "invite", "spectate"))
        self.my_seat = st["you"]["seat"]

    def token_of_seat(self, seat):
        return self.me if seat == self.my_seat else self.friend

    def get(self, token):
        return self.c.get(f"/api/games/{self.id}", headers=H(token))

    def state(self):
        return self.get(self.me).json()

    def to_move_token(self):
        st = self.state()
        return self.token_of_seat(st["to_move_seat"]), st

    def move(self, mv, token=None, ply=None):
        if token is None:
            token, st = self.to_move_token()
            ply = st["ply"] if ply is None else ply
        elif ply is None:
            ply = self.state()["ply"]
        return self.c.post(f"/api/games/{self.id}/moves", json={"move": mv, "ply": ply},
                           headers=H(token))

    def post(self, what, token, json=None):
        return self.c.post(f"/api/games/{self.id}/{what}", json=json, headers=H(token))


def err(r, status, code):
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text
    assert "Traceback" not in r.text


# ---------------------------------------------------------------- creation and tokens
def test_create_gives_three_links_and_stores_only_hashes(client, tmp_path):
    g = Online(client, game="robble", size=4, color="black", name="  Ada\x00 Lovelace ")
    st = g.created
    assert st["online"] and st["you"] == {"seat": 0, "color": "black"}
    assert st["links"]["you"] == f"/#/play/{g.id}/{g.me}"
    assert st["links"]["invite"] == f"/#/play/{g.id}/{g.friend}"
    assert st["links"]["spectate"] == f"/#/watch/{g.id}/{g.spectator}"
    assert len({g.me, g.friend, g.spectator}) == 3 and all(len(t) >= 32 for t in (g.me, g.friend))
    assert st["seats"][0]["label"] == "Ada Lovelace" and st["seats"][1]["label"] == "Player 2"
    assert st["your_turn"] and st["legal"]
    # no token, no hash in any answer but the creator's; none on disk
    text = g.get(g.friend).text
    for tok in (g.me, g.friend, g.spectator):
        assert tok not in text
    assert "token_hash" not in text and "spectator_hash" not in text
    raw = (tmp_path / "games.sqlite3").read_bytes()
    for tok in (g.me, g.friend, g.spectator):
        assert tok.encode() not in raw
    # a game by link is not in the shared list of saved games
    assert all(x["id"] != g.id for x in client.get("/api/games").json())


def test_each_link_sees_its_own_seat(client):
    g = Online(client, game="robble", size=4, color="white")
    assert g.get(g.friend).json()["you"] == {"seat": 0, "color": "black"}
    assert g.get(g.friend).json()["your_turn"]
    mine = g.get(g.me).json()
    assert mine["you"] == {"seat": 1, "color": "white"} and not mine["your_turn"]
    assert mine["legal"] == []
    watch = g.get(g.spectator).json()
    assert watch["you"] == "spectator" and not watch["your_turn"] and watch["legal"] == []


def test_missing_wrong_and_spectator_tokens(client):
    g = Online(client, game="robble", size=4, color="black")
    gid = g.id
    # no token and a wrong one answer as an unknown id does (issue 20: ids cannot be probed)
    err(client.get(f"/api/games/{gid}"), 404, "not_found")
    err(client.get(f"/api/games/{gid}", headers=H("nope")), 404, "not_found")
    err(client.get(f"/api/games/{gid}", headers=H("x" * 5000)), 404, "not_found")
    err(client.get(f"/api/games/{gid}/record"), 404, "not_found")
    assert client.get(f"/api/games/{gid}/record", headers=H(g.spectator)).status_code == 200
    other = Online(client, game="robble", size=4)
    for token, status, code in ((None, 404, "not_found"), ("bogus", 404, "not_found"),
                                (other.me, 404, "not_found"), (g.spectator, 403, "spectator")):
        headers = {} if token is None else H(token)
        err(client.post(f"/api/games/{gid}/moves", json={"move": "a1", "ply": 0}, headers=headers),
            status, code)
        err(client.post(f"/api/games/{gid}/resign", headers=headers), status, code)
        err(client.post(f"/api/games/{gid}/undo", headers=headers), status, code)
        err(client.post(f"/api/games/{gid}/undo/answer", json={"accept": True}, headers=headers),
            status, code)
        err(client.post(f"/api/games/{gid}/name", json={"name": "x"}, headers=headers),
            status, code)
        err(client.delete(f"/api/games/{gid}", headers=headers), status, code)
    # the friend may not move for me
    err(g.move("a1", token=g.friend, ply=0), 409, "not_your_turn")
    assert g.state()["moves"] == []
    # hot-seat games are untouched by all this
    hot = client.post("/api/games", json={"game": "robble", "size": 4, "opponent": "human"}).json()
    assert client.post(f"/api/games/{hot['id']}/moves", json={"move": "a1"}).status_code == 200


def test_tokens_never_reach_the_log(client, caplog):
    g = Online(client, game="robble", size=4, color="black")
    with caplog.at_level(logging.DEBUG):
        g.move("a1")
        g.get(g.friend)
        g.get("wrong-" + g.me)
    for tok in (g.me, g.friend, g.spectator):
        assert tok not in caplog.text


def test_display_names(client):
    g = Online(client, game="robble", size=4, color="black")
    st = g.post("name", g.friend, {"name": "Bob\n\t the  builder" + "!" * 100}).json()
    assert st["seats"][1]["label"] == ("Bob the builder" + "!" * 100)[:40]
    err(g.post("name", g.friend, {"name": "x" * 300}), 400, "bad_request")
    assert g.post("name", g.friend, {"name": "   "}).json()["seats"][1]["label"] == "Player 2"


# ---------------------------------------------------------------- stale, replayed, concurrent
def test_stale_and_replayed_moves_are_refused(client):
    g = Online(client, game="robble", size=4, color="black")
    assert g.move("a1", token=g.me, ply=0).status_code == 200
    err(g.move("a1", token=g.me, ply=0), 409, "stale")           # the same request again
    err(g.move("b2", token=g.friend, ply=0), 409, "stale")       # made for the old position
    r = g.move("b2", token=g.friend, ply=1)
    assert r.status_code == 200 and r.json()["moves"] == ["a1", "b2"]
    err(g.post("moves", g.me, {"move": "c3"}), 400, "bad_request")  # online moves name their ply
    err(g.move("zz9", token=g.me, ply=2), 400, "malformed_move")
    assert g.state()["moves"] == ["a1", "b2"]


def test_concurrent_moves_apply_at_most_once(client):
    g = Online(client, game="robble", size=4, color="black")
    barrier = threading.Barrier(8)
    answers = []

    def send(mv, token):
        barrier.wait()
        answers.append(g.move(mv, token=token, ply=0).status_code)

    threads = [threading.Thread(target=send, args=(mv, tok))
               for mv in ("a1", "b2", "c3", "d4") for tok in (g.me, g.friend)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers.count(200) == 1 and len(answers) == 8
    assert all(code == 409 for code in answers if code != 200)
    assert len(g.state()["moves"]) == 1


def test_oversized_and_malformed_requests(client):
    g = Online(client, game="robble", size=4, color="black")
    url = f"/api/games/{g.id}/moves"
    err(client.post(url, content=b"{" + b" " * 300_000 + b"}", headers={
        **H(g.me), "content-type": "application/json"}), 413, "too_large")
    err(client.post(url, json={"move": "a" * 1000, "ply": 0}, headers=H(g.me)), 400, "bad_request")
    err(client.post(url, content=b"{not json", headers={**H(g.me), "content-type":
                                                       "application/json"}), 400, "bad_request")
    err(client.post(url, json={"move": "a1", "ply": "x"}, headers=H(g.me)), 400, "bad_request")
    err(client.post(url, json={"move": "a1", "ply": 0, "evil": 1}, headers=H(g.me)),
        400, "bad_request")
    err(client.post(url, json=["a1"], headers=H(g.me)), 400, "bad_request")
    assert g.state()["moves"] == []


# ---------------------------------------------------------------- undo by consent, resign
def test_undo_needs_the_opponents_consent(client):
    g = Online(client, game="robble", size=4, color="black")
    err(g.post("undo", g.me), 409, "cannot_undo")          # nothing of mine to take back
    g.move("a1")
    g.move("b2")
    err(g.post("undo/answer", g.friend, {"accept": True}), 409, "no_request")
    st = g.post("undo", g.friend).json()
    assert st["undo_request"] == {"by": 1, "ply": 2} and st["moves"] == ["a1", "b2"]
    err(g.post("undo/answer", g.friend, {"accept": True}), 409, "not_your_turn")
    err(g.post("undo/answer", g.spectator, {"accept": True}), 403, "spectator")
    st = g.post("undo/answer", g.me, {"accept": False}).json()
    assert st["moves"] == ["a1", "b2"] and st["undo_request"] is None
    g.post("undo", g.friend)
    st = g.post("undo/answer", g.me, {"accept": True}).json()
    assert st["moves"] == ["a1"] and st["undo_request"] is None
    assert g.get(g.friend).json()["your_turn"]
    # asking for black's turn when white already answered takes back both
    g.move("c3")
    g.post("undo", g.me)
    assert g.post("undo/answer", g.friend, {"accept": True}).json()["moves"] == []


def test_an_undo_request_goes_stale_when_the_game_moves_on(client):
    g = Online(client, game="robble", size=4, color="black")
    g.move("a1")
    g.post("undo", g.me)
    assert g.move("b2").status_code == 200          # the friend plays on instead: no
    assert g.state()["undo_request"] is None
    err(g.post("undo/answer", g.friend, {"accept": True}), 409, "no_request")
    assert g.state()["moves"] == ["a1", "b2"]


def test_resign_by_token(client):
    g = Online(client, game="robble", size=4, color="black")
    err(g.post("resign", g.me, {"color": "white"}), 409, "not_your_turn")
    st = g.post("resign", g.friend).json()   # not white's turn: resigning needs no turn
    assert st["over"] and st["result"]["winner"] == "black"
    assert st["result"]["resigned"] == "white"
    err(g.move("a1"), 409, "game_over")
    rec = client.get(f"/api/games/{g.id}/record", headers=H(g.spectator)).text
    assert "resign" in rec.lower()


# ---------------------------------------------------------------- pie, komi, marking
def test_the_pie_swap_moves_the_colors_not_the_links(client):
    g = Online(client, game="robble", size=5, color="black", options={"pie": True})
    g.move("c3", token=g.me, ply=0)
    st = g.move("swap", token=g.friend, ply=1).json()
    assert st["swapped"] and st["you"] == {"seat": 1, "color": "black"}
    mine = g.state()
    assert mine["you"] == {"seat": 0, "color": "white"} and mine["your_turn"]
    err(g.move("a1", token=g.friend, ply=2), 409, "not_your_turn")
    assert g.move("a1", token=g.me, ply=2).status_code == 200
    # undo of the swap, by consent, gives the colors back
    g.post("undo", g.friend)
    st = g.post("undo/answer", g.me, {"accept": True}).json()
    assert st["moves"] == ["c3"] and st["you"] == {"seat": 0, "color": "black"}


@pytest.mark.parametrize("pick", ["black", "white"])
def test_yugo_komi_negotiation_between_two_people(client, pick):
    g = Online(client, game="yugo", size=5, pregame={"namer": "human", "value": 4})
    st = g.created
    assert st["options"]["komi"] == 4 and st["pregame_pending"] and not st["your_turn"]
    err(g.move("pass", token=g.me, ply=0), 409, "pregame_pending")
    err(g.post("color", g.me, {"color": "black"}), 409, "not_your_turn")
    err(g.post("color", g.spectator, {"color": "black"}), 403, "spectator")
    err(g.post("color", g.friend, {"color": "red"}), 400, "bad_option")
    st = g.post("color", g.friend, {"color": pick}).json()
    assert st["you"]["color"] == pick and not st["pregame_pending"]
    other = "white" if pick == "black" else "black"
    assert g.state()["you"]["color"] == other
    err(g.post("color", g.friend, {"color": pick}), 409, "pregame_settled")
    black = g.friend if pick == "black" else g.me
    assert g.get(black).json()["your_turn"]
    err(client.post("/api/games", json={"opponent": "online", "game": "robble",
                                        "pregame": {"namer": "human", "value": 3}}),
        400, "bad_option")
    err(client.post("/api/games", json={"opponent": "online", "game": "yugo",
                                        "pregame": {"namer": "computer", "color": "black"}}),
        400, "bad_option")


def test_a_pending_komi_stored_before_pregames_is_still_pending(tmp_path):
    """Games stored before a pre-game was the game's declaration kept the komi
    deal as meta.komi {named_by, komi, ...}: on opening, the store moves it to
    meta.pregame {option, value, ...}, so a friend's pick still waits for
    them and the pick still works."""
    import sqlite3
    db = tmp_path / "games.sqlite3"
    with BrowserClient(create_app(db, engine_workers=0)) as c:
        g = Online(c, game="yugo", size=5, pregame={"namer": "human", "value": 4})
    con = sqlite3.connect(db)
    meta = json.loads(con.execute("SELECT meta FROM games WHERE id=?", (g.id,)).fetchone()[0])
    deal = meta.pop("pregame")
    meta["komi"] = {"named_by": deal["named_by"], "komi": deal["value"],
                    "picked_by": deal["picked_by"], "pending": True}
    con.execute("UPDATE games SET meta=? WHERE id=?", (json.dumps(meta), g.id))
    con.commit()
    con.close()
    with BrowserClient(create_app(db, engine_workers=0)) as c:
        g.c = c
        st = g.state()
        assert st["pregame_pending"] and "komi" not in st["meta"]
        assert st["meta"]["pregame"] == {"option": "komi", "value": 4, "named_by": "creator",
                                         "picked_by": "friend", "pending": True}
        err(g.move("pass", token=g.me, ply=0), 409, "pregame_pending")
        assert g.post("color", g.friend, {"color": "black"}).json()["you"]["color"] == "black"


def test_yugo_marking_phase_between_two_seats(client):
    for seed in range(400):
        rng = random.Random(seed)
        game = boardlab.new_game("yugo", 5)
        while not game.is_over and "phase=mark" not in game.position():
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over:
            break
    else:
        raise AssertionError("no marking phase found")
    g = Online(client, game="yugo", size=5, color="black")
    for mv in game.history:
        assert g.move(mv).status_code == 200
    tok, st = g.to_move_token()
    assert st["hints"]["phase"] == "mark"
    other = g.friend if tok == g.me else g.me
    err(g.move("done", token=other, ply=st["ply"]), 409, "not_your_turn")
    st = g.move("done", token=tok, ply=st["ply"]).json()
    answerer = other if st["to_move_seat"] != st["you"]["seat"] else tok
    ans = g.get(answerer).json()
    assert ans["hints"]["phase"] == "answer" and set(ans["legal"]) == {"accept", "reject"}
    assert g.get(g.spectator).json()["legal"] == []
    st = g.move("accept", token=answerer, ply=ans["ply"]).json()
    assert st["over"] and st["result"]["scores"]


# ---------------------------------------------------------------- restart
def test_server_restart_mid_game_keeps_seats_and_requests(tmp_path):
    db = tmp_path / "games.sqlite3"
    with BrowserClient(create_app(db, engine_workers=0)) as c:
        g = Online(c, game="robble", size=4, color="black", name="Ann")
        g.move("a1")
        g.move("b2")
        g.post("undo", g.friend)
        before = g.state()
    with BrowserClient(create_app(db, engine_workers=0)) as c:
        g.c = c
        err(c.get(f"/api/games/{g.id}"), 404, "not_found")
        after = g.state()
        for key in ("moves", "cells", "to_move", "seats", "undo_request", "you"):
            assert after[key] == before[key], key
        assert g.post("undo/answer", g.me, {"accept": True}).json()["moves"] == ["a1"]
        assert g.move("c3", token=g.friend, ply=1).status_code == 200


# ---------------------------------------------------------------- WebSocket
def ws_state(ws):
    """The next state message (skipping acks)."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == "state":
            return msg["state"]
        assert msg["type"] == "ack", msg


def ws_reply(ws):
    while True:
        msg = ws.receive_json()
        if msg["type"] != "state":
            return msg


def test_websocket_live_updates_both_ways_and_presence(client):
    g = Online(client, game="robble", size=4, color="black")
    assert g.state()["connected"] == [True, False]      # I just polled; my friend has not
    url = f"/api/games/{g.id}/ws"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        a.send_json({"type": "auth", "token": g.me})
        st = ws_state(a)
        assert st["you"]["seat"] == 0
        b.send_json({"type": "auth", "token": g.friend})
        st = ws_state(b)
        assert st["connected"] == [True, True]
        a.send_json({"type": "move", "move": "a1", "ply": 0, "id": 7})
        assert ws_reply(a) == {"type": "ack", "id": 7}
        while (st := ws_state(b))["ply"] < 1:
            pass
        assert st["moves"] == ["a1"] and st["your_turn"]
        b.send_json({"type": "move", "move": "a1", "ply": 0, "id": 8})   # stale
        reply = ws_reply(b)
        assert reply["id"] == 8 and reply["error"]["code"] == "stale"
        b.send_json({"type": "ping", "id": 9})
        assert ws_reply(b) == {"type": "pong", "id": 9}
        # polling still works alongside
        assert g.get(g.friend).json()["moves"] == ["a1"]
    # both sockets closed: the presence falls back to recent polls only
    client.app.state.hub.live[g.id].polled.clear()
    assert g.get(g.spectator).json()["connected"] == [False, False]


def test_websocket_auth(client):
    g = Online(client, game="robble", size=4, color="black")
    url = f"/api/games/{g.id}/ws"
    for first, code in (({"type": "auth"}, "not_found"),
                        ({"type": "auth", "token": "bad"}, "not_found"),
                        ({"type": "hello", "token": g.me}, "not_found"),
                        ({"type": "auth", "token": ["x"]}, "not_found")):
        with client.websocket_connect(url) as ws:
            ws.send_json(first)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["error"]["code"] == code
            assert ws.receive()["type"] == "websocket.close"
    with client.websocket_connect(url) as ws:     # a spectator watches, never moves
        ws.send_json({"type": "auth", "token": g.spectator})
        assert ws_state(ws)["you"] == "spectator"
        for msg in ({"type": "move", "move": "a1", "ply": 0}, {"type": "resign"},
                    {"type": "undo"}, {"type": "move", "move": "a1", "ply": 0, "token": g.me}):
            ws.send_json(msg)
            assert ws_reply(ws)["error"]["code"] == "spectator"
    assert g.state()["moves"] == []


def test_websocket_oversized_malformed_and_flooding(client):
    g = Online(client, game="robble", size=4, color="black")
    url = f"/api/games/{g.id}/ws"
    with client.websocket_connect(url) as ws:
        ws.send_json({"type": "auth", "token": g.me})
        ws_state(ws)
        for bad in ("{nope", "[1, 2]", '{"type": "move"}', '{"type": "move", "move": 5, "ply": 0}',
                    '{"type": "move", "move": "a1", "ply": 0, "extra": 1}', '{"type": "drop"}'):
            ws.send_text(bad)
            assert ws_reply(ws)["error"]["code"] == "bad_request", bad
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
        assert ws.receive()["code"] == 1009
    with client.websocket_connect(url) as ws:
        ws.send_json({"type": "auth", "token": g.me})
        ws_state(ws)
        for i in range(40):
            ws.send_json({"type": "ping", "id": i})
        codes = [ws_reply(ws) for _ in range(40)]
        assert sum(m["type"] == "error" and m["error"]["code"] == "rate_limited"
                   for m in codes) >= 10
    assert g.state()["moves"] == []


def test_websocket_reconnect_mid_game(client):
    g = Online(client, game="robble", size=4, color="black")
    url = f"/api/games/{g.id}/ws"
    with client.websocket_connect(url) as ws:
        ws.send_json({"type": "auth", "token": g.me})
        ws_state(ws)
        ws.send_json({"type": "move", "move": "a1", "ply": 0})
        assert ws_reply(ws)["type"] == "ack"
    g.move("b2", token=g.friend, ply=1)               # played while I was away
    with client.websocket_connect(url) as ws:         # a reload: the same link, a new socket
        ws.send_json({"type": "auth", "token": g.me})
        st = ws_state(ws)
        assert st["moves"] == ["a1", "b2"] and st["your_turn"]
        ws.send_json({"type": "move", "move": "c3", "ply": 2})
        assert ws_reply(ws)["type"] == "ack"
    assert g.get(g.friend).json()["moves"] == ["a1", "b2", "c3"]


# ---------------------------------------------------------------- time controls
def test_time_forfeit_per_move_is_enforced_by_the_server(client):
    import time
    g = Online(client, game="robble", size=4, color="black",
               time_control={"kind": "move", "seconds": 0.5})
    assert g.created["clock"]["running"] is None          # the clock starts with the first move
    time.sleep(0.55)
    assert g.move("a1", token=g.me, ply=0).status_code == 200
    st = g.move("b2", token=g.friend, ply=1).json()
    assert st["clock"]["running"] == 0 and 0 < st["clock"]["remaining"][0] <= 0.5
    with client.websocket_connect(f"/api/games/{g.id}/ws") as ws:   # nobody asks: it falls anyway
        ws.send_json({"type": "auth", "token": g.spectator})
        while not (st := ws_state(ws))["over"]:
            pass
    assert st["result"] == {"winner": "white", "termination": "timeout", "flagged": "black",
                            "scores": None}
    assert "ran out of time" in st["result_text"]
    err(g.move("c3", token=g.me, ply=2), 409, "game_over")
    rec = client.get(f"/api/games/{g.id}/record", headers=H(g.me)).text
    assert "time" in rec.lower() and "resign" not in rec.lower()
    js = client.get(f"/api/games/{g.id}/record", params={"format": "json"}, headers=H(g.me)).json()
    assert js["termination"] == "timeout" and js["result"] == "white"


def test_total_time_with_increment_and_a_late_move(client):
    import time
    g = Online(client, game="robble", size=4, color="black",
               time_control={"kind": "total", "seconds": 0.6, "increment": 0.2})
    g.move("a1", token=g.me, ply=0)
    time.sleep(0.1)
    st = g.move("b2", token=g.friend, ply=1).json()
    assert 0.3 < st["clock"]["remaining"][1] <= 0.71       # 0.6 - ~0.1 + 0.2
    time.sleep(0.7)
    err(g.move("c3", token=g.me, ply=2), 409, "game_over")  # too late: refused, the flag fell
    st = g.state()
    assert st["result"]["termination"] == "timeout" and st["result"]["flagged"] == "black"
    assert st["moves"] == ["a1", "b2"]
    err(client.post("/api/games", json={"game": "robble", "opponent": "human",
                                        "time_control": {"kind": "move", "seconds": 5}}),
        400, "bad_option")
    err(client.post("/api/games", json={"game": "robble", "opponent": "online",
                                        "time_control": {"kind": "move", "seconds": -1}}),
        400, "bad_request")


def test_a_clock_survives_a_restart(tmp_path):
    import time
    db = tmp_path / "games.sqlite3"
    with BrowserClient(create_app(db, engine_workers=0)) as c:
        g = Online(c, game="robble", size=4, color="black",
                   time_control={"kind": "total", "seconds": 0.5})
        g.move("a1")
    time.sleep(0.6)                                          # white's time ran out while down
    with BrowserClient(create_app(db, engine_workers=0)) as c:
        g.c = c
        st = g.get(g.friend).json()
        assert st["over"] and st["result"]["flagged"] == "white"


def test_an_unexpected_failure_answers_json_without_a_stack_trace(tmp_path, monkeypatch):
    app = create_app(tmp_path / "games.sqlite3", engine_workers=0)
    with BrowserClient(app, raise_server_exceptions=False) as c:
        g = Online(c, game="robble", size=4, color="black")

        def boom(*a, **k):
            raise RuntimeError("secret internals " + g.me)

        monkeypatch.setattr(app.state.hub.views, "state", boom)
        r = g.get(g.me)
        err(r, 500, "internal")
        assert "secret internals" not in r.text and g.me not in r.text


def test_http_actions_are_rate_limited_per_seat(client, monkeypatch):
    from boardlab.web import online

    class Stopped(online.RateLimit):
        """The seat's real bucket on a clock that stands still, so a slow
        machine's requests earn no tokens back between them."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, clock=lambda: 0.0, **kwargs)

    monkeypatch.setattr(online, "RateLimit", Stopped)
    g = Online(client, game="robble", size=4, color="black")
    codes = [g.move("a1", token=g.friend, ply=0).status_code for _ in range(40)]
    assert codes.count(429) >= 10 and set(codes) == {409, 429}
    r = g.move("a1", token=g.friend, ply=0)
    if r.status_code == 429:
        err(r, 429, "rate_limited")
    assert g.move("a1", token=g.me, ply=0).status_code == 200   # the other seat is not affected


def test_one_http_connection_flooding_the_server_is_rate_limited(tmp_path):
    """Every HTTP connection has a token bucket (``http_rate``: requests a second,
    burst): past it, a tight loop of requests from one connection is answered 429
    rate_limited. A slow rate (2/s after a burst of 30) keeps the test independent
    of how fast a loaded machine serves the loop."""
    from boardlab.web import create_app as make_app
    with BrowserClient(make_app(tmp_path / "flood.sqlite3", engine_workers=0,
                             http_rate=(2.0, 30.0))) as c:
        start = time.monotonic()
        replies = [c.get("/api/kinds") for _ in range(60)]
        elapsed = time.monotonic() - start
    codes = [r.status_code for r in replies]
    assert codes[:30] == [200] * 30                      # a burst is served
    assert 30 <= codes.count(200) <= 30 + 2 * elapsed + 1  # then 2 a second
    refused = next(r for r in replies if r.status_code == 429)
    assert refused.json() == {"error": {"code": "rate_limited",
                                        "message": "too many requests; slow down"}}


def test_the_default_http_rate_serves_a_burst_of_200_then_50_a_second(tmp_path):
    """The default bucket: however fast or slow the machine, no more than 200 +
    50 per elapsed second are served, and the first 200 always are."""
    from boardlab.web import create_app as make_app
    with BrowserClient(make_app(tmp_path / "flood.sqlite3", engine_workers=0)) as c:
        start = time.monotonic()
        codes = [c.get("/api/kinds").status_code for _ in range(300)]
        elapsed = time.monotonic() - start
    assert codes[:200] == [200] * 200
    assert codes.count(200) <= 200 + 50 * elapsed + 1
    assert set(codes) <= {200, 429}


# ---------------------------------------------------------------- regressions (web audit)
def test_an_open_websocket_follows_its_seat_when_the_komi_pick_swaps_the_seats(client):
    """A socket fixed its seat at auth, so after the friend's komi pick reversed the seats
    the creator's socket pushed the old seat's state and its moves were refused."""
    g = Online(client, game="yugo", size=5, pregame={"namer": "human", "value": 3})
    assert g.my_seat == 0
    with client.websocket_connect(f"/api/games/{g.id}/ws") as ws:
        ws.send_json({"type": "auth", "token": g.me})
        st = ws_state(ws)
        assert st["you"] == {"seat": 0, "color": "black"} and st["pregame_pending"]
        st = g.post("color", g.friend, {"color": "black"}).json()   # the friend takes my color
        assert st["you"] == {"seat": 0, "color": "black"}
        while (st := ws_state(ws))["pregame_pending"]:
            pass
        assert st["you"] == {"seat": 1, "color": "white"}
        assert not st["your_turn"] and st["legal"] == []
        assert st["connected"][1]                                  # my socket, my new seat
        ws.send_json({"type": "move", "move": "pass", "ply": 0, "id": 1})
        assert ws_reply(ws)["error"]["code"] == "not_your_turn"
        friend = g.get(g.friend).json()
        assert friend["your_turn"]
        assert g.move(friend["legal"][0], token=g.friend, ply=0).status_code == 200
        while (st := ws_state(ws))["ply"] < 1:
            pass
        assert st["your_turn"] and st["legal"] and st["you"]["color"] == "white"
        assert st == {**g.state(), "version": st["version"], "connected": st["connected"]}
        mv = next(m for m in st["legal"] if m != "pass")
        ws.send_json({"type": "move", "move": mv, "ply": 1, "id": 2})
        assert ws_reply(ws) == {"type": "ack", "id": 2}
    assert g.get(g.friend).json()["moves"] == [friend["legal"][0], mv]
    hub = client.app.state.hub
    assert all(n >= 0 for n in hub.live[g.id].sockets.values())


def test_a_komi_pick_after_the_game_ended_is_refused(client):
    """The friend could pick a color after the creator resigned during the komi pick,
    which reversed the seats after the result and made the resigner the winner."""
    g = Online(client, game="yugo", size=5, name="Creator",
               pregame={"namer": "human", "value": 2})
    g.post("name", g.friend, {"name": "Friend"})
    st = g.post("resign", g.me).json()
    assert st["over"]
    before = st["result_text"]
    assert "Friend" in before
    err(g.post("color", g.friend, {"color": "black"}), 409, "game_over")
    after = g.get(g.friend).json()
    assert after["result_text"] == before and after["result"] == st["result"]
    assert after["seats"] == st["seats"]


def test_idle_games_leave_memory_but_not_the_store_and_followed_games_stay(tmp_path,
                                                                           monkeypatch):
    """The hub keeps at most LIVE_KEPT quiet games in memory (least recently
    used out first); a game someone follows (a spectator's WebSocket) is never
    dropped, and a dropped game comes back from the store as it was."""
    from boardlab.web import hub as hub_module

    monkeypatch.setattr(hub_module, "LIVE_KEPT", 3)
    app = create_app(tmp_path / "games.sqlite3", engine_workers=0)
    with BrowserClient(app) as client:
        live = app.state.hub.live
        watched = Online(client, game="robble", size=4, color="black")
        idle = Online(client, game="robble", size=4, color="black")
        assert idle.move("b2").status_code == 200
        url = f"/api/games/{watched.id}/ws"
        with client.websocket_connect(url) as ws:
            ws.send_json({"type": "auth", "token": watched.spectator})
            assert ws_state(ws)["you"] == "spectator"
            others = [Online(client, game="robble", size=4, color="black") for _ in range(4)]
            assert len(live) <= 3
            assert watched.id in live and idle.id not in live
            assert watched.move("a1").status_code == 200      # the spectator sees it
            plies = [ws_state(ws)["ply"]]
            while plies[-1] == 0 and len(plies) < 5:          # (presence updates come too)
                plies.append(ws_state(ws)["ply"])
            assert plies[-1] == 1
        for g in others:
            g.state()
        assert watched.id not in live and len(live) <= 3
        st = idle.state()                                     # rebuilt from the store
        assert st["ply"] == 1 and st["moves"] == ["b2"]
        assert idle.move("c3").status_code == 200 and idle.state()["ply"] == 2
        assert watched.state()["moves"] == ["a1"]
