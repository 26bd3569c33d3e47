"""Robble's bitboard playout (boardlab.games.robble.search): its placement
rule against the kernel's, clause by clause over random games at every size
the bitboards cover, and the playout's fallbacks (pie pending, boards above
8x8) through the checked API."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab.fast import _robble as kernel
from boardlab.fast._rng import new_rng
from boardlab.fast.search import kernel_state
from conftest import returns_of

pytest.importorskip("numba")
search = pytest.importorskip("boardlab.games.robble.search")


def _cells(black: int, white: int, n2: int) -> list[int]:
    return [((black >> p) & 1) + 2 * ((white >> p) & 1) for p in range(n2)]


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_bitboard_placement_is_the_kernels(size: int) -> None:
    """Every placement of 200 random games (pushes, removals at the edge,
    flips, and the empties they leave) gives the kernel's board."""
    rng = random.Random(size)
    n2 = size * size
    clauses = {"push": 0, "remove": 0, "flip": 0}
    for _ in range(200):
        state = np.zeros(kernel.state_len(size), np.int64)
        kernel.init(state, size, kernel.encode_options({"pie": False}))
        black = white = 0
        player = 0
        while state[kernel._ENDED] == kernel._PLAYING:
            before = state[kernel._HDR:kernel._HDR + n2].copy()
            p = rng.choice([q for q in range(n2) if before[q] == 0])
            kernel.apply(state, p)
            black, white, removed = search.bb_place(np.uint64(black), np.uint64(white), player,
                                                    size, p)
            black, white, player = int(black), int(white), player ^ 1
            after = state[kernel._HDR:kernel._HDR + n2]
            assert _cells(black, white, n2) == after.tolist()
            assert removed == int((before != 0).sum()) + 1 - int((after != 0).sum())
            clauses["remove"] += removed
            clauses["flip"] += int(((before != 0) & (after != 0) & (before != after)).sum())
            clauses["push"] += int(((before == 0) & (after != 0)).sum()) - 1
    assert all(clauses.values()), clauses  # each clause was exercised


@pytest.mark.parametrize(("size", "plies"), [(9, 10), (5, 0), (5, 1)])
def test_the_fallbacks_play_legal_games(size: int, plies: int) -> None:
    """Above 8x8 and while the pie swap is pending the kernel's playout runs:
    the record replays through the Python rules to the same result."""
    rng = random.Random(plies)
    for seed in range(4):
        game = boardlab.new_game("robble", size)
        for _ in range(plies):
            game.apply_action(rng.choice(game.legal_actions()))
        state, _ = kernel_state(game)
        record = np.zeros(100_000, np.int64)
        n = search.policy_playout(state, new_rng(seed), record)
        for a in record[:n]:
            game.apply_action(int(a))
        assert game.is_over
        winner, _ = kernel.outcome(state, np.zeros(2))
        assert game.returns() == returns_of(winner)
