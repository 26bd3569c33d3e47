"""Robble's search advice (the one search's contract: :mod:`boardlab.fast.advice`).

At equal time the searches' strength follows their simulations (the plain
``uct`` with four times the time scores 15-1 against itself, ``mcts`` with
twice the time 35-5 against ``uct``): no knowledge tried has helped
(docs/ai.md), speed has. So what the plug-in gives the search is speed:

* ``SEARCH_STATE``: :mod:`boardlab.games.robble.search.bitstate`, the position as
  one 64-bit word a color (boards up to 8x8) with the positions played so
  far. The search copies its root state every simulation and plays the
  tree's moves on it; on the kernel's state that copy and those moves cost
  about as much as the playout.
* its ``POLICY_PLAYOUT`` (``SEARCH_SETTINGS``' ``evaluator="policy"``):
  uniform placements on the two words, the placement rule applied with
  masks, the empty point drawn as the k-th set bit (:mod:`boardlab.fast._bits`),
  and no repetition bookkeeping. A random game almost never repeats a
  position at these sizes (the rules' own note: believed impossible above
  5x5); a playout that runs past ``16 * n2`` plies (random 7x7 games take
  about ``2 * n2``) is scored a draw. The tree's moves stay exact: they keep
  the repetition rule.

Above 8x8 the search runs on the kernel's state with the kernel's uniform
playout.

Both states give ``position_key``, so the search can keep one node a
position whatever the move order (``transpose=yes``): two placements far
apart commute, and 6-21% of a 7x7 tree's new positions are ones it already
has. At equal simulations that scored 158-102 against the search without,
but at equal time it is not proven (it costs about a sixth of the
simulations), so ``SEARCH_SETTINGS`` leave it off (docs/ai.md
"Transpositions").

(Tried and dropped: a playout preferring placements that gain stones, and
a static evaluation of the board, the final count taken now: it does not
predict who wins a random continuation at all, correlation 0.01 over 60
positions. Searches with either lost nearly every game against ``uct``;
docs/ai.md has the table of tries.)
"""

from __future__ import annotations

from . import bitstate
from .bitstate import bb_place

__all__ = ["LEVELS", "SEARCH_SETTINGS", "SEARCH_STATE", "bb_place"]

#: the search's own state for boards up to 8x8, with its playout
SEARCH_STATE = bitstate

#: the one search's settings for robble (``mcts`` and the levels): its playout
SEARCH_SETTINGS = {"evaluator": "policy"}

#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (robble 7x7, one core).
#: 320,000 took a median 1.13 CPU s a move before the search's own state,
#: 0.39 s after it (2026-12-07, bench/ladder.py), and lost 3-7 to ``mcts:1s``.
LEVELS = (16, 256, 2048, 16384, 600_000)
