"""Robble: the whole of the game's knowledge (docs/games/robble.md).

``rules`` (the rules engine, :class:`Robble`), ``view`` (what the terminal
and the web draw: :mod:`boardlab.games.view`), ``search`` (search advice:
:mod:`boardlab.fast.advice`) and ``tensors`` (observation planes:
:mod:`boardlab.research.tensors`). :data:`PARTS` declares them; the generic
code finds a part through it (:func:`boardlab.games.plugin`).
"""

from __future__ import annotations

from .rules import Robble

#: the game's parts beside its rules: role -> module
PARTS = {"view": f"{__name__}.view", "search": f"{__name__}.search",
         "tensors": f"{__name__}.tensors"}

__all__ = ["PARTS", "Robble"]
