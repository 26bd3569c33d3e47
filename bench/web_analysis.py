"""The web analysis as a user feels it: time to the first candidates of a
position, and a whole 100-ply game's analysis, through the server's
analysis socket and its real engine pool (two worker processes, warmed up
as ``boardlab serve`` does). docs/web.md, "Analysis", reports the figures.

    python bench/web_analysis.py [--plies 100] [--game yugo] [--size 9] [--seconds 0.5]

Prints, per game, the seconds from sending a position request to its first
streamed analysis (cold: the first request a fresh worker serves, which
loads the compiled kernels unless the warm-up already did; warm: later
ones), then the whole-game job's wall time.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import warnings

import boardlab

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))


def random_game(name: str, size: int | None, plies: int, seed: int) -> list[str]:
    """``plies`` seeded random moves (a longer game is cut; one that ends
    sooner is retried with the next seed)."""
    for s in range(seed, seed + 200):
        rng = random.Random(s)
        g = boardlab.new_game(name, size)
        moves: list[str] = []
        while not g.is_over and len(moves) < plies:
            m = rng.choice(g.legal_moves())
            g.play(m)
            moves.append(m)
        if len(moves) == plies:
            return moves
    raise SystemExit(f"no random {name} game of {plies} plies")


def first_analysis(ws, msg_id: int, body: dict) -> tuple[float, float]:
    """Seconds to the first streamed analysis and to the final one."""
    t = time.perf_counter()
    ws.send_json({"type": "position", "id": msg_id, "seconds": 1.0, **body})
    first = None
    while True:
        m = ws.receive_json()
        if m["type"] == "error":
            raise SystemExit(m["error"]["message"])
        if m["type"] == "analysis" and m["id"] == msg_id:
            if first is None:
                first = time.perf_counter() - t
            if m["analysis"]["done"]:
                return first, time.perf_counter() - t


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plies", type=int, default=100)
    p.add_argument("--game", default="yugo")
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--seconds", type=float, default=None,
                   help="per position (default: the server's, 0.5)")
    p.add_argument("--no-warm-up", action="store_true")
    args = p.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from boardlab.web import create_app
        from boardlab.web.settings import Settings
        from web_support import BrowserClient
    settings = Settings(engine_workers=2, engine_warm_up=not args.no_warm_up)
    db = os.path.join(tempfile.mkdtemp(), "g.sqlite3")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"warm-up {'off' if args.no_warm_up else 'on'}")
    with BrowserClient(create_app(db, settings=settings)) as c:
        if not args.no_warm_up:
            time.sleep(4)
        with c.websocket_connect("/api/analysis/ws") as ws:
            print(f"{'game':8} {'position':>10} {'first (s)':>10} {'final (s)':>10}")
            k = 0
            for name in boardlab.GAMES:
                for plies in (0, 20):
                    k += 1
                    moves = random_game(name, None, plies, 1) if plies else []
                    first, final = first_analysis(ws, k, {"game": name, "moves": moves})
                    print(f"{name:8} {f'ply {plies}':>10} {first:10.2f} {final:10.2f}")
            moves = random_game(args.game, args.size, args.plies, 1)
            body = {"type": "game", "id": "g", "game": args.game, "size": args.size,
                    "moves": moves}
            if args.seconds is not None:
                body["seconds"] = args.seconds
            t = time.perf_counter()
            ws.send_json(body)
            while (m := ws.receive_json())["type"] == "progress":
                pass
            if m["type"] != "game":
                raise SystemExit(m)
            wall = time.perf_counter() - t
            res = m["result"]
            visits = sorted(p["visits"] for p in res["plies"])
            print(f"whole game: {args.game} {args.size}x{args.size}, {len(moves)} plies, "
                  f"{res['total']} positions at {body.get('seconds', settings.analysis_game_seconds)}"
                  f" s: {wall:.1f} s wall ({res['seconds']:.1f} s in the worker); visits a "
                  f"position: median {visits[len(visits) // 2]}, least {visits[0]}; "
                  f"marks {res['counts']}")


if __name__ == "__main__":
    main()
