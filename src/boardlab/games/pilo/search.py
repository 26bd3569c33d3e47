"""Pilo's search advice (the one search's contract: :mod:`boardlab.fast.advice`).

``POLICY_PLAYOUT``: the kernel's uniform playout, except that a capture is
taken whenever the mover has one (a capture removes an enemy stack and
walls a square off with a block, so captures settle the patches a playout's
score counts; uniform playouts spend most plies on placements and let them
pass), chosen uniformly among the captures; otherwise a uniform placement.
The pie swap stays a uniform choice, as the kernel's playout makes it.
"""

from __future__ import annotations

from numba import njit

from ...fast._pilo import playout_by
from ...fast.kernels import SIG_PLAYOUT


@njit(SIG_PLAYOUT, cache=True)
def policy_playout(state, rng, record):
    """The kernel's playout with captures first (see the module's docstring)."""
    return playout_by(state, rng, record, True)


POLICY_PLAYOUT = policy_playout

#: the one search's settings for pilo (``mcts`` and the levels): GRAVE
#: selection over NST playouts. A pilo move's worth hardly depends on when it
#: is played (a placement stays until captured, a capture removes a stack
#: wherever it happens), which is what all-moves-as-first statistics assume;
#: at equal simulations GRAVE beat the plain selection 26-4, and at 0.25 s a
#: move 31-9 against ``uct``, but at 1 s a move (about 80,000 simulations)
#: its gain was gone (14-16 against ``uct``). NST playouts (half the
#: choices by the best mean of the action and of the pair it forms with the
#: action before, half uniform) keep the lead at 1 s: 22-8 and 13-3 against
#: GRAVE on uniform playouts at 20,000 and 80,000 simulations each, 27-11
#: against ``uct`` at 1 s a move, although a simulation cost about 2.7x.
#: NST chooses only a playout's first 10 plies (``mast_plies``), the
#: kernel's uniform playout the rest: 28-32 against NST to the end at equal
#: simulations, at 1.7x the simulations a second, and 21-9 at 1 s a move
#: each (docs/ai.md, bench/tries).
SEARCH_SETTINGS = {"grave": True, "evaluator": "nst", "mast_eps": 0.5, "mast_plies": 10}

#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (pilo 8x8, one core).
LEVELS = (16, 256, 2048, 16384, 60_000)
