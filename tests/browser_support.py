"""What the real-browser tests share: Debian's chromium, the Playwright launch
arguments, the skip rule, and the real server as a subprocess."""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from playwright import sync_api as playwright_api

CHROMIUM = os.environ.get("BOARDLAB_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# `make test` installs chromium where apt exists; elsewhere (and in a bare pytest
# run) the browser tests are skipped with this reason. In CI a missing chromium fails.
SKIP_REASON = (f"no chromium at {CHROMIUM}: install it (`make chromium` on Debian/Ubuntu) "
               "or point BOARDLAB_CHROMIUM at one")
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"), reason=SKIP_REASON),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m boardlab.web`` in a subprocess; restartable on the same port and db."""

    def __init__(self, db: Path, log: Path, log_level: str = "warning",
                 args: list[str] | None = None) -> None:
        self.args = list(args or [])  # more command-line options of the server
        self.db = db
        self.log = log
        self.log_level = log_level
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardlab.web", "--port", str(self.port), "--db", str(self.db),
             "--log-level", self.log_level, *self.args],
            stdout=self.log.open("ab"), stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        deadline = time.monotonic() + 60  # a loaded 2-core machine starts it slowly
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/kinds", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.proc.kill()  # not left running after the test that waited for it
        self.proc.wait()
        raise RuntimeError(f"server did not start in 60 s: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


@contextmanager
def launch_chromium():
    """A headless Debian chromium driven by Playwright, closed afterwards."""
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


# ---------------------------------------------------------------- fixtures
# A test module takes these by naming them at its top level (``browser, server
# = browser_support.browser, browser_support.server``): one app and one
# chromium a module.
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on a fresh SQLite file, for the whole module."""
    tmp = tmp_path_factory.mktemp("web")
    srv = Server(tmp / "games.sqlite3", tmp / "server.log")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as b:
        yield b


class Pages:
    """Browser contexts opened by one test, every page watched for script
    errors (the test fails on any, once it is done)."""

    def __init__(self, browser, url: str, timeout_ms: int = 20_000, **context) -> None:
        self.browser, self.url, self.timeout_ms = browser, url, timeout_ms
        self.context = {"viewport": {"width": 1200, "height": 860}} | context
        self.contexts: list = []
        self.errors: list[str] = []

    def open(self, hash_: str = "", **context):
        """A new page on the app's start screen (then on ``hash_``, with the
        API-made games' owner tokens shared, if given)."""
        ctx = self.browser.new_context(**(self.context | context))
        self.contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(self.timeout_ms)
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        pg.goto(self.url + "/")
        # the first page of a test may wait on a server still loading its
        # compiled searches in the background (seconds on a loaded machine:
        # a full run once timed out here at 20 s)
        pg.wait_for_selector("#ng-game option", state="attached", timeout=max(self.timeout_ms, 60_000))
        if hash_:
            share_owners(pg)
            pg.goto(self.url + "/" + hash_)
        return pg

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        assert not self.errors, self.errors


@pytest.fixture
def pages(browser, server):
    """Pages for one test on the module's app (default context and timeout)."""
    opened = Pages(browser, server.url)
    yield opened
    opened.close()


def live(page) -> dict:
    """The game the page shows, as its script holds it."""
    return page.evaluate("window.boardlab.live()")


# ---------------------------------------------------------------- set-ups through the API
#: owner tokens of the games the API helpers made (the server is not --public):
#: sent with each request for that game and put in the page's localStorage,
#: as the app does for games it creates itself
OWNERS: dict[str, str] = {}
_GID = re.compile(r"/api/games/([^/?]+)")


def http(method: str, url: str, **kw) -> httpx.Response:
    m = _GID.search(url)
    headers = dict(kw.pop("headers", None) or {})
    if m and m.group(1) in OWNERS:
        headers.setdefault("X-Seat-Token", OWNERS[m.group(1)])
    if url.rstrip("/").endswith("/api/games") and method == "GET":
        headers.setdefault("X-Owner-Tokens", ",".join(OWNERS.values()))
    kw.setdefault("timeout", 30)
    r = httpx.request(method, url, headers=headers, **kw)
    data = r.json() if r.headers.get("content-type", "").startswith("application/json") else None
    if isinstance(data, dict) and isinstance(data.get("tokens"), dict) and data["tokens"].get("owner"):
        OWNERS[data["id"]] = data["tokens"]["owner"]
    return r


def learn_owners(page) -> None:
    """Take the tokens of the games the page made itself."""
    OWNERS.update(page.evaluate("() => JSON.parse(localStorage.getItem('boardlab-owners') || '{}')"))


def share_owners(page) -> None:
    """Give the page the tokens of the games made through the API."""
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["boardlab-owners", json.dumps(OWNERS)])


def api_game(server, **body) -> dict:
    body = {"size": 5, "options": {}, "opponent": "human"} | body
    r = http("POST", server.url + "/api/games", json=body)
    assert r.status_code in (200, 201), r.text
    return r.json()


def api_play(server, st: dict, moves: list[str]) -> dict:
    for move in moves:
        r = http("POST", f"{server.url}/api/games/{st['id']}/moves", json={"move": move, "ply": st["ply"]},
                       timeout=30)
        assert r.status_code == 200, r.text
        st = r.json()
    return st


def api_random_to_end(server, st: dict, seed: int, avoid=("swap",)) -> dict:
    rng = random.Random(seed)
    while not st["over"]:
        legal = [m for m in st["legal"] if m not in avoid] or st["legal"]
        st = api_play(server, st, [rng.choice(legal)])
    return st
