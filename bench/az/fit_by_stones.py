"""How well a training run's network fits its own buffer, by how full the board is (docs/az.md).

Reads a run folder's ``checkpoint.npz`` (network and replay buffer; a run
made by ``boardlab train`` is reproduced bit for bit by its command) and
prints, on up to 20,000 buffer positions, the value head's squared error
against the targets and the targets' variance, the policy head's
cross-entropy against the targets' entropy, and how often the network's
first choice is the target's, by the number of points the position's
pieces occupy (any plane of the game named ``our...`` or ``their...``).

    python bench/az/fit_by_stones.py runs/az-robble-5x
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import boardlab
from boardlab.az.net import forward
from boardlab.az.train import CHECKPOINT, CONFIG, Config
from boardlab.research import tensors


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--positions", type=int, default=20_000)
    args = parser.parse_args(argv)
    spec = Config.from_dict(json.loads((args.run / CONFIG).read_text())).spec()
    with np.load(args.run / CHECKPOINT) as z:
        params = {k[2:]: z[k] for k in z.files if k.startswith("p.")}
        planes, policy, legal, target = (z[f"buf.{f}"] for f in ("planes", "policy", "legal", "z"))
    filled = np.flatnonzero(legal.any(axis=1))
    idx = np.random.default_rng(0).choice(filled, size=min(args.positions, len(filled)), replace=False)
    logits, value = forward(params, planes[idx], spec, np)
    logits = np.where(legal[idx], logits, -1e9)
    logp = logits - logits.max(1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(1, keepdims=True))
    pi, t = policy[idx], target[idx]
    cross = -np.where(legal[idx], pi * logp, 0.0).sum(1)
    entropy = -np.where(pi > 0, pi * np.log(np.maximum(pi, 1e-12)), 0.0).sum(1)
    error = (np.ravel(value) - t) ** 2
    first = np.argmax(logp, 1) == np.argmax(pi, 1)
    names = tensors.plane_names(boardlab.game_class(spec.game))[:spec.planes]
    pieces = [k for k, name in enumerate(names) if name.startswith(("our", "their"))]
    occupied = (planes[idx][:, pieces] != 0).any(axis=1).sum(axis=1)
    print(f"{args.run}: {len(idx):,} positions; first choice agrees {first.mean():.0%}")
    print("occupied positions  value error  target variance  policy cross-entropy  target entropy")
    cuts = np.linspace(0, spec.points + 1, 5).astype(int)
    for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
        m = (occupied >= lo) & (occupied < hi)
        if m.any():
            print(f"{lo:>2}-{hi - 1:<4} {m.sum():>10,} {error[m].mean():>12.3f} {t[m].var():>16.3f} "
                  f"{cross[m].mean():>21.2f} {entropy[m].mean():>15.2f}")


if __name__ == "__main__":
    main()
