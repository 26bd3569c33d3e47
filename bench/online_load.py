"""Load test of play by link, on loopback only (``make bench`` material, not the suite).

Starts ``python -m boardlab.web`` on 127.0.0.1 with a temporary database,
creates ``--games`` online games, and puts a bot on both seats of each: one
WebSocket per seat, authenticated with that seat's token, moving at random
whenever the server says it is its turn. Bounded by ``--seconds`` (and by the
games ending). Prints moves/s and the p50/p99 latency (a move sent until the
server's ack), then checks every stored game: its moves, read straight from
SQLite, replay through the library to the outcome the server reports, and its
downloaded record (JSON) parses back to the same moves and result.

    python bench/online_load.py [--games 40] [--game robble] [--size 5] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import boardlab
from boardlab import records

try:
    from websockets.asyncio.client import connect
except ImportError:  # pragma: no cover
    sys.exit("online_load needs the websockets package (pip install websockets)")

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _http(method: str, url: str, body: dict | None = None, token: str | None = None):
    req = urllib.request.Request(url, method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("X-Seat-Token", token)
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.read()


async def _bot(ws_url: str, token: str, seed: int, deadline: float,
               latencies: list[float]) -> int:
    rng = random.Random(seed)
    moves = 0
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        sent_at = None
        pending_ply = None
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] == "ack":
                latencies.append(time.perf_counter() - sent_at)
                moves += 1
                sent_at = None
                continue
            if msg["type"] == "error":
                sent_at = None          # refused (e.g. stale): wait for the next state
                pending_ply = None
                continue
            st = msg["state"]
            if st["over"]:
                break
            if st["your_turn"] and sent_at is None and pending_ply != st["ply"]:
                legal = st["legal"]
                move = rng.choice(legal)
                pending_ply = st["ply"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": move, "ply": st["ply"]}))
    return moves


async def _run(base: str, games: list[dict], seconds: float) -> tuple[int, list[float], float]:
    ws_base = base.replace("http://", "ws://")
    latencies: list[float] = []
    start = time.monotonic()
    deadline = start + seconds
    tasks = []
    for i, g in enumerate(games):
        url = f"{ws_base}/api/games/{g['id']}/ws"
        for j, token in enumerate((g["tokens"]["you"], g["tokens"]["invite"])):
            tasks.append(_bot(url, token, 1000 * i + j, deadline, latencies))
    counts = await asyncio.gather(*tasks)
    return sum(counts), latencies, time.monotonic() - start


def _replay_outcome(name, size, options, moves):
    game = boardlab.new_game(name, size, **options)
    for m in moves:
        game.play(m)
    return game


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--game", default="robble")
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=30.0)
    args = ap.parse_args(argv)
    args.games = max(1, min(args.games, 500))            # bounded
    args.seconds = max(1.0, min(args.seconds, 300.0))

    tmp = Path(tempfile.mkdtemp(prefix="boardlab-load-"))
    db = tmp / "load.sqlite3"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = (tmp / "server.log").open("ab")
    proc = subprocess.Popen([sys.executable, "-m", "boardlab.web", "--host", "127.0.0.1",
                             "--port", str(port), "--db", str(db), "--log-level", "warning",
                             "--engine-workers", "0"], stdout=log, stderr=subprocess.STDOUT,
                            env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                print("server did not start; see", tmp / "server.log")
                return 1
            try:
                _http("GET", base + "/api/kinds")
                break
            except OSError:
                time.sleep(0.1)
        games = [json.loads(_http("POST", base + "/api/games",
                                  {"game": args.game, "size": args.size, "opponent": "online",
                                   "color": "black"}))
                 for _ in range(args.games)]
        moves, lat, wall = asyncio.run(_run(base, games, args.seconds))
        # every stored game replays to the outcome the server reports
        conn = sqlite3.connect(db)
        bad = finished = 0
        for g in games:
            tok = g["tokens"]["you"]
            st = json.loads(_http("GET", f"{base}/api/games/{g['id']}", token=tok))
            stored = [r[0] for r in conn.execute(
                "SELECT move FROM moves WHERE game_id=? ORDER BY ply", (g["id"],))]
            replay = _replay_outcome(st["game"], st["size"], st["options"], stored)
            rec = records.from_json(_http("GET", f"{base}/api/games/{g['id']}/record?format=json",
                                          token=tok).decode())
            same = (stored == st["moves"] and replay.is_over == st["over"]
                    and (not replay.is_over or replay.winner == st["result"]["winner"])
                    and rec.moves == stored
                    and (rec.result == "*" if not st["over"] else rec.result == st["result"]["winner"]))
            finished += st["over"]
            if not same:
                bad += 1
                print(f"MISMATCH in game {g['id']}")
        conn.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    lat_ms = sorted(x * 1000 for x in lat)
    p = (lambda q: lat_ms[min(len(lat_ms) - 1, int(q * len(lat_ms)))]) if lat_ms else (lambda q: 0.0)
    print(f"online load: {args.games} games of {args.game} {args.size}x{args.size}, "
          f"{2 * args.games} bots over WebSocket, {wall:.1f} s")
    print(f"  moves: {moves}  ({moves / wall:.0f} moves/s)   latency p50 {p(0.50):.1f} ms, "
          f"p99 {p(0.99):.1f} ms, mean {statistics.fmean(lat_ms) if lat_ms else 0:.1f} ms")
    print(f"  games finished: {finished}/{args.games}; records replaying to the same outcome: "
          f"{args.games - bad}/{args.games}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
