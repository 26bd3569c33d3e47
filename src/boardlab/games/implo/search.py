"""Implo's search advice (the one search's contract: :mod:`boardlab.fast.advice`).

Implo searches with uniform playouts (the kernel's own); what the plug-in
holds is its level ladder.
"""

from __future__ import annotations

#: Level budgets (simulations a move, levels 1..5): level 5 is about what
#: ``mcts:1s`` searches on the project's machine (implo 9x9, one core). Many
#: implo moves are quick (lone resolutions, short endgame playouts): at
#: 35,000 level 5 took a median 0.35 CPU s a move (90th percentile 0.77), at
#: 60,000 0.46 (0.99), measured by ``bench/ladder.py``; 80,000 since the
#: kernel's playouts got a third faster (2026-12-08: the one search plays
#: 82,000-85,000 simulations a CPU second over a game's first 40 plies,
#: ``bench/move_speed.py implo --engine mcts:80000 --plies 40``).
LEVELS = (16, 256, 2048, 8192, 80_000)
