"""Issue 29's attacks, kept as tests: each reproduces one hostile client
against a real server on loopback (uvicorn with the server's own config, in
a thread, or ``python -m boardlab.web`` where a restart or a kill is part of
the attack) and asserts the clear 4xx or close code, and that another client
is served meanwhile. Clients are told apart as the server tells them: by
address (the attacker connects from 127.0.0.2, the bystander from 127.0.0.3).

The attacks are small: each shows its effect by a cap or a count of work,
never by timing. Their full-size versions, with figures, are ``make
hardening`` (bench/hardening.py).
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import boardlab
from boardlab.web import create_app
from boardlab.web.settings import Settings
from web_support import assert_gone, children

ROOT = Path(__file__).resolve().parents[1]
ATTACKER, BYSTANDER = "127.0.0.2", "127.0.0.3"
SECURITY_HEADERS = ("x-content-type-options", "x-frame-options", "referrer-policy",
                    "content-security-policy")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ---------------------------------------------------------------- a server on loopback
class Loopback:
    """The app under real uvicorn (``server.uvicorn_config``) in a thread."""

    def __init__(self, db: Path, settings: Settings, app=None) -> None:
        import uvicorn

        from boardlab.web.server import uvicorn_config
        self.settings = settings
        self.app = app or create_app(db, settings=settings)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.server = uvicorn.Server(uvicorn_config(self.app, settings, "127.0.0.1", self.port,
                                                    "critical"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def hub(self):
        return self.app.state.hub

    def __enter__(self) -> Loopback:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "no server"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    # ------------------------------------------------------------ clients
    def call(self, method: str, path: str, body=None, token: str | None = None,
             source: str = BYSTANDER, headers: dict | None = None, timeout: float = 60):
        """One request from address ``source``: (status, headers, JSON or text)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                          source_address=(source, 0))
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        if token:
            hdrs["X-Seat-Token"] = token
        data = None if body is None else (body if isinstance(body, (bytes, str))
                                          else json.dumps(body))
        try:
            conn.request(method, path, data, hdrs)
            r = conn.getresponse()
            raw = r.read()
            out = raw.decode("utf-8")
            if r.getheader("content-type", "").startswith("application/json"):
                out = json.loads(raw)
            return r.status, {k.lower(): v for k, v in r.getheaders()}, out
        finally:
            conn.close()

    def served(self) -> bool:
        """Whether another client (the bystander) is answered right now."""
        status, _, kinds = self.call("GET", "/api/kinds", source=BYSTANDER)
        return status == 200 and len(kinds) == len(boardlab.GAMES)

    def socket(self, path: str, source: str = ATTACKER, **kwargs):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30,
                                        source_address=(source, 0))
        return connect(f"ws://127.0.0.1:{self.port}{path}", sock=sock, open_timeout=30,
                       compression=None, **kwargs)


def _settings(**kw) -> Settings:
    return Settings(engine_workers=0, **kw)


def _closed_with(ws, within: float = 30.0) -> int:
    """The close code the server ends ``ws`` with (it sends nothing else)."""
    try:
        while True:
            ws.recv(timeout=within)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None, "closed without a close frame (1006)"
        return exc.rcvd.code


def _error(status, body, want_status, code):
    assert status == want_status, body
    assert body["error"]["code"] == code, body
    return body["error"]["message"]


def _record(moves: int, variations: int, name: str = "Ann", size: int = 9) -> str:
    """A robble record of ``moves`` moves, with a one-move variation at each
    of the first ``variations`` plies (written by the library)."""
    from boardlab import records
    game = boardlab.new_game("robble", size, pie=False)
    lines = {}
    for ply in range(moves):
        legal = game.legal_moves()
        if ply < variations:
            lines[ply] = [records.Node.line([legal[1]])]
        game.play(legal[0])
    return records.format(records.Record.from_game(game, {"black": name}, variations=lines))


# ---------------------------------------------------------------- 1. one record froze the server
def test_a_record_over_its_caps_is_refused_saying_which(tmp_path):
    """A robble record of 421 moves with 300 one-move variations was accepted,
    and rendering it took the event loop 33 s (every other client waited as
    long); 10,000 variations were accepted too. Now a loaded record's
    moves, variations and names have caps (server options), checked in the
    work pool, and a record within them renders there."""
    caps = _settings(max_record_moves=30, max_variation_moves=12, max_name=12)
    with Loopback(tmp_path / "g.sqlite3", caps) as srv:
        cases = [(_record(31, 0), "31 moves: a loaded record may have at most 30"),
                 (_record(20, 13), "variations: 13 moves in all; a loaded record may keep "
                                   "at most 12"),
                 (_record(5, 0, name="A" * 13), "[Black]: a name of 13 characters; at most 12")]
        for text, says in cases:
            status, _, body = srv.call("POST", "/api/records", {"text": text}, source=ATTACKER)
            assert _error(status, body, 400, "bad_record") == says
            assert srv.served()
        status, _, st = srv.call("POST", "/api/records", {"text": _record(30, 12)},
                                 source=ATTACKER)
        assert status == 201, st
        done = srv.hub.work.done
        status, _, text = srv.call("GET", f"/api/games/{st['id']}/record",
                                   token=st["tokens"]["owner"], source=ATTACKER)
        assert status == 200 and text.count("(") == 12
        assert srv.hub.work.done == done + 1   # rendered by the work pool, not the event loop
        lines = [{"ply": k, "moves": [m], "variations": []}
                 for k, m in enumerate(st["moves"][:13])]
        status, _, body = srv.call("PUT", f"/api/games/{st['id']}/variations",
                                   {"variations": lines}, token=st["tokens"]["owner"],
                                   source=ATTACKER)
        assert "a game may keep at most 12" in _error(status, body, 400, "bad_variation")
        assert srv.served()


def test_rendering_a_record_costs_its_moves_not_moves_times_variations(monkeypatch):
    """The variations kept with a game were each checked by building a whole
    record (a replay of the game per variation): 60 one-move variations of a
    60-move game cost 11,280 moves played or taken back. Now one walk of the
    main line: the work is the game's moves and the lines', a few times over."""
    from boardlab.web import recordio
    game = boardlab.new_game("robble", 9, pie=False)
    variations = []
    for ply in range(60):
        legal = game.legal_moves()
        variations.append({"ply": ply, "moves": [legal[1]], "variations": []})
        game.play(legal[0])
    steps = [0]
    for name in ("play", "apply_action", "undo"):   # the real methods, counted
        real = getattr(type(game), name)
        monkeypatch.setattr(type(game), name,
                            lambda self, *a, _real=real, **k: (steps.__setitem__(0, steps[0] + 1),
                                                               _real(self, *a, **k))[1])
    text = recordio.to_text(game, {}, variations=variations)
    monkeypatch.undo()
    assert text.count("(") == 60
    assert steps[0] < 10 * (60 + 60), steps[0]


# ---------------------------------------------------------------- 2. idle sockets locked everyone out
def test_one_clients_idle_sockets_leave_room_for_everyone_else(tmp_path):
    """1,010 analysis sockets from one client, sending nothing, held every
    connection: every other client got 503 (also with --max-connections 100
    and 110 sockets). Now a client may hold --held-per-client sockets and
    long-polls at once: the next socket is closed 1013 and the next
    long-poll answers at once, while another client is served."""
    with Loopback(tmp_path / "g.sqlite3", _settings(held_per_client=3, max_connections=12)) as srv:
        held = [srv.socket("/api/analysis/ws") for _ in range(3)]
        try:
            with srv.socket("/api/analysis/ws") as extra:
                assert _closed_with(extra) == 1013
            status, _, st = srv.call("POST", "/api/games", {"game": "robble", "size": 5,
                                                            "opponent": "human"}, source=ATTACKER)
            assert status == 201
            with srv.socket(f"/api/games/{st['id']}/ws") as extra:
                assert _closed_with(extra) == 1013
            # a long-poll over the limit is answered now, not after its 60 s
            status, _, now = srv.call("GET", f"/api/games/{st['id']}?after={st['version']}"
                                             "&wait=60", token=st["tokens"]["owner"],
                                      source=ATTACKER, timeout=30)
            assert status == 200 and now["version"] == st["version"]
            assert srv.served()
            with srv.socket("/api/analysis/ws", source=BYSTANDER) as mine:
                mine.send(json.dumps({"type": "stop", "id": 1}))
                assert json.loads(mine.recv(timeout=30))["type"] == "stopped"
        finally:
            for ws in held:
                ws.close()


def test_an_idle_analysis_socket_is_closed(tmp_path):
    """An analysis socket that sends nothing stayed open for ever."""
    with Loopback(tmp_path / "g.sqlite3", _settings(socket_idle=0.3)) as srv:
        with srv.socket("/api/analysis/ws") as ws:
            assert _closed_with(ws) == 1001
        assert srv.hub.held.by_client == {}


# ---------------------------------------------------------------- 3. huge positions
def test_a_huge_position_is_drawn_in_the_work_pool(tmp_path):
    """Vimbre 19x19 has 64,333 legal moves after one move: POST
    /api/analysis/view answered 2 MB in 2.4 s computed on the event loop,
    and one client sending these raised everyone's p50 from 0.025 s to 2 s.
    Now it is drawn (and encoded) in the work pool."""
    with Loopback(tmp_path / "g.sqlite3", _settings()) as srv:
        first = boardlab.new_game("vimbre", 19).legal_moves()[0]
        done = srv.hub.work.done
        status, _, v = srv.call("POST", "/api/analysis/view",
                                {"game": "vimbre", "size": 19, "moves": [first]},
                                source=ATTACKER)
        assert status == 200 and len(v["legal"]) == 64_333 == len(v["legal_points"])
        assert srv.hub.work.done == done + 1
        assert srv.served()


def test_an_earlier_position_is_drawn_in_the_work_pool(tmp_path):
    """``GET /api/games/{id}?ply=N`` drew the earlier position (all its legal
    moves) on the event loop at every request: a client could ask for any
    ply of a vimbre 19x19 game as fast as its rate allows."""
    with Loopback(tmp_path / "g.sqlite3", _settings()) as srv:
        status, _, st = srv.call("POST", "/api/games", {"game": "vimbre", "size": 19,
                                                        "opponent": "human"}, source=ATTACKER)
        token = st["tokens"]["owner"]
        for _ in range(3):
            status, _, st = srv.call("POST", f"/api/games/{st['id']}/moves",
                                     {"move": st["legal"][0]}, token=token, source=ATTACKER)
        done, drawn = srv.hub.work.done, srv.hub.views.drawn
        for ply in (1, 2, 1):
            status, _, past = srv.call("GET", f"/api/games/{st['id']}?ply={ply}", token=token,
                                       source=ATTACKER)
            assert status == 200 and past["view_ply"] == ply and past["viewing"]
            assert past["last_move"] == st["moves"][ply - 1] and past["legal"] == []
        assert srv.hub.work.done == done + 3 and srv.hub.views.drawn == drawn
        assert srv.served()


def test_spectators_share_one_drawing_of_the_position(tmp_path):
    """The state sent to each follower of a game drew the position afresh
    (all its legal moves): an online vimbre 19x19 game with 100 spectators
    answered a move after 7 s. Now a position is drawn once per change and
    every answer shares it."""
    with Loopback(tmp_path / "g.sqlite3", _settings()) as srv:
        status, _, st = srv.call("POST", "/api/games", {"game": "vimbre", "size": 7,
                                                        "opponent": "online"})
        gid, tokens = st["id"], st["tokens"]
        watchers = []
        try:
            for _ in range(8):
                ws = srv.socket(f"/api/games/{gid}/ws", source=BYSTANDER)
                ws.send(json.dumps({"type": "auth", "token": tokens["spectate"]}))
                assert json.loads(ws.recv(timeout=30))["type"] == "state"
                watchers.append(ws)
            me = st["you"]["seat"]
            mover = tokens["you"] if st["to_move_seat"] == me else tokens["invite"]
            drawn = srv.hub.views.drawn
            status, _, after = srv.call("POST", f"/api/games/{gid}/moves",
                                        {"move": st["legal"][0] if st["legal"] else
                                         boardlab.new_game("vimbre", 7).legal_moves()[0],
                                         "ply": 0}, token=mover)
            assert status == 200 and after["ply"] == 1
            for ws in watchers:
                while json.loads(ws.recv(timeout=30))["state"]["ply"] != 1:
                    pass
            assert srv.hub.views.drawn == drawn + 1
        finally:
            for ws in watchers:
                ws.close()


# ---------------------------------------------------------------- 7. socket handlers crashed
def test_socket_handlers_answer_whatever_they_are_sent(tmp_path):
    """A binary frame on the analysis socket (KeyError), 2,000-deep brackets
    on the game socket or 5,000-deep on the analysis socket
    (RecursionError), a ping whose id is a lone surrogate
    (UnicodeEncodeError): each dropped the connection with 1006 and a
    traceback. Now each is answered, or closed with a code."""
    with Loopback(tmp_path / "g.sqlite3", _settings()) as srv:
        status, _, st = srv.call("POST", "/api/games", {"game": "robble", "size": 5,
                                                        "opponent": "online"}, source=ATTACKER)
        with srv.socket(f"/api/games/{st['id']}/ws") as ws:
            ws.send(json.dumps({"type": "auth", "token": st["tokens"]["you"]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "state"
            ws.send("[" * 2000 + "]" * 2000)
            assert json.loads(ws.recv(timeout=30))["error"]["code"] == "bad_request"
            ws.send('{"type": "ping", "id": "\\ud800"}')
            assert json.loads(ws.recv(timeout=30)) == {"type": "pong", "id": "\ud800"}
        with srv.socket("/api/analysis/ws") as ws:
            ws.send(b'{"type": "stop", "id": 7}')                  # a binary frame of JSON
            assert json.loads(ws.recv(timeout=30)) == {"type": "stopped", "id": 7,
                                                       "was_running": False}
            ws.send('{"a":' * 5000 + "1" + "}" * 5000)
            assert json.loads(ws.recv(timeout=30))["error"]["code"] == "bad_request"
            ws.send('{"type": "ping", "id": "\\udfff"}')
            reply = json.loads(ws.recv(timeout=30))
            assert reply["type"] == "error" and reply["id"] == "\udfff"
            ws.send(b"\xff\xfe not UTF-8")
            assert _closed_with(ws) == 1003
        assert srv.served()


# ---------------------------------------------------------------- 10. another site's page
def test_a_socket_from_another_sites_page_is_refused(tmp_path):
    """WebSockets accepted any Origin: a page on another site could run
    analyses on a LAN server through a visitor's browser. Now a page's
    socket is refused (403) unless it comes from the server's own origin or
    one --allowed-origin names; a program (no Origin) is let in."""
    settings = _settings(allowed_origins=("http://lan.example:8000",))
    with Loopback(tmp_path / "g.sqlite3", settings) as srv:
        with pytest.raises(InvalidStatus) as refused:
            srv.socket("/api/analysis/ws", origin="http://evil.example")
        assert refused.value.response.status_code == 403
        for origin in (f"http://127.0.0.1:{srv.port}", "http://lan.example:8000", None):
            with srv.socket("/api/analysis/ws", origin=origin) as ws:
                ws.send(json.dumps({"type": "stop"}))
                assert json.loads(ws.recv(timeout=30))["type"] == "stopped"
        assert srv.served()


# ---------------------------------------------------------------- 4. unreadable games
def _store_raw(db: Path, gid: str, seats: list, meta: dict, moves: list[str],
               status: str = "playing") -> None:
    """A row as the server stored it before surrogates were refused
    (``json.dumps`` writes a lone surrogate as an escape)."""
    con = sqlite3.connect(db)
    con.execute("INSERT INTO games (id, game, size, options, seats, meta, result, status, "
                "created, updated) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (gid, "robble", 5, json.dumps({"pie": False}), json.dumps(seats),
                 json.dumps(meta), None, status, 1.0, 1.0))
    con.executemany("INSERT INTO moves VALUES (?,?,?,0)",
                    [(gid, i, m) for i, m in enumerate(moves)])
    con.commit()
    con.close()


def test_a_lone_surrogate_is_refused_and_a_stored_one_still_reads(tmp_path):
    """``[Black "\\ud800"]`` in a loaded record answered 500 with the row
    stored, its GETs answered 500, and with --public GET /api/games answered
    500 for everyone, also after a restart. Now such a record is refused
    saying where, and a row stored so before is answered (escaped)."""
    db = tmp_path / "g.sqlite3"
    public = _settings(public=True)
    with Loopback(db, public) as srv:
        status, _, body = srv.call("POST", "/api/records",
                                   {"text": '[Game "robble"]\n[Size "5"]\n[Black "\ud800"]\n*'},
                                   source=ATTACKER)
        assert _error(status, body, 400, "bad_record") == (
            "line 3, column 9: U+D800 is half of a surrogate pair, not a character")
        assert srv.call("GET", "/api/games")[0] == 200
    bad = "Ann \ud800"
    _store_raw(db, "0bad0bad", [{"kind": "human", "label": bad, "name": bad},
                                {"kind": "human", "label": "Player 2"}],
               {"source": "record", "note": bad}, ["c3"])
    for _ in range(2):   # and after a restart
        with Loopback(db, public) as srv:
            status, _, st = srv.call("GET", "/api/games/0bad0bad")
            assert status == 200 and st["seats"][0]["label"] == bad
            status, _, listed = srv.call("GET", "/api/games")
            assert status == 200 and [g["id"] for g in listed] == ["0bad0bad"]
            status, _, text = srv.call("GET", "/api/games/0bad0bad/record")
            assert status == 200 and '[Black "Ann \ufffd"]' in text
            status, _, rec = srv.call("GET", "/api/games/0bad0bad/record?format=json")
            assert status == 200 and rec["players"]["black"] == "Ann \ufffd"
            with srv.socket("/api/games/0bad0bad/ws", source=BYSTANDER) as ws:
                ws.send(json.dumps({"type": "auth"}))
                assert json.loads(ws.recv(timeout=30))["state"]["seats"][0]["label"] == bad


# ---------------------------------------------------------------- 5. fair share after a restart
def test_a_games_client_is_the_same_after_a_restart(tmp_path):
    """Stored games came back as client ``game:<id>``, each its own client:
    one client's eight level-5 games then starved another's level-1 replies
    (0.1-0.6 s before the restart, 188-284 s after). Now the client's id is
    stored with the game (a salted hash, never shown): after a restart its
    computer's turns are queued as that client's again."""
    db = tmp_path / "g.sqlite3"
    with Loopback(db, _settings()) as srv:
        games = [srv.call("POST", "/api/games", {"game": "robble", "size": 5,
                                                 "engine": "level1", "color": "black"},
                          source=ATTACKER)[2] for _ in range(3)]
        attacker = srv.hub.client_id(ATTACKER)
        assert all(srv.hub.get(st["id"]).client == attacker for st in games)
        assert "client" not in json.dumps(games) and ATTACKER not in json.dumps(games)
    with Loopback(db, _settings()) as srv:
        assert srv.hub.client_id(ATTACKER) == attacker   # the database's own salt
        assert srv.hub.client_id(BYSTANDER) != attacker
        for st in games:
            status, _, again = srv.call("GET", f"/api/games/{st['id']}",
                                        token=st["tokens"]["owner"], source=ATTACKER)
            assert status == 200 and "client" not in again["meta"]
            assert srv.hub.live[st["id"]].client == attacker


# ---------------------------------------------------------------- 6. disk per game
def test_one_client_cannot_fill_the_server(tmp_path):
    """Unfinished games were never evicted: one client loading records (or
    starting games) until --max-games left everyone with 503 server_full.
    Now each client has --games-per-client (its own finished games go
    first, else 429), and games loaded from a record are evicted like
    finished ones at the server's cap."""
    spec = {"game": "robble", "size": 5, "opponent": "human"}
    with Loopback(tmp_path / "g.sqlite3", _settings(games_per_client=3, max_games=5)) as srv:
        mine = [srv.call("POST", "/api/games", spec, source=ATTACKER)[2] for _ in range(3)]
        status, _, body = srv.call("POST", "/api/games", spec, source=ATTACKER)
        assert "3 stored games" in _error(status, body, 429, "too_many_games")
        srv.call("POST", f"/api/games/{mine[0]['id']}/resign", {}, mine[0]["tokens"]["owner"],
                 source=ATTACKER)
        assert srv.call("POST", "/api/games", spec, source=ATTACKER)[0] == 201  # evicts it
        assert srv.call("GET", f"/api/games/{mine[0]['id']}", token=mine[0]["tokens"]["owner"],
                        source=ATTACKER)[0] == 404
        # the server's cap: another client's loaded records make room for a third's games
        for _ in range(2):
            status, _, _ = srv.call("POST", "/api/records", {"text": _record(4, 0)},
                                    source=BYSTANDER)
            assert status == 201
        assert srv.hub.store.count() == 5
        status, _, st = srv.call("POST", "/api/games", spec, source="127.0.0.4")
        assert status == 201 and srv.hub.store.count() == 5


# ---------------------------------------------------------------- 9. headers on every answer
def test_every_error_carries_the_security_headers(tmp_path):
    """421 (a wrong Host) and 500 answers had none of the security headers."""
    app = create_app(tmp_path / "g.sqlite3", settings=_settings(allowed_hosts=("localhost",),
                                                                http_rate=(0.001, 2)))

    async def boom():
        raise RuntimeError("an unexpected failure")
    app.add_api_route("/api/boom", boom)
    with Loopback(tmp_path / "g.sqlite3", app.state.settings, app=app) as srv:
        answers = [srv.call("GET", "/api/kinds", headers={"Host": "evil.example"}),
                   srv.call("GET", "/api/boom"),
                   srv.call("POST", "/api/records", "x" * 300_000)]
        answers.append(srv.call("GET", "/api/kinds"))   # the bystander's third: rate limited
        assert [a[0] for a in answers] == [421, 500, 413, 429]
        for status, headers, body in answers:
            assert all(h in headers for h in SECURITY_HEADERS), (status, headers)
            assert "error" in body and "Traceback" not in json.dumps(body)
        assert srv.call("GET", "/api/kinds", source=ATTACKER)[0] == 200


# ---------------------------------------------------------------- 8. temporary folders
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_a_killed_server_leaves_no_temporary_folder(tmp_path):
    """An empty boardlab-analysis-* folder was left in the temporary folder
    per analysis running at a stop (34 of 34 kill -9s, and on SIGTERM): the
    worker's messages went through files. Now they go over a socket in
    Linux's abstract namespace, and nothing is written to disk."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), TMPDIR=str(tmp))
    server = subprocess.Popen([sys.executable, "-m", "boardlab.web", "--port", str(port),
                               "--db", str(tmp_path / "g.sqlite3"), "--log-level", "critical",
                               "--engine-workers", "1", "--work-workers", "1"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        with connect(f"ws://127.0.0.1:{port}/api/analysis/ws", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "position", "id": 1, "game": "robble", "size": 5,
                                "seconds": 20}))
            first = json.loads(ws.recv(timeout=120))
            assert first["type"] == "analysis" and not first["analysis"]["done"], first
            kids = children(server.pid)
            server.send_signal(signal.SIGKILL)
            server.wait(30)
        assert_gone(kids, 20)
        assert sorted(p.name for p in tmp.iterdir()) == []
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


# ---------------------------------------------------------------- the caps are server options
def test_issue_29s_caps_are_server_options_with_their_defaults():
    """Each cap the attacks above meet is a ``boardlab serve`` option mapped
    onto its setting, its default is the Settings default (docs/web.md's
    table), and a value that would turn it off is refused before start."""
    from boardlab.web.__main__ import argument_problem, build_parser, settings_from
    given = {"--games-per-client": ("games_per_client", "7"),
             "--max-record-moves": ("max_record_moves", "30"),
             "--max-variation-moves": ("max_variation_moves", "12"),
             "--max-name": ("max_name", "12"),
             "--max-analysis-bytes": ("max_analysis_bytes", "5000"),
             "--held-per-client": ("held_per_client", "3"),
             "--socket-idle": ("socket_idle", "0.5"),
             "--work-workers": ("work_workers", "2"),
             "--work-timeout": ("work_timeout", "4")}
    argv = [a for flag, (_, value) in given.items() for a in (flag, value)]
    s = settings_from(build_parser().parse_args(
        argv + ["--allowed-origin", "http://lan.example:8000", "--allowed-origin", "https://x.org"]))
    for flag, (field, value) in given.items():
        assert getattr(s, field) == type(getattr(s, field))(value), flag
    assert s.allowed_origins == ("http://lan.example:8000", "https://x.org")
    default, plain = settings_from(build_parser().parse_args([])), Settings()
    for field, _ in given.values():
        if field != "work_workers":          # None in Settings: one process, or threads
            assert getattr(default, field) == getattr(plain, field), field
    assert default.work_workers == 1 and default.allowed_origins == ()
    for flag in ("--games-per-client", "--max-record-moves", "--max-name", "--held-per-client",
                 "--work-workers", "--max-analysis-bytes"):
        assert flag in argument_problem(build_parser().parse_args([flag, "0"])), flag
    for flag in ("--socket-idle", "--work-timeout"):
        assert flag in argument_problem(build_parser().parse_args([flag, "0"])), flag
    assert argument_problem(build_parser().parse_args(["--max-variation-moves", "0"])) is None
