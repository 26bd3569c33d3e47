"""One conformance suite over every game and several sizes.

These properties hold for any correct game of the library, so every game is
held to them: random games end; every listed move plays; strings not listed
are refused with the game unchanged; undo restores exactly; copies are
independent; pickling round-trips; string and integer APIs agree; an outcome
exists iff the game is over; positions round-trip through their text.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab import GameOverError, IllegalMoveError, Termination
from conftest import PLY_CAP, SIZES

CASES = [(name, size) for name in boardlab.GAMES for size in SIZES[name]]
CASE_IDS = [f"{name}-{size}" for name, size in CASES]

# Random games per (game, size) for the cheap checks; the expensive ones use fewer.
MANY = {"vimbre": 60}
MANY_DEFAULT = 300
FEW = 12


def state(game: boardlab.Game) -> tuple:
    """Everything observable about a game, for exact comparisons."""
    return (game.position(), game.to_move, game.legal_actions(), game.history,
            game.is_over, game.outcome)


def test_registry_lists_the_five_games():
    assert boardlab.GAMES == ("implo", "pilo", "robble", "vimbre", "yugo")
    for name in boardlab.GAMES:
        game = boardlab.new_game(name)
        assert game.name == name
        assert game.size == boardlab.game_class(name).default_size


@pytest.mark.rules("common-1")
def test_default_sizes_follow_rules_md():
    defaults = {name: boardlab.new_game(name).size for name in boardlab.GAMES}
    assert defaults == {"implo": 9, "yugo": 9, "pilo": 8, "robble": 7, "vimbre": 11}


@pytest.mark.rules("common-1")
@pytest.mark.parametrize("name", boardlab.GAMES)
def test_bad_creation_arguments_raise_value_errors_naming_the_problem(name):
    with pytest.raises(ValueError, match="outside 4..19"):
        boardlab.new_game(name, size=3)
    with pytest.raises(ValueError, match="outside 4..19"):
        boardlab.new_game(name, size=20)
    with pytest.raises(ValueError, match="size must be an integer"):
        boardlab.new_game(name, size="9")
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        boardlab.new_game(name, colour=True)
    with pytest.raises(boardlab.OptionError, match="unknown game"):
        boardlab.new_game(name + "x")


def test_options_are_checked_by_type():
    assert boardlab.new_game("yugo", komi=5).options == {"komi": 5}
    with pytest.raises(ValueError, match="option 'komi' must be int"):
        boardlab.new_game("yugo", komi=5.5)
    with pytest.raises(ValueError, match="option 'pie' must be bool"):
        boardlab.new_game("robble", pie=1)
    for name in ("implo", "pilo", "robble"):
        assert boardlab.new_game(name).options == {"pie": True}
        assert boardlab.new_game(name, pie=False).options == {"pie": False}
    with pytest.raises(ValueError, match="unknown option 'pie'"):
        boardlab.new_game("vimbre", pie=True)


@pytest.mark.parametrize("name,size", CASES, ids=CASE_IDS)
def test_static_metadata_is_consistent(name, size):
    cls = boardlab.game_class(name)
    info = cls.info(size)
    game = boardlab.new_game(name, size)
    assert info.num_distinct_actions == game.num_distinct_actions
    assert info.colors == game.colors and len(set(info.colors)) == 2
    assert (info.min_utility, info.max_utility, info.utility_sum) == (-1.0, 1.0, 0.0)
    # every action has a distinct canonical string that parses back to it
    n = info.num_distinct_actions
    sample = range(n) if n <= 5000 else random.Random(size).sample(range(n), 5000)
    seen = {}
    for action in sample:
        text = game.action_to_string(action)
        assert text == text.strip().lower() and " " not in text.replace("mark ", "")
        assert game.string_to_action(text) == action
        assert text not in seen, f"{text!r} names both {seen.get(text)} and {action}"
        seen[text] = action
    for bad in (-1, n, 1.5, "3", True):
        with pytest.raises(IllegalMoveError):
            game.action_to_string(bad)


@pytest.mark.rules("common-5")
@pytest.mark.parametrize("name,size", CASES, ids=CASE_IDS)
def test_random_games_end_and_apis_agree(name, size):
    """Many random games: every ply the string and integer views agree, the
    mask matches, outcome exists iff over; every game ends."""
    rng = random.Random(f"{name}{size}")
    lengths = []
    for _ in range(MANY.get(name, MANY_DEFAULT)):
        game = boardlab.new_game(name, size)
        for ply in range(PLY_CAP):  # noqa: B007 - the count is used after the loop
            actions = game.legal_actions()
            moves = game.legal_moves()
            assert moves == [game.action_to_string(a) for a in actions]
            assert actions == sorted(set(actions)), "legal actions must be ascending and unique"
            assert (game.to_move is None) == game.is_over == (not actions) == (game.outcome is not None)
            if not actions:
                break
            assert game.to_move in game.colors
            action = rng.choice(actions)
            assert game.string_to_action(game.action_to_string(action)) == action
            game.apply_action(action)
        else:
            pytest.fail(f"random game did not end in {PLY_CAP} plies: {game.position()}")
        lengths.append(ply)
        out = game.outcome
        assert out.winner in game.colors + ("draw",)
        assert isinstance(out.termination, Termination)
        assert out.termination not in (Termination.RESIGNATION, Termination.TIMEOUT)
        assert game.winner == out.winner and game.scores == out.scores
        assert game.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
        # the outcome's own views agree with the returns, color by color
        assert out.is_draw == (game.returns() == [0.0, 0.0])
        assert [out.result_for(c) for c in game.colors] == [(r + 1) / 2 for r in game.returns()]
        assert game.legal_moves() == [] and game.legal_actions() == []
        mask = game.legal_action_mask()
        assert len(mask) == game.num_distinct_actions and not any(mask)
    assert max(lengths) > 0


@pytest.mark.parametrize("name,size", CASES, ids=CASE_IDS)
def test_every_ply_undo_copy_pickle_position_and_refusals(name, size):
    """Fewer games, every ply: undo is exact, copies are independent, pickles
    and positions round-trip, and unlisted moves are refused untouched."""
    rng = random.Random(f"deep{name}{size}")
    for _ in range(FEW):
        game = boardlab.new_game(name, size)
        start = state(game)
        played = []
        while not game.is_over:
            before = state(game)
            legal = game.legal_actions()
            mask = game.legal_action_mask()
            assert [a for a, bit in enumerate(mask) if bit] == legal
            check_refusals(game, rng, before)
            check_position_round_trip(game)
            if rng.random() < 0.2:
                check_copy_and_pickle(game, rng)
                check_light_copy(game, rng)
            move = rng.choice(game.legal_moves())
            typed = rng.choice([move, move.upper(), f"  {move} \t"])
            game.play(typed)
            played.append(move)
            assert game.history == played
            after = state(game)
            assert game.undo() == move
            assert state(game) == before, "undo did not restore the position exactly"
            game.play(move)
            assert state(game) == after, "replaying after undo reached another state"
        check_position_round_trip(game)
        check_after_the_end(game)
        # undo everything back to the start
        while game.history:
            game.undo()
        assert state(game) == start
        with pytest.raises(boardlab.UndoError):
            game.undo()
        # and replaying reaches the same end
        for move in played:
            game.play(move)
        assert game.is_over


@pytest.mark.parametrize("name,size", CASES, ids=CASE_IDS)
def test_search_fast_path_matches_the_checked_api(name, size):
    """step / step_with_undo / step_back / step_actions (what search uses)
    reach exactly the states apply_action and undo reach, at every ply."""
    rng = random.Random(f"step{name}{size}")
    for _ in range(FEW):
        checked = boardlab.new_game(name, size)
        fast = checked.copy(history=False)
        while not checked.is_over:
            assert fast.step_actions() == checked.legal_actions()
            cells = fast.cells()
            assert len(cells) == checked.n_points
            assert boardlab.from_position(checked.position()).cells() == cells
            action = rng.choice(checked.legal_actions())
            before = fast.position()
            token = fast.step_with_undo(action)
            after = fast.position()
            fast.step_back(token)
            assert fast.position() == before and fast.step_actions() == checked.legal_actions()
            checked.apply_action(action)
            fast.step(action)
            assert fast.position() == checked.position() == after
            assert fast.current_player == checked.current_player
            assert fast.outcome == checked.outcome and fast.returns() == checked.returns()
        assert fast.step_actions() == [] and fast.history == []


@pytest.mark.rules("common-6")
@pytest.mark.parametrize("name,size", CASES, ids=CASE_IDS)
def test_swap_action(name, size):
    game = boardlab.new_game(name, size)
    if name in ("vimbre", "yugo"):
        assert game.swap_action is None
        return
    assert game.action_to_string(game.swap_action) == "swap"
    assert game.swap_action not in game.legal_actions()  # only after the first stone
    game.apply_action(game.legal_actions()[0])
    assert game.swap_action in game.legal_actions()


def test_cells_are_the_position_tokens():
    game = boardlab.new_game("robble", 4)
    for move in ("a1", "b2"):
        game.play(move)
    cells = game.cells()
    assert len(cells) == 16 and cells[0] is not None and cells[5] is not None
    assert sum(c is not None for c in cells) == 2
    assert game.from_position(game.position()).cells() == cells


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_position_fields_are_the_position_text_fields(name):
    """Displays read fields and cells from the game, never by splitting
    position text: both must be exactly what the text holds, every ply."""
    rng = random.Random(7)
    game = boardlab.new_game(name, 5)
    while True:
        parts = game.position().split()
        assert game.position_fields() == dict(p.split("=", 1) for p in parts[4:])
        assert list(game.position_fields())[:len(game.options)] == list(game.options)
        assert " ".join(f"{k}={v}" for k, v in game.position_fields().items()) == " ".join(parts[4:])
        if game.is_over:
            break
        game.apply_action(rng.choice(game.legal_actions()))


def check_refusals(game, rng, before):
    legal = set(game.legal_actions())
    n = game.num_distinct_actions
    # the fast legality test (a game may override it) agrees with the legal list
    sample = range(n) if n <= 3000 else [rng.randrange(n) for _ in range(300)] + sorted(legal)
    assert all(game.is_legal_action(a) == (a in legal) for a in sample)
    illegal = [a for a in (rng.randrange(n) for _ in range(8)) if a not in legal]
    for action in illegal:
        with pytest.raises(IllegalMoveError) as exc:
            game.apply_action(action)
        assert isinstance(exc.value.reason, str) and len(exc.value.reason) > 5
        with pytest.raises(IllegalMoveError):
            game.play(game.action_to_string(action))
    for junk in ("", "zz99", "a0", "a01", "@", "-", "pass pass", "c3-", "xx", "k", "mark",
                 "t1", "a1,a1", "swap!", "\x00", "é5", 42, None):
        if isinstance(junk, str) and junk.strip().lower() in game.legal_moves():
            continue
        with pytest.raises(IllegalMoveError):
            game.play(junk)
    for junk in (-1, n, 2.0, "1", None, True):
        with pytest.raises(IllegalMoveError):
            game.apply_action(junk)
    assert state(game) == before, "a refused move changed the game"


def check_position_round_trip(game):
    text = game.position()
    if game.outcome is not None and game.outcome.termination is Termination.REPETITION:
        return  # repetition history is not part of a position (docs/positions.md)
    copy = boardlab.from_position(text)
    assert copy.position() == text
    assert copy.legal_actions() == game.legal_actions()
    assert copy.to_move == game.to_move
    assert copy.options == game.options
    if game.is_over:
        assert copy.outcome == game.outcome


def check_copy_and_pickle(game, rng):
    before = state(game)
    twin = game.copy()
    pickled = pickle.loads(pickle.dumps(game))
    assert state(twin) == before and state(pickled) == before
    # moving on the copy leaves the original alone, and both continue alike
    move = rng.choice(game.legal_moves())
    twin.play(move)
    pickled.play(move)
    assert state(game) == before
    assert state(twin) == state(pickled)
    twin.undo()
    assert state(twin) == before


def check_light_copy(game, rng):
    """copy(history=False): same position and moves, fresh history, independent."""
    before = state(game)
    light = game.copy(history=False)
    assert light.history == [] and light.position() == game.position()
    assert light.legal_actions() == game.legal_actions() and light.outcome == game.outcome
    with pytest.raises(boardlab.UndoError):
        light.undo()
    if not light.is_over:
        move = rng.choice(light.legal_moves())
        light.play(move)
        full = game.copy()
        full.play(move)
        assert light.position() == full.position()
        assert light.legal_actions() == full.legal_actions()
        assert light.undo() == move and light.position() == game.position()
    assert state(game) == before


def check_after_the_end(game):
    before = state(game)
    assert game.to_move is None and game.outcome is not None
    for move in ("a1", "pass", "swap"):
        with pytest.raises(GameOverError, match="the game is over"):
            game.play(move)
    with pytest.raises(GameOverError):
        game.apply_action(0)
    assert state(game) == before


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(boardlab.GAMES), size=st.integers(4, 7), data=st.data())
def test_hypothesis_random_prefix_then_full_undo(name, size, data):
    """Any random prefix of moves, undone move by move, retraces the same states."""
    game = boardlab.new_game(name, size)
    states = [state(game)]
    steps = data.draw(st.integers(0, 60))
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        game.apply_action(data.draw(st.sampled_from(legal)))
        states.append(state(game))
    for expected in reversed(states[:-1]):
        game.undo()
        assert state(game) == expected
