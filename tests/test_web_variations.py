"""Variations kept with a stored game (PUT /api/games/{id}/variations): checked
move by move, written into the downloaded record as parenthesised lines,
read back from a loaded record, and the page's JSON form round-trips with
``records.Record.variations``."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab import records
from boardlab.web import create_app, recordio
from web_support import BrowserClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NESTED = [{"ply": 1, "moves": ["a1", "e5"], "variations": [{"ply": 1, "moves": ["a5"]}]},
          {"ply": 0, "moves": ["b4"]}]


@pytest.fixture
def client(tmp_path):
    with BrowserClient(create_app(tmp_path / "g.sqlite3", engine_workers=0)) as c:
        yield c


def _hot_seat(client, moves):
    gid = client.post("/api/games", json={"game": "robble", "size": 5, "opponent": "human",
                                          "options": {"pie": False}}).json()["id"]
    for m in moves:
        assert client.post(f"/api/games/{gid}/moves", json={"move": m}).status_code == 200
    return gid


def test_kept_downloaded_and_loaded_back(client):
    gid = _hot_seat(client, ["c3", "b2", "d4"])
    r = client.put(f"/api/games/{gid}/variations", json={"variations": NESTED})
    assert r.status_code == 200, r.text
    assert len(r.json()["meta"]["variations"]) == 2
    text = client.get(f"/api/games/{gid}/record").text
    assert "(1. b4)" in text and "(2. a1 3. e5 (3. a5))" in text, text
    rec = records.parse(text)
    assert rec.moves == ["c3", "b2", "d4"]
    assert rec.variations[1][0].line_moves() == ["a1", "e5"]
    js = client.get(f"/api/games/{gid}/record?format=json").text
    assert records.from_json(js).variations == rec.variations
    loaded = client.post("/api/records", json={"text": text}).json()
    back = loaded["meta"]["variations"]
    assert recordio.variation_nodes(back) == recordio.variation_nodes(NESTED)


def test_refused_with_what_and_where(client):
    gid = _hot_seat(client, ["c3", "b2"])
    cases = [
        ([{"ply": 1, "moves": ["c3"]}], "at ply 1, line 1, move 1: illegal move 'c3'"),
        ([{"ply": 1, "moves": []}], "variations[0].moves: a list of at least one move"),
        ([{"ply": -1, "moves": ["a1"]}], "variations[0].ply"),
        ([{"ply": 1, "moves": ["a1"], "variations": [{"ply": 0, "moves": ["a2"]}]}],
         "variations[0].variations[0].ply: a whole number from 1"),
        ([{"ply": 1, "moves": ["a1"], "variations": [{"ply": 1, "moves": ["a2"]}]}],
         "the line has 1 moves"),
        ([{"ply": 9, "moves": ["a1"]}], "ply 9"),
        (["a1"], "variations[0]: an object"),
    ]
    for variations, words in cases:
        r = client.put(f"/api/games/{gid}/variations", json={"variations": variations})
        assert r.status_code == 400, (variations, r.text)
        err = r.json()["error"]
        assert err["code"] == "bad_variation" and words in err["message"], (words, err)
    other = BrowserClient(client.app)  # a browser without the owner token
    assert other.put(f"/api/games/{gid}/variations", json={"variations": []}).status_code == 404


def test_a_variation_past_a_take_back_is_left_out(client):
    gid = _hot_seat(client, ["c3", "b2", "d4"])
    client.put(f"/api/games/{gid}/variations",
               json={"variations": [{"ply": 2, "moves": ["a1"]}, {"ply": 1, "moves": ["e5"]}]})
    assert client.post(f"/api/games/{gid}/undo").status_code == 200   # d4 taken back
    assert client.post(f"/api/games/{gid}/undo").status_code == 200   # b2 too
    text = client.get(f"/api/games/{gid}/record").text
    assert "(2. e5)" not in text and "a1" not in text  # both replaced moves are gone
    rec = records.parse(text)
    assert rec.moves == ["c3"] and rec.variations == {}


def test_json_form_round_trips_random_trees():
    rng = random.Random(4)
    for _ in range(20):
        g = boardlab.new_game("robble", 5, pie=False)
        moves = []
        for _ in range(6):
            m = rng.choice(g.legal_moves())
            g.play(m)
            moves.append(m)
        rec = records.Record.from_game(g, {})
        root = rec.tree()
        for _ in range(4):  # random side lines off random main-line nodes
            k = rng.randrange(len(moves))
            node = root.mainline()[k - 1] if k else root  # the node after k moves
            h = boardlab.new_game("robble", 5, pie=False)
            for m in moves[:k]:
                h.play(m)
            line = []
            for _ in range(rng.randint(1, 3)):
                if h.is_over:
                    break
                m = rng.choice(h.legal_moves())
                h.play(m)
                line.append(m)
            if line:
                node.add_line(line)
        full = records.Record.from_tree(rec.start_game(), root, {})
        data = recordio.variations_json(full.variations)
        assert recordio.variation_nodes(data) == {k: v for k, v in full.variations.items() if v}
        again = records.Record.from_game(g, {}, variations=recordio.variation_nodes(data))
        assert records.format(again) == records.format(full)
