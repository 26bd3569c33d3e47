"""Differential check: the compiled core against the pure-Python reference.

Plays seeded uniform-random games in a game's compiled kernel and replays
each one through the Python engine, comparing every ply: the color to act,
mid-turn, the legal actions, the legality of a few sampled actions (legal and
illegal), the live scores, and at the end the winner, termination, scores and
returns. The first difference raises :class:`Divergence` with the move list,
so the failing game can be replayed by hand.

    python -m boardlab.fast.check [GAME ...] [--games N] [--sizes 5,7,default] [--seed S]

prints the games checked per game and size, and exits non-zero on the first
divergence (``make fast-check`` runs 10,000 games per game at 5, 7 and the
default size).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import sys
import time
from typing import Any

import numpy as np

from .. import GAMES, game_class, new_game
from .kernels import kernel


class Divergence(AssertionError):
    """The compiled core and the Python engine disagree."""


def _same_score(a: float, b: float | None) -> bool:
    if b is None:
        return math.isnan(a)
    return a == b


def check_game(name: str, size: int | None = None, seed: int = 0,
               samples: int = 3, **options: Any) -> int:
    """Play one random game (seeded) in both engines; returns its plies.
    Raises Divergence at the first difference."""
    k = kernel(name)
    py = new_game(name, size, **options)
    size = py.size
    opts = k.encode_options(py.options)
    state = np.zeros(k.state_len(size), dtype=np.int64)
    k.init(state, size, opts)
    n_actions = py.num_distinct_actions
    buf = np.zeros(n_actions, dtype=np.int64)
    live = np.zeros(2, dtype=np.float64)
    rng = random.Random(seed)
    moves: list[str] = []

    def fail(what: str) -> None:
        raise Divergence(f"{name} size {size} options {py.options} seed {seed}, "
                         f"ply {len(moves)}: {what}\nmoves: {' '.join(moves)}")

    while True:
        cp = k.current_player(state)
        want = py.current_player
        if cp != (-1 if want is None else want):
            fail(f"current player: compiled {cp}, python {want}")
        n = k.legal_actions(state, buf)
        legal = buf[:n].tolist()
        if legal != py.legal_actions():
            ours, theirs = set(legal), set(py.legal_actions())
            fail(f"legal actions differ: compiled only {sorted(ours - theirs)[:10]}, "
                 f"python only {sorted(theirs - ours)[:10]}, order or count "
                 f"({n} vs {len(theirs)})")
        if want is None:
            break
        if bool(k.mid_turn(state)) != py.is_mid_turn:
            fail(f"mid_turn: compiled {bool(k.mid_turn(state))}, python {py.is_mid_turn}")
        for _ in range(samples):
            a = rng.randrange(-1, n_actions + 1)
            if bool(k.is_legal(state, a)) != py.is_legal_action(a):
                fail(f"is_legal({a}): compiled {bool(k.is_legal(state, a))}")
        py_live = py._live_scores()
        has_live = bool(k.live_scores(state, live))
        if (py_live is not None) != has_live or (
                py_live is not None and [py_live[c] for c in py.colors] != live.tolist()):
            fail(f"live scores: compiled {live.tolist() if has_live else None}, python {py_live}")
        action = legal[rng.randrange(n)]
        if not k.is_legal(state, action):
            fail(f"is_legal({action}) is False for a listed action")
        moves.append(py.action_to_string(action))
        k.apply(state, action)
        py.apply_action(action)
    scores = np.zeros(2, dtype=np.float64)
    winner, term = k.outcome(state, scores)
    out = py.outcome
    want_winner = 2 if out.winner == "draw" else py.colors.index(out.winner)
    if winner != want_winner or k.TERMINATIONS[term] != out.termination.value:
        fail(f"outcome: compiled winner {winner} by {k.TERMINATIONS[term]}, python {out}")
    want_scores = [None, None] if out.scores is None else [out.scores[c] for c in py.colors]
    if not all(_same_score(a, b) for a, b in zip(scores.tolist(), want_scores, strict=True)):
        fail(f"scores: compiled {scores.tolist()}, python {out.scores}")
    return len(moves)


def check_many(name: str, games: int, size: int | None = None, seed: int = 0,
               **options: Any) -> tuple[int, int]:
    """``games`` seeded games (seeds seed, seed+1, ...); returns (games, plies)."""
    plies = 0
    for i in range(games):
        plies += check_game(name, size, seed + i, **options)
    return games, plies


def _sizes(text: str, name: str) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip()
        out.append(game_class(name).default_size if part == "default" else int(part))
    return list(dict.fromkeys(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to check (default: every game that has "
                        "a compiled kernel)")
    parser.add_argument("--games", dest="count", type=int, default=10_000)
    parser.add_argument("--sizes", default="5,7,default")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = args.games or [g for g in GAMES if importlib.util.find_spec(f"boardlab.fast._{g}")]
    for g in GAMES:
        if not args.games and g not in names:
            print(f"{g:8} no compiled kernel yet: skipped", flush=True)
    for name in names:
        for size in _sizes(args.sizes, name):
            start = time.perf_counter()
            try:
                n, plies = check_many(name, args.count, size, args.seed)
            except Divergence as exc:
                print(f"DIVERGENCE {exc}", flush=True)
                return 1
            print(f"{name:8} size {size:2}: {n} games, {plies} plies, identical "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
