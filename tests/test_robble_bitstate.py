"""Robble's bitboard search state (boardlab.games.robble.search.bitstate) against the
kernel: its placement rule clause by clause, then the state ply by ply over random games at every size it covers: the same
color to act, legal actions, legality, end, winner, termination and scores,
repetition draws included (4x4 boards repeat); and a state made from a
kernel state mid-game (``from_kernel``) plays on exactly as one built move
by move."""

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
bits = pytest.importorskip("boardlab.games.robble.search.bitstate")


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
            black, white, removed = bits.bb_place(np.uint64(black), np.uint64(white), player,
                                                    size, p)
            black, white, player = int(black), int(white), player ^ 1
            after = state[kernel._HDR:kernel._HDR + n2]
            assert _cells(black, white, n2) == after.tolist()
            assert removed == int((before != 0).sum()) + 1 - int((after != 0).sum())
            clauses["remove"] += removed
            clauses["flip"] += int(((before != 0) & (after != 0) & (before != after)).sum())
            clauses["push"] += int(((before == 0) & (after != 0)).sum()) - 1
    assert all(clauses.values()), clauses  # each clause was exercised


def _pair(size: int, pie: bool) -> tuple[np.ndarray, np.ndarray]:
    opts = kernel.encode_options({"pie": pie})
    k = np.zeros(kernel.state_len(size), np.int64)
    kernel.init(k, size, opts)
    b = np.zeros(bits.state_len(size), np.int64)
    bits.init(b, size, opts)
    return k, b


def _same_now(k: np.ndarray, b: np.ndarray, buf_k: np.ndarray, buf_b: np.ndarray,
              rng: random.Random, where: str) -> list[int]:
    assert kernel.current_player(k) == bits.current_player(b), where
    n = kernel.legal_actions(k, buf_k)
    m = bits.legal_actions(b, buf_b)
    assert buf_k[:n].tolist() == buf_b[:m].tolist(), where
    for _ in range(3):
        a = rng.randrange(-1, len(buf_k) + 1)
        assert kernel.is_legal(k, a) == bits.is_legal(b, a), (where, a)
    live_k, live_b = np.zeros(2), np.zeros(2)
    assert kernel.live_scores(k, live_k) == bits.live_scores(b, live_b), where
    return buf_k[:n].tolist()


@pytest.mark.parametrize(("size", "games"), [(4, 400), (5, 300), (6, 60), (7, 40), (8, 20)])
def test_the_bit_state_plays_the_kernels_game(size: int, games: int) -> None:
    rng = random.Random(size)
    buf_k = np.zeros(size * size + 1, np.int64)
    buf_b = np.zeros_like(buf_k)
    ends = {"score": 0, "last-move": 0, "repetition": 0}
    for g in range(games):
        k, b = _pair(size, pie=g % 2 == 0)
        ply = 0
        while True:
            legal = _same_now(k, b, buf_k, buf_b, rng, f"game {g} ply {ply}")
            if not legal:
                break
            a = rng.choice(legal)
            kernel.apply(k, a)
            bits.apply(b, a)
            ply += 1
        sk, sb = np.zeros(2), np.zeros(2)
        out_k, out_b = kernel.outcome(k, sk), bits.outcome(b, sb)
        assert out_k == out_b, (g, out_k, out_b)
        assert np.array_equal(sk, sb, equal_nan=True)
        ends[kernel.TERMINATIONS[out_k[1]]] += 1
    assert ends["score"] and (size > 4 or ends["repetition"]), ends


@pytest.mark.parametrize("size", [4, 5, 7])
def test_a_state_made_from_a_kernel_state_plays_on_the_same(size: int) -> None:
    """``from_kernel`` at every ply of random games (its history replayed
    from the start board): the same header and recorded positions as the
    state built move by move, and the same game from there, repetition
    draws on 4x4 and 5x5 included."""
    rng = random.Random(size + 100)
    buf_k = np.zeros(size * size + 1, np.int64)
    buf_b = np.zeros_like(buf_k)
    for g in range(40):
        k, b = _pair(size, pie=True)
        while kernel.current_player(k) >= 0:
            made = np.zeros_like(b)
            bits.from_kernel(made, k)
            end = bits._HDR + 2 * b[bits._NPOS]
            assert made[:end].tolist() == b[:end].tolist(), g
            legal = _same_now(k, made, buf_k, buf_b, rng, f"game {g}")
            a = rng.choice(legal)
            kernel.apply(k, a)
            bits.apply(b, a)


def test_a_set_up_position_keeps_its_start_and_mover() -> None:
    """A game from a set-up position (white to move on a part-filled board)
    replays through the kernel's start board and start color."""
    game = boardlab.new_game("robble", 5)
    rng = random.Random(3)
    for _ in range(7):
        game.apply_action(rng.choice(game.legal_actions()))
    start = boardlab.from_position(game.position())
    for _ in range(5):
        start.apply_action(rng.choice(start.legal_actions()))
    k, _ = kernel_state(start)
    b = np.zeros(bits.state_len(5), np.int64)
    bits.from_kernel(b, k)
    buf_k = np.zeros(26, np.int64)
    buf_b = np.zeros_like(buf_k)
    while True:
        legal = _same_now(k, b, buf_k, buf_b, rng, "set-up")
        if not legal:
            break
        a = rng.choice(legal)
        kernel.apply(k, a)
        bits.apply(b, a)
    assert kernel.outcome(k, np.zeros(2)) == bits.outcome(b, np.zeros(2))


@pytest.mark.parametrize("plies", [0, 1, 2, 20])
def test_both_playouts_replay_through_the_checked_api(plies: int) -> None:
    """The contract's playout (repetitions kept) and the search's (none
    kept) play legal games whose end the Python rules score the same."""
    rng = random.Random(plies)
    for seed in range(6):
        game = boardlab.new_game("robble", 6)
        for _ in range(plies):
            game.apply_action(rng.choice(game.legal_actions()))
        k, _ = kernel_state(game)
        for playout in (bits.playout, bits.policy_playout):
            b = np.zeros(bits.state_len(6), np.int64)
            bits.from_kernel(b, k)
            record = np.zeros(10_000, np.int64)
            n = playout(b, new_rng(seed), record)
            replay = game.copy()
            for a in record[:n]:
                replay.apply_action(int(a))
            assert replay.is_over
            winner, _ = bits.outcome(b, np.zeros(2))
            assert replay.returns() == returns_of(winner)
