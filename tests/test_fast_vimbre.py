"""The compiled vimbre core (boardlab.fast._vimbre) against the Python engine.

Three kinds of evidence: seeded random games compared at every ply by
boardlab.fast.check; compiled playouts replayed move by move through the
Python engine's checked API; and hand-built positions for the clauses random
games rarely reach (forced passes, a pair legal only together, wins by a flip
or by one stone of a pair), loaded into both engines and then played on with a
per-ply comparison. Positions are written as in tests/test_vimbre_rules.py.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from numba import njit, types

import boardlab
from boardlab.errors import OptionError
from boardlab.fast import _vimbre as k
from boardlab.fast._rng import new_rng
from boardlab.fast.check import check_many

# ---------------------------------------------------------------- helpers


def fresh(size: int) -> np.ndarray:
    state = np.zeros(k.state_len(size), dtype=np.int64)
    k.init(state, size, k.encode_options({}))
    return state


def pos(board: str, to_move: str = "black", size: int = 5) -> tuple[boardlab.Game, np.ndarray]:
    """The position in the Python engine and, loaded from its board, in the kernel."""
    py = boardlab.from_position(f"vimbre {size} {board} {to_move} first=no")
    state = np.zeros(k.state_len(size), dtype=np.int64)
    k.load(state, size, np.frombuffer(bytes(py.stones), dtype=np.uint8).astype(np.int64),
           py.current_player, py.first_turn)
    return py, state


def kernel_legal(state: np.ndarray, size: int) -> list[int]:
    buf = np.zeros(boardlab.game_class("vimbre").num_distinct_actions_for(size), dtype=np.int64)
    return buf[:k.legal_actions(state, buf)].tolist()


def play_on(py: boardlab.Game, state: np.ndarray, seed: int,
            first: list[str] = ()) -> boardlab.Game:
    """Play ``first`` (move texts) and then random moves to the end in both
    engines, comparing color to move, legal actions, is_legal of a few
    actions and the outcome at every ply; returns the finished Python game."""
    rng = random.Random(seed)
    forced = list(first)
    while True:
        legal = kernel_legal(state, py.size)
        assert legal == py.legal_actions(), py.history
        want = py.current_player
        assert k.current_player(state) == (-1 if want is None else want), py.history
        if want is None:
            break
        assert not k.mid_turn(state)
        for a in rng.sample(range(-2, py.num_distinct_actions + 2), 5):
            assert k.is_legal(state, a) == py.is_legal_action(a), (a, py.history)
        action = py.string_to_action(forced.pop(0)) if forced else rng.choice(legal)
        assert k.is_legal(state, action)
        k.apply(state, action)
        py.apply_action(action)
    assert k.invariants_hold(state)
    scores = np.zeros(2)
    winner, term = k.outcome(state, scores)
    assert (py.colors[winner], k.TERMINATIONS[term]) == (py.outcome.winner,
                                                         py.outcome.termination.value)
    assert all(math.isnan(x) for x in scores) and py.outcome.scores is None
    return py


# ---------------------------------------------------------------- random games

# (size, games): 1000 games in all; 19x19 games are long (~175 plies, tens of
# thousands of legal pairs a ply in the Python engine), so there are few.
SPREAD = [(4, 300), (5, 300), (6, 200), (11, 120), (13, 60), (19, 20)]


@pytest.mark.parametrize(("size", "games"), SPREAD)
def test_random_games_agree_with_the_python_engine_at_every_ply(size, games):
    n, plies = check_many("vimbre", games, size, seed=1000 * size)
    assert n == games and plies > games * size  # every game is at least a few plies


@pytest.mark.parametrize("size", [4, 5, 8, 11, 19])
def test_playouts_replay_legally_through_the_python_engine(size):
    for seed in range(6 if size < 19 else 2):
        state = fresh(size)
        record = np.zeros(64 * size * size, dtype=np.int64)
        plies = k.playout(state, new_rng(seed), record)
        assert k.invariants_hold(state)
        py = boardlab.new_game("vimbre", size)
        for action in record[:plies].tolist():
            py.apply_action(action)  # IllegalMoveError if the playout cheated
        assert py.is_over and k.current_player(state) == -1
        winner, term = k.outcome(state, np.zeros(2))
        assert py.outcome.winner == py.colors[winner]
        assert np.array_equal(state[16:16 + size * size],
                              np.frombuffer(bytes(py.stones), dtype=np.uint8))


@pytest.mark.parametrize("size", [4, 5, 11])
def test_playouts_equal_their_record_replayed_through_apply(size):
    """Many playouts, each replayed with is_legal/apply from the same start:
    the same final state word for word (a playout that played something
    other than what it recorded, e.g. after redrawing a rejected pair, shows)."""
    rng = new_rng(11)
    record = np.zeros(64 * size * size, dtype=np.int64)
    for _ in range(3000 if size < 11 else 300):
        state = fresh(size)
        plies = k.playout(state, rng, record)
        again = fresh(size)
        for action in record[:plies]:
            assert k.is_legal(again, action)
            k.apply(again, action)
        assert np.array_equal(state, again)


def test_playout_is_deterministic_for_a_state_and_rng_and_counts_its_plies():
    runs = []
    for _ in range(2):
        state = fresh(7)
        record = np.zeros(7 * 7 * 64, dtype=np.int64)
        plies = k.playout(state, new_rng(42), record)
        runs.append((plies, record[:plies].tolist(), state.tolist()))
    assert runs[0] == runs[1]
    state = fresh(7)
    assert k.playout(state, new_rng(42), np.zeros(0, dtype=np.int64)) == runs[0][0]
    assert state.tolist() == runs[0][2]


def test_playout_refuses_a_record_shorter_than_the_game():
    with pytest.raises(ValueError, match="longer than record"):
        k.playout(fresh(5), new_rng(3), np.zeros(2, dtype=np.int64))


# A 5x5 position with every kind of move for black (98 in all): 14 singles,
# pairs of singles (those touching diagonally with no black corner are
# illegal), 11 pairs legal only together (e.g. c5 alone breaks c5/d4, its
# partner c4 or d5 supplies the corner) and the flip xd3 (between d2 and d4).
MIXED = "5/3X1/3O1/1X1X1/5"


def test_playout_first_action_is_uniform_over_the_legal_actions():
    """Every legal action is drawn with the same probability (chi-square
    against uniform, 30,000 draws; a wrong weight for pairs, rescued pairs or
    flips shows as a huge statistic)."""
    py, state = pos(MIXED, "black")
    legal = py.legal_actions()
    kinds = {("pair" if py.is_pair(a) else "flip" if a >= py.flip_action(0) else "single")
             for a in legal}
    assert kinds == {"single", "pair", "flip"}
    assert kernel_legal(state, 5) == legal
    counts = dict.fromkeys(legal, 0)
    record = np.zeros(5 * 5 * 64, dtype=np.int64)
    rng = new_rng(7)
    draws = 30_000
    for _ in range(draws):
        k.playout(state.copy(), rng, record)
        counts[int(record[0])] += 1  # KeyError if an illegal action was drawn
    expected = draws / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    df = len(legal) - 1
    assert chi2 < df + 6 * math.sqrt(2 * df), (chi2, df)


# ---------------------------------------------------------------- hand-built positions

FORCED_PASS = "XOXOO/XO2X/XX2O/XOOXO/OOOXX"       # black must pass (test_vimbre_rules)
FORCED_PASS_WHITE = "OXXOX/OO2X/XX2O/XXOXX/XOOOO"  # white must pass


@pytest.mark.parametrize(("board", "to_move"), [(FORCED_PASS, "black"),
                                                (FORCED_PASS_WHITE, "white")])
def test_forced_pass_and_the_flips_after_it(board, to_move):
    py, state = pos(board, to_move)
    pass_action = py.flip_action(0) + 25
    assert kernel_legal(state, 5) == [pass_action] == py.legal_actions()
    assert k.is_legal(state, pass_action)
    k.apply(state, pass_action)
    py.apply_action(pass_action)
    assert kernel_legal(state, 5) == py.legal_actions()
    assert len(py.legal_actions()) == 4 and not k.is_legal(state, pass_action)
    for seed in range(5):
        play_on(*pos(board, to_move), seed=seed, first=["pass"])


def test_a_pair_legal_only_together_is_listed_and_wins():
    """c2 and d2 are each illegal alone for black and rescue each other; the
    pair is black's only move, not pass, and joins rows 1 and 5."""
    py, state = pos("OXXOO/OOXXX/XOXOO/XO2X/OOOXX")
    action = py.string_to_action("c2,d2")
    assert kernel_legal(state, 5) == [action]
    assert not k.is_legal(state, py.string_to_action("pass"))
    assert not k.is_legal(state, py.string_to_action("c2"))
    assert play_on(py, state, 0).outcome.winner == "black"


def test_a_flip_wins():
    """White flips c3 (between b3 and d3), joining column a to column e."""
    py, state = pos("5/5/OOXOO/X3X/5", "white")
    assert k.is_legal(state, py.string_to_action("xc3"))
    finished = play_on(py, state, 0, first=["xc3"])
    assert finished.outcome.winner == "white" and len(finished.history) == 1


def test_a_pair_wins_when_only_one_of_its_stones_completes_the_chain():
    for board, to_move, move in [("O1X2/2X2/5/2X2/2X2", "black", "c3,e5"),
                                 ("X4/5/OOOO1/5/5", "white", "b1,e3"),
                                 ("X4/5/OOOO1/5/5", "white", "e3,b4")]:
        finished = play_on(*pos(board, to_move), seed=0, first=[move])
        assert finished.outcome.winner == to_move and len(finished.history) == 1


def test_flipped_stones_leave_the_losers_chain_and_the_game_goes_on():
    """Black's c3 (next to c4, c1 below) goes to white by a flip; black's
    groups without it, and any later chain through c3 once it is black again,
    must be found (the loser's union-find is rebuilt)."""
    for seed in range(30):
        play_on(*pos("5/2X2/1OXO1/5/2X2", "white"), seed=seed, first=["xc3"])


@pytest.mark.parametrize("board", [MIXED, FORCED_PASS, "5/1X1X1/2O2/1X1X1/5"])
def test_loaded_positions_play_on_like_the_python_engine(board):
    for seed in range(10):
        for to_move in ("black", "white"):
            play_on(*pos(board, to_move), seed=seed)


# ---------------------------------------------------------------- the contract's edges

def test_is_legal_takes_any_int64():
    state = fresh(5)
    nda = boardlab.game_class("vimbre").num_distinct_actions_for(5)
    for a in (-1, -(2 ** 62), nda, nda + 1, 2 ** 62, 2 ** 63 - 1, -(2 ** 63)):
        assert not k.is_legal(state, a)
    assert k.is_legal(state, 0) and not k.is_legal(state, 25)  # no pair on black's first turn


def test_finished_game_has_no_legal_actions():
    state = fresh(4)
    k.playout(state, new_rng(1), np.zeros(0, dtype=np.int64))
    assert kernel_legal(state, 4) == [] and k.current_player(state) == -1
    assert not any(k.is_legal(state, a) for a in range(-1, 2 * 16 + 120 + 2))


def test_bad_size_and_options_are_refused():
    with pytest.raises(ValueError, match="size outside 4..19"):
        k.init(np.zeros(k.state_len(20), dtype=np.int64), 20, np.zeros(0, dtype=np.int64))
    with pytest.raises(ValueError, match="shorter than state_len"):
        k.init(np.zeros(10, dtype=np.int64), 5, np.zeros(0, dtype=np.int64))
    with pytest.raises(OptionError, match="unknown option 'pie'"):
        k.encode_options({"pie": False})
    assert k.encode_options({}).shape == (0,)


A64 = types.int64[::1]
F64 = types.float64[::1]
FT = {
    "init": types.FunctionType(types.none(A64, types.int64, A64)),
    "legal_actions": types.FunctionType(types.int64(A64, A64)),
    "is_legal": types.FunctionType(types.boolean(A64, types.int64)),
    "apply": types.FunctionType(types.none(A64, types.int64)),
    "current_player": types.FunctionType(types.int64(A64)),
    "mid_turn": types.FunctionType(types.boolean(A64)),
    "outcome": types.FunctionType(types.UniTuple(types.int64, 2)(A64, F64)),
    "live_scores": types.FunctionType(types.boolean(A64, F64)),
    "playout": types.FunctionType(types.int64(A64, types.uint64[::1], A64)),
}


@njit(types.UniTuple(types.int64, 4)(
    FT["init"], FT["legal_actions"], FT["is_legal"], FT["apply"], FT["current_player"],
    FT["mid_turn"], FT["outcome"], FT["live_scores"], types.int64, A64, A64, F64))
def _drive(init, legal, is_legal, apply, player, mid_turn, outcome, live, size, state, buf,
           scores):
    """A fixed (not random) game through function-typed arguments, the way
    the batched API calls a kernel; returns (plies, winner, termination, ok)."""
    init(state, size, np.zeros(0, dtype=np.int64))
    plies = 0
    ok = 1
    while player(state) >= 0:
        m = legal(state, buf)
        a = buf[(plies * 7) % m]
        if not is_legal(state, a) or mid_turn(state) or live(state, scores):
            ok = 0
        apply(state, a)
        plies += 1
    w, t = outcome(state, scores)
    return plies, w, t, ok


@njit(types.int64(FT["init"], FT["playout"], types.int64, A64, types.uint64[::1], A64))
def _drive_playout(init, playout, size, state, rng, record):
    init(state, size, np.zeros(0, dtype=np.int64))
    return playout(state, rng, record)


def test_functions_work_as_first_class_function_arguments():
    """The batched API passes the kernel's functions as numba FunctionType
    arguments with the contract's exact signatures."""
    size = 5
    state = np.zeros(k.state_len(size), dtype=np.int64)
    buf = np.zeros(boardlab.game_class("vimbre").num_distinct_actions_for(size), dtype=np.int64)
    plies, w, t, ok = _drive(k.init, k.legal_actions, k.is_legal, k.apply, k.current_player,
                             k.mid_turn, k.outcome, k.live_scores, size, state, buf, np.zeros(2))
    assert ok == 1 and plies > 0 and w in (0, 1) and t == 0
    py = boardlab.new_game("vimbre", size)
    for i in range(plies):
        legal = py.legal_actions()
        py.apply_action(legal[(i * 7) % len(legal)])
    assert py.is_over and py.outcome.winner == py.colors[w]
    record = np.zeros(25 * 64, dtype=np.int64)
    n = _drive_playout(k.init, k.playout, size, state, new_rng(5), record)
    again = fresh(size)
    assert k.playout(again, new_rng(5), np.zeros(0, dtype=np.int64)) == n
    assert again.tolist() == state.tolist()
