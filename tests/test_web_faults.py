"""Issue 20's fault probes that need a real process or a real socket: the
database's schema version, computer turns resumed at start-up, the engine
pool's fair share, slow and idle connections against real uvicorn, and no
orphan workers after ``kill -9`` of a real server.

Each takes a few seconds; the long versions (many trials) are ``make
hardening`` (bench/hardening.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from boardlab.web import create_app
from boardlab.web.db import SCHEMA_VERSION, DatabaseVersionError, Store
from boardlab.web.pool import EngineBusy, EnginePool
from boardlab.web.settings import Settings
from web_support import BrowserClient, assert_gone, children

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ---------------------------------------------------------------- the schema version
def test_a_new_database_is_stamped_with_the_schema_version(tmp_path):
    """The schema version was written (schema_info) and never read."""
    Store(tmp_path / "new.sqlite3").close()
    con = sqlite3.connect(tmp_path / "new.sqlite3")
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_database_from_before_the_check_is_stamped_and_kept(tmp_path):
    db = tmp_path / "old.sqlite3"
    store = Store(db)
    gid = store.create("robble", 5, {}, [{"kind": "human"}, {"kind": "human"}], moves=["c3"]).id
    store.close()
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 0")  # as every database written before this check
    con.commit()
    con.close()
    store = Store(db)
    assert store.load(gid).moves == ["c3"]
    store.close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_newer_database_is_refused_untouched(tmp_path):
    db = tmp_path / "newer.sqlite3"
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    before = db.read_bytes()
    with pytest.raises(DatabaseVersionError, match=f"schema version {SCHEMA_VERSION + 1}, newer"):
        Store(db)
    assert db.read_bytes() == before


def test_another_programs_database_is_refused(tmp_path):
    db = tmp_path / "other.sqlite3"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE notes (body TEXT)")
    con.commit()
    con.close()
    with pytest.raises(DatabaseVersionError, match="not a boardlab database.*notes"):
        Store(db)


def test_serve_says_why_it_refuses_a_database(tmp_path):
    db = tmp_path / "newer.sqlite3"
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    con.commit()
    con.close()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    out = subprocess.run([sys.executable, "-m", "boardlab.web", "--db", str(db), "--port", "0"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 2
    assert "newer than this boardlab's" in out.stderr and "Traceback" not in out.stderr


# ---------------------------------------------------------------- resumed turns
def test_a_computer_turn_pending_at_start_up_is_played_without_a_request(tmp_path):
    """After a restart, a vs-computer game whose engine was thinking waited
    until a request touched it (0 of 8 moved by themselves)."""
    db = tmp_path / "g.sqlite3"
    store = Store(db)
    seats = [{"kind": "computer", "engine": "random", "label": "Computer"},
             {"kind": "human", "label": "You"}]
    waiting = [store.create("robble", 5, {"pie": False}, seats).id for _ in range(3)]
    human_first = store.create("robble", 5, {"pie": False}, seats[::-1]).id
    store.close()
    with BrowserClient(create_app(db, engine_workers=0)):
        deadline = time.monotonic() + 20
        check = Store(db)
        try:
            while not all(check.load(g).moves for g in waiting):
                assert time.monotonic() < deadline, "the pending turns were not resumed"
                time.sleep(0.05)
            assert check.load(human_first).moves == []   # the human's turn: nothing played
        finally:
            check.close()


# ---------------------------------------------------------------- fair share
def test_engine_work_is_shared_fairly_between_clients():
    """8 yugo-vs-level5 creations by one client delayed another's reply to 9.1 s:
    calls were served first come, first served. Now each client in turn."""
    async def go() -> list[str]:
        pool = EnginePool(workers=1, timeout=60, per_client=10)
        pool.start()
        done: list[str] = []
        try:
            async def call(who: str, seconds: float) -> None:
                await pool.run(who, "level1", time.sleep, seconds)  # a real worker process
                done.append(who)
            await call("warm-up", 0)                      # spawn the worker first
            greedy = [asyncio.create_task(call("greedy", 0.4)) for _ in range(4)]
            await asyncio.sleep(0.1)                       # the greedy client came first
            polite = asyncio.create_task(call("polite", 0.05))
            await asyncio.gather(*greedy, polite)
            with pytest.raises(EngineBusy):
                tight = EnginePool(workers=1, timeout=60, per_client=1)
                tight.processes = pool.processes          # same workers, a tighter limit
                tight.threads = pool.threads
                first = asyncio.create_task(tight.run("c", "level1", time.sleep, 0.3))
                await asyncio.sleep(0.05)
                try:
                    await tight.run("c", "level1", time.sleep, 0)
                finally:
                    await first
        finally:
            pool.stop()
        return done[1:]
    order = asyncio.run(go())
    # the polite call waits for the greedy call running, not for the three queued
    assert order == ["greedy", "polite", "greedy", "greedy", "greedy"], order


def test_with_two_workers_one_client_leaves_one_for_the_others():
    """One client's searches may hold one worker of two: another client's call
    waits for none of them (it waited for one whole level-5 move, ~10 s)."""
    async def go() -> float:
        pool = EnginePool(workers=2, timeout=60, per_client=10)
        pool.start()
        try:
            await asyncio.gather(pool.run("w1", "level1", time.sleep, 0.2),
                                 pool.run("w2", "level1", time.sleep, 0.2))  # both spawned
            greedy = [asyncio.create_task(pool.run("greedy", "level5", time.sleep, 1.5))
                      for _ in range(3)]
            await asyncio.sleep(0.2)
            assert pool.load() == {"running": 1, "waiting": 2}
            start = time.monotonic()
            await pool.run("polite", "level1", time.sleep, 0)
            took = time.monotonic() - start
            await asyncio.gather(*greedy)
            return took
        finally:
            pool.stop()
    assert asyncio.run(go()) < 1.0


def test_a_cheap_engine_answers_at_once_while_the_workers_think():
    async def go() -> float:
        pool = EnginePool(workers=1, timeout=60, per_client=10)
        pool.start()
        try:
            await pool.run("warm-up", "level1", time.sleep, 0)
            slow = asyncio.create_task(pool.run("a", "level5", time.sleep, 2))
            await asyncio.sleep(0.1)
            start = time.monotonic()
            assert await pool.run("b", "random", abs, -3) == 3
            took = time.monotonic() - start
            await slow
            return took
        finally:
            pool.stop()
    assert asyncio.run(go()) < 1.0


# ---------------------------------------------------------------- slow and idle connections
@pytest.fixture
def live_server(tmp_path):
    """The app under real uvicorn (the server's own config) in a thread, with
    short connection limits."""
    import uvicorn

    from boardlab.web.server import uvicorn_config
    settings = Settings(engine_workers=0, header_timeout=1.0, keep_alive=1.0)
    app = create_app(tmp_path / "s.sqlite3", settings=settings)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(app, settings, "127.0.0.1", port, "warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(10)


def _closed_after(sock: socket.socket, limit: float) -> float | None:
    """Seconds until the server closes ``sock`` (None: still open after ``limit``)."""
    sock.settimeout(0.2)
    start = time.monotonic()
    while time.monotonic() - start < limit:
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - start
    return None


def test_a_slowloris_connection_is_closed(live_server):
    """40 connections sending their headers a byte at a time were held 60 s."""
    sock = socket.create_connection(("127.0.0.1", live_server))
    try:
        sock.sendall(b"GET /api/kinds HTTP/1.1\r\nHost: localhost\r\n")
        start = time.monotonic()
        closed = None
        while closed is None and time.monotonic() - start < 6:
            try:
                sock.sendall(b"X-a: b\r\n")   # a header line now and then: never complete
            except OSError:
                closed = time.monotonic() - start
                break
            closed = _closed_after(sock, 0.3)
        assert closed is not None and closed < 4, "the slow request was not closed"
    finally:
        sock.close()


def test_an_idle_connection_is_closed_and_a_normal_request_is_served(live_server):
    idle = socket.create_connection(("127.0.0.1", live_server))
    try:
        assert (_closed_after(idle, 5) or 99) < 4
    finally:
        idle.close()
    with urllib.request.urlopen(f"http://127.0.0.1:{live_server}/api/kinds", timeout=10) as r:
        assert r.status == 200 and r.headers["X-Content-Type-Options"] == "nosniff"


# ---------------------------------------------------------------- no orphans
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_no_worker_outlives_a_killed_server(tmp_path):
    """After kill -9 of the server the engine worker (~20 MB) and the
    multiprocessing resource tracker stayed alive (2 of 2)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    server = subprocess.Popen([sys.executable, "-m", "boardlab.web", "--port", str(port),
                               "--db", str(tmp_path / "o.sqlite3"), "--log-level", "warning"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/api/kinds", timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        spec = json.dumps({"game": "robble", "size": 5, "engine": "level1", "color": "white",
                           "options": {"pie": False}}).encode()
        req = urllib.request.Request(url + "/api/games", spec,
                                     {"Content-Type": "application/json"})
        st = json.load(urllib.request.urlopen(req, timeout=30))
        token = st["tokens"]["owner"]
        while st["ply"] == 0:   # the computer's move: the worker is up
            assert time.monotonic() < deadline + 60 and not st["engine_error"]
            get = urllib.request.Request(f"{url}/api/games/{st['id']}?after={st['version']}&wait=5",
                                         headers={"X-Seat-Token": token})
            st = json.load(urllib.request.urlopen(get, timeout=30))
        kids = children(server.pid)
        assert len(kids) >= 2, kids   # the worker and the resource tracker
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        assert_gone(kids)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
