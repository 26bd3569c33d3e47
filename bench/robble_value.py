"""Can a cheap learnt value stand in for robble's playouts? (issue 33's last idea)

An n-tuple network (Othello's pattern tables, as in Buro's Logistello): one
table of weights per placement of a small window (every 2x3 and 3x2 window
of the 7x7 board, 60 tables of 3^6 entries), indexed by what the window's
points hold seen from the player to move (empty, theirs, the other's), the
value the sum of the entries. It costs well under a microsecond, a tenth of
a playout. Fitted by SGD (each position seen under a random one of the
board's eight symmetries) to the **Monte Carlo value** of each position: the
mean of ``--k`` uniform playouts for the player to move, which is what a
search's playouts estimate one noisy sample at a time.

Positions: ``--random`` from uniform random games (a uniform ply), and
``--records`` from recorded 7x7 games (every position, each followed by
0..3 random moves, ``--reps`` times). Reports the held-out R^2 (the share of
the values' variance it explains) on both kinds, and what a search needs of
a leaf value: how well it **ranks the moves of one position** (the mean,
over positions of held-out games, of the correlation between each move's
Monte Carlo value, ``--rank-k`` playouts, and the model's value after it).

    python bench/robble_value.py --records "bench/strength/robble-*.rec.gz,bench/tries/robble-*.rec.gz,bench/ladder/robble-*.rec.gz" \\
        --held-out "bench/tries/robble-value_*.rec.gz" --out weights.npy

With ``--out`` the fitted tables are saved (float32, shape (60, 729)).
"""

from __future__ import annotations

import argparse
import glob
import time

import numpy as np
from numba import njit

from boardlab import records
from boardlab.fast import _robble as R
from boardlab.fast._resolve import resolve
from boardlab.fast._rng import new_rng, rand_below

SIZE = 7
N2 = SIZE * SIZE
SHAPES = ((2, 3), (3, 2))


def windows(size: int = SIZE, shapes=SHAPES) -> np.ndarray:
    """(tables, cells): the points of every placement of every window shape."""
    rows = [[(y + i) * size + x + j for i in range(h) for j in range(w)]
            for (h, w) in shapes for y in range(size - h + 1) for x in range(size - w + 1)]
    return np.array(rows, dtype=np.int64)


def symmetries(size: int = SIZE) -> np.ndarray:
    """(8, n2): each symmetry of the square as a permutation of the points."""
    idx = np.arange(size * size).reshape(size, size)
    out = []
    for k in range(4):
        r = np.rot90(idx, k)
        out += [r.ravel(), r.T.ravel()]
    return np.array(out, dtype=np.int64)


@njit(cache=True)
def _relative(state, me, out):
    """The board as the player ``me`` sees it: 0 empty, 1 theirs, 2 the other's."""
    for p in range(out.shape[0]):
        c = state[R._HDR + p]
        out[p] = 0 if c == 0 else (1 if c - 1 == me else 2)


@njit(cache=True)
def mc_value(state, k, rng, scratch, rec, scores):
    """The mean result of ``k`` uniform playouts for the player to move."""
    me = R.current_player(state)
    total = 0.0
    for _ in range(k):
        scratch[:] = state
        R.playout(scratch, rng, rec)
        winner, _t = R.outcome(scratch, scores)
        if winner == me:
            total += 1.0
        elif winner == 0 or winner == 1:
            total -= 1.0
    return total / k


@njit(cache=True)
def label_random(init, n, k, max_ply, rng, boards, values):
    """``n`` positions of uniform random games (ply uniform in 2..max_ply)."""
    scratch = init.copy()
    s = init.copy()
    rec = np.zeros(0, np.int64)
    scores = np.zeros(2)
    moves = np.zeros(N2 + 1, np.int64)
    i = 0
    while i < n:
        s[:] = init
        for _ in range(2 + rand_below(rng, max_ply - 2)):
            if R.current_player(s) < 0:
                break
            R.apply(s, moves[rand_below(rng, R.legal_actions(s, moves))])
        if R.current_player(s) < 0:
            continue
        values[i] = mc_value(s, k, rng, scratch, rec, scores)
        _relative(s, R.current_player(s), boards[i])
        i += 1


@njit(cache=True)
def label_states(states, k, max_random, rng, boards, values):
    """Each state after 0..max_random random moves; returns how many are in play."""
    scratch = states[0].copy()
    s = states[0].copy()
    rec = np.zeros(0, np.int64)
    scores = np.zeros(2)
    moves = np.zeros(N2 + 1, np.int64)
    m = 0
    for i in range(states.shape[0]):
        s[:] = states[i]
        for _ in range(rand_below(rng, max_random + 1)):
            if R.current_player(s) < 0:
                break
            R.apply(s, moves[rand_below(rng, R.legal_actions(s, moves))])
        if R.current_player(s) < 0:
            continue
        values[m] = mc_value(s, k, rng, scratch, rec, scores)
        _relative(s, R.current_player(s), boards[m])
        m += 1
    return m


@njit(cache=True)
def _index(board, cells, t):
    x = 0
    for j in range(cells.shape[1]):
        x = x * 3 + board[cells[t, j]]
    return x


@njit(cache=True)
def predict(weights, cells, board):
    v = 0.0
    for t in range(cells.shape[0]):
        v += weights[t, _index(board, cells, t)]
    return v


@njit(cache=True)
def sgd_epoch(weights, cells, syms, boards, values, order, lr):
    seen = np.zeros(boards.shape[1], np.int64)
    for ii in range(order.shape[0]):
        i = order[ii]
        perm = syms[ii % syms.shape[0]]
        for p in range(seen.shape[0]):
            seen[p] = boards[i, perm[p]]
        step = lr * (predict(weights, cells, seen) - values[i])
        for t in range(cells.shape[0]):
            weights[t, _index(seen, cells, t)] -= step


@njit(cache=True)
def mse(weights, cells, boards, values):
    total = 0.0
    for i in range(boards.shape[0]):
        e = predict(weights, cells, boards[i]) - values[i]
        total += e * e
    return total / boards.shape[0]


def fit(boards, values, epochs: int, lr: float) -> np.ndarray:
    cells, syms = windows(), symmetries()
    weights = np.zeros((cells.shape[0], 3 ** cells.shape[1]))
    rng = np.random.default_rng(0)
    for ep in range(epochs):
        step = lr / cells.shape[0] * 0.5 ** (ep // 2)
        sgd_epoch(weights, cells, syms, boards, values, rng.permutation(len(values)), step)
    return weights


def game_states(patterns: str, every: float = 1.0, seed: int = 0) -> np.ndarray:
    """The kernel states of the 7x7 games in the records (after the first two plies)."""
    g = resolve("robble", SIZE, {})
    init = np.zeros(g.state_len, np.int64)
    R.init(init, SIZE, g.opts)
    rng = np.random.default_rng(seed)
    out = []
    for path in sorted({p for pat in patterns.split(",") for p in glob.glob(pat)}):
        for rec in records.read(path):
            if rec.game.name != "robble" or rec.game.size != SIZE or rec.start:
                continue
            s = init.copy()
            for t, a in enumerate(rec.game.action_history):
                R.apply(s, a)
                if t >= 1 and R.current_player(s) >= 0 and rng.random() < every:
                    out.append(s.copy())
    return np.array(out).reshape(-1, g.state_len)


def ranking(weights, states, k: int, seed: int) -> tuple[float, int, float]:
    """Mean within-position correlation of the moves' MC values and the
    model's, the positions used, and the moves' MC value spread."""
    cells = windows()
    rng = new_rng(seed)
    moves = np.zeros(N2 + 1, np.int64)
    scratch = states[0].copy()
    rec, scores = np.zeros(0, np.int64), np.zeros(2)
    board = np.zeros(N2, np.int64)
    cors, spread = [], []
    for s in states:
        me = R.current_player(s)
        mc, model = [], []
        for a in moves[:R.legal_actions(s, moves)]:
            c = s.copy()
            R.apply(c, a)
            if R.current_player(c) < 0:
                continue
            mc.append(-mc_value(c, k, rng, scratch, rec, scores))  # the mover's, after a
            _relative(c, 1 - me, board)
            model.append(-predict(weights, cells, board))
        if len(mc) >= 4 and np.std(mc) > 0 and np.std(model) > 0:
            cors.append(np.corrcoef(mc, model)[0, 1])
            spread.append(np.std(mc))
    return float(np.mean(cors)), len(cors), float(np.mean(spread))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--random", type=int, default=300_000, help="positions from random games")
    ap.add_argument("--records", default="", help="record files (globs, comma separated)")
    ap.add_argument("--reps", type=int, default=8, help="labelled copies of each recorded position")
    ap.add_argument("--held-out", default="", help="records for the ranking test (not trained on)")
    ap.add_argument("--positions", type=int, default=150, help="positions for the ranking test")
    ap.add_argument("--k", type=int, default=32, help="playouts behind a training value")
    ap.add_argument("--rank-k", type=int, default=256, help="playouts behind a move's value (ranking)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="", help="save the tables here (.npy)")
    args = ap.parse_args()

    t0 = time.time()
    g = resolve("robble", SIZE, {})
    init = np.zeros(g.state_len, np.int64)
    R.init(init, SIZE, g.opts)
    rng = new_rng(args.seed)
    rb = np.zeros((args.random, N2), np.int8)
    rv = np.zeros(args.random)
    label_random(init, args.random, args.k, 2 * N2 - 6, rng, rb, rv)
    held = {"random games": (rb[: len(rv) // 20].astype(np.int64), rv[: len(rv) // 20])}
    train_b, train_v = [rb[len(rv) // 20:]], [rv[len(rv) // 20:]]
    if args.records:
        # a twentieth of the recorded positions held out before they are copied
        st = game_states(args.records)
        st = st[np.random.default_rng(args.seed).permutation(len(st))]
        cut = len(st) // 20
        for part, reps in ((st[:cut], 1), (st[cut:], args.reps)):
            part = np.repeat(part, reps, axis=0)
            gb, gv = np.zeros((len(part), N2), np.int8), np.zeros(len(part))
            m = label_states(part, args.k, 3, rng, gb, gv)
            if reps == 1:
                held["recorded games"] = (gb[:m].astype(np.int64), gv[:m])
            else:
                train_b.append(gb[:m])
                train_v.append(gv[:m])
    train_b, train_v = np.concatenate(train_b).astype(np.int64), np.concatenate(train_v)
    print(f"labelled {len(train_v) + sum(len(v) for _, v in held.values()):,} positions "
          f"({args.k} playouts each) in {time.time() - t0:.0f} s")
    weights = fit(train_b, train_v, args.epochs, args.lr)
    cells = windows()
    print("| held-out positions | count | value variance | model's MSE | R^2 |")
    print("|---|---|---|---|---|")
    for name, (b, v) in held.items():
        e = mse(weights, cells, b, v)
        print(f"| {name} | {len(v):,} | {v.var():.3f} | {e:.3f} | {1 - e / v.var():.2f} |")
    if args.held_out:
        st = game_states(args.held_out, every=0.03, seed=args.seed)[: args.positions]
        cor, used, spread = ranking(weights, st, args.rank_k, args.seed)
        print(f"ranking the moves of {used} held-out positions: mean correlation {cor:.2f} "
              f"between the model and {args.rank_k}-playout values (whose spread among the "
              f"moves is {spread:.3f}, of which about {1 / np.sqrt(args.rank_k):.3f} is their own noise)")
    if args.out:
        np.save(args.out, weights.astype(np.float32))


if __name__ == "__main__":
    main()
