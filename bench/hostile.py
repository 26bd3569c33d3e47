"""Issue 29's probes: one hostile client against a real server process, each
while another client is timed. Run by ``bench/hardening.py`` (``make
hardening``); each returns (trials, failures, figures) for its table.

The clients are told apart by ``X-Forwarded-For`` (the server runs with
``--trust-proxy``), the attacker as ``A``, the bystander as ``B``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import statistics
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from hardening import Server, alive, call, level1_replies
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import boardlab
from boardlab import records

A, B = "198.51.100.1", "198.51.100.2"


class Timed:
    """The bystander's GET /api/kinds, again and again, in a thread: its
    latencies while the attack runs."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.latencies: list[float] = []
        self.failed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                status, _, took = call(self.url + "/api/kinds", client=B, timeout=120)
            except OSError:
                status, took = 0, 120.0
            self.latencies.append(took)
            self.failed += status != 200
            time.sleep(0.02)

    def __enter__(self) -> Timed:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(150)

    def figures(self) -> str:
        lat = sorted(self.latencies) or [0.0]
        p50 = statistics.median(lat)
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        return (f"B meanwhile: {len(lat)} requests, {self.failed} failed, p50 {p50 * 1000:.0f} ms, "
                f"p95 {p95 * 1000:.0f} ms, slowest {lat[-1] * 1000:.0f} ms")


def _socket(url: str, path: str, client: str, **kw):
    return connect(url.replace("http", "ws") + path, open_timeout=60, compression=None,
                   additional_headers={"X-Forwarded-For": client}, **kw)


def _robble_record(moves: int, variations: int, size: int = 19) -> str:
    """A robble game of ``moves`` moves (random, seeded) with a one-move
    variation at each of the first ``variations`` plies."""
    rng = random.Random(29)
    game = boardlab.new_game("robble", size, pie=False)
    lines: dict[int, list] = {}
    while len(game) < moves and not game.is_over:
        legal = game.legal_moves()
        move = rng.choice(legal)
        if len(game) < variations and len(legal) > 1:
            lines[len(game)] = [records.Node.line([rng.choice([m for m in legal if m != move])])]
        game.play(move)
    return records.format(records.Record.from_game(game, {"black": "A"}, variations=lines))


# ---------------------------------------------------------------- the probes
def record_bomb(work: Path) -> tuple[int, int, str]:
    """The issue's record: robble 19x19, 421 moves, 300 one-move variations;
    A loads it and downloads it 5 times while B is timed; then 10,000
    variations (refused)."""
    server = Server(work / "record.sqlite3", "--trust-proxy")
    server.start()
    try:
        text = _robble_record(421, 300)
        status, st, _ = call(server.url + "/api/records", "POST", {"text": text}, client=A)
        assert status == 201, st
        token = st["tokens"]["owner"]
        renders = []
        with Timed(server.url) as timed:
            time.sleep(0.5)
            for _ in range(5):
                status, _, took = call(f"{server.url}/api/games/{st['id']}/record?format=text",
                                       token=token, client=A)
                renders.append((status, took))
        # call() reads JSON; the record is text: its status is what counts
        status_big, body, _ = call(server.url + "/api/records", "POST",
                                   {"text": _many_variations(10_000)}, client=A)
        failures = sum(s != 200 for s, _ in renders) + (status_big != 400) + \
            (max(timed.latencies or [0]) > 1.0)
        slowest = max(t for _, t in renders)
        return len(renders) + 1, failures, (
            f"{len(text)} B record: rendered in {slowest:.2f} s at most (was 33 s, on the "
            f"event loop); 10,000 variations: {status_big} "
            f"{(body or {}).get('error', {}).get('code')}; {timed.figures()}")
    finally:
        server.stop()


def _many_variations(n: int) -> str:
    """A record whose 10-move main line has ``n`` one-move variations (text)."""
    game = boardlab.new_game("robble", 19, pie=False)
    moves = []
    for _ in range(10):
        legal = game.legal_moves()
        moves.append(legal[0])
        game.play(legal[0])
    first = boardlab.new_game("robble", 19, pie=False).legal_moves()
    alts = " ".join(f"(1. {first[1 + i % (len(first) - 1)]})" for i in range(n))
    body = f"1. {moves[0]} {alts} " + " ".join(f"{i + 2}. {m}" for i, m in enumerate(moves[1:]))
    return f'[Game "robble"]\n[Size "19"]\n[Pie "no"]\n\n{body} *\n'


def idle_sockets(work: Path, sockets: int = 110, max_connections: int = 100) -> tuple[int, int, str]:
    """The issue's second attack: A opens more idle analysis sockets than the
    server has connections (--max-connections 100, 110 sockets); B's
    requests and socket are timed."""
    server = Server(work / "sockets.sqlite3", "--trust-proxy", "--max-connections",
                    str(max_connections))
    server.start()
    held, codes = [], {}
    try:
        for _ in range(sockets):
            try:
                ws = _socket(server.url, "/api/analysis/ws", A)
            except (InvalidStatus, OSError):
                codes["refused"] = codes.get("refused", 0) + 1
                continue
            held.append(ws)
        time.sleep(0.5)
        open_ = 0
        for ws in held:
            try:
                ws.recv(timeout=0.01)
            except TimeoutError:
                open_ += 1
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else 1006
                codes[code] = codes.get(code, 0) + 1
        with Timed(server.url) as timed:
            time.sleep(3)
        with _socket(server.url, "/api/analysis/ws", B) as mine:
            mine.send(json.dumps({"type": "stop"}))
            b_socket = json.loads(mine.recv(timeout=30))["type"] == "stopped"
        failures = timed.failed + (not b_socket)
        return len(timed.latencies) + 1, failures, (
            f"A's {sockets} sockets: {open_} held, closed {codes}; B's socket "
            f"{'served' if b_socket else 'refused'}; {timed.figures()} (was 77 of 77 503)")
    finally:
        for ws in held:
            try:
                ws.close()
            except Exception:  # noqa: BLE001
                pass
        server.stop()


def huge_views(work: Path, seconds: float = 10.0) -> tuple[int, int, str]:
    """A asks for vimbre 19x19's view after one move (64,333 legal moves, a
    2 MB answer) over and over from 2 threads; B is timed (before: p50
    0.025 s -> 2 s)."""
    server = Server(work / "views.sqlite3", "--trust-proxy")
    server.start()
    try:
        with Timed(server.url) as base:
            time.sleep(3)
        first = boardlab.new_game("vimbre", 19).legal_moves()[0]
        statuses: list[int] = []
        took: list[float] = []
        end = time.monotonic() + seconds

        def attack() -> None:
            while time.monotonic() < end:
                s, _, t = call(server.url + "/api/analysis/view", "POST",
                               {"game": "vimbre", "size": 19, "moves": [first]}, client=A)
                statuses.append(s)
                took.append(t)

        with Timed(server.url) as timed:
            threads = [threading.Thread(target=attack) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        served = statuses.count(200)
        failures = timed.failed + (served == 0)
        return len(statuses), failures, (
            f"A: {served} views answered (median {statistics.median(took):.2f} s), "
            f"{statuses.count(429)} x 429 busy; B before: p50 "
            f"{statistics.median(base.latencies) * 1000:.0f} ms; {timed.figures()}")
    finally:
        server.stop()


def spectators(work: Path, n: int = 100) -> tuple[int, int, str]:
    """An online vimbre 19x19 game with ``n`` spectator sockets (from 10
    clients): seconds from a move to every spectator's new state (was 7 s)."""
    server = Server(work / "spectators.sqlite3", "--trust-proxy")
    server.start()
    watchers = []
    try:
        status, st, _ = call(server.url + "/api/games", "POST",
                             {"game": "vimbre", "size": 19, "opponent": "online",
                              "color": "black"}, client=A)
        for i in range(n):
            ws = _socket(server.url, f"/api/games/{st['id']}/ws", f"203.0.113.{i % 10}")
            ws.send(json.dumps({"type": "auth", "token": st["tokens"]["spectate"]}))
            json.loads(ws.recv(timeout=60))
            watchers.append(ws)
        times = []
        for ply in range(3):
            status, now, _ = call(f"{server.url}/api/games/{st['id']}", token=st["tokens"]["you"]
                                  if ply % 2 == 0 else st["tokens"]["invite"], client=A)
            start = time.monotonic()
            status, _, _ = call(f"{server.url}/api/games/{st['id']}/moves", "POST",
                                {"move": now["legal"][0], "ply": ply},
                                st["tokens"]["you"] if ply % 2 == 0 else st["tokens"]["invite"],
                                client=A)
            for ws in watchers:
                while json.loads(ws.recv(timeout=120))["state"]["ply"] != ply + 1:
                    pass
            times.append(time.monotonic() - start)
        return len(times), int(max(times) > 3.0), (
            f"{n} spectators all had the move after {statistics.median(times):.2f} s "
            f"(median of {len(times)} moves; slowest {max(times):.2f} s; was 7 s)")
    finally:
        for ws in watchers:
            ws.close()
        server.stop()


def unreadable(work: Path) -> tuple[int, int, str]:
    """A lone surrogate in a loaded record, and a row stored with one before:
    every answer < 500, the --public list included, also after a restart."""
    db = work / "surrogate.sqlite3"
    server = Server(db, "--trust-proxy", "--public")
    server.start()
    answers = []
    try:
        status, body, _ = call(server.url + "/api/records", "POST",
                               {"text": '[Game "robble"]\n[Size "5"]\n[Black "\ud800"]\n*'},
                               client=A)
        answers.append(status)
        server.stop()
        con = sqlite3.connect(db)
        con.execute("INSERT INTO games VALUES ('0bad0bad','robble',5,'{}',?,?,NULL,'playing',1,1)",
                    (json.dumps([{"kind": "human", "label": "\ud800", "name": "\ud800"},
                                 {"kind": "human", "label": "P2"}]), json.dumps({"x": "\udfff"})))
        con.commit()
        con.close()
        for _ in range(2):
            server.start()
            for path in ("/api/games", "/api/games/0bad0bad", "/api/games/0bad0bad/record",
                         "/api/games/0bad0bad/record?format=json"):
                answers.append(call(server.url + path, client=B)[0])
            server.stop()
        failures = sum(s >= 500 for s in answers) + (answers[0] != 400)
        return len(answers), failures, (f"the record: {answers[0]} "
                                        f"{(body or {}).get('error', {}).get('code')}; "
                                        f"a stored row, before and after a restart: "
                                        f"{answers[1:]}")
    finally:
        server.stop()


def fair_after_restart(work: Path) -> tuple[int, int, str]:
    """The issue's fifth: A's 8 level-5 yugo 13x13 games wait for the computer
    when the server restarts; then B plays 6 moves against level 1 (its
    reply times: 188-284 s after the restart before the fix)."""
    server = Server(work / "fair2.sqlite3", "--engine-workers", "2", "--trust-proxy")
    server.start()
    try:
        for _ in range(8):
            call(server.url + "/api/games", "POST", {"game": "yugo", "size": 13,
                                                     "engine": "level5", "color": "white"},
                 client=A)
        server.stop()
        server.start()   # A's games resume at start-up, as A's again
        replies = level1_replies(server, B)
        return len(replies), int(max(replies) > 30.0), (
            f"after a restart, B's reply: median {statistics.median(replies):.2f} s, slowest "
            f"{max(replies):.2f} s, while A's 8 resumed level-5 games think "
            "(was 188-284 s)")
    finally:
        server.stop()


def _stored_bytes(db: Path, ids: list[str]) -> list[int]:
    """What each game holds in the database: its row's fields and its move
    rows (payload; SQLite adds a few bytes a row)."""
    con = sqlite3.connect(db)
    try:
        out = []
        for gid in ids:
            row = con.execute("SELECT length(id) + length(game) + 8 + length(options) + "
                              "length(seats) + length(meta) + coalesce(length(result), 0) + "
                              "length(status) + 16 FROM games WHERE id=?", (gid,)).fetchone()
            moves = con.execute("SELECT coalesce(sum(length(game_id) + 8 + length(move) + 8), "
                                "0) FROM moves WHERE game_id=?", (gid,)).fetchone()
            out.append(row[0] + moves[0])
        return out
    finally:
        con.close()


def disk(work: Path, games: int = 20) -> tuple[int, int, str]:
    """Bytes stored per game: ordinary games (a hot-seat robble 9x9 game of
    60 moves, a game against the computer), and a record at every cap (the
    longest robble 19x19 game, a variation at each ply, 100-character
    names); a 125,000-character name is refused (250 KB a game before)."""
    db = work / "disk.sqlite3"
    server = Server(db, "--trust-proxy", "--creation-rate", "100", "1000")
    server.start()
    try:
        ordinary = []
        for i in range(games):
            status, st, _ = call(server.url + "/api/games", "POST",
                                 {"game": "robble", "size": 9, "opponent": "human"},
                                 client=f"192.0.2.{i}")
            ordinary.append(st["id"])
            token = st["tokens"]["owner"]
            for _ in range(60):
                if st["over"]:
                    break
                status, st, _ = call(f"{server.url}/api/games/{st['id']}/moves", "POST",
                                     {"move": st["legal"][0]}, token, client=f"192.0.2.{i}")
                if status != 200:
                    break
        rng = random.Random(6)
        game = boardlab.new_game("robble", 19, pie=False)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        lines = {}
        start = boardlab.new_game("robble", 19, pie=False)
        for ply, move in enumerate(game.history):
            legal = [m for m in start.legal_moves() if m != move]
            if legal:
                lines[ply] = [records.Node.line([legal[0]])]
            start.play(move)
        text = records.format(records.Record.from_game(game, {"black": "N" * 100,
                                                              "white": "M" * 100},
                                                       variations=lines))
        status, st, _ = call(server.url + "/api/records", "POST", {"text": text}, client=A)
        assert status == 201, st
        big = st["id"]
        status, body, _ = call(server.url + "/api/records", "POST",
                               {"text": '[Game "robble"]\n[Black "' + "x" * 125_000 + '"]\n*'},
                               client=A)
    finally:
        server.stop()
    sizes = _stored_bytes(db, ordinary)
    largest = _stored_bytes(db, [big])[0]
    return games + 2, int(status != 400), (
        f"{statistics.median(sizes):.0f} B a hot-seat robble 9x9 game of 60 moves; "
        f"{largest} B a record of {len(game)} moves with {len(lines)} variations and "
        f"100-character names; a 125,000-character name: {status} "
        f"{(body or {}).get('error', {}).get('code')}")


def socket_junk(work: Path) -> tuple[int, int, str]:
    """The messages that crashed the socket handlers, and random junk: a
    failure is a connection dropped without a close frame (1006)."""
    server = Server(work / "junk.sqlite3", "--trust-proxy")
    server.start()
    rng = random.Random(7)
    junk: list[str | bytes] = [b'{"type": "stop"}', "[" * 2000 + "]" * 2000,
                               '{"a":' * 5000 + "1" + "}" * 5000,
                               '{"type":"ping","id":"\\ud800"}', b"\xff\xfe"]
    junk += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))) for _ in range(40)]
    junk += ["".join(rng.choice('{}[]":,\\u0123abc') for _ in range(rng.randrange(1, 200)))
             for _ in range(40)]
    dropped, answered, closed = 0, 0, 0
    try:
        status, st, _ = call(server.url + "/api/games", "POST",
                             {"game": "robble", "size": 5, "opponent": "online"}, client=A)
        for msg in junk:
            for path in ("/api/analysis/ws", f"/api/games/{st['id']}/ws"):
                with _socket(server.url, path, A) as ws:
                    if "games" in path:
                        ws.send(json.dumps({"type": "auth", "token": st["tokens"]["you"]}))
                        ws.recv(timeout=30)
                    ws.send(msg)
                    try:
                        ws.recv(timeout=30)
                        answered += 1
                    except ConnectionClosed as exc:
                        if exc.rcvd is None:
                            dropped += 1
                        else:
                            closed += 1
        return 2 * len(junk), dropped, (f"{answered} answered, {closed} closed with a code, "
                                        f"{dropped} dropped (1006)")
    finally:
        server.stop()


def temp_folders(work: Path, trials: int = 5) -> tuple[int, int, str]:
    """kill -9 of the server while an analysis runs: what it leaves in its
    temporary folder (was one boardlab-analysis-* folder each)."""
    tmp = work / "tmp"
    tmp.mkdir(exist_ok=True)
    left = 0
    orphans = 0
    server = Server(work / "temp.sqlite3", "--engine-workers", "1", env={"TMPDIR": str(tmp)})
    for _ in range(trials):
        server.start()
        with connect(server.url.replace("http", "ws") + "/api/analysis/ws",
                     open_timeout=60) as ws:
            ws.send(json.dumps({"type": "position", "id": 1, "game": "yugo", "size": 9,
                                "seconds": 20}))
            json.loads(ws.recv(timeout=120))
            kids = server.kill()
        end = time.monotonic() + 10
        while any(alive(p) for p in kids) and time.monotonic() < end:
            time.sleep(0.1)
        orphans += sum(alive(p) for p in kids)
        for pid in kids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        left += len(list(tmp.iterdir()))
    return trials, left + orphans, f"{left} entries left in the temporary folder, {orphans} orphans"


def headers_and_origins(work: Path) -> tuple[int, int, str]:
    """Every error answer carries the security headers (421 a foreign Host,
    404, 413, 429), and a page of another origin cannot open a socket."""
    server = Server(work / "headers.sqlite3", "--trust-proxy", "--http-rate", "0.001", "3")
    server.start()
    checks = []
    try:
        for headers, data, path in (({"Host": "evil.example"}, None, "/api/kinds"),
                                    ({}, None, "/api/games/nope"),
                                    ({}, b"x" * 300_000, "/api/records"),
                                    ({}, None, "/api/kinds"), ({}, None, "/api/kinds")):
            req = urllib.request.Request(server.url + path, data, {**headers,
                                                                   "X-Forwarded-For": A})
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    status, got = r.status, r.headers
            except urllib.error.HTTPError as exc:
                status, got = exc.code, exc.headers
            checks.append((status, all(h in got for h in (
                "X-Content-Type-Options", "X-Frame-Options", "Content-Security-Policy",
                "Referrer-Policy"))))
        try:
            _socket(server.url, "/api/analysis/ws", B, origin="http://evil.example").close()
            origin = "accepted"
        except InvalidStatus as exc:
            origin = str(exc.response.status_code)
        failures = sum(not ok for _, ok in checks) + (origin != "403")
        return len(checks) + 1, failures, (
            f"answers {[s for s, _ in checks]}: {sum(ok for _, ok in checks)} with every "
            f"security header; another site's socket: {origin}")
    finally:
        server.stop()


PROBES = [("record", "a record bomb (300 variations)", record_bomb),
          ("sockets", "idle sockets (110, 100 connections)", idle_sockets),
          ("views", "vimbre 19x19 views", huge_views),
          ("spectators", "100 spectators of vimbre 19x19", spectators),
          ("surrogates", "lone surrogates", unreadable),
          ("restart", "fair share after a restart", fair_after_restart),
          ("disk", "disk per game", disk),
          ("junk", "socket junk", socket_junk),
          ("temp", "kill -9 during an analysis", temp_folders),
          ("headers", "error headers, foreign origins", headers_and_origins)]
