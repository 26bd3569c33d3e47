"""Robble's compiled kernel against the Python engine (boardlab.games.robble)."""

from __future__ import annotations

import numpy as np
import pytest

import boardlab
from boardlab.fast import _robble as k
from boardlab.fast import check, random_game
from boardlab.fast._rng import new_rng

# (size, games) per pie setting: 2 x 297 = 594 seeded differential games (sizes up
# to 8 are counted on bitboards, 9 and 19 cell by cell).
DIFFERENTIAL = [(4, 100), (5, 70), (6, 50), (7, 40), (8, 20), (9, 15), (19, 2)]


@pytest.mark.parametrize("pie", [True, False], ids=["pie", "nopie"])
@pytest.mark.parametrize(("size", "games"), DIFFERENTIAL, ids=[str(s) for s, _ in DIFFERENTIAL])
def test_differential(size: int, games: int, pie: bool) -> None:
    n, plies = check.check_many("robble", games, size, seed=1000 * size, pie=pie)
    assert n == games and plies >= games * size * size  # every game fills the board at least once


def _fresh(size: int, pie: bool = True) -> np.ndarray:
    state = np.zeros(k.state_len(size), dtype=np.int64)
    k.init(state, size, k.encode_options({"pie": pie}))
    return state


def _replay_both(size: int, actions: list[int], pie: bool) -> boardlab.Game:
    """Apply the actions in both engines, comparing at every ply; the Python game."""
    state = _fresh(size, pie)
    py = boardlab.new_game("robble", size, pie=pie)
    buf = np.zeros(py.num_distinct_actions, dtype=np.int64)
    for a in actions:
        n = k.legal_actions(state, buf)
        assert buf[:n].tolist() == py.legal_actions()
        assert k.current_player(state) == py.current_player
        k.apply(state, a)
        py.apply_action(a)
    assert k.legal_actions(state, buf) == 0 and py.is_over and k.current_player(state) == -1
    scores = np.zeros(2)
    winner, term = k.outcome(state, scores)
    out = py.outcome
    assert k.TERMINATIONS[term] == out.termination.value
    assert winner == (2 if out.is_draw else py.colors.index(out.winner))
    if out.scores is None:
        assert np.isnan(scores).all()
    else:
        assert scores.tolist() == [out.scores["black"], out.scores["white"]]
    return py


def test_hand_built_repetition_is_a_draw_on_the_third_recording() -> None:
    moves = "c4 c3 a2 b2 b3 c3 b3 b2 b3".split()
    py = boardlab.new_game("robble", 4, pie=False)
    actions = [py.string_to_action(m) for m in moves]
    state = _fresh(4, pie=False)
    for a in actions[:-1]:
        k.apply(state, a)
    assert k.current_player(state) == 0  # one ply before: black still to play
    game = _replay_both(4, actions, pie=False)
    assert game.outcome.termination.value == "repetition"


def test_a_partial_copy_keeps_the_history_a_repetition_needs() -> None:
    """copy_state skips the history's unused capacity only: a copy into junk
    taken at any ply of the hand-built repetition still ends in the draw."""
    py = boardlab.new_game("robble", 4, pie=False)
    actions = [py.string_to_action(m) for m in "c4 c3 a2 b2 b3 c3 b3 b2 b3".split()]
    junk = np.random.default_rng(0)
    for cut in range(len(actions)):
        state = _fresh(4, pie=False)
        for a in actions[:cut]:
            k.apply(state, a)
        copy = junk.integers(-2**40, 2**40, len(state)).astype(np.int64)
        k.copy_state(copy, state)
        for a in actions[cut:]:
            k.apply(copy, a)
        assert k.outcome(copy, np.zeros(2)) == (2, k.TERMINATIONS.index("repetition"))


def test_swap_records_no_position() -> None:
    # With the pie rule, a swap after c4 is inserted: the same placements still
    # repeat on the same ply count of placements, and the game ends as without it.
    py = boardlab.new_game("robble", 4, pie=True)
    moves = "c4 swap c3 a2 b2 b3 c3 b3 b2 b3".split()
    game = _replay_both(4, [py.string_to_action(m) for m in moves], pie=True)
    assert game.outcome.termination.value == "repetition"


def test_hash_collision_cannot_end_the_game() -> None:
    """Forge two history entries with the hash of the next position: the
    replay check must see the boards differ and play on."""
    size, n2 = 5, 25
    state = _fresh(size, pie=False)
    for a in (0, 24, 12):
        k.apply(state, a)
    after = state.copy()
    k.apply(after, 6)
    h = after[k._HASH]
    hist = k._HDR + 3 * n2 + k._FILTER_WORDS
    npos = state[k._NPOS]  # the next recording is position 4, black to move
    forged = state.copy()
    forged[hist + 0] = h
    forged[hist + 2] = h  # same mover parity as position 4
    filt = k._HDR + 3 * n2
    forged[filt:filt + k._FILTER_WORDS] = -1  # every filter bit set
    assert npos == 4
    k.apply(forged, 6)
    assert k.current_player(forged) == 0  # still playing: no false draw
    np.testing.assert_array_equal(forged[k._HDR:k._HDR + n2], after[k._HDR:k._HDR + n2])


def test_random_repetition_draws_match_the_python_engine() -> None:
    """Compiled random games at 4x4 that end in a draw replay identically."""
    draws = 0
    for seed in range(4000):
        actions, returns = random_game("robble", 4, seed=seed)
        if returns == (0.0, 0.0):
            draws += 1
            game = _replay_both(4, actions, pie=True)
            assert game.outcome.termination.value == "repetition"
    assert draws >= 3


def test_every_ending_kind_replays() -> None:
    seen = set()
    for seed in range(600):
        actions, returns = random_game("robble", 4, seed=seed, pie=False)
        game = _replay_both(4, actions, pie=False)
        assert tuple(game.returns()) == returns
        seen.add(game.outcome.termination.value)
    assert {"score", "last-move"} <= seen


@pytest.mark.parametrize("size", [4, 7, 19])
def test_playout_record_replays(size: int) -> None:
    state = _fresh(size)
    record = np.zeros(20 * size * size + 64, dtype=np.int64)
    plies = k.playout(state, new_rng(size), record)
    other = _fresh(size)
    for a in record[:plies]:
        assert k.is_legal(other, a)
        k.apply(other, a)
    np.testing.assert_array_equal(state, other)
    assert k.current_player(state) == -1
    _replay_both(size, record[:plies].tolist(), pie=True)


def test_playout_refuses_a_short_record() -> None:
    with pytest.raises(IndexError, match="longer than the record"):
        k.playout(_fresh(5), new_rng(1), np.zeros(3, dtype=np.int64))


def test_history_overflow_raises_instead_of_forgetting() -> None:
    state = _fresh(7, pie=False)
    state[k._CAP] = 3  # room for three positions: the start and two placements
    k.apply(state, 0)
    k.apply(state, 48)
    with pytest.raises(OverflowError, match="position history"):
        k.apply(state, 24)


def test_is_legal_any_int() -> None:
    state = _fresh(5)
    assert not k.is_legal(state, -1) and not k.is_legal(state, 26) and not k.is_legal(state, 25)
    k.apply(state, 12)
    assert k.is_legal(state, 25) and not k.is_legal(state, 12)


def test_check_command(capsys) -> None:
    assert check.main(["robble", "--games", "3", "--sizes", "4,default"]) == 0
    out = capsys.readouterr().out
    assert "robble   size  4: 3 games" in out and "robble   size  7: 3 games" in out


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_the_bitboard_count_is_the_rules_count(size: int) -> None:
    """Groups counted on bitboards, paired and compared, as the rules'
    grid helpers do, on 500 random boards a size (empty points, long snakes
    along the edges and stones on the last column included)."""
    from boardlab.core import grid
    rng = np.random.default_rng(size)
    n2 = size * size
    for trial in range(500):
        density = rng.choice([0.3, 0.6, 1.0])
        cells = [int(c) for c in rng.choice(3, n2, p=[1 - density, density / 2, density / 2])]
        if trial < 4:  # a column or row of one color along each edge
            cells = [1 + (p % size == (0 if trial % 2 else size - 1)) if trial < 2
                     else 1 + (p // size == (0 if trial % 2 else size - 1)) for p in range(n2)]
        black = sum(1 << p for p, c in enumerate(cells) if c == 1)
        white = sum(1 << p for p, c in enumerate(cells) if c == 2)
        want = grid.largest_majority_sizes(*grid.group_size_counts(cells, (1, 2), size))
        got = k.bb_leftover_biggest(np.uint64(black), np.uint64(white), size)
        assert tuple(got) == want, (size, cells)
