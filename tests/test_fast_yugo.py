"""Yugo's compiled kernel (boardlab.fast._yugo) against the Python engine.

Three kinds of evidence: seeded random games compared at every ply by the
differential checker, compiled playouts replayed through the Python engine,
and the rules tests' hand-built positions (the subtle king, marking and
ending clauses) loaded into both engines and played on, ply by ply.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit, types

import boardlab
from boardlab import OptionError
from boardlab.fast import _yugo as k
from boardlab.fast._rng import new_rng
from boardlab.fast.check import check_many

# ------------------------------------------------------------------ random games, every ply

# (size, komi, games): every size class, komi zero, positive, negative and
# large enough to decide most games on its own; ~1,700 games in all.
DIFFERENTIAL = [
    (4, 0, 300), (4, -2, 100), (4, 3, 100),
    (5, 0, 300), (5, -1, 100), (5, 7, 100),
    (6, 0, 200), (6, -5, 100),
    (9, 0, 200), (9, 2, 60), (9, -40, 40), (9, 40, 40),
    (13, 0, 40), (13, -3, 20),
    (19, 0, 12), (19, 6, 6),
]


@pytest.mark.parametrize(("size", "komi", "games"), DIFFERENTIAL)
def test_random_games_agree_with_the_python_engine_at_every_ply(size, komi, games):
    seed = 1000 * size + 17 * komi
    played, plies = check_many("yugo", games, size, seed=seed, komi=komi)
    assert played == games and plies > games  # every game took plies


# ------------------------------------------------------------------ compiled playouts replayed


def fresh(size: int, komi: int = 0) -> np.ndarray:
    state = np.zeros(k.state_len(size), dtype=np.int64)
    k.init(state, size, k.encode_options({"komi": komi}))
    return state


def final(state: np.ndarray) -> tuple[int, list[float]]:
    scores = np.zeros(2, dtype=np.float64)
    winner, term = k.outcome(state, scores)
    assert k.TERMINATIONS[term] == "score"
    return winner, scores.tolist()


@pytest.mark.parametrize(("size", "komi"), [(4, 0), (5, -3), (7, 2), (9, 0), (12, 0), (19, -6)])
def test_playouts_replay_legally_through_the_python_engine(size, komi):
    length = boardlab.new_game("yugo", size).info().max_game_length
    for seed in range(6 if size < 12 else 2):
        state = fresh(size, komi)
        record = np.zeros(length, dtype=np.int64)
        plies = k.playout(state, new_rng(seed), record)
        assert k.current_player(state) == -1 and k.legal_actions(state, record[:0].copy()) == 0
        game = boardlab.new_game("yugo", size, komi=komi)
        for action in record[:plies].tolist():
            game.apply_action(action)   # IllegalMoveError if the kernel played a wrong move
        assert game.is_over
        winner, scores = final(state)
        assert scores == [game.outcome.scores["black"], game.outcome.scores["white"]]
        assert winner == ("black", "white").index(game.winner)


def test_playouts_are_deterministic_and_do_not_need_a_record():
    a, b, c = fresh(9), fresh(9), fresh(9)
    record = np.zeros(5000, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    n_a = k.playout(a, new_rng(42), record)
    n_b = k.playout(b, new_rng(42), empty)
    k.playout(c, new_rng(43), empty)
    assert n_a == n_b and np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_playout_uniform_over_the_legal_actions_of_a_ply():
    # From a position with a king point, a few pawns and the button/pass slot, the first
    # action of many playouts hits each legal action about equally often.
    game = boardlab.from_position("yugo 4 4/2x1/oxo1/x3 black komi=0 button=white")
    legal = game.legal_actions()
    start = k.from_game(game)
    counts = dict.fromkeys(legal, 0)
    record = np.zeros(4000, dtype=np.int64)
    rng = new_rng(7)
    trials = 4000
    for _ in range(trials):
        state = start.copy()
        k.playout(state, rng, record)
        counts[int(record[0])] += 1
    expect = trials / len(legal)
    # 5 standard deviations of a binomial count: fails only on a real bias
    sd = (trials * (1 / len(legal)) * (1 - 1 / len(legal))) ** 0.5
    assert all(abs(c - expect) < 5 * sd for c in counts.values()), counts


def test_a_record_shorter_than_the_game_raises():
    with pytest.raises(ValueError, match="longer than the record"):
        k.playout(fresh(5), new_rng(1), np.zeros(3, dtype=np.int64))


# ------------------------------------------------------------------ hand-built positions


def agree(game: boardlab.Game, state: np.ndarray, where: str) -> None:
    """Both engines show the same ply: player, legal actions, legality of every
    action (and of out-of-range ones), live scores; and at the end the outcome."""
    n_actions = game.num_distinct_actions
    buf = np.zeros(n_actions, dtype=np.int64)
    want = game.current_player
    assert k.current_player(state) == (-1 if want is None else want), where
    n = k.legal_actions(state, buf)
    assert buf[:n].tolist() == game.legal_actions(), where
    legal = set(game.legal_actions())
    for a in (-1, -(2 ** 62), n_actions, n_actions + 7, 2 ** 62, *range(n_actions)):
        assert bool(k.is_legal(state, a)) == (a in legal), f"{where}: is_legal({a})"
    assert not k.mid_turn(state)
    if want is None:
        winner, scores = final(state)
        assert scores == [game.outcome.scores["black"], game.outcome.scores["white"]], where
        assert winner == ("black", "white").index(game.winner), where
    else:
        live = np.zeros(2, dtype=np.float64)
        assert k.live_scores(state, live)
        py = game._live_scores()
        assert live.tolist() == [py["black"], py["white"]], where


def play_both(game: boardlab.Game, moves: list[str], seed: int = 0) -> boardlab.Game:
    """Play ``moves`` in both engines from the game's position (loaded into the
    kernel), then random moves to the end, comparing every ply."""
    state = k.from_game(game)
    agree(game, state, "start")
    rng = random.Random(seed)
    ply = 0
    while ply < len(moves) or not game.is_over:
        if ply < len(moves):
            action = game.string_to_action(moves[ply])
        else:
            action = rng.choice(game.legal_actions())
        where = f"after {moves[:ply + 1]} (+ random, ply {ply})"
        assert k.is_legal(state, action), where
        game.apply_action(action)
        k.apply(state, action)
        agree(game, state, where)
        ply += 1
    return game


def pos(board: str, to_move: str = "black", **fields: object) -> boardlab.Game:
    size = fields.pop("size", 5)
    values = {"komi": 0, "button": "-", "passes": 0, "phase": "play", "marks": "-",
              "rejected": "no", **fields}
    extra = " ".join(f"{key}={value}" for key, value in values.items())
    return boardlab.from_position(f"yugo {size} {board} {to_move} {extra}")


# The positions of tests/test_yugo_rules.py, each with the moves that test plays.
HAND_BUILT = {
    "suicide": (pos("5/5/5/o4/1o3"), []),
    "pawn fills an own group's last liberty keeping another": (pos("5/5/o4/xo3/1x3"), ["a1"]),
    "merging into a group with a liberty": (pos("5/5/5/o4/xxo2"), ["b2"]),
    "king removes pawns, not kings": (pos("5/5/5/x4/Oox2"), ["kb2", "e5", "kb1"]),
    "enemy removal first frees the own group": (pos("5/5/xx3/oox2/1xo2"), ["ka1"]),
    "own surrounded group loses its pawns": (pos("5/5/xo3/Oxo2/1xo2"), ["ka1", "b2"]),
    "surrounded king-only group stays": (pos("5/5/5/x4/Ox3", button="black"), ["e5", "pass"]),
    "one king surrounds two groups": (pos("5/5/x4/ox3/1ox2"), ["ka1"]),
    "own pawn removal splits the king's group": (pos("5/5/5/ooox1/Xx1Ox"), ["kc1", "kb1"]),
    "a capture frees another own group": (pos("5/5/ox3/xo3/5"), ["ka4"]),
    "white takes the button, black passes first":
        (boardlab.new_game("yugo", 5), ["c3", "button", "pass", "pass", "done", "accept"]),
    "mark, done, accept":
        (pos("4o/2X2/2x2/5/o4", "white", button="black", phase="mark"),
         ["mark c3", "done", "accept"]),
    "reject, then the next double pass ends":
        (pos("4o/2X2/2x2/5/o4", "white", button="black", phase="mark"),
         ["mark c3", "done", "reject", "pass", "pass"]),
    "after a reject play goes on":
        (pos("4o/2X2/2x2/5/o4", "white", button="black", phase="mark"),
         ["done", "reject", "b2", "pass", "pass"]),
    "marking own and surrounded king-only groups":
        (pos("5/5/5/x3o/Ox3", button="black", phase="mark"),
         ["mark a1", "mark a2", "mark e2", "done", "accept"]),
    "mid-proposal position with marks":
        (pos("5/5/5/x3o/Ox3", "black", button="black", phase="mark", marks="a1,b1"),
         ["mark e2", "done", "reject"]),
    "answer phase": (pos("5/5/5/x3o/Ox3", "white", button="black", phase="answer",
                         marks="a2"), ["accept"]),
    "territory touching nobody": (boardlab.new_game("yugo", 5, komi=3),
                                  ["button", "pass", "pass", "done", "accept"]),
    "scoring board, komi -2": (pos("1x1o1/xx1oo/5/x3o/Ox1oX", "-", button="black",
                                   rejected="yes", komi=-2), []),
    "scoring board, white's button": (pos("1x1o1/xx1oo/5/x3o/Ox1oX", "-", button="white",
                                          rejected="yes", komi=3), []),
    "pass pending, white to move": (pos("5/5/2x2/5/5", "white", button="black", passes=1), []),
    "11x11 with a k column": (pos("11/11/11/11/11/11/11/11/11/11/11", size=11),
                              ["k4", "button", "j4", "pass"]),
}


@pytest.mark.parametrize("name", list(HAND_BUILT))
def test_hand_built_positions_then_random_play_agree(name):
    game, moves = HAND_BUILT[name]
    for seed in range(3):
        play_both(game.copy(), moves, seed)


def test_a_king_capture_from_the_empty_board_by_moves():
    # black a2, white a1 (last liberty b1), black kb1 removes it; the kernel from init
    game = boardlab.new_game("yugo", 5)
    state = fresh(5)
    for move in ["a2", "a1", "kb1", "button", "a1", "pass", "pass", "mark a1", "done", "reject"]:
        action = game.string_to_action(move)
        assert k.is_legal(state, action), move
        game.apply_action(action)
        k.apply(state, action)
        agree(game, state, move)
    assert game.position().split()[2] == "5/5/5/x4/xX3"


# ------------------------------------------------------------------ the contract's edges


def test_first_class_function_signatures():
    """The batched API passes the kernel functions as numba FunctionType
    arguments with these exact signatures: a compiled driver taking them plays
    the same game as the direct calls."""
    st, vec, fvec = types.int64[::1], types.int64[::1], types.float64[::1]
    sigs = (types.void(st, types.int64, vec), types.int64(st, vec), types.boolean(st, types.int64),
            types.void(st, types.int64), types.int64(st), types.boolean(st),
            types.UniTuple(types.int64, 2)(st, fvec), types.boolean(st, fvec),
            types.int64(st, types.uint64[::1], vec))
    ft = [types.FunctionType(s) for s in sigs]

    @njit(types.UniTuple(types.int64, 3)(*ft, st, vec, vec, fvec, types.int64, types.uint64[::1]))
    def drive(init, legal, is_legal, apply, player, mid, outcome, live, playout,
              state, opts, buf, scores, size, rng):
        init(state, size, opts)
        ply = 0
        while player(state) >= 0:
            n = legal(state, buf)
            a = buf[(ply * 7) % n]
            if not is_legal(state, a) or mid(state) or not live(state, scores):
                return -1, -1, -1
            apply(state, a)
            ply += 1
        winner, _ = outcome(state, scores)
        init(state, size, opts)
        return ply, winner, playout(state, rng, buf[:0])

    size = 5
    opts = k.encode_options({"komi": 0})
    buf = np.zeros(3 * 25 + 5, dtype=np.int64)
    got = drive(k.init, k.legal_actions, k.is_legal, k.apply, k.current_player, k.mid_turn,
                k.outcome, k.live_scores, k.playout, fresh(size), opts, buf,
                np.zeros(2, dtype=np.float64), size, new_rng(3))
    # the same with direct calls
    state = fresh(size)
    ply = 0
    while k.current_player(state) >= 0:
        n = k.legal_actions(state, buf)
        k.apply(state, int(buf[(ply * 7) % n]))
        ply += 1
    winner, _ = final(state)
    assert got == (ply, winner, k.playout(fresh(size), new_rng(3), buf[:0]))


def test_bad_sizes_options_and_states_are_refused():
    with pytest.raises(OptionError, match="size 3 is outside"):
        k.state_len(3)
    with pytest.raises(OptionError, match="komi"):
        k.encode_options({"komi": 1.5})
    with pytest.raises(OptionError, match=r"komi.*-1000\.\.1000"):  # the game's own range
        k.encode_options({"komi": 2 ** 70})
    with pytest.raises(OptionError, match="unknown option"):
        k.encode_options({"pie": True})
    opts = k.encode_options({})
    with pytest.raises(ValueError, match="size must be 4..19"):
        k.init(np.zeros(k.state_len(19), dtype=np.int64), 20, opts)
    with pytest.raises(ValueError, match="shorter than state_len"):
        k.init(np.zeros(k.state_len(9) - 1, dtype=np.int64), 9, opts)
    with pytest.raises(OptionError, match="needs a yugo game"):
        k.from_game(boardlab.new_game("robble"))


def test_state_layout_is_flat_and_copyable():
    for size in (4, 9, 19):
        state = fresh(size)
        assert state.shape == (k.state_len(size),) and state[0] == size
        copy = state.copy()
        k.playout(copy, new_rng(size), np.zeros(0, dtype=np.int64))
        assert np.array_equal(state, fresh(size))     # the original is untouched
        assert k.current_player(copy) == -1


def test_packed_liberty_sums_stay_exact_at_the_largest_board():
    """A group's pseudo-liberties (count, sum, sum of squares) share one word:
    at 19x19 (points below 441) even 1,444 of them, the most a group can have,
    decode exactly, and "one liberty" is told from several."""
    from boardlab.fast._yugo import _M_CNT, _M_S1, _S1, _S2, _lib, _single
    rng = np.random.default_rng(3)
    for n, points in [(1444, [440]), (1444, [439, 440]), (1, [22]), (7, [100, 101, 300])]:
        libs = rng.choice(points, n)
        libs[: len(points)] = points  # every point present
        packed = sum(int(_lib(int(y))) for y in libs)
        assert packed & _M_CNT == n
        assert (packed >> _S1) & _M_S1 == int(libs.sum())
        assert packed >> _S2 == int((libs * libs).sum())
        assert bool(_single(packed)) == (len(points) == 1)
        # taking them away again, one by one, leaves nothing
        for y in libs:
            packed -= int(_lib(int(y)))
        assert packed == 0
