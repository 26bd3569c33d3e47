"""Network weights on disk: one ``.npz`` per game and board size.

A weights file holds the parameters (:mod:`boardlab.az.net`) and, under the
key ``meta``, a JSON text: the network's :class:`~boardlab.az.net.Spec` and
how the weights were made (the exact command, its seed, the commit, the
generation, the training CPU time). Shipped weights live in this package
(``boardlab/az/weights/<game>-<size>.npz``, package data); ``boardlab train``
writes the same format into its run folder and, with ``--ship``, here.
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.game import Game
from ..errors import OptionError
from ..records.model import format_option
from .net import Spec

SHIPPED = Path(__file__).with_name("weights")


@dataclass(frozen=True)
class Weights:
    spec: Spec
    params: dict[str, np.ndarray]
    meta: dict[str, Any] = field(default_factory=dict)


def shipped_path(game: str, size: int) -> Path:
    return SHIPPED / f"{game}-{size}.npz"


def shipped() -> list[tuple[str, int]]:
    """The (game, size) pairs with shipped weights."""
    out = []
    for p in sorted(SHIPPED.glob("*.npz")):
        game, _, size = p.stem.rpartition("-")
        if game and size.isdigit():
            out.append((game, int(size)))
    return out


def save(path: str | os.PathLike, w: Weights) -> None:
    """Write ``w`` to ``path`` (atomically: a reader never sees half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {**w.meta, "spec": w.spec.as_dict()}
    arrays: dict[str, Any] = {k: np.asarray(v, np.float32) for k, v in w.params.items()}
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(buf.getvalue())
    os.replace(tmp, path)


def load(path: str | os.PathLike, params: bool = True) -> Weights:
    """The weights in ``path`` (OptionError naming the file if it is not one);
    ``params=False``: the shape and how it was made only (no parameter is
    read: what a front end asking whether a network fits needs)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            arrays = {k: np.array(z[k], np.float32) for k in z.files if k != "meta" and params}
        spec = Spec(**meta.pop("spec"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise OptionError(f"{path}: not a boardlab network weights file ({exc})") from None
    return Weights(spec, arrays, meta)


def for_game(game: str, size: int) -> Weights:
    """The shipped weights of ``game`` at ``size``; OptionError saying which exist if none."""
    path = shipped_path(game, size)
    if not path.exists():
        have = ", ".join(f"{g} {s}x{s}" for g, s in shipped()) or "none yet"
        raise OptionError(f"az: no trained network for {game} {size}x{size} "
                          f"(shipped: {have}); train one with: boardlab train {game} --size {size}")
    return load(path)


def trained_options(w: Weights) -> dict[str, Any] | None:
    """The game options the network was trained under (its run's ``config``;
    None for a file that does not say)."""
    config = w.meta.get("config")
    return dict(config["options"]) if isinstance(config, dict) and "options" in config else None


def mismatch(w: Weights, game: Game) -> str | None:
    """Why ``w`` cannot judge ``game``'s positions (another game or board, or
    other rules: a komi or pie rule the network never saw changes what a
    position is worth), or None when it can."""
    if (w.spec.game, w.spec.size) != (game.name, game.size):
        return (f"the network is for {w.spec.game} {w.spec.size}x{w.spec.size}, "
                f"not {game.name} {game.size}x{game.size}")
    trained = trained_options(w)
    if trained is None:
        return None
    trained = type(game)._check_options(trained)
    differ = sorted(k for k in game.options if trained.get(k) != game.options[k])
    if not differ:
        return None
    return ("the network was trained with " + ", ".join(f"{k}={format_option(trained.get(k))}" for k in differ)
            + ", this game has " + ", ".join(f"{k}={format_option(game.options[k])}" for k in differ)
            + " (train one for these rules: boardlab train --option KEY=VALUE)")


def check_fits(w: Weights, game: Game) -> None:
    """OptionError saying why, when ``w`` cannot judge ``game`` (:func:`mismatch`)."""
    why = mismatch(w, game)
    if why is not None:
        raise OptionError(f"az: {why}")
