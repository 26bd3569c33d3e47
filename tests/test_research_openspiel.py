"""The OpenSpiel adapter: registration, GameType/GameInfo, OpenSpiel's own checks, errors."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import boardlab  # noqa: E402
import boardlab.research.openspiel  # noqa: E402,F401  (registers the games)
from boardlab.errors import GameOverError, IllegalMoveError, OptionError  # noqa: E402
from boardlab.research import tensors  # noqa: E402


def load(name: str, **params) -> pyspiel.Game:
    return pyspiel.load_game(f"python_boardlab_{name}", params)


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    assert {f"python_boardlab_{g}" for g in boardlab.GAMES} <= names


@pytest.mark.parametrize("size", [None, 5])
def test_game_type_and_info_match_our_info(game_name, size):
    params = {} if size is None else {"size": size}
    game = load(game_name, **params)
    info = boardlab.game_class(game_name).info(size)
    gtype = game.get_type()
    assert gtype.short_name == f"python_boardlab_{game_name}"
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gtype.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2
    assert game.num_distinct_actions() == info.num_distinct_actions
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (
        info.min_utility, info.max_utility, info.utility_sum)
    bound = info.max_game_length or 10 * info.size ** 2 + 100
    assert game.max_game_length() == bound
    assert game.observation_tensor_shape() == [*tensors.observation_shape(game_name, info.size)]
    assert game.get_parameters()["size"] == info.size


def test_options_reach_the_game():
    assert "swap" not in _moves(load("robble", size=5, pie=False))
    assert "swap" in _moves(load("robble", size=5), after="c3")
    state = load("yugo", size=5, komi=3).new_initial_state()
    assert state.game.options == {"komi": 3}


def _moves(game, after: str | None = None) -> list[str]:
    state = game.new_initial_state()
    if after:
        state.apply_action(state.game.string_to_action(after))
    return [state.action_to_string(a) for a in state.legal_actions()]


@pytest.mark.parametrize("params", [{"size": 4}, {"size": 5}])
def test_random_simulation_test(game_name, params):
    game = load(game_name, **params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_random_simulation_test_with_options():
    pyspiel.random_sim_test(load("implo", size=4, pie=False), num_sims=3, serialize=True, verbose=False)
    pyspiel.random_sim_test(load("yugo", size=4, komi=-2), num_sims=3, serialize=True, verbose=False)


def test_openspiel_mcts_bot_plays_full_games(game_name):
    from open_spiel.python.algorithms import mcts
    game = load(game_name, size=4)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 1.4, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert state.returns() == state.game.returns()


def test_observations_come_from_boardlab_tensors(game_name):
    game = load(game_name, size=5)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            break
    for player in (0, 1):
        assert np.array_equal(np.array(state.observation_tensor(player)),
                              tensors.observe(state.game, player).reshape(-1))
        assert state.observation_string(player) == tensors.observation_string(state.game, player)
        assert state.observation_string(player).startswith(state.game.position())


@pytest.mark.parametrize(("name", "size", "params"), [
    ("implo", 4, {}), ("implo", 7, {"pie": False}), ("pilo", 4, {}), ("pilo", 7, {"pie": False}),
    ("robble", 4, {"pie": False}), ("robble", 7, {}), ("vimbre", 4, {}), ("vimbre", 7, {}),
    ("yugo", 4, {"komi": -3}), ("yugo", 7, {}),
])
def test_the_compiled_state_agrees_with_the_python_engine(name, size, params):
    """States step the compiled kernel: legal actions, player, returns and
    observations must be those of the Python engine replaying the same actions;
    clones and pickled copies must continue alike."""
    import pickle
    game = load(name, size=size, **params)
    rng = np.random.default_rng(size)
    for _ in range(2):
        state = game.new_initial_state()
        replay = boardlab.new_game(name, size, **params)
        while True:
            where = f"{name} {size} {params} ply {len(replay)}"
            assert state.is_terminal() == replay.is_over, where
            if replay.is_over:
                break
            assert state.current_player() == replay.current_player, where
            legal = replay.legal_actions()
            assert state.legal_actions() == legal, where
            # the Python-side answer and pyspiel's own C++ path (through _legal_actions)
            mover, other = replay.current_player, 1 - replay.current_player
            assert pyspiel.State.legal_actions(state) == legal, where
            assert state.legal_actions(mover) == pyspiel.State.legal_actions(state, mover) == legal, where
            assert state.legal_actions(other) == pyspiel.State.legal_actions(state, other) == [], where
            assert state.legal_actions_mask() == [int(a in set(legal)) for a in range(game.num_distinct_actions())], where
            player = int(rng.integers(2))
            np.testing.assert_array_equal(np.array(state.observation_tensor(player), np.float32),
                                          tensors.observe(replay, player).reshape(-1), err_msg=where)
            action = int(rng.choice(replay.legal_actions()))
            if len(replay) == 5:   # a clone and a pickled copy must go on like the original
                after = replay.copy()
                after.apply_action(action)
                for other in (state.clone(), pickle.loads(pickle.dumps(state))):
                    other.apply_action(action)
                    assert other.history() == after.action_history, where
                    assert other.legal_actions() == after.legal_actions(), where
                    assert other.game.position() == after.position(), where
            state.apply_action(action)
            replay.apply_action(action)
        assert state.returns() == replay.returns()
        assert state.game.position() == replay.position()


def test_clone_is_independent():
    state = load("robble", size=5).new_initial_state()
    state.apply_action(12)
    clone = state.clone()
    clone.apply_action(0)
    assert state.history() == [12] and clone.history() == [12, 0]
    assert str(state) != str(clone)


def test_the_information_state_is_the_history_and_the_planes(game_name):
    game = load(game_name, size=5)
    gtype = game.get_type()
    assert gtype.provides_information_state_string and gtype.provides_information_state_tensor
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(5):
        state.apply_action(int(rng.choice(state.legal_actions())))
        for player in (0, 1):
            assert state.information_state_string(player) == state.history_str()
            assert state.information_state_tensor(player) == state.observation_tensor(player)
            assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()


def test_undo_action_is_refused_with_the_reason_and_changes_nothing():
    state = load("robble", size=5).new_initial_state()
    state.apply_action(12)
    state.apply_action(3)
    with pytest.raises(pyspiel.SpielError, match="undo_action is not supported.*state.clone"):
        state.undo_action(1, 3)
    assert state.history() == [12, 3] and state.current_player() == 0
    assert state.game.history == ["c3", "d1"]


def test_komi_is_a_whole_number_and_the_error_says_why():
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter komi"):
        load("yugo", komi=6.5)  # OpenSpiel checks the parameter's type itself
    with pytest.raises(OptionError, match="komi' must be int, got 6.5 .*impossible"):
        boardlab.new_game("yugo", komi=6.5)  # boardlab's own message, everywhere else


def test_bad_parameters_are_refused_with_a_reason():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        load("robble", colour=1)
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter pie"):
        load("robble", pie=1)
    with pytest.raises(OptionError, match="robble: size 3 is outside 4..19"):
        load("robble", size=3)
    with pytest.raises(OptionError, match="max_game_length must be a positive integer"):
        load("pilo", max_game_length=-1)


def test_bad_actions_raise_our_errors_and_change_nothing():
    state = load("robble", size=5, pie=False).new_initial_state()
    state.apply_action(12)
    with pytest.raises(IllegalMoveError, match="c3 is occupied"):
        state.apply_action(12)
    with pytest.raises(IllegalMoveError, match=r"action must be an integer in 0..25"):
        state.apply_action(26)
    assert state.history() == [12] and state.current_player() == 1
    game = load("vimbre", size=4)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(GameOverError, match="the game is over"):
        state.apply_action(0)


def test_max_game_length_truncates_as_a_draw():
    game = load("robble", size=5, max_game_length=3)
    assert game.max_game_length() == 3
    state = game.new_initial_state()
    for action in (0, 1, 2):
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [0.0, 0.0] and state.legal_actions() == []
    assert pyspiel.State.legal_actions(state) == [] and state.legal_actions(0) == []
    with pytest.raises(GameOverError, match="truncated at max_game_length=3"):
        state.apply_action(3)


def test_the_mcts_comparison_example_runs(capsys):
    import runpy
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parent.parent / "examples" / "openspiel_mcts.py"
    argv = sys.argv
    sys.argv = [str(script), "vimbre", "--size", "4", "--simulations", "5", "--games", "2"]
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = argv
    out = capsys.readouterr().out
    assert "game   2:" in out and "vimbre 4x4, 5 simulations a move" in out and "Elo" in out
