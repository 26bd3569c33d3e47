"""The computer at a chosen level, through the web API: every registered level
plays legal moves to the end of a small game in the real worker process."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.web import create_app
from web_support import BrowserClient  # keeps owner tokens as the page does

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def wait_turn(client, state, timeout=60.0) -> dict:
    while not state["your_turn"] and not state["over"]:
        r = client.get(f"/api/games/{state['id']}", params={"after": state["version"], "wait": timeout})
        assert r.status_code == 200, r.text
        assert r.json()["version"] != state["version"], r.json()["engine_error"]
        state = r.json()
    return state


@pytest.mark.parametrize("game,level", [("robble", "level1"), ("implo", "level2"),
                                        ("vimbre", "level3")])
def test_a_level_plays_a_whole_game_against_a_human(tmp_path, game, level):
    rng = random.Random(f"{game}{level}")
    with BrowserClient(create_app(tmp_path / "g.sqlite3", engine_workers=1)) as client:
        assert level in [e["name"] for e in client.get("/api/engines").json()]
        r = client.post("/api/games", json={"game": game, "size": 4, "engine": level,
                                            "color": "black"})
        assert r.status_code == 201, r.text
        state = r.json()
        replay = boardlab.new_game(game, 4)
        while not state["over"]:
            state = wait_turn(client, state)
            if state["over"]:
                break
            r = client.post(f"/api/games/{state['id']}/moves",
                            json={"move": rng.choice(state["legal"])})
            assert r.status_code == 200, r.text
            state = r.json()
        assert state["engine_error"] is None
        for mv in state["moves"]:      # every stored move (the engine's too) is legal
            replay.play(mv)
        assert replay.is_over
