"""What the real-browser tests share: Debian's chromium, the Playwright launch
arguments, the skip rule, and the real server as a subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

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
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/kinds", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

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
