"""Looking back at a game with others (routes/review.py, web/review.py): the
read-only share link, the whole-game analysis kept with the game in SQLite,
written into its record as ``[%eval]`` comments and NAGs and read back when
the record is loaded; and the online endings (rematch, an undo's answer, a
fallen flag's clock). FastAPI TestClient on a real SQLite file; the analysis
is the real engine's, over the analysis socket."""

from __future__ import annotations

import json
import sqlite3

import pytest

from boardlab import records
from boardlab.web import create_app, review
from boardlab.web.settings import Settings
from web_support import BrowserClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
MOVES = ["c3", "b2", "d4", "a1"]


@pytest.fixture
def client(tmp_path):
    with BrowserClient(create_app(tmp_path / "g.sqlite3", engine_workers=0)) as c:
        yield c


def H(token):
    return {"X-Seat-Token": token}


def hot_seat(client, moves=MOVES) -> str:
    r = client.post("/api/games", json={"game": "robble", "size": 4, "opponent": "human",
                                        "options": {"pie": False}})
    gid = r.json()["id"]
    for m in moves:
        assert client.post(f"/api/games/{gid}/moves", json={"move": m}).status_code == 200
    return gid


def whole_game(client, moves=MOVES) -> dict:
    """The analysis socket's whole-game result, as the page receives it."""
    with client.websocket_connect("/api/analysis/ws") as ws:
        ws.send_json({"type": "game", "id": 1, "game": "robble", "size": 4,
                      "options": {"pie": False}, "moves": moves, "seconds": 0.05})
        while (m := ws.receive_json())["type"] != "game":
            assert m["type"] == "progress", m
    return {**m["result"], "moves": moves}


def err(r, status, code):
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text
    return r.json()["error"]["message"]


# ---------------------------------------------------------------- the share link
def test_share_link_reads_everything_and_changes_nothing(client):
    gid = hot_seat(client)
    link = client.post(f"/api/games/{gid}/share").json()
    assert link["link"] == f"/#/watch/{gid}/{link['token']}"
    assert client.post(f"/api/games/{gid}/share").json() == link       # one link per game
    token = link["token"]
    st = client.get(f"/api/games/{gid}", headers=H(token)).json()
    assert st["read_only"] and not st["your_turn"] and st["legal"] == [] and not st["can_undo"]
    assert st["moves"] == MOVES and token not in str(st)                # the token is not shown
    assert client.get(f"/api/games/{gid}?ply=2", headers=H(token)).json()["view_ply"] == 2
    assert "1. c3" in client.get(f"/api/games/{gid}/record", headers=H(token)).text
    for method, what, body in [("post", "moves", {"move": "d1"}), ("post", "undo", None),
                               ("post", "resign", {}), ("delete", "", None),
                               ("put", "variations", {"variations": []}),
                               ("put", "analysis", {"moves": [], "wins": [], "judgements": []})]:
        r = client.request(method.upper(), f"/api/games/{gid}/{what}".rstrip("/"), json=body,
                           headers=H(token))
        err(r, 403, "spectator")
    err(client.get(f"/api/games/{gid}", headers=H(token + "x")), 404, "not_found")
    owner = client.get(f"/api/games/{gid}").json()
    assert not owner["read_only"] and owner["your_turn"]                # the owner still plays


def test_an_online_games_players_share_it_without_giving_a_seat(client):
    r = client.post("/api/games", json={"game": "robble", "size": 4, "opponent": "online",
                                        "color": "black"})
    me = r.json()["tokens"]["you"]
    gid = r.json()["id"]
    err(client.post(f"/api/games/{gid}/share"), 404, "not_found")       # no token: no link
    token = client.post(f"/api/games/{gid}/share", headers=H(me)).json()["token"]
    st = client.get(f"/api/games/{gid}", headers=H(token)).json()
    assert st["you"] == "spectator" and st["read_only"]
    err(client.post(f"/api/games/{gid}/moves", json={"move": "a1", "ply": 0}, headers=H(token)),
        403, "spectator")


# ---------------------------------------------------------------- analysis kept with the game
def test_whole_game_analysis_is_kept_cut_by_an_undo_and_deleted_with_the_game(client, tmp_path):
    gid = hot_seat(client)
    err(client.get(f"/api/games/{gid}/analysis"), 404, "no_analysis")
    result = whole_game(client)
    r = client.put(f"/api/games/{gid}/analysis", json=result)
    assert r.status_code == 200, r.text
    got = client.get(f"/api/games/{gid}/analysis").json()
    assert got["moves"] == MOVES and got["wins"] == result["wins"]
    assert [j["move"] for j in got["judgements"]] == MOVES
    assert set(got["accuracy"]) == {"black", "white"}
    assert all(0 <= a <= 100 for a in got["accuracy"].values())
    first = got["plies"][0]["candidates"][0]
    assert first["points"] == [first["move"]]                           # recomputed, not stored
    assert client.get(f"/api/games/{gid}").json()["meta"]["analysis"] == {"moves": 4,
                                                                         "source": "engine"}
    client.post(f"/api/games/{gid}/undo")
    cut = client.get(f"/api/games/{gid}/analysis").json()
    assert cut["moves"] == MOVES[:3] and len(cut["wins"]) == 4 and len(cut["judgements"]) == 3
    assert client.delete(f"/api/games/{gid}").status_code == 204
    with sqlite3.connect(tmp_path / "g.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM analyses").fetchone()[0] == 0


def test_an_analysis_that_does_not_fit_the_game_is_refused_saying_where(client):
    gid = hot_seat(client)
    good = whole_game(client)
    assert "moves" in err(client.put(f"/api/games/{gid}/analysis",
                                     json={**good, "moves": ["a4", "b2", "d4", "a1"]}),
                          400, "bad_analysis")
    assert "wins" in err(client.put(f"/api/games/{gid}/analysis",
                                    json={**good, "wins": good["wins"][:-1]}), 400, "bad_analysis")
    bad = [dict(j) for j in good["judgements"]]
    bad[1] = {**bad[1], "label": "blunder", "glyph": "?!"}
    assert "judgements[1]" in err(client.put(f"/api/games/{gid}/analysis",
                                             json={**good, "judgements": bad}),
                                  400, "bad_analysis")
    wins = [dict(w) for w in good["wins"]]
    wins[2] = {"black": 1.5, "white": -0.5}
    assert "wins[2]" in err(client.put(f"/api/games/{gid}/analysis",
                                       json={**good, "wins": wins}), 400, "bad_analysis")
    err(client.get(f"/api/games/{gid}/analysis"), 404, "no_analysis")   # nothing was kept


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_record_carries_the_analysis_and_loading_it_brings_it_back(client, fmt):
    gid = hot_seat(client)
    result = whole_game(client)
    result["judgements"][2] = {**result["judgements"][2], "label": "mistake", "glyph": "?",
                               "best": "d1"}
    assert client.put(f"/api/games/{gid}/analysis", json=result).status_code == 200
    text = client.get(f"/api/games/{gid}/record", params={"format": fmt}).text
    rec = records.from_json(text) if fmt == "json" else records.parse(text)
    assert rec.nags == {3: (2,)}                                         # $2: a mistake
    assert "[%eval black" in rec.comments[0] and "mistake; best d1" in rec.comments[3]
    if fmt == "text":
        assert "3. d4 $2 {[%eval black" in text
    loaded = client.post("/api/records", json={"text": text}).json()
    assert loaded["meta"]["analysis"] == {"moves": 4, "source": "record"}
    back = client.get(f"/api/games/{loaded['id']}/analysis").json()
    assert [round(w["black"], 3) for w in back["wins"]] == [round(w["black"], 3)
                                                           for w in result["wins"]]
    assert [j["label"] for j in back["judgements"]] == [None, None, "mistake", None]
    assert back["judgements"][2]["best"] == "d1" and back["counts"]["black"]["mistake"] == 1


def test_a_record_with_evaluations_missing_somewhere_loads_without_an_analysis(client):
    text = ('[Game "robble"]\n[Size "4"]\n[Pie "no"]\n\n'
            '{[%eval black 0.5]} 1. c3 {[%eval black 0.6]} 2. b2 3. d4?? {[%eval black 0.2]} *\n')
    loaded = client.post("/api/records", json={"text": text}).json()
    assert "analysis" not in loaded["meta"]
    err(client.get(f"/api/games/{loaded['id']}/analysis"), 404, "no_analysis")


def test_a_records_swap_is_judged_from_the_color_the_swapper_takes():
    """A swap is played for the other color (core.pie.played_for): after it,
    the swapper's win probability is the first color's. White swaps at black's
    0.6 (white 0.4) into a position black holds at 0.3: a drop of 0.1 (read
    from white's side it would look like a gain to 0.7)."""
    text = ('[Game "robble"]\n[Size "4"]\n[Pie "yes"]\n\n{[%eval black 0.5]} 1. c3 '
            '{[%eval black 0.6]} 2. swap {[%eval black 0.3]} 3. b2 {[%eval black 0.35]} *\n')
    swap = review.from_record(records.parse(text))["judgements"][1]
    assert (swap["move"], swap["mover"]) == ("swap", "white")
    assert (swap["before"], swap["after"], swap["drop"]) == (0.4, 0.3, 0.1)


# ---------------------------------------------------------------- the server's bounds
EVALUATED = ('[Game "robble"]\n[Size "4"]\n[Pie "no"]\n\n{[%eval black 0.5]} 1. c3 '
             '{[%eval black 0.6]} 2. b2 {[%eval black 0.4]} 3. d4?? {[%eval black 0.2]} '
             '4. a1 {[%eval black 0.3]} *\n')


def test_a_stored_analysis_is_bounded_and_one_over_the_cap_is_refused(tmp_path):
    """What a game keeps beside its moves stays bounded: an analysis over
    ``max_analysis_bytes`` as stored is refused (413 from PUT, 400 for a
    loaded record's evaluations) and nothing is kept; under the default cap
    the same record keeps its analysis."""
    settings = Settings(max_analysis_bytes=600)
    with BrowserClient(create_app(tmp_path / "g.sqlite3", engine_workers=0,
                                  settings=settings)) as client:
        gid = hot_seat(client)
        result = whole_game(client)
        message = err(client.put(f"/api/games/{gid}/analysis", json=result),
                      413, "analysis_too_large")
        assert "at most 600" in message
        err(client.get(f"/api/games/{gid}/analysis"), 404, "no_analysis")
        assert "analysis" not in client.get(f"/api/games/{gid}").json()["meta"]
        message = err(client.post("/api/records", json={"text": EVALUATED}), 400, "bad_record")
        assert message.startswith("evaluations:") and "at most 600" in message
    with BrowserClient(create_app(tmp_path / "h.sqlite3", engine_workers=0)) as client:
        loaded = client.post("/api/records", json={"text": EVALUATED}).json()
        assert loaded["meta"]["analysis"] == {"moves": 4, "source": "record"}
        assert client.put(f"/api/games/{loaded['id']}/analysis",
                          json=whole_game(client)).status_code == 200


def test_an_analysis_cannot_break_the_games_record_or_answers(client):
    """A stored analysis goes into every download of the game's record and
    into its answers: an engine's choice that is not a legal move there
    (braces would end the record's comment), a position twice, or an
    infinite number is refused, and the record still downloads."""
    gid = hot_seat(client)
    good = whole_game(client)
    for best in ("d1} 2. zz {", "c3"):                     # c3 is taken before move 3
        judged = [dict(j) for j in good["judgements"]]
        judged[2] = {**judged[2], "best": best}
        assert "judgements[2].best" in err(client.put(f"/api/games/{gid}/analysis",
                                                      json={**good, "judgements": judged}),
                                           400, "bad_analysis")
    twice = {**good, "plies": [good["plies"][0], good["plies"][0]]}
    assert "twice" in err(client.put(f"/api/games/{gid}/analysis", json=twice),
                          400, "bad_analysis")
    body = json.dumps({**good, "plies": [{**good["plies"][0], "seconds": 1e999}]})
    assert "Infinity" in body
    err(client.put(f"/api/games/{gid}/analysis", content=body,
                   headers={"content-type": "application/json"}), 400, "bad_request")
    err(client.get(f"/api/games/{gid}/analysis"), 404, "no_analysis")
    judged = [dict(j) for j in good["judgements"]]
    judged[2] = {**judged[2], "label": "mistake", "glyph": "?", "best": " D1 "}
    assert client.put(f"/api/games/{gid}/analysis",
                      json={**good, "judgements": judged}).status_code == 200
    text = client.get(f"/api/games/{gid}/record").text
    assert "mistake; best d1" in records.parse(text).comments[3]          # as the game writes it


def test_a_set_up_position_is_checked_and_drawn_in_the_work_pool(client):
    """The board editor's position grows with the board a client sends
    (vimbre 19x19: tens of thousands of legal moves to draw): it is the
    work pool's, as any drawn position, and a bad one says what is wrong."""
    hub = client.app.state.hub
    cells = [None] * (19 * 19)
    cells[180] = {"token": "X"}
    done = hub.work.done
    r = client.post("/api/analysis/setup", json={"game": "vimbre", "size": 19, "cells": cells,
                                                 "to_move": "white"})
    assert r.status_code == 200, r.text
    drawn = r.json()
    assert drawn["position"].startswith("vimbre 19 ") and drawn["to_move"] == "white"
    assert len(drawn["legal_points"]) == len(drawn["legal"]) > 10_000
    assert hub.work.done == done + 1
    assert "cells[3]" in err(client.post("/api/analysis/setup", json={
        "game": "robble", "size": 4, "cells": [None] * 3 + [{"token": "Q"}] + [None] * 12,
        "to_move": "black"}), 400, "bad_position")
    err(client.post("/api/analysis/setup", json={"game": "robble", "size": 4,
                                                 "cells": [None] * 400, "to_move": "black"}),
        400, "bad_request")


# ---------------------------------------------------------------- online endings
def online(client, **spec):
    r = client.post("/api/games", json={"game": "robble", "size": 4, "opponent": "online",
                                        "color": "black", **spec})
    st = r.json()
    return st["id"], st["tokens"]["you"], st["tokens"]["invite"], st["tokens"]["spectate"]


def test_rematch_exchanges_the_colors_and_keeps_each_players_link(client):
    gid, me, friend, spectator = online(client, time_control={"kind": "move", "seconds": 60})
    err(client.post(f"/api/games/{gid}/rematch", headers=H(me)), 409, "not_over")
    client.post(f"/api/games/{gid}/resign", json={}, headers=H(me))
    err(client.post(f"/api/games/{gid}/rematch", headers=H(spectator)), 403, "spectator")
    new = client.post(f"/api/games/{gid}/rematch", headers=H(me)).json()
    assert new["id"] != gid and new["you"] == {"seat": 1, "color": "white"}
    again = client.post(f"/api/games/{gid}/rematch", headers=H(friend)).json()
    assert again["id"] == new["id"] and again["you"]["color"] == "black"   # one rematch
    assert client.get(f"/api/games/{gid}", headers=H(friend)).json()["meta"]["rematch"] == {
        "id": new["id"], "by": 0}
    assert client.get(f"/api/games/{new['id']}", headers=H(spectator)).json()["you"] == "spectator"
    assert new["clock"]["running"] is None and new["moves"] == []


def test_a_rematch_is_a_new_game_of_its_asker(tmp_path):
    """A rematch creates a game like POST /api/games: it is counted as the
    asking client's (its creation rate refuses it, and the new game's meta
    names that client), never as a way around the limits."""
    settings = Settings(creation_rate=(1e-6, 1.0))   # one new game per client, then 429
    with BrowserClient(create_app(tmp_path / "g.sqlite3", engine_workers=0,
                                  settings=settings)) as client:
        gid, me, _, _ = online(client)
        client.post(f"/api/games/{gid}/resign", json={}, headers=H(me))
        err(client.post(f"/api/games/{gid}/rematch", headers=H(me)), 429, "rate_limited")
        assert "rematch" not in client.get(f"/api/games/{gid}", headers=H(me)).json()["meta"]
    with BrowserClient(create_app(tmp_path / "g.sqlite3", engine_workers=0)) as client:
        new = client.post(f"/api/games/{gid}/rematch", headers=H(me)).json()
        with sqlite3.connect(tmp_path / "g.sqlite3") as db:
            old, made = (json.loads(db.execute("SELECT meta FROM games WHERE id=?",
                                               (g,)).fetchone()[0]) for g in (gid, new["id"]))
        assert made["client"] == old["client"] and made["online"]      # the asker's
        assert "client" not in new["meta"]                              # and not shown


def test_the_asker_is_told_the_undo_answer_until_the_next_move(client):
    gid, me, friend, _ = online(client)
    client.post(f"/api/games/{gid}/moves", json={"move": "a1", "ply": 0}, headers=H(me))
    client.post(f"/api/games/{gid}/moves", json={"move": "b2", "ply": 1}, headers=H(friend))
    client.post(f"/api/games/{gid}/undo", headers=H(friend))
    client.post(f"/api/games/{gid}/undo/answer", json={"accept": False}, headers=H(me))
    st = client.get(f"/api/games/{gid}", headers=H(friend)).json()
    assert st["meta"]["undo_answer"] == {"by": 0, "accepted": False, "ply": 2, "at": 2}
    assert st["undo_request"] is None


def test_the_clock_of_the_player_whose_flag_fell_reads_zero(client):
    import time
    gid, me, friend, _ = online(client, time_control={"kind": "move", "seconds": 0.3})
    client.post(f"/api/games/{gid}/moves", json={"move": "a1", "ply": 0}, headers=H(me))
    time.sleep(0.4)
    st = client.get(f"/api/games/{gid}", headers=H(me)).json()
    assert st["result"]["flagged"] == "white"
    assert st["clock"]["remaining"] == [0.3, 0.0]
