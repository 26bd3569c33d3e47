"""The compiled Implo kernel (boardlab.fast._implo) against the Python engine.

Three kinds of evidence: seeded random games compared ply by ply by
boardlab.fast.check at every size class and pie setting; playout() games
replayed through the Python engine (and its pick checked to be uniform over
the legal actions of a ply); and hand-built positions for the clauses random
games rarely reach (tied groups, merging patches, the STONES and LAST_MOVE
tie-breaks, the pie rule), where both engines play the same moves from the
same position text and must agree at every ply.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit, types

import boardlab
from boardlab.fast import _implo as k
from boardlab.fast._rng import new_rng
from boardlab.fast.check import check_many
from boardlab.games.implo import Implo

# (size, pie, games, first seed): 550 games; sizes 4, 5, 6, default 9, 11 (the
# largest board whose territories are grown on the 128-bit board), odd 13, 19
DIFFERENTIAL = [
    (4, True, 70, 0), (4, False, 40, 100),
    (5, True, 70, 0), (5, False, 40, 100),
    (6, True, 60, 0), (6, False, 30, 100),
    (9, True, 80, 0), (9, False, 40, 100),
    (11, True, 30, 0),
    (13, True, 30, 0), (13, False, 20, 100),
    (19, True, 25, 0), (19, False, 15, 100),
]


@pytest.mark.parametrize("size,pie,games,seed", DIFFERENTIAL)
def test_random_games_agree_with_the_python_engine_at_every_ply(size, pie, games, seed):
    played, plies = check_many("implo", games, size, seed, pie=pie)
    assert played == games and plies >= games * size  # every game ran to its end


def test_differential_set_is_at_least_500_games():
    assert sum(g for _, _, g, _ in DIFFERENTIAL) >= 500


# ---------------------------------------------------------------- helpers
def fresh(size: int, pie: bool = True) -> np.ndarray:
    state = np.zeros(k.state_len(size), dtype=np.int64)
    k.init(state, size, k.encode_options({"pie": pie}))
    return state


def legal(state: np.ndarray, size: int) -> list[int]:
    out = np.zeros(Implo.num_distinct_actions_for(size), dtype=np.int64)
    return out[:k.legal_actions(state, out)].tolist()


def assert_same(state: np.ndarray, py: Implo, where: str) -> None:
    """Everything the contract exposes, compared with the Python engine."""
    cp = py.current_player
    assert k.current_player(state) == (-1 if cp is None else cp), where
    assert legal(state, py.size) == py.legal_actions(), where
    if cp is None:
        scores = np.zeros(2)
        winner, term = k.outcome(state, scores)
        out = py.outcome
        assert (winner, k.TERMINATIONS[term]) == (py.colors.index(out.winner),
                                                  out.termination.value), where
        assert scores.tolist() == [out.scores[c] for c in py.colors], where
        return
    assert bool(k.mid_turn(state)) == py.is_mid_turn, where
    live = np.zeros(2)
    assert k.live_scores(state, live)
    want = py._live_scores()
    assert live.tolist() == [want[c] for c in py.colors], where


def play_both(py: Implo, moves: list[str]) -> tuple[np.ndarray, Implo]:
    """Load py's position into the kernel, then play ``moves`` in both,
    comparing before the first move and after each one."""
    state = k.from_game(py)
    assert_same(state, py, "loaded position")
    for i, move in enumerate(moves):
        action = py.string_to_action(move)
        assert k.is_legal(state, action), f"{move} (move {i})"
        k.apply(state, action)
        py.play(move)
        assert_same(state, py, f"after {moves[:i + 1]}")
    return state, py


def setup(diagram: str, to_move: str = "black", pie: bool = False, **fields: str) -> Implo:
    """A Python game from a diagram written top row first ('.' empty)."""
    rows = [line.split() for line in diagram.strip().splitlines() if line.strip()]
    text = []
    for row in rows:
        out, run = "", 0
        for token in row:
            if token == ".":
                run += 1
                continue
            out += (str(run) if run else "") + token
            run = 0
        text.append(out + (str(run) if run else ""))
    extra = "".join(f" {key}={value}" for key, value in fields.items())
    game = boardlab.from_position(f"implo {len(rows)} {'/'.join(text)} {to_move} "
                                  f"pie={'yes' if pie else 'no'}{extra}")
    assert isinstance(game, Implo)
    return game


# ---------------------------------------------------------------- playout()
@pytest.mark.parametrize("size,seed,pie", [
    (4, 1, True), (4, 2, False), (5, 3, True), (6, 4, False),
    (9, 5, True), (9, 6, False), (13, 7, True), (19, 8, True),
])
def test_playout_games_replay_legally_through_the_python_engine(size, seed, pie):
    state = fresh(size, pie)
    stepped = state.copy()
    record = np.zeros(Implo.max_game_length_for(size), dtype=np.int64)
    plies = k.playout(state, new_rng(seed), record)
    assert k.current_player(state) == -1
    py = boardlab.new_game("implo", size, pie=pie)
    for action in record[:plies].tolist():
        assert k.is_legal(stepped, action)
        py.apply_action(action)  # raises IllegalMoveError on an illegal action
        k.apply(stepped, action)
    assert py.is_over
    assert np.array_equal(state, stepped)  # playout() is apply() of what it recorded
    assert_same(state, py, f"end of playout seed {seed}")


def test_playout_from_a_mid_turn_position_and_without_a_record():
    py = boardlab.new_game("implo", 7)
    rng = np.random.default_rng(3)
    while not py.is_mid_turn:  # random play until a resolution is pending
        py.apply_action(int(rng.choice(py.legal_actions())))
    state = k.from_game(py)
    again = state.copy()
    record = np.zeros(Implo.max_game_length_for(7), dtype=np.int64)
    plies = k.playout(state, new_rng(11), record)
    assert k.playout(again, new_rng(11), np.zeros(0, dtype=np.int64)) == plies
    assert np.array_equal(state, again)  # deterministic for (state, rng)
    for action in record[:plies].tolist():
        py.apply_action(action)
    assert_same(state, py, "end of playout from mid-turn")


def test_playout_refuses_a_record_too_short_for_the_game():
    with pytest.raises(ValueError, match="longer than record"):
        k.playout(fresh(5), new_rng(1), np.zeros(3, dtype=np.int64))


def first_action_counts(state: np.ndarray, trials: int) -> dict[int, int]:
    record = np.zeros(Implo.max_game_length_for(int(state[0])), dtype=np.int64)
    rng = new_rng(2026)
    counts: dict[int, int] = {}
    for _ in range(trials):
        k.playout(state.copy(), rng, record)
        counts[int(record[0])] = counts.get(int(record[0]), 0) + 1
    return counts


@pytest.mark.parametrize("case", ["start", "swap", "weighted patches"])
def test_playout_picks_uniformly_among_the_legal_actions_of_a_ply(case):
    if case == "start":
        state = fresh(4)
    elif case == "swap":  # white's first turn: 24 placements and swap
        py = boardlab.new_game("implo", 5)
        py.play("c3")
        state = k.from_game(py)
    else:
        # mid-turn, white resolving: @a5 (no stone touches it) and c1, owned by
        # black's tied b1-b2 / d1-d2, so three actions: a pick per patch would
        # give @a5 one half instead of one third
        py = setup("""
            . x . . .
            x . . . .
            . . . . .
            . X O X .
            . X . X .""", to_move="white")
        assert py.legal_moves() == ["@a5", "@c1/b1", "@c1/d1"]
        state = k.from_game(py)
    actions = legal(state, int(state[0]))
    trials = 300 * len(actions)
    counts = first_action_counts(state, trials)
    assert set(counts) == set(actions)
    expected = trials / len(actions)
    for action in actions:  # 5 standard deviations
        assert abs(counts[action] - expected) < 5 * math.sqrt(expected), (action, counts)


# ---------------------------------------------------------------- hand-built positions
def test_tied_biggest_groups_each_choice_removes_the_named_group():
    diagram = """
        . . . . .
        . . . . .
        . . . . .
        . X . X .
        . X . X ."""
    for choice in ("@c1/b1", "@c1/d1"):
        state, py = play_both(setup(diagram, to_move="white"), ["c2", choice, "e5"])
        assert py.cells()[1 if choice == "@c1/d1" else 3] == "X"


def test_tie_rule_owner_is_the_movers_opponent_and_names_the_removed_group():
    diagram = """
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        . X . X ."""
    py = setup(diagram, to_move="white")
    state, _ = play_both(py.copy(), ["c2"])
    n = 25
    assert not k.is_legal(state, n + 2)  # @c1 is not the legal form here
    assert not k.is_legal(state, 2 * n + 2 * n + 2)  # @c1/c1: c1 is no group
    play_both(py, ["c2", "@c1/d1"])


def test_resolution_creates_a_patch_touching_no_stone():
    play_both(setup("""
        . . . . .
        . . . . .
        x . . . .
        X x . . .
        X . . . .""", to_move="white"), ["c1", "@b1", "@a1", "e5"])


def test_removal_merges_a_pending_patch_into_a_new_patch_judged_afresh():
    py = setup("""
        . . . . .
        . . . . .
        . O . . .
        O X O . .
        . X . O .""", to_move="white")
    play_both(py, ["@c1", "@a1/c2"])


@pytest.mark.parametrize("first", ["@a1", "@c1"])
def test_removal_merges_a_pending_patch_into_a_big_territory(first):
    py = setup("""
        . . . . .
        . . . . .
        . . . . .
        X X X X X
        . . . . .""", to_move="white")
    state, py = play_both(py, ["b1", first])
    assert k.current_player(state) == 0 and not k.mid_turn(state)


def test_resolving_one_patch_leaves_another_pending():
    play_both(setup("""
        . . . . .
        . . . . .
        . . . . .
        X X . X X
        . . . . .""", to_move="white"), ["c2", "e5", "c1", "@d1", "@a1"])


def test_four_points_are_a_patch_five_are_not():
    py = setup("""
        . . . . .
        . . . . .
        . . . . .
        X X X X .
        . . . . .""", to_move="white")
    play_both(py, ["e2", "a1", "@b1"])


def test_game_ends_at_the_end_of_a_turn_decided_by_score():
    state, py = play_both(setup("""
        O X O X
        x o x x
        o o x .
        . . . .""", to_move="black"), ["d2", "@a1", "@d2"])
    assert k.legal_actions(state, np.zeros(1000, dtype=np.int64)) == 0
    assert not any(k.is_legal(state, a) for a in range(Implo.num_distinct_actions_for(4)))


@pytest.mark.parametrize("a4,termination", [("O", "last-move"), ("X", "stones")])
def test_stones_and_last_move_tie_breaks_reached_by_play(a4, termination):
    state, py = play_both(setup(f"""
        {a4} X o o
        X O o X
        O X x .
        . . . .""", to_move="black"), ["d2", "@a1", "@d2"])
    _, term = k.outcome(state, np.zeros(2))
    assert term >= 0 and k.TERMINATIONS[term] == termination  # (-1, -1): still playing


@pytest.mark.parametrize("diagram,last,winner,termination", [
    ("x O o O\nO X O X\nX O X O\nO X O X", "white", 1, "stones"),
    ("x O o X\nO X X O\nX O O X\nO X X O", "black", 1, "last-move"),
    ("x O o X\nO X X O\nX O O X\nO X X O", "white", 0, "last-move"),
])
def test_finished_positions_tie_breaks(diagram, last, winner, termination):
    state, _ = play_both(setup(diagram, to_move="-", last=last), [])
    scores = np.zeros(2)
    got = k.outcome(state, scores)
    assert (got[0], k.TERMINATIONS[got[1]], scores.tolist()) == (winner, termination, [0.0, 0.0])


def test_swap_only_on_whites_first_action_and_white_keeps_the_move():
    swap = Implo.num_distinct_actions_for(5) - 1
    py = boardlab.new_game("implo", 5)
    state = k.from_game(py)
    assert not k.is_legal(state, swap)
    state, _ = play_both(py, ["c3", "swap", "d4", "b2"])
    assert not k.is_legal(state, swap)
    py = boardlab.new_game("implo", 5)
    play_both(py, ["c3", "b2", "a1"])  # a placement closes the pie too
    off = boardlab.new_game("implo", 5, pie=False)
    state, _ = play_both(off, ["c3"])
    assert not k.is_legal(state, swap)


def test_swap_gone_when_whites_first_placement_creates_a_patch():
    py = boardlab.new_game("implo", 4)
    state, py = play_both(py, ["b1", "a2"])
    assert k.mid_turn(state) and not k.is_legal(state, Implo.num_distinct_actions_for(4) - 1)
    play_both(py, py.legal_moves()[:1])


def test_is_legal_refuses_any_int64_outside_the_legal_set():
    py = setup("""
        . x . . .
        x . . . .
        . . . . .
        . X O X .
        . X . X .""", to_move="white")
    states = [(k.from_game(py), py)]
    start = boardlab.new_game("implo", 5)
    start.play("c3")
    states.append((k.from_game(start), start))
    junk = [-2**63, -1, 2**63 - 1, 10**12, Implo.num_distinct_actions_for(5)]
    for state, game in states:
        for a in junk + list(range(Implo.num_distinct_actions_for(5))):
            assert bool(k.is_legal(state, a)) == game.is_legal_action(a), a


def test_from_game_refuses_another_game():
    with pytest.raises(ValueError, match="needs an Implo game"):
        k.from_game(boardlab.new_game("robble"))


def test_state_len_and_options_are_checked():
    with pytest.raises(ValueError, match="outside"):
        k.state_len(3)
    with pytest.raises(ValueError, match="unknown option"):
        k.encode_options({"komi": 1})
    assert k.encode_options({}).tolist() == [1] and k.encode_options({"pie": False}).tolist() == [0]
    with pytest.raises(ValueError, match="shorter than state_len"):
        k.init(np.zeros(10, dtype=np.int64), 5, k.encode_options({}))


# ---------------------------------------------------------------- first-class functions
_S = types.int64[::1]
_SIGS = {
    "init": types.none(_S, types.int64, _S),
    "legal_actions": types.int64(_S, _S),
    "is_legal": types.boolean(_S, types.int64),
    "apply": types.none(_S, types.int64),
    "current_player": types.int64(_S),
    "mid_turn": types.boolean(_S),
    "outcome": types.UniTuple(types.int64, 2)(_S, types.float64[::1]),
    "live_scores": types.boolean(_S, types.float64[::1]),
    "playout": types.int64(_S, types.uint64[::1], _S),
}


def test_every_function_has_its_first_class_signature():
    for name, sig in _SIGS.items():
        assert sig.args in getattr(k, name).signatures, name


@njit(types.int64(types.FunctionType(_SIGS["init"]), types.FunctionType(_SIGS["playout"]),
                  types.FunctionType(_SIGS["current_player"]), _S, _S, types.uint64[::1], _S))
def _playout_through_function_types(init, playout, current_player, state, opts, rng, record):
    init(state, state[0], opts)
    plies = playout(state, rng, record)
    return plies * 10 + current_player(state) + 1  # current player is -1 at the end


def test_kernel_runs_through_numba_function_types():
    state = fresh(5)
    got = _playout_through_function_types(k.init, k.playout, k.current_player, state,
                                          k.encode_options({}), new_rng(4), np.zeros(0, np.int64))
    plies = k.playout(fresh(5), new_rng(4), np.zeros(0, np.int64))
    assert got == plies * 10


@pytest.mark.parametrize("seed", range(6))
def test_random_continuations_from_a_position_with_nine_pending_patches(seed):
    """More patches pending at once than play can create (a placement makes at
    most four): every cell of the kernel's per-patch storage is exercised."""
    py = setup("""
        . X . X .
        X O X O X
        . X . X .
        X O X O X
        . X . X .""", to_move="white")
    assert len(py.legal_actions()) >= 9
    rng = np.random.default_rng(seed)
    state = k.from_game(py)
    ply = 0
    while not py.is_over:
        assert_same(state, py, f"seed {seed} ply {ply}")
        action = int(rng.choice(py.legal_actions()))
        k.apply(state, action)
        py.apply_action(action)
        ply += 1
    assert_same(state, py, f"seed {seed} end")
