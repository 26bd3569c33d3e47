"""Checking a (game, size, options) request once, with the Game class's own checks."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from .. import game_class
from .kernels import kernel


@dataclass(frozen=True)
class Resolved:
    """A checked request: the game's name, size, defaulted options, their
    vector for the kernel, and the kernel itself."""

    name: str
    size: int
    options: dict[str, Any]
    opts: np.ndarray
    kernel: ModuleType
    num_actions: int
    state_len: int


def resolve(game: str, size: int | None, options: dict[str, Any]) -> Resolved:
    """OptionError for an unknown game, a bad size or bad options (the same
    checks and messages as ``boardlab.new_game``), or a game without a kernel."""
    cls = game_class(game)
    size = cls._check_size(size)
    checked = cls._check_options(options)
    k = kernel(cls.name)
    opts = np.ascontiguousarray(k.encode_options(checked), dtype=np.int64)
    return Resolved(cls.name, size, checked, opts, k, cls.num_distinct_actions_for(size),
                    k.state_len(size))
