"""The compiled Pilo kernel (boardlab.fast._pilo) against the Python engine.

The Python engine (boardlab.games.pilo) is the reference; its own rules tests
(test_pilo_rules.py) pin it to the rules. Here the kernel must agree with it:
on seeded random games at every size class and option (the differential
checker), on its own compiled playouts replayed through the engine, and on
hand-built positions for the clauses random games rarely reach (tie-breaks,
cancelling groups, unowned patches, forced passes, the swap).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit, types

import boardlab
from boardlab import OptionError, Termination
from boardlab.fast import _pilo as k
from boardlab.fast._rng import new_rng
from boardlab.fast.check import check_many
from boardlab.games.pilo import Pilo

# ---------------------------------------------------------------- helpers


def python_winner(game) -> int:
    out = game.outcome
    return 2 if out.winner == "draw" else game.colors.index(out.winner)


def kernel_outcome(state) -> tuple[int, str, list[float]]:
    scores = np.zeros(2, dtype=np.float64)
    winner, term = k.outcome(state, scores)
    return winner, k.TERMINATIONS[term], scores.tolist()


def assert_same_from_here(game, moves) -> np.ndarray:
    """Start the kernel from ``game``'s position and play ``moves`` in both;
    at every ply every action's legality, the legal list, the color to move
    and the live scores must agree, and at the end the outcome."""
    state = k.from_game(game)
    n_actions = game.num_distinct_actions
    buf = np.zeros(n_actions, dtype=np.int64)
    live = np.zeros(2, dtype=np.float64)
    for move in [*moves, None]:
        want = game.current_player
        assert k.current_player(state) == (-1 if want is None else want), game.history
        n = k.legal_actions(state, buf)
        assert buf[:n].tolist() == game.legal_actions(), game.history
        for a in range(-2, n_actions + 2):
            assert bool(k.is_legal(state, a)) == game.is_legal_action(a), (a, game.history)
        if want is not None:
            assert k.live_scores(state, live)
            py_live = game._live_scores()
            assert live.tolist() == [py_live[c] for c in game.colors], game.history
        if move is None:
            break
        action = game.string_to_action(move)
        k.apply(state, action)
        game.apply_action(action)
    assert game.is_over and k.current_player(state) == -1
    out = game.outcome
    assert kernel_outcome(state) == (
        python_winner(game), out.termination.value, [out.scores[c] for c in game.colors])
    return state


def setup(text: str):
    game = boardlab.from_position(text)
    assert isinstance(game, Pilo)
    return game


# ---------------------------------------------------------------- contract


def test_state_layout_and_options():
    for size in (4, 8, 19):
        state = np.zeros(k.state_len(size), dtype=np.int64)
        k.init(state, size, k.encode_options({}))
        assert state[0] == size and state.flags.c_contiguous
        twin = state.copy()
        k.apply(twin, 0)
        assert k.current_player(state) == 0 and k.current_player(twin) == 1
    assert k.encode_options({}).tolist() == [1]
    assert k.encode_options({"pie": False}).tolist() == [0]
    with pytest.raises(OptionError, match="must be bool"):
        k.encode_options({"pie": 1})
    with pytest.raises(OptionError, match="unknown option"):
        k.encode_options({"komi": 1})
    with pytest.raises(ValueError, match="size must be 4..19"):
        k.init(np.zeros(k.state_len(19) + 100, dtype=np.int64), 20, k.encode_options({}))
    with pytest.raises(ValueError, match="shorter than state_len"):
        k.init(np.zeros(k.state_len(8) - 1, dtype=np.int64), 8, k.encode_options({}))
    assert k.HAS_SCORES and k.TERMINATIONS == (Termination.SCORE.value,
                                               Termination.LAST_MOVE.value)


def test_is_legal_takes_any_int64():
    game = boardlab.new_game("pilo", 5)
    state = k.from_game(game)
    n_actions = game.num_distinct_actions
    for a in (-(2**63), -1, n_actions, n_actions + 1, 2**62, 2**63 - 1):
        assert not k.is_legal(state, a)
    # off-board stack moves, an own stack that has nowhere to go, a finished game
    game.play("a1")
    game.play("b1")
    state = k.from_game(game)
    west = game.string_to_action("a1-west1")
    assert not k.is_legal(state, west)
    assert k.is_legal(state, game.string_to_action("a1-b1"))
    done = setup("pilo 4 b##o/####/####/#### - pie=no swap=no last=orange")
    state = k.from_game(done)
    assert not any(k.is_legal(state, a) for a in range(-1, done.num_distinct_actions + 1))
    assert k.legal_actions(state, np.zeros(done.num_distinct_actions, np.int64)) == 0


def test_compiles_for_first_class_function_signatures():
    """The batched API passes the kernel functions as numba.types.FunctionType
    arguments with exactly these signatures."""
    s, f, u, i64 = types.int64[::1], types.float64[::1], types.uint64[::1], types.int64
    sigs = [
        types.void(s, i64, s), types.int64(s, s), types.boolean(s, i64), types.void(s, i64),
        types.int64(s), types.boolean(s), types.UniTuple(i64, 2)(s, f),
        types.boolean(s, f), types.int64(s, u, s),
    ]

    def drive(init, legal, is_legal, apply, player, mid, outcome, live, playout,
              size, opts, rng, state, other, out, scores):
        init(state, size, opts)
        plies = 0
        while player(state) >= 0:
            n = legal(state, out)
            if not is_legal(state, out[n - 1]) or mid(state) or not live(state, scores):
                return -1, -1, -1, -1
            apply(state, out[n - 1])  # the highest legal action: a capture whenever one exists
            plies += 1
        winner, term = outcome(state, scores)
        init(other, size, opts)
        return plies, winner, term, playout(other, rng, np.zeros(0, np.int64))

    arg_types = [types.FunctionType(sig) for sig in sigs] + [i64, s, u, s, s, s, f]
    typed = njit(types.UniTuple(i64, 4)(*arg_types))(drive)
    size = 6
    fns = (k.init, k.legal_actions, k.is_legal, k.apply, k.current_player, k.mid_turn,
           k.outcome, k.live_scores, k.playout)
    plies, winner, term, p2 = typed(
        *fns, size, k.encode_options({}), new_rng(5), np.zeros(k.state_len(size), np.int64),
        np.zeros(k.state_len(size), np.int64),
        np.zeros(Pilo.num_distinct_actions_for(size), np.int64), np.zeros(2))
    # the same "highest legal action" game in the Python engine
    game = boardlab.new_game("pilo", size)
    while not game.is_over:
        game.apply_action(game.legal_actions()[-1])
    assert (plies, winner, k.TERMINATIONS[term]) == (
        len(game.history), python_winner(game), game.outcome.termination.value)
    assert 0 < p2 <= Pilo.max_game_length_for(size)


# ---------------------------------------------------------------- random games

# (size, pie, games): 821 games; every size class of the brief, both options
DIFFERENTIAL = [
    (4, True, 150), (4, False, 150), (5, True, 100), (5, False, 100), (6, True, 80),
    (6, False, 60), (8, True, 80), (8, False, 50), (11, True, 30), (11, False, 15),
    (19, True, 4), (19, False, 2),
]


@pytest.mark.parametrize("size,pie,games", DIFFERENTIAL)
def test_random_games_agree_with_python(size, pie, games):
    n, plies = check_many("pilo", games, size, seed=1000 * size + pie, pie=pie)
    assert n == games and plies >= games * size * size  # every square gets filled


@pytest.mark.parametrize("size,seeds", [(4, 40), (7, 20), (8, 20), (13, 5), (19, 2)])
def test_playouts_replay_through_python(size, seeds):
    """Compiled playouts are legal games: the recorded actions replay in the
    Python engine to the same end; and ``apply`` on the same actions gives the
    same final state as the playout's own fast path."""
    length = Pilo.max_game_length_for(size)
    for seed in range(seeds):
        pie = seed % 3 != 0
        state = np.zeros(k.state_len(size), dtype=np.int64)
        k.init(state, size, k.encode_options({"pie": pie}))
        stepped = state.copy()
        record = np.full(length, -1, dtype=np.int64)
        plies = k.playout(state, new_rng(seed), record)
        assert 0 < plies <= length and (record[plies:] == -1).all()
        game = boardlab.new_game("pilo", size, pie=pie)
        for a in record[:plies].tolist():
            game.apply_action(a)  # raises IllegalMoveError on an illegal action
            k.apply(stepped, a)
        assert game.is_over
        assert (stepped == state).all()
        out = game.outcome
        assert kernel_outcome(state) == (
            python_winner(game), out.termination.value, [out.scores[c] for c in game.colors])


def test_playout_record_too_short_raises():
    state = np.zeros(k.state_len(5), dtype=np.int64)
    k.init(state, 5, k.encode_options({}))
    with pytest.raises(ValueError, match="longer than record"):
        k.playout(state, new_rng(1), np.zeros(10, dtype=np.int64))


def test_playouts_are_deterministic_and_seed_dependent():
    def run(seed):
        state = np.zeros(k.state_len(8), dtype=np.int64)
        k.init(state, 8, k.encode_options({}))
        record = np.zeros(Pilo.max_game_length_for(8), dtype=np.int64)
        plies = k.playout(state, new_rng(seed), record)
        return record[:plies].tolist()

    assert run(3) == run(3)
    assert run(3) != run(4)


def first_actions(playout, state, rng, draws: int) -> dict[int, int]:
    """How often each action is the first of ``draws`` playouts from ``state``."""
    record = np.zeros(Pilo.max_game_length_for(int(state[0])), dtype=np.int64)
    counts: dict[int, int] = {}
    for _ in range(draws):
        playout(state.copy(), rng, record)
        counts[int(record[0])] = counts.get(int(record[0]), 0) + 1
    return counts


def test_playout_choice_is_uniform_over_the_legal_actions():
    """First action of playouts from one position: placements, captures on
    different lines and the swap must all be drawn equally often."""
    # blue b2 with orange all around: orange takes it from a2, c2, d2 (over c2),
    # b3 and b1, on row 2 and column b; 10 empty squares
    position = setup("pilo 4 4/1o2/oboo/1o2 orange pie=no swap=no passes=0 last=blue")
    legal = position.legal_actions()
    assert len(legal) == 15 and len([a for a in legal if a >= 16]) == 5
    draws = 9000
    rng = new_rng(11)
    counts = first_actions(k.playout, k.from_game(position), rng, draws)
    assert sorted(counts) == legal  # nothing illegal drawn, every legal action drawn
    expected = draws / len(legal)
    assert all(abs(c - expected) < 0.2 * expected for c in counts.values()), counts  # 5 sigma
    # with the swap open: 15 placements + swap, uniformly
    game = boardlab.new_game("pilo", 4)
    game.play("b2")
    counts = first_actions(k.playout, k.from_game(game), rng, 6400)
    assert sorted(counts) == game.legal_actions()
    assert all(abs(c - 400) < 100 for c in counts.values()), counts  # 5 sigma


def test_informed_playout_takes_a_capture_whenever_there_is_one():
    """pilo's ``POLICY_PLAYOUT`` (the kernel's playout with captures first):
    where the mover has captures its first action is one of them, each about
    equally often; with none, it draws the placements uniformly, as the
    kernel's playout does; the swap keeps its uniform share."""
    from boardlab.games.pilo.search import POLICY_PLAYOUT

    position = setup("pilo 4 4/1o2/oboo/1o2 orange pie=no swap=no passes=0 last=blue")
    captures = [a for a in position.legal_actions() if a >= 16]
    rng = new_rng(5)
    counts = first_actions(POLICY_PLAYOUT, k.from_game(position), rng, 2500)
    assert sorted(counts) == captures
    assert all(abs(c - 500) < 120 for c in counts.values()), counts  # 6 sigma
    game = boardlab.new_game("pilo", 4)
    game.play("b2")  # no capture for orange: 15 placements and the swap
    counts = first_actions(POLICY_PLAYOUT, k.from_game(game), rng, 6400)
    assert sorted(counts) == game.legal_actions()
    assert all(abs(c - 400) < 100 for c in counts.values()), counts  # 5 sigma


# ---------------------------------------------------------------- hand-built positions

BOARDS = {
    # blue a4-b4 captures, then both pass: 1-1, blue made the last board play and loses
    "tie_after_capture": ("pilo 4 bo#o/####/####/#### blue pie=no swap=no passes=0 last=orange",
                          ["a4-b4", "pass", "pass"], (1, "last-move", [1.0, 1.0])),
    "tie_after_capture_orange": (
        "pilo 4 ob#b/####/####/#### orange pie=no swap=no passes=0 last=blue",
        ["a4-b4", "pass", "pass"], (0, "last-move", [1.0, 1.0])),
    # the last placement counts as the last board play: 2-2, blue placed last
    "tie_after_placement": ("pilo 4 b1#o/###o/####/#### blue pie=no swap=no passes=0 last=orange",
                            ["b4", "pass", "pass"], (1, "last-move", [2.0, 2.0])),
    # 0-0: the one patch's groups pair off; blue placed last and loses
    "tie_at_zero": ("pilo 4 o(2)1##/####/####/#### blue pie=no swap=no passes=0 last=orange",
                    ["b4", "pass", "pass"], (1, "last-move", [0.0, 0.0])),
    # equal 3-groups cancel, orange's single is left: orange owns all 7 squares
    "pairs_cancel": ("pilo 4 oo##/#o##/b(2)b(2)o#/b### blue pie=no swap=no passes=0 last=orange",
                     ["pass", "pass"], (1, "score", [0.0, 7.0])),
    # a patch with nothing left over is nobody's; d1 alone is blue's
    "unowned_patch": ("pilo 4 bb(2)##/o(2)o##/####/###b blue pie=no swap=no passes=0 last=orange",
                      ["pass", "pass"], (0, "score", [1.0, 0.0])),
    # size counts squares, not disks: orange's two squares beat blue's 3-disk stack
    "squares_not_disks": ("pilo 4 b(3)oo#/####/####/#### blue pie=no swap=no passes=0 last=orange",
                          ["pass", "pass"], (1, "score", [0.0, 3.0])),
    # forced pass, a capture over a friendly taller stack, then two passes
    "forced_pass": ("pilo 4 bo(2)o#/####/####/#### blue pie=no swap=no passes=0 last=orange",
                    ["pass", "c4-a4", "pass", "pass"], (1, "score", [0.0, 2.0])),
    # several patches of one color add up (2 + 2 > 3)
    "patches_add_up": ("pilo 4 bb#o/###o/bb#o/#### blue pie=no swap=no passes=0 last=orange",
                       ["pass", "pass"], (0, "score", [4.0, 3.0])),
}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_hand_built_positions(name):
    text, moves, want = BOARDS[name]
    state = assert_same_from_here(setup(text), moves)
    assert kernel_outcome(state) == want


def random_finish(game, seed: int) -> list[str]:
    """A uniform random continuation to the end, chosen by the Python engine."""
    rng = random.Random(seed)
    twin = game.copy()
    moves = []
    while not twin.is_over:
        move = rng.choice(twin.legal_moves())
        twin.play(move)
        moves.append(move)
    return moves


def test_stack_moves_in_every_direction_and_over_friends():
    """a1 reaches e1 over its own b1 (3) and c1 (2) and a3 going north; c3
    captures east, north and west but not south (it jumps its own c1 and runs
    off the board); the taller stacks meet enemies of another height."""
    text = "pilo 5 ##o1#/5/o1b1o/5/bb(3)b(2)1o blue pie=no swap=no passes=0 last=orange"
    game = setup(text)
    moves = [m for m in game.legal_moves() if "-" in m]
    assert moves == ["a1-e1", "a1-a3", "c3-e3", "c3-c5", "c3-a3"]
    for i, move in enumerate(moves):
        twin = setup(text)
        twin.play(move)
        assert_same_from_here(twin.copy(), random_finish(twin, i))


def test_swap_game_with_tie_break_by_color():
    """After a4 and swap the board is unchanged and orange moves again; the
    game ends 6-6 and orange, which made the last board play, loses."""
    placements = ["c4", "b4", "b3", "a3", "c3", "d4", "c2", "d3",
                  "d2", "a2", "a1", "b2", "c1", "b1", "d1"]
    captures = ["d4-c4", "c3-d3", "b2-b3", "a1-b1"]
    game = boardlab.new_game("pilo", 4)
    state = assert_same_from_here(game, ["a4", "swap", *placements, *captures, "pass", "pass"])
    assert kernel_outcome(state) == (0, "last-move", [6.0, 6.0])
    plain = boardlab.new_game("pilo", 4, pie=False)
    state = assert_same_from_here(plain, ["a4", *placements, *captures, "pass", "pass"])
    assert kernel_outcome(state) == (0, "last-move", [6.0, 6.0])


def test_live_scores_with_empty_squares():
    # one 23-square patch: the blue single pairs with an orange one, the other is left
    game = setup("pilo 5 ##3/5/o(2)4/5/b(2)3o blue pie=no swap=no passes=0 last=orange")
    state = k.from_game(game)
    live = np.zeros(2)
    assert k.live_scores(state, live) and live.tolist() == [0.0, 23.0]
    empty = k.from_game(boardlab.new_game("pilo", 6))
    assert k.live_scores(empty, live) and live.tolist() == [0.0, 0.0]
