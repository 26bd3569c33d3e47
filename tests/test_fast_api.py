"""The public compiled API (boardlab.fast), for every game whose kernel exists."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import boardlab
from boardlab import BoardlabError, IllegalMoveError, OptionError
from boardlab.fast import Batch, playouts, random_game
from boardlab.fast._rng import new_rng
from boardlab.fast.kernels import kernel

COMPILED = [g for g in boardlab.GAMES if importlib.util.find_spec(f"boardlab.fast._{g}")]
MISSING = [g for g in boardlab.GAMES if g not in COMPILED]


def _sizes(name: str) -> list[int]:
    return sorted({5, boardlab.game_class(name).default_size})


@pytest.fixture(params=COMPILED)
def name(request) -> str:
    return request.param


def test_random_game_replays_through_the_python_engine(name: str) -> None:
    for size in _sizes(name):
        for seed in range(6):
            actions, returns = random_game(name, size, seed=seed)
            game = boardlab.new_game(name, size)
            for a in actions:
                game.apply_action(a)  # IllegalMoveError if the compiled game went astray
            assert game.is_over
            assert tuple(game.returns()) == returns


def test_random_game_is_seeded(name: str) -> None:
    assert random_game(name, 5, seed=11) == random_game(name, 5, seed=11)
    assert len({tuple(random_game(name, 5, seed=s)[0]) for s in range(5)}) > 1


def test_random_game_options_are_passed(name: str) -> None:
    cls = boardlab.game_class(name)
    if "pie" not in cls.option_defaults:
        pytest.skip(f"{name} has no pie option")
    swap = boardlab.new_game(name, 5).swap_action
    with_pie = [random_game(name, 5, seed=s, pie=True)[0] for s in range(60)]
    without = [random_game(name, 5, seed=s, pie=False)[0] for s in range(60)]
    for actions in without:  # each replays with the pie rule off
        game = boardlab.new_game(name, 5, pie=False)
        for a in actions:
            game.apply_action(a)
    assert any(swap in a for a in with_pie) and not any(swap in a for a in without)


def test_playouts_counts_plies(name: str) -> None:
    size = 5
    assert playouts(name, 0, size) == 0
    assert playouts(name, 1, size, seed=4) == len(random_game(name, size, seed=4)[0])
    # n games share one generator stream: the same as the kernel's playout in sequence
    k = kernel(name)
    g = boardlab.new_game(name, size)
    state = np.zeros(k.state_len(size), dtype=np.int64)
    rng = new_rng(9)
    want = 0
    for _ in range(7):
        k.init(state, size, k.encode_options(g.options))
        want += k.playout(state, rng, np.zeros(0, dtype=np.int64))
    assert playouts(name, 7, size, seed=9) == want


def _compare(env: Batch, games: list[boardlab.Game]) -> None:
    for i, game in enumerate(games):
        assert env.legal_mask[i].tolist() == [bool(x) for x in game.legal_action_mask()]
        assert env.current_player[i] == (-1 if game.is_over else game.current_player)


@pytest.mark.parametrize("size", [5, None])
def test_batch_agrees_with_the_python_engine(name: str, size: int | None) -> None:
    env = Batch(name, 6, size, seed=3)
    games = [boardlab.new_game(name, size) for _ in range(6)]
    _compare(env, games)
    for _ in range(20_000):
        if env.terminated.all():
            break
        actions = env.random_actions()
        was_over = [g.is_over for g in games]
        env.step(actions)
        for i, game in enumerate(games):
            if was_over[i]:
                assert actions[i] == -1 and env.terminated[i]
                assert env.rewards[i].tolist() == [0.0, 0.0]
                continue
            game.apply_action(int(actions[i]))
            assert env.terminated[i] == game.is_over
            want = game.returns() if game.is_over else [0.0, 0.0]
            assert env.rewards[i].tolist() == want
        _compare(env, games)
    assert env.terminated.all()


def test_batch_auto_reset(name: str) -> None:
    env = Batch(name, 4, 5, seed=1, auto_reset=True)
    start = env.legal_mask[0].copy()
    games = [boardlab.new_game(name, 5) for _ in range(4)]
    ended = 0
    for _ in range(5_000):
        actions = env.random_actions()
        assert (actions >= 0).all()  # an auto-reset batch never holds a finished game
        env.step(actions)
        for i, game in enumerate(games):
            game.apply_action(int(actions[i]))
            assert env.terminated[i] == game.is_over
            if game.is_over:
                ended += 1
                assert env.rewards[i].tolist() == game.returns()
                assert env.legal_mask[i].tolist() == start.tolist()
                games[i] = boardlab.new_game(name, 5)
        _compare(env, games)
        if ended >= 6:
            break
    assert ended >= 6


def test_batch_random_streams_do_not_depend_on_batch_size(name: str) -> None:
    small, big = Batch(name, 2, 5, seed=5), Batch(name, 9, 5, seed=5)
    for _ in range(5):
        a, b = small.random_actions(), big.random_actions()
        assert a.tolist() == b[:2].tolist()
        small.step(a)
        big.step(b)
    big.reset(5)
    small.reset(5)
    assert small.random_actions().tolist() == big.random_actions()[:2].tolist()


def test_random_actions_asked_twice_are_drawn_anew_and_legal(name: str) -> None:
    env = Batch(name, 5, 5, seed=2)
    games = [boardlab.new_game(name, 5) for _ in range(5)]
    for _ in range(4):
        first, again = env.random_actions(), env.random_actions()  # the second from the masks
        for acts in (first, again):
            for i, game in enumerate(games):
                assert acts[i] == -1 if game.is_over else acts[i] in game.legal_actions()
        env.step(again)
        for i, game in enumerate(games):
            if not game.is_over:
                game.apply_action(int(again[i]))
        _compare(env, games)


def test_mask_copy_equals_the_masks_whatever_the_memory_held(name: str) -> None:
    """mask_copy reads each row only over its bits' span and writes the rest:
    on memory that held ones before (a freed block is handed out again),
    every byte outside the spans must still come out False; games over
    (all False) included."""
    env = Batch(name, 6, 5, seed=4)
    for step in range(400):
        junk = np.ones_like(env.legal_mask)
        del junk  # the next allocation of that size likely reuses its ones
        copy = env.mask_copy()
        assert copy is not env.legal_mask and not np.shares_memory(copy, env.legal_mask)
        np.testing.assert_array_equal(copy, env.legal_mask, err_msg=f"{name} step {step}")
        if (env.current_player < 0).all():
            break
        env.step(env.random_actions())
    assert (env.current_player < 0).all(), "no batch ran to its end: finished games untested"


def test_restart_puts_only_the_given_games_back_at_the_start(name: str) -> None:
    env = Batch(name, 4, 5, seed=3)
    start_mask, start_player = env.legal_mask[0].copy(), int(env.current_player[0])
    for _ in range(3):
        env.step(env.random_actions())
    before = env.states.copy()
    env.restart(np.array([1, 3], np.int64))
    for i in (1, 3):
        assert env.legal_mask[i].tolist() == start_mask.tolist()
        assert env.current_player[i] == start_player
    for i in (0, 2):
        assert (env.states[i] == before[i]).all()
    for acts in (env.random_actions(), env.random_actions()):  # still legal everywhere
        assert all(env.legal_mask[i, a] for i, a in enumerate(acts.tolist()))


def test_batch_refuses_bad_actions_and_leaves_states_alone(name: str) -> None:
    env = Batch(name, 4, 5)
    env.step(env.random_actions())
    before = [x.copy() for x in (env.states, env.legal_mask, env.current_player, env.terminated)]

    def untouched() -> None:
        for old, new in zip(before, (env.states, env.legal_mask, env.current_player,
                                     env.terminated), strict=True):
            np.testing.assert_array_equal(old, new)

    good = env.random_actions()
    bad = good.copy()
    bad[2] = env.num_actions
    with pytest.raises(IllegalMoveError, match=r"batch index 2: action \d+ is outside"):
        env.step(bad)
    untouched()
    bad[2] = -1
    with pytest.raises(IllegalMoveError, match="batch index 2"):
        env.step(bad)
    untouched()
    illegal = np.flatnonzero(~env.legal_mask[3])
    if len(illegal):
        bad = good.copy()
        bad[3] = illegal[0]
        with pytest.raises(IllegalMoveError, match=f"batch index 3: action {illegal[0]} is not legal"):
            env.step(bad)
        untouched()
    for wrong in (good[:3], good.astype(float), good.reshape(2, 2), "a1"):
        with pytest.raises(BoardlabError, match=r"actions must be an integer array of shape \(4,\)"):
            env.step(wrong)
    untouched()
    for index, value in ((1, env.num_actions + 5), (0, -(2 ** 62))):  # try_step: no Python checks
        unchecked = good.copy()
        unchecked[index] = value
        assert env.try_step(unchecked) == index
        untouched()
    env.step(good)  # the batch still works


def test_bad_requests_raise_option_errors(name: str) -> None:
    for call in (lambda: random_game("chess"), lambda: playouts("chess", 1),
                 lambda: Batch("chess", 1)):
        with pytest.raises(OptionError, match="unknown game 'chess'"):
            call()
    for size, what in ((3, "outside 4..19"), (20, "outside 4..19"), ("7", "must be an integer"),
                       (True, "must be an integer")):
        for call, args in ((random_game, (name, size)), (playouts, (name, 1, size)),
                           (Batch, (name, 2, size))):
            with pytest.raises(OptionError, match=what):
                call(*args)
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        random_game(name, colour=1)
    with pytest.raises(OptionError, match="n must be a non-negative integer"):
        playouts(name, -1)
    with pytest.raises(OptionError, match="n must be a positive integer"):
        Batch(name, 0)
    with pytest.raises(OptionError, match="seed must be an integer"):
        random_game(name, seed=1.5)
    option, default = next(iter(boardlab.game_class(name).option_defaults.items()), (None, None))
    if option is not None:
        with pytest.raises(OptionError, match=f"option '{option}' must be"):
            playouts(name, 1, **{option: object()})


def test_every_game_has_a_kernel() -> None:
    assert not MISSING, f"no compiled kernel for {MISSING}"


def test_a_second_process_loads_the_compiled_loops_from_cache() -> None:
    """numba's cache holds the generic loops (FunctionType arguments, and the
    kernel-table entry points): a fresh process compiles nothing (this process
    filled the cache)."""
    Batch(COMPILED[0], 2).step(Batch(COMPILED[0], 2).random_actions())
    playouts(COMPILED[0], 1)
    code = (
        "import boardlab.fast as f; from boardlab.fast import _batch_loops, _loops\n"
        f"env = f.Batch({COMPILED[0]!r}, 2); env.step(env.random_actions()); f.playouts({COMPILED[0]!r}, 1)\n"
        "fns = [_loops.playouts, _loops.playouts_with, _batch_loops.reset, _batch_loops.step,"
        " _batch_loops.random_actions]\n"
        "print(sum(sum(fn.stats.cache_misses.values()) for fn in fns),"
        " sum(sum(fn.stats.cache_hits.values()) for fn in fns))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True, timeout=300)
    misses, hits = map(int, out.stdout.split())
    assert (misses, hits) == (0, 5)


@pytest.mark.parametrize("size", [4, 7])
def test_a_copied_state_plays_on_as_the_original(name: str, size: int) -> None:
    """``copy_state`` (the contract's optional partial copy; else a whole
    copy) into a row full of junk gives a state that plays on exactly as the
    original: the same legal actions every ply, the same end, outcome and
    scores (robble's repetitions: tests/test_fast_robble.py)."""
    from boardlab.fast import _loops
    from boardlab.fast._resolve import resolve
    k = kernel(name)
    copy = _loops.kernel_function(k, "copy_state")
    g = resolve(name, size, {})
    rng = np.random.default_rng(size)
    buf_a = np.zeros(g.num_actions, np.int64)
    buf_b = np.zeros(g.num_actions, np.int64)
    scores_a, scores_b = np.zeros(2), np.zeros(2)
    for _ in range(40):
        src = np.zeros(g.state_len, np.int64)
        k.init(src, size, g.opts)
        for _ in range(int(rng.integers(0, 3 * size * size))):
            n = k.legal_actions(src, buf_a)
            if n == 0:
                break
            k.apply(src, int(buf_a[rng.integers(n)]))
        dst = rng.integers(-2**40, 2**40, g.state_len).astype(np.int64)
        copy(dst, src)
        while True:
            n = k.legal_actions(src, buf_a)
            assert k.legal_actions(dst, buf_b) == n and (buf_a[:n] == buf_b[:n]).all()
            assert k.current_player(dst) == k.current_player(src)
            if n == 0:
                break
            a = int(buf_a[rng.integers(n)])
            k.apply(src, a)
            k.apply(dst, a)
        out = k.outcome(src, scores_a)
        assert k.outcome(dst, scores_b) == out
        assert np.array_equal(scores_a, scores_b, equal_nan=True)
