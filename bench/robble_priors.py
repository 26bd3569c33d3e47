"""Robble's move priors, learnt from the moves of searches in recorded games.

A placement is described by two local codes (``move_codes`` in
``boardlab.games.robble.search``: what the rules act on along the four
directions, and the four diagonal points); the prior of a move is
``exp(w_cross[cross] + w_diag[diag])`` over the position's moves (the pie
swap has a weight of its own), fitted by maximum likelihood (a conditional
logit, L2-regularised, Adam) to the moves the searches chose in the games of
the given record files. Weights are tied across the board's eight
symmetries. The last games (``--holdout``) are kept out of the fit and
the script prints the fitted model's log-likelihood a move and top-1
agreement on them next to the uniform prior's.

    python bench/robble_priors.py --out src/boardlab/games/robble/prior_weights.npz \\
        bench/tries/robble-*.rec.gz bench/strength/robble-*.rec.gz ...

Only 7x7 games count, and only moves by the engines named by ``--engines``
(prefixes), by default the searches ``mcts``, ``uct``, ``level4`` and
``level5``; ``--winners`` keeps only the winner's moves.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys

import numpy as np

import boardlab
from boardlab import records
from boardlab.fast.kernels import kernel
from boardlab.games.robble.search import CROSS_CODES, DIAG_CODES, move_codes

SIZE = 7


def _cross_sym(code: int) -> list[int]:
    s = []
    for _ in range(4):
        s.append(code % 13)
        code //= 13
    s.reverse()  # s[d] for d = 0..3
    out = []
    for refl in (False, True):
        t = [s[2], s[1], s[0], s[3]] if refl else s
        for r in range(4):
            u = [t[(d - r) % 4] for d in range(4)]
            c = 0
            for x in u:
                c = c * 13 + x
            out.append(c)
    return out


def _diag_sym(code: int) -> list[int]:
    g = []
    for _ in range(4):
        g.append(code % 4)
        code //= 4
    g.reverse()
    out = []
    for refl in (False, True):
        t = [g[1], g[0], g[3], g[2]] if refl else g
        for r in range(4):
            u = [t[(d - r) % 4] for d in range(4)]
            c = 0
            for x in u:
                c = c * 4 + x
            out.append(c)
    return out


def canon(n: int, sym) -> tuple[np.ndarray, int]:
    """Each code's class under the symmetries (classes numbered 0..m-1)."""
    cls = np.full(n, -1, dtype=np.int64)
    m = 0
    for c in range(n):
        if cls[c] < 0:
            for x in sym(c):
                cls[x] = m
            m += 1
    return cls, m


def samples(paths: list[str], engines: tuple[str, ...], winners: bool):
    """Per game: a list of (cross codes, diag codes, is-swap flags, chosen index)."""
    k = kernel("robble")
    games = []
    for path in paths:
        for rec in records.parse_all(records.read_text(path, drop_cut_off=True)):
            if rec.name != "robble" or rec.size != SIZE or rec.start is not None:
                continue
            game = boardlab.new_game("robble", size=SIZE, **rec.options)
            state = k.from_game(game)
            out = []
            for move in rec.moves:
                color = game.colors[game.current_player]
                name = rec.players.get(color, "")
                keep = name.startswith(engines) and (not winners or rec.result == color)
                action = game.string_to_action(str(move))
                if keep:
                    legal = game.legal_actions()
                    n2 = SIZE * SIZE
                    mine = game.current_player + 1
                    cx = np.zeros(len(legal), np.int64)
                    dg = np.zeros(len(legal), np.int64)
                    sw = np.zeros(len(legal), bool)
                    for j, a in enumerate(legal):
                        if a == n2:
                            sw[j] = True
                        else:
                            cx[j], dg[j] = move_codes(state, SIZE, a, mine)
                    if len(legal) > 1:
                        out.append((cx, dg, sw, legal.index(action)))
                game.apply_action(action)
                k.apply(state, action)
            games.append(out)
    return games


def fit(data, ccls, mc, dcls, md, l2: float, steps: int, lr: float):
    """w_cross (by class), w_diag (by class), w_swap by Adam on the mean negative
    log-likelihood plus ``l2`` times the squared weights."""
    cx = np.concatenate([d[0] for d in data])
    dg = np.concatenate([d[1] for d in data])
    sw = np.concatenate([d[2] for d in data]).astype(np.float64)
    seg = np.repeat(np.arange(len(data)), [len(d[0]) for d in data])
    starts = np.cumsum([0] + [len(d[0]) for d in data])[:-1]
    chosen = starts + np.array([d[3] for d in data])
    ci, di = ccls[cx], dcls[dg]
    ci[sw > 0] = 0
    di[sw > 0] = 0
    nplace = 1.0 - sw
    wc, wd, ws = np.zeros(mc), np.zeros(md), np.zeros(1)
    params = [wc, wd, ws]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    n = len(data)
    for t in range(1, steps + 1):
        z = (wc[ci] + wd[di]) * nplace + ws[0] * sw
        zmax = np.maximum.reduceat(z, starts)
        e = np.exp(z - zmax[seg])
        tot = np.add.reduceat(e, starts)
        p = e / tot[seg]
        g = p.copy()
        g[chosen] -= 1.0
        g /= n
        gc = np.bincount(ci, weights=g * nplace, minlength=mc) + 2 * l2 * wc
        gd = np.bincount(di, weights=g * nplace, minlength=md) + 2 * l2 * wd
        gs = np.array([np.sum(g * sw)]) + 2 * l2 * ws
        for q, (w, gr) in enumerate(zip(params, (gc, gd, gs), strict=True)):
            m1[q] = 0.9 * m1[q] + 0.1 * gr
            m2[q] = 0.999 * m2[q] + 0.001 * gr * gr
            w -= lr * (m1[q] / (1 - 0.9 ** t)) / (np.sqrt(m2[q] / (1 - 0.999 ** t)) + 1e-8)
    return wc, wd, float(ws[0])


def score(data, wc_full, wd_full, w_swap) -> tuple[float, float, float]:
    """Mean log-likelihood a move, the uniform prior's, and top-1 agreement."""
    ll = ul = top = 0.0
    for cx, dg, sw, j in data:
        z = np.where(sw, w_swap, wc_full[cx] + wd_full[dg])
        z = z - z.max()
        lp = z - math.log(np.exp(z).sum())
        ll += lp[j]
        ul += -math.log(len(z))
        top += float(np.argmax(z) == j)
    n = max(1, len(data))
    return ll / n, ul / n, top / n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("records", nargs="+")
    p.add_argument("--out", default=None)
    p.add_argument("--engines", default="mcts,uct,level4,level5")
    p.add_argument("--winners", action="store_true")
    p.add_argument("--holdout", type=float, default=0.15)
    p.add_argument("--l2", type=float, default=1e-4)
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--lr", type=float, default=0.05)
    args = p.parse_args(argv)
    games = samples(sorted(set(args.records)), tuple(args.engines.split(",")), args.winners)
    cut = int(len(games) * (1 - args.holdout))
    train = [s for g in games[:cut] for s in g]
    test = [s for g in games[cut:] for s in g]
    print(f"{len(games)} games: {len(train)} moves to fit, {len(test)} held out", file=sys.stderr)
    ccls, mc = canon(CROSS_CODES, _cross_sym)
    dcls, md = canon(DIAG_CODES, _diag_sym)
    wc, wd, ws = fit(train, ccls, mc, dcls, md, args.l2, args.steps, args.lr)
    wc_full, wd_full = wc[ccls], wd[dcls]
    for name, part in (("fit", train), ("held out", test)):
        ll, ul, top = score(part, wc_full, wd_full, ws)
        print(f"{name}: log-likelihood a move {ll:.3f} (uniform {ul:.3f}), top-1 {top:.1%}")
    if args.out:
        meta = {"command": "python bench/robble_priors.py " + " ".join(argv or sys.argv[1:]),
                "games": len(games), "moves": len(train)}
        np.savez(args.out, cross=wc_full.astype(np.float32), diag=wd_full.astype(np.float32),
                 swap=np.float32(ws), meta=json.dumps(meta))
        digest = hashlib.sha256(open(args.out, "rb").read()).hexdigest()[:16]
        print(f"wrote {args.out} (sha256 {digest})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
