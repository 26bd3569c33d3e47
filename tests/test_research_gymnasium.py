"""The Gymnasium adapter: registration, check_env, episodes against an engine, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import boardlab  # noqa: E402
import boardlab.research.gymnasium  # noqa: E402,F401  (registers the games)
from boardlab.errors import GameOverError, IllegalMoveError, OptionError  # noqa: E402
from boardlab.research import tensors  # noqa: E402


def make(name: str, **options):
    return gymnasium.make(f"boardlab/{name}-v0", **options)


@pytest.mark.parametrize("player", [0, 1])
def test_check_env(game_name, player, capsys):
    env = make(game_name, size=4, player=player)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []
    capsys.readouterr()   # check_env renders in human mode


def test_check_env_with_options_and_an_mcts_opponent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(make("yugo", size=4, komi=3, opponent="level1").unwrapped, skip_render_check=True)
        check_env(make("implo", size=4, pie=False, opponent="mcts:5").unwrapped, skip_render_check=True)


def play(env, seed: int) -> tuple[list[int], float, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, reward, done = [], 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return actions, reward, info


def test_an_episode_against_an_engine_ends_with_the_agents_result(game_name):
    env = make(game_name, size=5, opponent="random", player=1)
    for seed in range(3):
        _, reward, _ = play(env, seed)
        game = env.unwrapped.game
        assert game.is_over and reward == game.returns()[1]
        obs = env.unwrapped._obs()
        assert np.array_equal(obs["observation"], tensors.observe(game, 1))
        assert obs["action_mask"].sum() == 0


@pytest.mark.parametrize("player", [0, 1])
def test_the_random_opponent_on_the_kernel_plays_as_on_the_python_game(game_name, player):
    """The env hands the ``random`` engine the compiled game (it reads only the
    legal actions): its choices must be those it makes on the Python game."""
    from gymnasium.utils import seeding

    from boardlab.ai.agent import RandomAgent
    env = make(game_name, size=5, opponent="random", player=player)
    for seed in range(4):
        mine, _, _ = play(env, seed)
        env_rng, _ = seeding.np_random(seed)
        opponent = RandomAgent(seed=int(env_rng.integers(2**31)))
        game = boardlab.new_game(game_name, 5)
        ours = iter(mine)
        while not game.is_over:
            mover = game.current_player
            game.apply_action(next(ours) if mover == player else opponent.choose_action(game))
        assert env.unwrapped.game.action_history == game.action_history
        assert env.unwrapped.plies == len(game)


def test_a_seeded_episode_replays():
    env = make("robble", size=5, opponent="level1")
    first = play(env, 7)
    history = env.unwrapped.game.history
    assert play(env, 7) == first and env.unwrapped.game.history == history


def test_the_agent_plays_its_own_multi_action_turns_step_by_step():
    env = make("implo", size=5, opponent="random")
    rng = np.random.default_rng(0)
    for _ in range(30):
        obs, info = env.reset(seed=int(rng.integers(1000)))
        done = False
        while not done:
            before = len(env.unwrapped.game)
            obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done = terminated or truncated
            if info["mid_turn"] and not done:
                assert info["to_move"] == "black"          # the agent resolves its own patches
                assert len(env.unwrapped.game) == before + 1  # and the opponent did not move
                return
    pytest.fail("no mid-turn position reached")


def test_an_illegal_action_loses_by_default():
    env = make("robble", size=5, pie=False, player=1)   # the opponent has played a stone
    env.reset(seed=0)
    occupied = next(a for a in range(25) if env.unwrapped.game.cells()[a])
    obs, reward, terminated, truncated, info = env.step(occupied)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "is occupied" in info["illegal_action"]
    with pytest.raises(GameOverError, match="the episode is over; call reset"):
        env.step(0)


def test_an_illegal_action_can_raise_instead():
    env = make("robble", size=5, pie=False, player=1, illegal_action="raise")
    env.reset(seed=0)
    occupied = next(a for a in range(25) if env.unwrapped.game.cells()[a])
    with pytest.raises(IllegalMoveError, match="is occupied"):
        env.step(occupied)
    env.step(next(a for a in range(25) if not env.unwrapped.game.cells()[a]))   # nothing changed


def test_actions_outside_the_space_raise():
    env = make("pilo", size=4)
    env.reset(seed=0)
    n = env.action_space.n
    with pytest.raises(IllegalMoveError, match=rf"action must be an integer in 0..{n - 1}"):
        env.step(n)
    with pytest.raises(IllegalMoveError, match="action must be an integer"):
        env.step(1.5)
    env.step(np.int32(0))


def test_bad_options_are_refused():
    with pytest.raises(OptionError, match="unknown engine 'alphazero'"):
        make("robble", opponent="alphazero")
    with pytest.raises(OptionError, match="player must be 0 or 1"):
        make("robble", player=2)
    with pytest.raises(OptionError, match="illegal_action must be"):
        make("robble", illegal_action="ignore")
    with pytest.raises(OptionError, match="unknown option 'pie'"):
        make("yugo", pie=True)
    with pytest.raises(OptionError, match="option 'komi' must be int"):
        make("yugo", komi=0.5)


def test_truncation():
    env = make("robble", size=5, max_game_length=4)
    obs, _ = env.reset(seed=0)
    truncated = False
    while not truncated:
        obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert not terminated and reward == 0.0 and len(env.unwrapped.game) == 4


def test_every_game_is_registered():
    for name in boardlab.GAMES:
        assert f"boardlab/{name}-v0" in gymnasium.registry


def test_next_step_autoreset_ends_with_an_empty_mask_and_same_step_never_does():
    """The two recipes of docs/research.md ("Vector envs and the terminal mask")."""
    from gymnasium.vector import AutoresetMode
    seen = {}
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        envs = gymnasium.make_vec("boardlab/robble-v0", num_envs=3, vectorization_mode="sync",
                                  vector_kwargs={"autoreset_mode": mode}, size=4)
        obs, _ = envs.reset(seed=2)
        rng = np.random.default_rng(2)
        empty = ends = 0
        for _ in range(150):
            masks = obs["action_mask"]
            empty += int((~masks.any(axis=1)).sum())
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            obs, _, terminated, truncated, info = envs.step(actions)
            ends += int((terminated | truncated).sum())
            if mode == AutoresetMode.SAME_STEP and terminated.any():
                for i in np.flatnonzero(terminated):  # the finished game's, with its empty mask
                    assert not info["final_obs"][i]["action_mask"].any()
        empty += int((~obs["action_mask"].any(axis=1)).sum())  # the last step's too
        envs.close()
        seen[mode] = (empty, ends)
    assert seen[AutoresetMode.NEXT_STEP][0] == seen[AutoresetMode.NEXT_STEP][1] > 0
    assert seen[AutoresetMode.SAME_STEP][0] == 0 and seen[AutoresetMode.SAME_STEP][1] > 0
