"""The table of search enhancements tried, from the screening matches' records.

Each try was a short match (``boardlab match ... --clock cpu``, 12-32 games,
0.1 s a move, equal CPU time) of one search setting against the yardstick
``uct``, played while the one search was being built (issue 33). The records
are kept in ``bench/tries/`` (gzip) and this script recounts them: who won
each game (the ``Result`` tag's color against that color's tag), the
score with its 95% Wilson interval, and what the setting is, from ``TRIES``
below. Small samples find only large effects; the point of the table is
which ideas were tried and how far each was from the 75% bar.

    python bench/tries.py                  # the table on stdout
    python bench/tries.py --docs docs/ai.md  # spliced between <!-- tries:begin/end -->

A screening match is reproduced by the command in its row (on the commit that
added its records, ``git log bench/tries``; the defaults moved since, which is
why each A spells its settings out from ``knowledge=no``, the plain search).
"""

from __future__ import annotations

import argparse
import os

from _docs import splice

from boardlab import records
from boardlab.ai.stats import wilson_interval
from boardlab.records.model import player_tag

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "bench", "tries")

#: record file (in bench/tries) -> what A's setting is. The order is the table's.
TRIES: tuple[tuple[str, str], ...] = (
    ("robble-uct_0.4s-vs-uct_0.1s.rec.gz", "the yardstick with 4x the time (scale)"),
    ("robble-plain-vs-uct.rec.gz", "the one search, uniform (the same algorithm)"),
    ("robble-plain2-vs-uct.rec.gz", "the same, a second seed set"),
    ("robble-mcts_3000_knowledge_no_reuse_no-vs-uct_3000.rec.gz",
     "uniform, 3,000 simulations each, no tree reuse (equal work)"),
    ("robble-reuse_no-vs-uct.rec.gz", "uniform, tree reuse off"),
    ("robble-c_0.25-vs-uct.rec.gz", "exploration c = 0.25"),
    ("robble-c_0.5-vs-uct.rec.gz", "exploration c = 0.5"),
    ("robble-c_1.2-vs-uct.rec.gz", "exploration c = 1.2"),
    ("robble-c_1.5-vs-uct.rec.gz", "exploration c = 1.5"),
    ("robble-solver-vs-uct.rec.gz", "MCTS-solver (proven wins/losses backed up)"),
    ("robble-c_0.7_solver-vs-uct.rec.gz", "MCTS-solver, c = 0.7"),
    ("robble-score_0.2-vs-uct.rec.gz", "score-aware backups (weight 0.2 on the final margin)"),
    ("robble-score_0.5-vs-uct.rec.gz", "score-aware backups, weight 0.5"),
    ("robble-score_0.2_c_1.2-vs-uct.rec.gz", "score 0.2 with c = 1.2, 32 games (the best pair)"),
    ("robble-score_0.2_64-vs-uct.rec.gz", "score-aware backups, weight 0.2, 64 games (2026-12-05)"),
    ("robble-mast-vs-uct.rec.gz", "MAST playouts"),
    ("robble-implicit_0.3-vs-uct.rec.gz", "implicit minimax backups (static evaluation, weight 0.3)"),
    ("robble-cutoff_8-vs-uct.rec.gz", "playouts cut after 8 moves, static evaluation"),
    ("robble-heuristic_c_0.5-vs-uct.rec.gz", "static evaluation instead of playouts, c = 0.5"),
    ("robble-policy-vs-uct.rec.gz",
     "informed playouts (moves weighted by what they gain; the plug-in's playout until 2026-12-06)"),
    ("robble-priors_48-vs-uct.rec.gz",
     "learnt move priors ordering the tries (local codes fitted to searches' moves; code in commit bdb7f9b, not kept)"),
    ("robble-priors_pb2_48-vs-uct.rec.gz", "the same priors with progressive bias 2"),
    ("robble-bitboard-vs-uct.rec.gz",
     "uniform playouts on bitboards, no repetition bookkeeping (1.2x the simulations, 2026-12-06)"),
    ("robble-plain_0.25s_40-vs-uct.rec.gz",
     "the one search, uniform, at 0.25 s a move, 40 games (2026-12-06)"),
    ("robble-policy_0.25s_40-vs-uct.rec.gz",
     "bitboard playouts with the count on bitboards and partial state copies "
     "(about 1.5x the simulations of uct), 0.25 s a move, 40 games (kept: mcts; 2026-12-06)"),
    ("robble-policy_c_0.8_0.25s_40-vs-uct.rec.gz", "the same with exploration c = 0.8, 40 games"),
    ("robble-policy_c_1.2_0.25s_40-vs-uct.rec.gz", "the same with exploration c = 1.2, 40 games"),
    ("robble-leaf_playouts_32_2000-vs-mcts_2000.rec.gz",
     "32 playouts averaged at each leaf against 1, 2,000 leaves each (equal leaves, not time: "
     "what a noiseless leaf value is worth; 2026-12-06)"),
    ("robble-leaf_playouts_4-vs-uct.rec.gz", "4 playouts averaged at each leaf (equal time)"),
    ("robble-value_heuristic-vs-uct.rec.gz",
     "a learnt value instead of playouts (n-tuple tables fitted to playouts' means; "
     "code in commit 973c7ad, not kept), c = 0.5"),
    ("robble-value_mix_0.5-vs-uct.rec.gz", "the learnt value mixed into each playout's result, weight 0.5"),
    ("robble-value_mix_0.2-vs-uct.rec.gz",
     "the same, weight 0.2, 64 games (the last 40 with the count on bitboards, both sides)"),
    ("robble-grave_3000-vs-mcts_3000.rec.gz",
     "GRAVE (ref 50, bias 1e-5) on bitboard playouts against the same without, "
     "3,000 simulations a move each (equal simulations; 2026-12-06)"),
    ("robble-plain_reuse_no_3000_100-vs-uct_3000.rec.gz",
     "the one search, uniform, no tree reuse, against uct at 3,000 simulations each (equal "
     "work, the same algorithm), 100 games, seed 21 (2026-12-06)"),
    ("robble-mast_0.5_3000-vs-mcts_3000.rec.gz",
     "MAST playouts with half the choices uniform (mast_eps 0.5) against bitboard playouts, "
     "3,000 simulations each (equal simulations; 2026-12-06)"),
    ("robble-nst_0.5_3000-vs-mcts_3000.rec.gz",
     "NST playouts (`evaluator=nst`: MAST with 2-grams, an action valued also as the reply "
     "to the one before; half the choices uniform) against bitboard playouts, 3,000 "
     "simulations each, 60 games, seed 11 (0.27x the simulations a second; 2026-12-07)"),
    ("robble-mcts_0.5s-vs-uct_0.25s.rec.gz",
     "the one search with twice the time of uct (scale: what a search twice as fast would "
     "score), 40 games (2026-12-07)"),
    ("robble-bitstate_0.25s_40-vs-uct.rec.gz",
     "the search on its own bitboard state, the empty point drawn by pdep, nodes and edges in "
     "rows (about 1.3x the simulations of the search before), 0.25 s a move, 40 games "
     "(kept: mcts; 2026-12-07)"),
    ("robble-sprt_before_small_pages_0.25s-vs-uct.rec.gz",
     "the SPRT of bench/strength.py on the search's own state with no reference counting, "
     "before the tree's small pages (stopped at H0; 2026-12-07)"),
    ("robble-sprt_before_small_pages_1s-vs-uct.rec.gz",
     "the same at 1 s a move (stopped at H0; 2026-12-07)"),
    ("robble-small_pages_0.25s-vs-uct.rec.gz",
     "the tree's memory in 4 KB pages instead of NumPy's 2 MB ones (about 1.1x the "
     "simulations over a game's moves), 0.25 s a move, 40 games, the openings of the 32-8 "
     "screen above (kept: mcts; 2026-12-07)"),
    ("robble-sprt_1s_before-vs-uct.rec.gz",
     "the SPRT at 1 s a move on the code before the search's own state (stopped at H0; "
     "played on 2026-12-07, commit 4719fda)"),
    ("robble-sprt_bitstate_0.25s-vs-uct.rec.gz",
     "the same in the SPRT of bench/strength.py (stopped at H0; 2026-12-07)"),
    ("robble-leaf_playouts_2_0.25s-vs-uct.rec.gz",
     "two playouts averaged at each leaf (`leaf_playouts`: a simulation's tree part now costs "
     "about what its playout does), 0.25 s a move, 40 games, the same openings (2026-12-07)"),
    ("robble-leaf_playouts_2-vs-mcts_0.25s.rec.gz",
     "two playouts a leaf against one, 0.25 s a move each, 40 games (2026-12-07)"),
    ("robble-fpu0-3000.rec.gz",
     "first-play urgency (fpu 0: an untried move counts as an even one) against UCB1's every "
     "move once first, 3,000 simulations each, 60 games (2026-12-07)"),
    ("robble-expand_4_0.25s-vs-uct.rec.gz",
     "delayed expansion (`expand=4`: a node's moves listed once it has 4 visits, as Fuego and "
     "Pachi do; about 1.2x the simulations a second), 0.25 s a move, 40 games, the openings of "
     "the 32-8 screen above (2026-12-07; code in commit 75a7f97, not kept)"),
    ("robble-expand_4_20000-vs-mcts_20000.rec.gz",
     "delayed expansion (4 visits) against expansion at the second visit, 20,000 simulations "
     "each (equal simulations: what the shallower tree costs), 400 games (2026-12-07)"),
    ("robble-tuned_20000-vs-mcts_20000.rec.gz",
     "UCB1-Tuned (each move's exploration scaled by the variance of its results, Auer et al. "
     "2002) against UCB1, 20,000 simulations each, 200 games (2026-12-07; code in commit 75a7f97, not kept)"),
    ("robble-transpose_nodemean_20000-vs-mcts_20000.rec.gz",
     "transpositions (`transpose`: one node a position, found by the game's position key), "
     "each edge valued by the shared node's mean over every path into it, against the search "
     "without, 20,000 simulations each, 60 games (2026-12-07; not kept)"),
    ("robble-transpose_20000-vs-mcts_20000.rec.gz",
     "transpositions, each edge keeping its own statistics, against the search without, "
     "20,000 simulations each, 60 games (2026-12-07)"),
    ("robble-transpose_20000_200-vs-mcts_20000.rec.gz",
     "the same, 200 more games, seed 11"),
    ("robble-transpose_stop_20000-vs-mcts_20000.rec.gz",
     "transpositions where a position found that is still a leaf is evaluated at once (no "
     "expansion in that simulation), 200 games, seed 11 (not kept)"),
    ("robble-transpose_parent32_20000-vs-mcts_20000.rec.gz",
     "transpositions looked up only under a node of at least 32 visits (0.97x the simulations "
     "of the search without, where looking up every new position runs 0.84x), the same 200 "
     "openings (2026-12-07; not kept)"),
    ("robble-transpose_0.25s-vs-mcts_0.25s.rec.gz",
     "transpositions against the search without, 0.25 s a move each (equal time; about "
     "0.84x the simulations), 100 games, seed 13 (2026-12-07)"),
    ("robble-transpose_0.25s_b-vs-mcts_0.25s.rec.gz",
     "the same, 100 more games, seed 17 (A is robble's mcts with transpose=yes, then its "
     "settings; B the same without)"),
    ("robble-sprt_transpose_0.25s-vs-uct.rec.gz",
     "the SPRT of bench/strength.py with transpositions in robble's settings (stopped at H0; "
     "2026-12-07; the settings went back to no transpositions)"),
    ("robble-sprt_transpose_1s-vs-uct.rec.gz",
     "the same at 1 s a move (stopped at H0; 2026-12-07)"),
    ("robble-halving_20000-vs-mcts_20000.rec.gz",
     "sequential halving at the root (`halving`: a tenth of the budget by UCB1, then rounds "
     "giving each remaining root move an equal share and keeping the better half by mean "
     "value; H-MCTS) against the search without, 20,000 simulations each, 60 games, seed 11 "
     "(2026-12-07; not kept)"),
    ("robble-tune_solver-100000-vs-mcts_100000.rec.gz",
     "robble's settings with the MCTS-solver against without, 100,000 simulations each (about "
     "0.2 s a move), 120 games, seed 11 (2026-12-07; not kept)"),
    ("robble-tune_c085-100000-vs-mcts_100000.rec.gz",
     "robble's settings with exploration c = 0.85 against c = 1, 100,000 simulations each, 120 "
     "games, seed 11 (2026-12-07; a lead: against uct at 1 s in the next row)"),
    ("robble-tune_c085-1s-vs-uct_1s.rec.gz",
     "robble's settings with c = 0.85 against uct at 1 s a move (equal CPU time), 20 games, "
     "seed 19 (2026-12-07; a screen; the SPRTs below followed)"),
    ("robble-sprt_c085_0.25s-vs-uct.rec.gz",
     "the SPRT of bench/strength.py at 0.25 s a move with c = 0.85 in robble's settings "
     "(stopped at H0, 18-7; 2026-12-07: c = 1's SPRT had passed, 27-2, so the settings went "
     "back to c = 1)"),
    ("robble-sprt_c085_1s-vs-uct.rec.gz",
     "the same at 1 s a move (stopped at H0, 7-5; 2026-12-07)"),
    ("robble-implicit_0.3_20000-vs-mcts_20000.rec.gz",
     "robble's settings with implicit minimax backups (weight 0.3 on the live margin of the "
     "biggest leftover groups, tanh(margin / 12.25)) against robble's settings, 20,000 "
     "simulations each, seed 11, stopped after 49 games (2026-12-07; not kept)"),
    ("robble-score_0.2_20000_100-vs-mcts_20000.rec.gz",
     "robble's settings with score-aware backups (weight 0.2 on the final margin) against "
     "robble's settings, 20,000 simulations each, 100 games, seed 11 (2026-12-07; not kept)"),
    ("pilo-uct_0.4s-vs-uct_0.1s.rec.gz", "the yardstick with 4x the time (scale)"),
    ("pilo-uct_2s_20-vs-uct_1s.rec.gz",
     "the yardstick with twice the time at 1 s a move (scale at the big budget), 20 games, "
     "seed 11 (2026-12-07)"),
    ("pilo-plain-vs-uct.rec.gz", "the one search, uniform"),
    ("pilo-plain2-vs-uct.rec.gz", "the same, a second seed set"),
    ("pilo-policy-vs-uct.rec.gz", "informed playouts (captures first)"),
    ("pilo-implicit_0.3-vs-uct.rec.gz", "implicit minimax backups, weight 0.3"),
    ("pilo-score_0.5-vs-uct.rec.gz", "score-aware backups, weight 0.5"),
    ("pilo-score_0.2-vs-uct.rec.gz", "score-aware backups, weight 0.2, 24 games"),
    ("pilo-plain_0.25s_40-vs-uct.rec.gz", "the one search, uniform, at 0.25 s a move, 40 games (2026-12-06)"),
    ("pilo-plain_reuse_no_0.25s_40-vs-uct.rec.gz", "the same without tree reuse, 40 games (2026-12-06)"),
    ("pilo-grave_2000-vs-mcts_2000.rec.gz",
     "GRAVE (ref 50, bias 1e-5) against the same search without it, 2,000 simulations a move "
     "each (equal simulations; A = mcts with pilo's settings since; 2026-12-06)"),
    ("pilo-grave_0.25s_40-vs-uct.rec.gz",
     "GRAVE, uniform playouts, 0.25 s a move, 40 games (kept: mcts; 2026-12-06)"),
    ("pilo-grave_reuse_no_0.25s_40-vs-uct.rec.gz", "the same without tree reuse, 40 games"),
    ("pilo-small_pages_0.25s-vs-uct.rec.gz",
     "GRAVE with the tree's memory in 4 KB pages (about 1.1x the simulations over a game's "
     "moves), 0.25 s a move, 40 games, the openings of the 31-9 screen above (kept: mcts; "
     "2026-12-07)"),
    ("pilo-grave_c_0.5_2000-vs-grave_2000.rec.gz",
     "GRAVE with c = 0.5 against c = 1, 2,000 simulations each"),
    ("pilo-grave_c_0.2_2000-vs-grave_2000.rec.gz", "GRAVE with c = 0.2 against c = 1, 60 games"),
    ("pilo-grave_ref_20_2000-vs-grave_2000.rec.gz",
     "GRAVE with reference threshold 20 visits against 50, 2,000 simulations each"),
    ("pilo-grave_ref_100_2000-vs-grave_2000.rec.gz", "GRAVE, reference threshold 100 against 50"),
    ("pilo-grave_bias_0.001_2000-vs-grave_2000.rec.gz",
     "GRAVE with bias 0.001 against 1e-5 (the all-moves-as-first term fades sooner), 60 games"),
    ("pilo-grave_policy_2000-vs-grave_2000.rec.gz",
     "GRAVE on informed playouts (captures first) against GRAVE on uniform ones"),
    ("pilo-grave_mast_2000-vs-grave_2000.rec.gz",
     "GRAVE on MAST playouts against GRAVE on uniform ones"),
    ("pilo-grave_mast_0.5_2000-vs-grave_2000.rec.gz",
     "GRAVE on MAST playouts with half the choices uniform (mast_eps 0.5; 0.1 above)"),
    ("pilo-grave_nst_0.5_2000-vs-grave_2000.rec.gz",
     "GRAVE on NST playouts (MAST with 2-grams, half the choices uniform) against GRAVE on "
     "uniform ones, 2,000 simulations each, 60 games, seed 11 (0.37x the simulations a "
     "second; 2026-12-07)"),
    ("pilo-grave_nst_0.5_2000_100-vs-grave_2000.rec.gz", "the same, 100 games, seed 13"),
    ("pilo-grave_nst_0.5_20000-vs-grave_20000.rec.gz",
     "GRAVE on NST playouts (half uniform) against GRAVE on uniform ones at 20,000 "
     "simulations each, 30 games, seed 11 (2026-12-07)"),
    ("pilo-grave_nst_0.5_80000-vs-grave_80000.rec.gz",
     "the same at 80,000 simulations each (about what pilo's 1 s buys without NST), seed 11, "
     "stopped after 16 games to free the processor (2026-12-07)"),
    ("pilo-grave_nst_0.5_1s_20-vs-uct.rec.gz",
     "GRAVE on NST playouts (half uniform) at 1 s a move against uct, 20 games, seed 11 (the "
     "openings of the 9-11 above: equal time, at 0.37x the simulations; 2026-12-07)"),
    ("pilo-grave_nst_0.5_1s_sprt-vs-uct.rec.gz",
     "the same as an SPRT (H0 75%, H1 90%), seed 21: stopped at H0 (2026-12-07)"),
    ("pilo-grave_nst_0.5_0.25s_40-vs-uct.rec.gz",
     "GRAVE on NST playouts (half uniform) at 0.25 s a move against uct, 40 games, seed 11 "
     "(2026-12-07)"),
    ("pilo-grave_nst_0.2_2000-vs-grave_2000.rec.gz",
     "GRAVE on NST playouts with a fifth of the choices uniform, 60 games, seed 11"),
    ("pilo-grave_c_0_2000-vs-grave_2000.rec.gz",
     "GRAVE with no exploration term (c = 0, as in Cazenave's paper) against c = 1, 60 games "
     "(2026-12-06)"),
    ("pilo-grave_solver_2000-vs-grave_2000.rec.gz", "GRAVE with the MCTS-solver against without, 60 games"),
    ("pilo-grave_local_50_2000-vs-grave_2000.rec.gz",
     "GRAVE on playouts with local replies (half the placements on a random one of the 8 "
     "squares around the last board play, when empty; code in commit 97df135, not kept) "
     "against GRAVE on uniform ones, 2,000 simulations each, 100 games, seed 11 (2026-12-07)"),
    ("pilo-sprt_grave_0.25s-vs-uct.rec.gz",
     "the SPRT of bench/strength.py at 0.25 s a move with GRAVE on uniform playouts, pilo's "
     "settings before NST (stopped at H0)"),
    ("pilo-sprt_grave_1s-vs-uct.rec.gz",
     "the same at 1 s a move (stopped at H0)"),
    ("pilo-sprt_nst_0.25s-vs-uct.rec.gz",
     "the SPRT of bench/strength.py at 0.25 s a move with GRAVE on NST playouts to the game's "
     "end (half the choices uniform; stopped at H0; 2026-12-07)"),
    ("pilo-nst_plies_10_2000-vs-nst_2000.rec.gz",
     "NST choosing a playout's first 10 plies only (`mast_plies=10`; the kernel's uniform "
     "playout after, every ply counted), against NST to the end, both with GRAVE, 2,000 "
     "simulations each, 60 games, seed 11 (1.7x the simulations a second; 2026-12-07)"),
    ("pilo-nst_plies_10_1s-vs-nst_1s.rec.gz",
     "the same at 1 s a move each (equal time), 30 games, seed 11: pilo's settings since"),
    ("pilo-nst_plies_10_1s_20-vs-uct.rec.gz",
     "pilo's mcts (GRAVE on NST playouts, NST for the first 10 plies) at 1 s a move against "
     "uct, 20 games, seed 11 (the openings where NST to the end scored 15-5; 2026-12-07)"),
    ("pilo-grave_1s_20-vs-uct.rec.gz",
     "pilo's mcts (GRAVE) at 1 s a move against uct, 20 games, seed 11 (2026-12-06)"),
    ("pilo-grave_bias_0.0001_1s_20-vs-uct.rec.gz",
     "the same with GRAVE bias 1e-4 (its weight fading ten times sooner), same openings"),
    ("pilo-grave_solver_1s_20-vs-uct.rec.gz",
     "pilo's mcts (GRAVE) with the MCTS-solver at 1 s a move against uct, the same openings "
     "(the games' evaluations stay near even until the last 20-30 plies; 2026-12-07)"),
    ("pilo-grave_1s_20-vs-mcts_1s.rec.gz",
     "GRAVE against the same search without it at 1 s a move each, 20 games, seed 11"),
    ("pilo-grave_20000-vs-mcts_20000.rec.gz",
     "GRAVE against the same search without it at 20,000 simulations a move each (about what "
     "0.25 s buys), 30 games"),
    ("pilo-grave_20000-vs-uct_20000.rec.gz", "pilo's mcts (GRAVE) against uct at 20,000 simulations each"),
    ("pilo-grave_bias_0.001_20000-vs-grave_20000.rec.gz", "GRAVE with bias 0.001 against 1e-5 at 20,000 simulations"),
    ("pilo-grave_max_5000_1s_20-vs-mcts_1s.rec.gz",
     "GRAVE only below 5,000 visits (`grave_max`: a node past it, every move tried, selects by "
     "its moves' own means) against GRAVE everywhere, 1 s a move each, 20 games, seed 11 "
     "(2026-12-07)"),
    ("pilo-grave_no_1s-vs-uct_1s.rec.gz",
     "the one search without GRAVE at 1 s a move against uct, 20 games, seed 11 (the openings "
     "on which pilo's mcts, with GRAVE, scored 9-11; 2026-12-07)"),
    ("pilo-plain_5000-vs-uct_5000.rec.gz",
     "the one search, uniform, against uct at 5,000 simulations each (equal work), 40 games"),
    ("pilo-plain_reuse_no_5000-vs-uct_5000.rec.gz", "the same without tree reuse, 40 games"),
    ("pilo-transpose_nodemean_2000-vs-mcts_2000.rec.gz",
     "transpositions, edges valued by the shared node's mean, with GRAVE, against GRAVE "
     "without, 2,000 simulations each, 60 games (2026-12-07; a tree this size holds few: 2-3% "
     "of its nodes are found again)"),
    ("pilo-halving_5000-vs-mcts_5000.rec.gz",
     "sequential halving at the root (`halving`; pilo's settings on both sides) against the "
     "search without, 5,000 simulations each, 60 games, seed 11 (2026-12-07; not kept): about "
     "10 simulations a move in the first round, and the two moves left get a third of what "
     "UCB1 gives its favourite"),
    ("pilo-tune_c07-2000-vs-mcts_2000.rec.gz",
     "pilo's settings with exploration c = 0.7 against c = 1, 2,000 simulations each, 200 "
     "games, seed 11 (2026-12-07; not kept)"),
    ("pilo-tune_c14-2000-vs-mcts_2000.rec.gz",
     "pilo's settings with exploration c = 1.4 against c = 1, 2,000 simulations each, 200 "
     "games, seed 11 (2026-12-07; not kept)"),
    ("pilo-tune_eps03-2000-vs-mcts_2000.rec.gz",
     "pilo's settings with NST's uniform share 0.3 (`mast_eps`) against 0.5, 2,000 simulations "
     "each, 200 games, seed 11 (2026-12-07; not kept)"),
    ("pilo-tune_plies20-2000-vs-mcts_2000.rec.gz",
     "pilo's settings with NST for 20 playout plies (`mast_plies`) against 10, 2,000 "
     "simulations each, 200 games, seed 11 (2026-12-07; not kept)"),
    ("pilo-tune_ref25-2000-vs-mcts_2000.rec.gz",
     "pilo's settings with GRAVE's reference at 25 visits (`grave_ref`) against 50, 2,000 "
     "simulations each, 200 games, seed 11 (2026-12-07; not kept)"),
    ("pilo-tune_combo-2000-vs-mcts_2000.rec.gz",
     "pilo's settings with the two best of those together (`mast_eps=0.3`, `mast_plies=20`) "
     "against pilo's settings, 2,000 simulations each, 200 games, seed 13 (2026-12-07; not "
     "kept)"),
    ("pilo-implicit_0.3_2000_100-vs-mcts_2000.rec.gz",
     "pilo's settings with implicit minimax backups (weight 0.3, the live territory margin, "
     "tanh(margin / 16)) against pilo's settings, 2,000 simulations each, 100 games, seed 11 "
     "(2026-12-07; not kept)"),
    ("implo-mcts_0.5s-vs-uct_0.25s.rec.gz",
     "the one search with twice the time of uct (scale: what a search twice as fast would "
     "score), 40 games (2026-12-07)"),
    ("implo-mcts_8000-vs-mcts_2000.rec.gz",
     "the one search with 4x the simulations (8,000 against 2,000 a move; scale, 2026-12-06)"),
    ("implo-plain-vs-uct.rec.gz", "the one search, uniform"),
    ("implo-score_0.3-vs-uct.rec.gz", "score-aware backups, weight 0.3"),
    ("implo-score_0.3_32-vs-uct.rec.gz", "the same again, 32 games"),
    ("implo-score_0.15_64-vs-uct.rec.gz", "score-aware backups, weight 0.15, 64 games (2026-12-05)"),
    ("implo-plain_0.25s_40-vs-uct.rec.gz", "the one search, uniform, at 0.25 s a move, 40 games (2026-12-06)"),
    ("implo-plain_reuse_no_0.25s_40-vs-uct.rec.gz", "the same without tree reuse, 40 games (2026-12-06)"),
    ("implo-grave_2000-vs-mcts_2000.rec.gz",
     "GRAVE (ref 50, bias 1e-5) against the same search without it, 2,000 simulations a move "
     "each (equal simulations; 2026-12-06)"),
    ("implo-plain_reuse_no_2000_100-vs-uct_2000.rec.gz",
     "the one search, uniform, no tree reuse, against uct at 2,000 simulations each (equal "
     "work, the same algorithm), 100 games, seed 21 (2026-12-06)"),
    ("implo-mast_0.5_2000-vs-mcts_2000.rec.gz",
     "MAST playouts, mast_eps 0.5, against uniform ones, 2,000 simulations each (2026-12-06)"),
    ("implo-nst_0.5_2000-vs-mcts_2000.rec.gz",
     "NST playouts (MAST with 2-grams), half the choices uniform, against uniform ones, 2,000 "
     "simulations each, 60 games, seed 11 (0.47x the simulations a second; 2026-12-07)"),
    ("implo-nst_0.2_2000-vs-mcts_2000.rec.gz", "NST with a fifth of the choices uniform, 60 games"),
    ("implo-forced_2000-vs-mcts_2000.rec.gz",
     "forced moves passed through in the same simulation (`forced`: a single resolution "
     "is about one ply in six of a random implo game) against without, 2,000 simulations each, 60 games"),
    ("implo-forced_0.25s_40-vs-uct.rec.gz", "the same at 0.25 s a move against uct, 40 games"),
    ("implo-forced_c_0.7_0.25s_40-vs-uct.rec.gz",
     "forced moves passed through with exploration c = 0.7 (the two best leads at equal "
     "simulations), 0.25 s a move against uct, 40 games (2026-12-07)"),
    ("implo-forced_c_0.7_2000_200-vs-mcts_2000.rec.gz",
     "the two leads together (`forced=yes`, c = 0.7) against the plain search at 2,000 "
     "simulations each, 200 games, seed 11 (2026-12-07)"),
    ("implo-c_0.3_2000-vs-mcts_2000.rec.gz", "exploration c = 0.3 against c = 1, 60 games"),
    ("implo-c_0.5_2000-vs-mcts_2000.rec.gz", "exploration c = 0.5 against c = 1, 60 games"),
    ("implo-c_0.7_2000-vs-mcts_2000.rec.gz", "exploration c = 0.7 against c = 1, 2,000 simulations each, 60 games"),
    ("implo-c_1.4_2000-vs-mcts_2000.rec.gz", "exploration c = 1.4 against c = 1, 60 games"),
    ("implo-solver_2000-vs-mcts_2000.rec.gz", "the MCTS-solver against without, 60 games"),
    ("implo-fpu0-2000.rec.gz",
     "first-play urgency (fpu 0) against UCB1's every move once first, 2,000 simulations each, "
     "60 games (2026-12-07)"),
    ("implo-tuned_2000-vs-mcts_2000.rec.gz",
     "UCB1-Tuned against UCB1, 2,000 simulations each, 100 games (2026-12-07; code in commit 75a7f97, not kept)"),
    ("implo-transpose_nodemean_2000-vs-mcts_2000.rec.gz",
     "transpositions, edges valued by the shared node's mean, against the search without, "
     "2,000 simulations each, 60 games (2026-12-07; 1-2% of a tree's nodes are found again)"),
    ("implo-transpose_2000-vs-mcts_2000.rec.gz",
     "transpositions, each edge keeping its own statistics, the same 60 games"),
    ("implo-local_50_2000-vs-mcts_2000.rec.gz",
     "local replies in playouts (half the placements on a random one of the 8 points around "
     "the last placement, when empty; code in commit 97df135, not kept) against uniform "
     "playouts, 2,000 simulations each, 60 games (2026-12-07)"),
    ("implo-local_50_2000_200-vs-mcts_2000.rec.gz", "the same, 200 games, seed 11"),
    ("implo-local_85_2000_200-vs-mcts_2000.rec.gz",
     "local replies for 85 placements in 100, 200 games, seed 11"),
    ("implo-uniform_noreuse_20000-vs-uct_20000.rec.gz",
     "the one search, uniform, no tree reuse, against uct at 20,000 simulations each (about "
     "what 0.25 s a move buys: is the search's loss at equal time a flaw that grows with the "
     "tree? no), 40 games, seed 21 (2026-12-07)"),
    ("implo-halving_5000-vs-mcts_5000.rec.gz",
     "sequential halving at the root (`halving`) against the search without, 5,000 simulations "
     "each, 60 games, seed 11 (2026-12-07; not kept)"),
    ("implo-cutoff_40_2000-vs-mcts_2000.rec.gz",
     "playouts cut after 40 plies and judged by the live score margin (tanh(margin / 1)) "
     "against playouts to the end, 2,000 simulations each, 40 games, seed 11 (2026-12-07; the "
     "cut playout lists the legal actions each ply, so it ran no faster; not kept)"),
    ("implo-implicit_0.3_2000-vs-mcts_2000.rec.gz",
     "implicit minimax backups (weight 0.3) on the live score margin (tanh(margin / 3)) against "
     "the search without, 2,000 simulations each, 60 games, seed 11 (2026-12-07)"),
    ("implo-implicit_0.3_2000_100-vs-mcts_2000.rec.gz",
     "the same, 100 games, seed 13 (99-61 in all, 62%, 95% 54%-69%)"),
    ("implo-implicit_0.5_2000-vs-mcts_2000.rec.gz", "the same with weight 0.5, 60 games, seed 11"),
    ("implo-implicit_0.2_2000_100-vs-mcts_2000.rec.gz",
     "the same with weight 0.2, 100 games, seed 13"),
    ("implo-implicit_0.3_20000-vs-mcts_20000.rec.gz",
     "weight 0.3 at 20,000 simulations each (about 0.25 s a move), seed 21, stopped after 15 "
     "games: the gain at 2,000 turns into a loss where the tree is deep (the live score "
     "counts markers and not the stone group an owned patch costs; not kept)"),
    ("implo-implicit_0.3_s10_5000-vs-mcts_5000.rec.gz",
     "implicit minimax (weight 0.3) on a softer live score margin (tanh(margin / 10)) against "
     "the search without, 5,000 simulations each, 60 games, seed 13 (2026-12-07)"),
    ("implo-generic_path_5000-vs-mcts_5000.rec.gz",
     "a control: implicit weight 1e-6 (the search's general selection and backup instead of "
     "the plain loop's, with no effect on the values) against the plain loop, 5,000 "
     "simulations each, 60 games, seed 13 (the openings of the row above)"),
    ("implo-implicit_0.3_s10_10000-vs-mcts_10000.rec.gz",
     "the same at 10,000 simulations each, 40 games, seed 41"),
    ("implo-implicit_0.3_s10_20000-vs-mcts_20000.rec.gz",
     "the same at 20,000 simulations each, 40 games, seed 21"),
    ("implo-implicit_0.3_s10_40000-vs-mcts_40000.rec.gz",
     "the same at 40,000 simulations each, 20 games, seed 41 (the gain fades with the budget)"),
    ("implo-implicit_0.3_s10_10000_s43-vs-mcts_10000.rec.gz",
     "the same at 10,000 simulations each, 40 games, seed 43 (the openings of the second "
     "equal-time row below; 121-59 in all at equal simulations, 67%)"),
    ("implo-implicit_0.3_s10_0.25s-vs-mcts_0.25s.rec.gz",
     "the same at equal CPU time, 0.25 s a move each, 40 games, seed 41 (the openings of the "
     "10,000-simulation row: the implicit side searched about 6% fewer simulations a move)"),
    ("implo-implicit_0.3_s10_0.25s_s43-vs-mcts_0.25s.rec.gz",
     "the same, seed 43 (35-45 in all at equal time, 44%: the gain at equal simulations is "
     "gone; not kept)"),
    ("implo-implicit_0.3_s10_0.25s-vs-generic_0.25s.rec.gz",
     "the same at 0.25 s a move against implicit weight 1e-6 (the same general loop, no "
     "effect on the values), 40 games, seed 41"),
    ("implo-implicit_0.3_s10_0.25s-vs-uct.rec.gz",
     "the same against uct at 0.25 s a move, seed 23, stopped after 34 games"),
    ("implo-mcts_10000-vs-uct_10000.rec.gz",
     "implo's search (uniform, tree reuse) against uct at 10,000 simulations each, seed 31, "
     "stopped after 53 games (2026-12-07: is implo's search weaker than uct at a few thousand "
     "simulations? no)"),
    ("implo-reuse_10000-vs-reuse_no_10000.rec.gz",
     "implo's search with tree reuse against without, 10,000 simulations each, seed 31, "
     "stopped after 25 games"),
    ("vimbre-plain-vs-uct.rec.gz", "the one search, uniform"),
    ("vimbre-priors_40-vs-uct.rec.gz", "slack priors ordering moves, best 40 kept (kept: `mcts`)"),
    ("vimbre-priors_puct-vs-uct.rec.gz", "slack priors with PUCT, best 60, c = 0.3"),
    ("yugo-policy-vs-uct.rec.gz", "eye-keeping playouts (kept: `mcts`)"),
    ("yugo-policy2-vs-uct.rec.gz", "the same, a second seed set"),
    ("yugo-capture-vs-uct.rec.gz", "eye-keeping playouts that also take a capture when drawn"),
    ("yugo-score_0.2-vs-uct.rec.gz", "eye-keeping playouts, score-aware backups 0.2"),
    ("yugo-c_0.7-vs-uct.rec.gz", "eye-keeping playouts, c = 0.7 (stopped early)"),
    ("yugo-grave_2000-vs-mcts_2000.rec.gz",
     "GRAVE (ref 50, bias 1e-5) on eye-keeping playouts against the same without, 2,000 "
     "simulations a move each (equal simulations; kept: mcts; 2026-12-06)"),
)


def count(path: str) -> tuple[str, str, str, int, int, int]:
    """(game, A, B, A's wins, losses, draws) of one match's records."""
    games = records.read(path)
    first = games[0].tags
    a, b = first["EngineA"], first["EngineB"]
    wins = losses = draws = 0
    for rec in games:
        result = rec.tags.get("Result", "")
        if result == "draw":
            draws += 1
        elif player_tag(result) in rec.tags:      # the winning color's tag names its engine
            winner = rec.tags[player_tag(result)]
            wins += winner == a
            losses += winner == b
    return first["Game"], a, b, wins, losses, draws


def table(folder: str = FOLDER) -> str:
    rows = ["| game | A: the try | A (as played) | B | A W-L-D | A's score (95%) |",
            "|---|---|---|---|---|---|"]
    for name, what in TRIES:
        game, a, b, w, lo, d = count(os.path.join(folder, name))
        n = w + lo + d
        low, high = wilson_interval(w + d / 2, n) if n else (0.0, 1.0)
        score = (w + d / 2) / n if n else 0.0
        bold = "**" if low >= 0.75 else ""
        rows.append(f"| {game} | {what} | `{a}` | `{b}` | {w}-{lo}-{d} | "
                    f"{bold}{score:.0%}{bold} ({low:.0%} .. {high:.0%}) |")
    return "\n".join(rows) + "\n"



def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", help="splice the table into this Markdown file")
    args = ap.parse_args(argv)
    text = table()
    if args.docs:
        splice(args.docs, "tries", text)
    print(text, end="")


if __name__ == "__main__":
    main()
