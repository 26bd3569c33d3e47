"""The expensive hardening probes of issue 20, against a real server process.

    python bench/hardening.py [--crashes 8] [--slow 40] [--load-seconds 20]

Probes (each prints one row: trials, failures, figures):

- crash loop: play games (hot-seat and against level 1), ``kill -9`` the
  server at a random moment, restart it; a failure is an acknowledged move
  missing after the restart, or an engine worker / resource tracker that
  outlived the killed server.
- fair share: two workers; 8 level-5 yugo games from one client think while
  another plays against level 1; figures: that client's reply times.
- load: clients creating games and playing random moves for a while;
  failures are 5xx answers; figures: requests, p50 and p95 latency.
- slowloris: connections sending a header line every second; a failure is
  one still open after twice the header timeout; a normal request is timed
  meanwhile.

Then issue 29's, one hostile client each while another is timed
(``bench/hostile.py``): a record bomb, idle sockets, vimbre 19x19 views, 100
spectators, lone surrogates, fair share after a restart, disk per game,
socket junk, kill -9 during an analysis, error headers and foreign origins.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from web_support import alive, children  # noqa: E402  (the tests' process helpers)


# ---------------------------------------------------------------- a server
class Server:
    def __init__(self, db: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.db, self.extra = db, extra
        self.env = env or {}
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), **self.env)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardlab.web", "--port", str(self.port), "--db", str(self.db),
             "--log-level", "error", *self.extra],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.url + "/api/kinds", timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)

    def kill(self) -> list[int]:
        """kill -9; the pids of the children it had."""
        assert self.proc is not None
        kids = children(self.proc.pid)
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        return kids

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def call(url: str, method: str = "GET", body: dict | None = None, token: str | None = None,
         timeout: float = 60, client: str | None = None) -> tuple[int, dict | None, float]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if client:
        headers["X-Forwarded-For"] = client
    if token:
        headers["X-Seat-Token"] = token
    req = urllib.request.Request(url, data, headers, method=method)
    start = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            status = r.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    took = time.monotonic() - start
    try:
        return status, json.loads(raw) if raw else None, took
    except ValueError:
        return status, None, took


# ---------------------------------------------------------------- probes
def crash_loop(trials: int, work: Path) -> tuple[int, int, str]:
    rng = random.Random(20)
    server = Server(work / "crash.sqlite3")
    acked: dict[str, tuple[str, list[str]]] = {}   # id -> (token, acknowledged moves)
    failures = orphans = lost = 0
    server.start()
    for _ in range(trials):
        deadline = time.monotonic() + rng.uniform(1.0, 4.0)
        while time.monotonic() < deadline:
            kind = rng.choice(["human", "computer"])
            status, st, _ = call(server.url + "/api/games", "POST",
                                 {"game": "robble", "size": 5, "opponent": kind,
                                  "engine": "level1", "options": {"pie": False}})
            if status != 201:
                continue
            token = st["tokens"]["owner"]
            acked[st["id"]] = (token, list(st["moves"]))
            for _ in range(rng.randint(1, 6)):
                if st["over"] or not st["legal"]:
                    break
                status, nxt, _ = call(f"{server.url}/api/games/{st['id']}/moves", "POST",
                                      {"move": rng.choice(st["legal"])}, token)
                if status != 200:
                    break
                st = nxt
                acked[st["id"]] = (token, list(st["moves"]))
                if not st["your_turn"] and not st["over"]:
                    _, st, _ = call(f"{server.url}/api/games/{st['id']}?after={st['version']}"
                                    "&wait=5", token=token)
                    acked[st["id"]] = (token, list(st["moves"]))
        kids = server.kill()
        end = time.monotonic() + 10
        while any(alive(p) for p in kids) and time.monotonic() < end:
            time.sleep(0.1)
        left = [p for p in kids if alive(p)]
        orphans += len(left)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        server.start()
        bad = 0
        for gid, (token, moves) in acked.items():
            status, st, _ = call(f"{server.url}/api/games/{gid}", token=token)
            if status != 200 or st["moves"][:len(moves)] != moves:
                bad += 1
        lost += bad
        failures += bool(bad or left)
    server.stop()
    moves = sum(len(m) for _, m in acked.values())
    return trials, failures, (f"{len(acked)} games, {moves} acknowledged moves, {lost} lost, "
                              f"{orphans} orphan processes")


def level1_replies(server: Server, client: str, moves: int = 6) -> list[float]:
    """``client`` plays ``moves`` moves of robble 5x5 against level 1: the
    seconds from each move to the computer's reply."""
    replies = []
    status, st, _ = call(server.url + "/api/games", "POST",
                         {"game": "robble", "size": 5, "engine": "level1",
                          "options": {"pie": False}, "color": "black"}, client=client)
    token = st["tokens"]["owner"]
    for _ in range(moves):
        if st["over"]:
            break
        start = time.monotonic()
        status, st, _ = call(f"{server.url}/api/games/{st['id']}/moves", "POST",
                             {"move": st["legal"][0]}, token, client=client)
        while not st["your_turn"] and not st["over"]:
            _, st, _ = call(f"{server.url}/api/games/{st['id']}?after={st['version']}"
                            "&wait=30", token=token, client=client)
        replies.append(time.monotonic() - start)
    return replies


def fair_share(work: Path) -> tuple[int, int, str]:
    """Two engine workers; client A starts 8 yugo 9x9 games against level 5,
    then client B plays 6 moves against level 1. B's replies need not wait for
    A's searches: A may hold one worker of the two."""
    server = Server(work / "fair.sqlite3", "--engine-workers", "2", "--trust-proxy")
    server.start()
    greedy, other = "198.51.100.1", "198.51.100.2"
    try:
        for _ in range(8):
            call(server.url + "/api/games", "POST", {"game": "yugo", "size": 9,
                                                     "engine": "level5", "color": "white"},
                 client=greedy)
        replies = level1_replies(server, other)
        worst = max(replies)
        return len(replies), int(worst > 30.0), (
            f"client B's reply: median {statistics.median(replies):.2f} s, slowest "
            f"{worst:.2f} s, while A's 8 level-5 games think")
    finally:
        server.stop()


def load(seconds: float, clients: int, work: Path) -> tuple[int, int, str]:
    server = Server(work / "load.sqlite3", "--http-rate", "1000", "1000",
                    "--creation-rate", "100", "1000")
    server.start()
    latencies: list[float] = []
    errors = [0]
    end = time.monotonic() + seconds

    def client(seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < end:
            status, st, took = call(server.url + "/api/games", "POST",
                                    {"game": rng.choice(["robble", "vimbre", "implo"]),
                                     "size": 5, "opponent": "human"})
            latencies.append(took)
            errors[0] += status >= 500
            if status != 201:
                continue
            token = st["tokens"]["owner"]
            for _ in range(10):
                if st["over"] or not st["legal"] or time.monotonic() > end:
                    break
                status, nxt, took = call(f"{server.url}/api/games/{st['id']}/moves", "POST",
                                         {"move": rng.choice(st["legal"])}, token)
                latencies.append(took)
                errors[0] += status >= 500
                if status != 200:
                    break
                st = nxt
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    server.stop()
    q = statistics.quantiles(latencies, n=20)
    return len(latencies), errors[0], (f"{len(latencies) / seconds:.0f} req/s, p50 "
                                       f"{q[9] * 1000:.0f} ms, p95 {q[18] * 1000:.0f} ms")


def slowloris(n: int, work: Path, header_timeout: float = 3.0) -> tuple[int, int, str]:
    server = Server(work / "slow.sqlite3", "--header-timeout", str(header_timeout))
    server.start()
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET /api/kinds HTTP/1.1\r\nHost: localhost\r\n")
        s.settimeout(0.01)
        socks.append(s)
    open_at = {}
    start = time.monotonic()
    _, _, normal = call(server.url + "/api/kinds")
    while time.monotonic() - start < 2 * header_timeout + 1:
        for i, s in enumerate(socks):
            if i in open_at:
                continue
            try:
                s.sendall(b"X-a: b\r\n")
                if s.recv(1) == b"":
                    open_at[i] = time.monotonic() - start
            except (TimeoutError, BlockingIOError):
                continue
            except OSError:
                open_at[i] = time.monotonic() - start
        time.sleep(0.5)
    held = n - len(open_at)
    for s in socks:
        s.close()
    server.stop()
    longest = max(open_at.values(), default=0.0)
    return n, held, (f"closed within {longest:.1f} s (header timeout {header_timeout:g} s); "
                     f"a normal request meanwhile {normal * 1000:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--crashes", type=int, default=8)
    p.add_argument("--slow", type=int, default=40)
    p.add_argument("--load-seconds", type=float, default=20)
    p.add_argument("--clients", type=int, default=8)
    import hostile
    p.add_argument("--skip", action="append", default=[],
                   choices=["crash", "fair", "load", "slowloris", *(k for k, _, _ in hostile.PROBES)])
    p.add_argument("--only", action="append", default=[], metavar="PROBE",
                   help="run only these probes (the --skip names)")
    args = p.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        probes = [("crash", "crash loop (kill -9)", lambda: crash_loop(args.crashes, work)),
                  ("fair", "fair share (8 level-5 games)", lambda: fair_share(work)),
                  ("load", f"load ({args.clients} clients)",
                   lambda: load(args.load_seconds, args.clients, work)),
                  ("slowloris", "slowloris", lambda: slowloris(args.slow, work)),
                  *((key, name, (lambda fn=fn: fn(work))) for key, name, fn in hostile.PROBES)]
        for key, name, probe in probes:
            if key in args.skip or (args.only and key not in args.only):
                continue
            start = time.monotonic()
            trials, failures, figures = probe()
            rows.append((name, trials, failures, figures, time.monotonic() - start))
            print(f"... {name}: done in {rows[-1][4]:.0f} s", file=sys.stderr, flush=True)
    print(f"| {'probe':<36} | trials | failures | figures")
    print(f"|{'-' * 38}|--------|----------|{'-' * 60}")
    for name, trials, failures, figures, _ in rows:
        print(f"| {name:<36} | {trials:>6} | {failures:>8} | {figures}")
    return 1 if any(r[2] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
