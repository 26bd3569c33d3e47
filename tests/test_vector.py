"""boardlab.research.vector.VectorEnv against the Python engines: random legal stepping of
every game at two sizes, replayed action by action in Python games, must give
the same legal masks, rewards, terminations and observation planes
(boardlab.research.tensors); autoreset, truncation, seeding and bad input."""

from __future__ import annotations

import numpy as np
import pytest

import boardlab
from boardlab.errors import BoardlabError, IllegalMoveError, OptionError
from boardlab.research import tensors
from boardlab.research.vector import VectorEnv

pytest.importorskip("numba")

# (game, size, options): two sizes per game, options varied where the game has them
CASES = [
    ("implo", 4, {}), ("implo", 6, {"pie": False}),
    ("pilo", 4, {"pie": False}), ("pilo", 6, {}),
    ("robble", 4, {}), ("robble", 6, {"pie": False}),
    ("vimbre", 4, {}), ("vimbre", 6, {}),
    ("yugo", 4, {"komi": 3}), ("yugo", 6, {}),
]
ENVS = 6
STEPS = 160


def mask_of(game: boardlab.Game) -> np.ndarray:
    mask = np.zeros(game.num_distinct_actions, bool)
    mask[game.legal_actions()] = True
    return mask


def expect_same(env_obs: dict, info: dict, games: list, i: int, where: str) -> None:
    game = games[i]
    np.testing.assert_array_equal(env_obs["action_mask"][i], mask_of(game), err_msg=f"mask, {where}")
    assert info["current_player"][i] == game.current_player, where
    np.testing.assert_array_equal(env_obs["observation"][i], tensors.observe(game),
                                  err_msg=f"planes, {where}")


@pytest.mark.parametrize(("name", "size", "options"), CASES)
def test_random_stepping_agrees_with_the_python_engine(name: str, size: int, options: dict) -> None:
    env = VectorEnv(name, ENVS, size, **options)
    obs, info = env.reset(seed=size)
    games = [boardlab.new_game(name, size, **options) for _ in range(ENVS)]
    for i in range(ENVS):
        expect_same(obs, info, games, i, "after reset")
    ended = 0
    for step in range(STEPS):
        actions = env.random_actions()
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i in range(ENVS):
            game = games[i]
            where = f"{name} size {size} {options} env {i} step {step} (seed {size})"
            game.apply_action(int(actions[i]))
            assert terminated[i] == game.is_over, where
            if game.is_over:
                np.testing.assert_array_equal(rewards[i], game.returns(), err_msg=where)
                assert info["plies"][i] == 0
                games[i] = game = boardlab.new_game(name, size, **options)
                ended += 1
            else:
                np.testing.assert_array_equal(rewards[i], [0.0, 0.0], err_msg=where)
                assert info["plies"][i] == len(game)
            expect_same(obs, info, games, i, where)
    assert ended > 0, "no game ended: the autoreset went untested"


def test_autoreset_returns_the_new_games_observation() -> None:
    env = VectorEnv("robble", 3, 4, pie=False)
    first, _ = env.reset(seed=1)
    while True:
        obs, rewards, terminated, _, info = env.step(env.random_actions())
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert sorted(rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    np.testing.assert_array_equal(obs["observation"][i], first["observation"][i])
    np.testing.assert_array_equal(obs["action_mask"][i], first["action_mask"][i])
    assert info["current_player"][i] == 0 and info["plies"][i] == 0


def test_truncation_restarts_at_max_game_length() -> None:
    env = VectorEnv("vimbre", 2, 5, max_game_length=3)
    first, _ = env.reset(seed=0)
    for step in range(3):
        obs, rewards, terminated, truncated, info = env.step(env.random_actions())
        assert not terminated.any()
        assert truncated.all() == (step == 2) and truncated.any() == (step == 2)
    np.testing.assert_array_equal(rewards, 0.0)
    np.testing.assert_array_equal(obs["observation"], first["observation"])
    np.testing.assert_array_equal(obs["action_mask"], first["action_mask"])
    assert info["plies"].tolist() == [0, 0]


def test_seeded_runs_replay_and_do_not_depend_on_the_batch_size() -> None:
    def run(n: int) -> list[list[int]]:
        env = VectorEnv("pilo", n, 5)
        env.reset(seed=9)
        return [env.step(a)[0] and a.tolist() for a in (env.random_actions() for _ in range(30))]
    small, big = run(2), run(5)
    assert small == run(2)
    assert [row[:2] for row in big] == small


def test_copy_false_returns_the_env_buffers() -> None:
    env = VectorEnv("yugo", 2, 5, copy=False)
    obs, _ = env.reset(seed=0)
    again, *_ = env.step(env.random_actions())
    assert again["observation"] is obs["observation"]


@pytest.mark.parametrize(("actions", "error", "words"), [
    ([0, 1], BoardlabError, "shape (3,)"),
    (np.zeros((3, 1), np.int64), BoardlabError, "shape (3,)"),
    ([0.0, 1.0, 2.0], BoardlabError, "integer array"),
    ([0, 1, 26], IllegalMoveError, "env 2: action 26 is outside 0..25"),
    ([0, -1, 2], IllegalMoveError, "env 1: action -1 is outside"),
    ([0, 1, 25], IllegalMoveError, "env 2: action 25 is not legal"),  # swap before any move
])
def test_bad_actions_raise_naming_the_env_and_change_nothing(actions, error, words: str) -> None:
    env = VectorEnv("robble", 3, 5)
    env.reset(seed=0)
    before = env.states.copy(), env.legal_mask.copy(), env.plies.copy()
    with pytest.raises(error) as caught:
        env.step(actions)
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)
    np.testing.assert_array_equal(env.states, before[0])
    np.testing.assert_array_equal(env.legal_mask, before[1])
    np.testing.assert_array_equal(env.plies, before[2])


def test_an_occupied_point_is_refused_in_that_env_only() -> None:
    env = VectorEnv("robble", 2, 5, pie=False)
    env.reset()
    env.step([12, 12])
    with pytest.raises(IllegalMoveError, match="env 1: action 12 is not legal in that robble game"):
        env.step([0, 12])


def test_bad_construction_and_call_order() -> None:
    with pytest.raises(OptionError, match="num_envs"):
        VectorEnv("robble", 0)
    with pytest.raises(OptionError, match="unknown game"):
        VectorEnv("chess", 2)
    with pytest.raises(OptionError, match="size"):
        VectorEnv("robble", 2, 3)
    with pytest.raises(OptionError, match="komi"):
        VectorEnv("robble", 2, komi=1)
    with pytest.raises(OptionError, match="max_game_length"):
        VectorEnv("robble", 2, max_game_length=0)
    with pytest.raises(BoardlabError, match="reset"):
        VectorEnv("robble", 2).step([0, 0])
