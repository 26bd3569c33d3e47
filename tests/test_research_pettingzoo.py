"""The PettingZoo AEC adapter: api_test, multi-action turns, rewards, errors."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import boardlab  # noqa: E402
from boardlab.errors import GameOverError, IllegalMoveError, OptionError  # noqa: E402
from boardlab.research import pettingzoo as bz  # noqa: E402
from boardlab.research import tensors  # noqa: E402


def run_api_test(env) -> None:
    with warnings.catch_warnings():
        # api_test warns when the agent not to move sees an all-zero mask: that is the design
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=200)


@pytest.mark.parametrize("size", [4, 5])
def test_api_test(game_name, size):
    run_api_test(bz.env(game_name, size=size))


@pytest.mark.parametrize("name, options", [("robble", {"pie": False}), ("implo", {"pie": False}),
                                           ("pilo", {"pie": False}), ("yugo", {"komi": 4})])
def test_api_test_with_options(name, options):
    run_api_test(bz.env(name, size=4, **options))


def random_episode(env, rng: random.Random) -> list[tuple[str, int, bool]]:
    """Play an episode with uniformly random legal actions; return (agent, action, mid_turn before)."""
    env.reset()
    steps = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        steps.append((agent, action, info["mid_turn"]))
        env.step(action)
    return steps


def test_episodes_follow_the_game_and_reward_its_result(game_name):
    rng = random.Random(3)
    for _ in range(3):
        env = bz.raw_env(game_name, size=5)
        rewards = {a: 0.0 for a in env.possible_agents}
        env.reset()
        replay = boardlab.new_game(game_name, 5)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            rewards[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            assert agent == replay.to_move
            assert np.array_equal(obs["observation"], tensors.observe(replay))
            assert np.flatnonzero(obs["action_mask"]).tolist() == replay.legal_actions()
            action = rng.choice(replay.legal_actions())
            replay.apply_action(action)
            env.step(action)
        assert replay.is_over
        assert [rewards[c] for c in replay.colors] == replay.returns()


@pytest.mark.parametrize(("name", "size", "options"), [
    ("implo", 4, {}), ("implo", 7, {"pie": False}), ("pilo", 4, {"pie": False}), ("pilo", 7, {}),
    ("robble", 4, {}), ("robble", 7, {"pie": False}), ("vimbre", 4, {}), ("vimbre", 7, {}),
    ("yugo", 4, {"komi": 2}), ("yugo", 7, {}),
])
def test_the_compiled_env_agrees_with_the_python_engine(name, size, options):
    """The env steps the compiled kernel: every observation (both sides), mask,
    mid-turn flag and result must be the Python engine's, and ``env.game``
    must be the same game."""
    rng = random.Random(size)
    env = bz.env(name, size=size, **options)
    for _ in range(2):
        env.reset()
        replay = boardlab.new_game(name, size, **options)
        rewards = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            rewards[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            where = f"{name} {size} {options} ply {len(replay)}"
            assert agent == replay.to_move and info["mid_turn"] == replay.is_mid_turn, where
            for player, other in enumerate(env.possible_agents):
                seen = env.observe(other)
                np.testing.assert_array_equal(seen["observation"], tensors.observe(replay, player),
                                              err_msg=where)
            assert np.flatnonzero(obs["action_mask"]).tolist() == replay.legal_actions(), where
            action = rng.choice(replay.legal_actions())
            replay.apply_action(action)
            env.step(action)
        assert replay.is_over and [rewards[c] for c in replay.colors] == replay.returns()
        assert env.unwrapped.game.history == replay.history
        assert env.unwrapped.game.position() == replay.position()


def test_the_agent_not_to_move_sees_an_empty_mask():
    env = bz.env("robble", size=5)
    env.reset()
    assert env.observe("white")["action_mask"].sum() == 0
    assert env.observe("black")["action_mask"].sum() == 25


def test_implo_resolutions_keep_the_same_agent_selected():
    rng = random.Random(5)
    seen = 0
    for _ in range(20):
        steps = random_episode(bz.env("implo", size=5), rng)
        for (agent, _, _), (next_agent, _, mid_turn) in zip(steps, steps[1:], strict=False):
            if mid_turn:                  # a resolution continues the same color's turn
                assert next_agent == agent
                seen += 1
    assert seen > 0


def test_the_pie_swap_keeps_the_swapper_selected():
    env = bz.env("robble", size=5)
    env.reset()
    env.step(12)                              # black c3
    assert env.agent_selection == "white"
    swap = boardlab.new_game("robble", 5).string_to_action("swap")
    env.step(swap)                            # white swaps: colors stay, white moves again
    assert env.agent_selection == "white"
    env.step(0)
    assert env.agent_selection == "black"


def test_yugo_marking_is_one_agent_until_done():
    game = boardlab.new_game("yugo", 4)
    env = bz.raw_env("yugo", size=4)
    env.reset()
    for move in ("b2", "c3", "button", "pass", "pass"):
        env.step(game.string_to_action(move))
        game.play(move)
    assert game.legal_moves()[-1] == "done" and env.agent_selection == game.to_move
    marker = env.agent_selection
    mark = game.legal_moves()[0]
    assert mark.startswith("mark ")
    env.step(game.string_to_action(mark))
    game.play(mark)
    assert env.agent_selection == marker
    env.step(game.string_to_action("done"))
    assert env.agent_selection != marker                     # the other color answers


def test_bad_actions_raise_our_errors():
    env = bz.env("robble", size=5, pie=False)
    env.reset()
    env.step(12)
    with pytest.raises(IllegalMoveError, match="c3 is occupied"):
        env.step(12)
    with pytest.raises(IllegalMoveError, match="the pie rule is off"):
        env.step(25)
    with pytest.raises(IllegalMoveError, match=r"action must be an integer in 0..25"):
        env.step(26)
    with pytest.raises(IllegalMoveError, match="an action must be an int"):
        env.step("c4")
    with pytest.raises(IllegalMoveError, match="an action must be an int"):
        env.step(None)
    assert env.agent_selection == "white" and env.unwrapped.game.history == ["c3"]
    env.step(np.int64(0))                     # NumPy integers are fine
    assert env.agent_selection == "black"


def test_stepping_a_finished_game_raises():
    env = bz.env("vimbre", size=4)
    random_episode(env, random.Random(1))
    assert env.agents == []
    with pytest.raises(GameOverError, match="no game in progress"):
        env.step(0)
    env.reset()
    assert env.agents == ["black", "white"]


def test_a_terminated_agent_may_only_step_none():
    env = bz.env("vimbre", size=4)
    env.reset()
    rng = random.Random(2)
    while not env.terminations[env.agent_selection]:
        obs = env.observe(env.agent_selection)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)


def test_max_game_length_truncates():
    env = bz.env("robble", size=5, max_game_length=4)
    env.reset()
    for action in range(4):
        env.step(action)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.observe(env.agent_selection)["action_mask"].sum() == 0


def test_step_before_reset_raises():
    with pytest.raises(GameOverError, match=r"call reset\(\)"):
        bz.env("robble").step(0)


def test_bad_options_are_refused():
    with pytest.raises(OptionError, match="unknown option 'komi'"):
        bz.env("robble", komi=1)
    with pytest.raises(OptionError, match="size 20 is outside"):
        bz.env("yugo", size=20)
    with pytest.raises(OptionError, match="unknown game 'go'"):
        bz.env("go")
    with pytest.raises(OptionError, match="render_mode"):
        bz.env("pilo", render_mode="rgb_array")


def test_render_ansi():
    env = bz.env("robble", size=5, render_mode="ansi")
    env.reset()
    assert "black to move" in env.render()


# ---------------------------------------------------------------- parallel API and state
def test_parallel_api_test(game_name):
    from pettingzoo.test import parallel_api_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the agent not to move sees an all-zero mask: by design
        parallel_api_test(bz.parallel_env(game_name, size=4), num_cycles=400)


def test_a_parallel_episode_plays_the_movers_actions(game_name):
    env = bz.parallel_env(game_name, size=5)
    obs, infos = env.reset(seed=1)
    rng = np.random.default_rng(1)
    replay = boardlab.new_game(game_name, 5)
    rewards = {a: 0.0 for a in env.possible_agents}
    while env.agents:
        movers = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert movers == [replay.to_move]  # exactly the color to move has legal actions
        actions = {a: int(rng.integers(env.action_space(a).n)) for a in env.agents}  # the other's is ignored
        actions[movers[0]] = int(rng.choice(np.flatnonzero(obs[movers[0]]["action_mask"])))
        replay.apply_action(actions[movers[0]])
        obs, step_rewards, terminations, truncations, infos = env.step(actions)
        for agent, value in step_rewards.items():
            rewards[agent] += value
    assert replay.is_over and all(terminations.values())
    assert [rewards[c] for c in replay.colors] == replay.returns()


def test_state_is_the_first_colors_planes(game_name):
    env = bz.env(game_name, size=5)
    env.reset(seed=0)
    rng = random.Random(0)
    for _ in range(6):
        state = env.state()
        assert env.state_space.contains(state)
        assert np.array_equal(state, tensors.observe(env.game, 0))
        assert np.array_equal(state, env.observe(env.possible_agents[0])["observation"])
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert np.array_equal(bz.parallel_env(game_name, size=5).aec_env.state_space.high,
                          env.state_space.high)
