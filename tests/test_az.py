"""The learned agent (boardlab.az, engine ``az``): network, Gumbel root, self-play, training.

What can fail here: NumPy and JAX computing different networks from one
definition; sequential halving spending another budget than asked or
missing the move the values favour; augmentation moving planes and moves
apart; training that does not lower its loss; a resumed run that is not
the run that never stopped; an engine that plays illegal moves or accepts a
board it has no network for.
"""

from __future__ import annotations

import importlib.util
import random
import time

import numpy as np
import pytest

import boardlab
from boardlab import OptionError
from boardlab.ai import make_agent
from boardlab.ai.az import AZAgent
from boardlab.ai.limit import Limit
from boardlab.az.evaluator import NetEvaluator
from boardlab.az.gumbel import SETTINGS, GumbelMove, halving_schedule, run
from boardlab.az.net import Spec, forward, init_params
from boardlab.az.replay import ReplayBuffer
from boardlab.az.selfplay import SelfPlayTask, self_play, symmetry_bits
from boardlab.az.weights import Weights, for_game, load, save, shipped
from boardlab.fast.search import Search, kernel_state
from boardlab.research import tensors


def _spec(size: int = 4, channels: int = 8, blocks: int = 1) -> Spec:
    cls = boardlab.game_class("robble")
    return Spec("robble", size, len(tensors.plane_names(cls)), cls.num_distinct_actions_for(size),
                channels, blocks, 16)


def _position(seed: int, size: int = 5, plies: int = 6):
    rng = random.Random(seed)
    game = boardlab.new_game("robble", size)
    for _ in range(plies):
        game.apply_action(rng.choice(game.legal_actions()))
    return game


def test_numpy_and_jax_compute_the_same_network() -> None:
    jnp = pytest.importorskip("jax.numpy")
    spec = _spec(5, 12, 2)
    params = init_params(spec, np.random.default_rng(1))
    for k in params:  # non-zero gates and biases, so every term counts
        params[k] = params[k] + np.float32(0.05)
    x = np.random.default_rng(2).random((3, spec.planes, spec.points)).astype(np.float32)
    lg_np, v_np = forward(params, x, spec, np)
    lg_j, v_j = forward({k: jnp.asarray(v) for k, v in params.items()}, jnp.asarray(x), spec, jnp)
    np.testing.assert_allclose(lg_np, np.asarray(lg_j), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(v_np, np.asarray(v_j), rtol=1e-4, atol=1e-5)
    assert lg_np.shape == (3, spec.actions) and v_np.shape == (3,)
    assert np.all(np.abs(v_np) <= 1)


def test_the_evaluator_sees_kernel_states_as_tensors_observe_does() -> None:
    game = _position(3)
    spec = _spec(5)
    ev = NetEvaluator(init_params(spec, np.random.default_rng(0)), spec)
    state, _ = kernel_state(game)
    planes = ev.planes(state[None], np.array([game.current_player]))[0]
    want = tensors.observe(game).reshape(spec.planes, spec.points)
    np.testing.assert_array_equal(planes, want)


def test_halving_schedule_spends_the_budget_in_halving_phases() -> None:
    for m, n in ((16, 32), (16, 200), (4, 10), (7, 50), (2, 5)):
        phases = halving_schedule(m, n)
        assert phases[0][0] == m
        assert sum(k * r for k, r in phases) >= n > sum(k * r for k, r in phases[:-1])
        for (a, _), (b, _) in zip(phases, phases[1:], strict=False):
            assert b == max(2, a // 2)


def _leaf_judge(target: int, size: int):
    """An evaluator that likes one move: a leaf where the player who just
    moved holds ``target`` is lost for the player to move there."""
    def evaluate(states, players):
        cls = boardlab.game_class("robble")
        spec = Spec("robble", size, 5, cls.num_distinct_actions_for(size))
        ev = NetEvaluator(init_params(spec, np.random.default_rng(0)), spec)
        planes = ev.planes(states, players)
        values = np.where(planes[:, 1, target] > 0, -1.0, 0.0)   # plane 1: "theirs"
        priors = np.full((len(states), spec.actions), 1.0 / spec.actions)
        return values, priors
    return evaluate


@pytest.mark.parametrize("min_batch", [1, 40])
def test_a_gumbel_root_finds_the_move_the_values_favour(min_batch: int) -> None:
    game = boardlab.new_game("robble", 5)
    target = 7
    search = Search(game, SETTINGS, seed=1)
    mv = GumbelMove(search, 64, np.random.default_rng(0), noise=1.0, min_batch=min_batch)
    rounds = run([mv], _leaf_judge(target, 5))
    assert rounds > 1
    assert mv.done and 64 <= mv.sims < 64 + 16
    visits, q = mv.root_stats()
    assert search.pending == 0 and visits.sum() == search.root_visits - 1
    assert np.count_nonzero(visits) == 16         # the considered moves, no more
    policy = mv.policy()
    assert policy.sum() == pytest.approx(1.0)
    if visits[mv.legal.tolist().index(target)]:   # considered: it must win
        assert mv.action() == target
        assert int(np.argmax(policy)) == mv.legal.tolist().index(target)
    assert mv.action() in game.legal_actions()


def test_augmentation_moves_planes_and_moves_together() -> None:
    game = _position(11, 5, 9)
    spec = _spec(5)
    ev = NetEvaluator(init_params(spec, np.random.default_rng(0)), spec)
    state, _ = kernel_state(game)
    planes = ev.planes(state[None], np.array([game.current_player]))
    legal = np.zeros((1, spec.actions), bool)
    legal[0, game.legal_actions()] = True
    policy = np.random.default_rng(1).random((1, spec.actions)).astype(np.float32) * legal
    buf = ReplayBuffer(spec, 16)
    for k in range(8):
        p2, pi2, l2 = buf.transform(planes, policy, legal, np.array([k]))
        moved = tensors.transform_game(game, k)
        np.testing.assert_array_equal(p2[0], tensors.observe(moved).reshape(spec.planes, -1))
        perm = tensors.action_permutation(game, k)
        want = np.zeros(spec.actions, np.float32)
        want[perm] = policy[0]
        np.testing.assert_array_equal(pi2[0], want)
        assert sorted(np.flatnonzero(l2[0])) == sorted(moved.legal_actions())
    assert symmetry_bits(game) == 255


def test_symmetries_that_move_actions_by_position_are_left_out() -> None:
    """Implo's patch resolutions name a patch by its smallest point: in such
    a position only the symmetries that keep those names are allowed."""
    rng = random.Random(5)
    for _ in range(200):
        game = boardlab.new_game("implo", 5)
        while not game.is_over:
            bits = symmetry_bits(game)
            module = tensors.tensors_module(game)
            for k in tensors.symmetries(game):
                ok = all(module.action_map(game.size, k)[a] == b
                         for a, b in module.state_action_map(game, k).items())
                assert bool(bits >> k & 1) == ok
            if bits != 255:
                return
            game.apply_action(rng.choice(game.legal_actions()))
    pytest.fail("no implo position with a position-dependent action met")


def test_self_play_is_seeded_and_its_samples_are_consistent() -> None:
    spec = _spec(4)
    params = init_params(spec, np.random.default_rng(0))
    task = SelfPlayTask(params, spec, {}, games=4, parallel=3, simulations=8, seed=7)
    a, stats = self_play(task)
    b, _ = self_play(task)
    for f in ("planes", "policy", "legal", "z", "syms"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    assert stats["games"] == 4 and len(a) == stats["samples"] > 0
    assert np.all(a.policy[~a.legal] == 0)
    np.testing.assert_allclose(a.policy.sum(axis=1), 1.0, rtol=1e-5)
    assert set(np.unique(a.z)) <= {-1.0, 0.0, 1.0}
    assert stats["evaluations"] > stats["moves"]   # the batches held several leaves
    assert stats["calls"] < stats["evaluations"]


def test_expert_games_are_seeded_and_their_targets_are_the_searchs() -> None:
    """The playout search's games: the same task gives the same samples; each
    policy target is a distribution over the legal moves (the root's
    visits), most of it on few moves once the search has looked; the
    value targets are results; the games differ (their openings are drawn)."""
    from boardlab.az.expert import ExpertTask, expert_play
    task = ExpertTask(_spec(4), {}, games=4, simulations=300, seed=5, opening=4)
    a, stats = expert_play(task)
    b, _ = expert_play(task)
    for f in ("planes", "policy", "legal", "z", "syms"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    assert stats["games"] == 4 and len(a) == stats["samples"] == stats["moves"] > 0
    assert stats["simulations"] == 300 * stats["moves"]
    assert np.all(a.policy[~a.legal] == 0)
    np.testing.assert_allclose(a.policy.sum(axis=1), 1.0, rtol=1e-5)
    assert set(np.unique(a.z)) <= {-1.0, 0.0, 1.0}
    uniform = 1.0 / a.legal.sum(axis=1)
    assert np.mean(a.policy.max(axis=1) > 2 * uniform) > 0.5  # the visits are not spread evenly
    # q_weight mixes the root's value into the value target (the games stay the same)
    q = expert_play(ExpertTask(_spec(4), {}, games=4, simulations=300, seed=5, opening=4,
                               q_weight=1.0))[0]
    half = expert_play(ExpertTask(_spec(4), {}, games=4, simulations=300, seed=5, opening=4,
                                  q_weight=0.5))[0]
    np.testing.assert_array_equal(q.planes, a.planes)
    assert np.all(np.abs(q.z) <= 1) and not np.all(np.isin(q.z, (-1.0, 0.0, 1.0)))
    np.testing.assert_allclose(half.z, (a.z + q.z) / 2, atol=1e-6)
    assert np.corrcoef(q.z, a.z)[0, 1] > 0.3  # the search's value foresees the result, same sign
    # past the opening, the game goes on by the most visited move: replaying
    # the targets' argmax from the empty board meets every sample's position
    one, _ = expert_play(ExpertTask(_spec(4), {}, games=1, simulations=300, seed=8, opening=0))
    observer = NetEvaluator({}, _spec(4))
    game = boardlab.new_game("robble", 4)
    for i in range(len(one)):
        state, _ = kernel_state(game)
        np.testing.assert_array_equal(observer.planes(state[None], np.array([game.current_player]))[0],
                                      one.planes[i])
        assert one.legal[i].sum() == len(game.legal_actions())
        top = np.flatnonzero(one.policy[i] == one.policy[i].max())
        if len(top) > 1:
            break  # a tie: the search's value decided, which the target does not show
        game.apply_action(int(top[0]))
        while not game.is_over and len(game.legal_actions()) == 1:
            game.apply_action(game.legal_actions()[0])
    assert i > 3


# ---------------------------------------------------------------- training (JAX)


def _config(**kw):
    from boardlab.az.train import Config
    base = dict(game="robble", size=4, channels=8, blocks=1, simulations=8, games=6, parallel=6,
                tasks=2, generations=3, batch=32, buffer=2000, reuse=2.0, seed=3)
    return Config(**{**base, **kw})


def test_training_lowers_the_loss_and_the_network_plays(tmp_path) -> None:
    pytest.importorskip("jax")
    from boardlab.az.train import Trainer, Workers
    t = Trainer(tmp_path / "run", _config())
    workers = Workers(1)
    t.run_generation(workers)
    rng = np.random.default_rng(0)
    x, pi, legal, z = t.buffer.batch(256, rng, augment=False)

    def loss() -> float:
        lg, v = forward(t.numpy_params(), x, t.spec, np)
        lg = np.where(legal, lg, -1e9)
        logp = lg - lg.max(1, keepdims=True)
        logp -= np.log(np.exp(logp).sum(1, keepdims=True))
        return float(-(np.where(legal, pi * logp, 0)).sum(1).mean() + ((v - z) ** 2).mean())

    before = loss()
    for _ in range(3):
        t.train_on(len(t.buffer))
    assert loss() < before - 0.05
    agent = AZAgent(Limit(16), seed=1, weights=t.weights())
    game = boardlab.new_game("robble", 4)
    other = make_agent("random", 2)
    while not game.is_over:
        mover = agent if game.current_player == 0 else other
        a = mover.choose_action(game)
        assert a in game.legal_actions()
        game.apply_action(a)
    assert agent.move_comment() is not None


def test_a_resumed_run_is_bit_for_bit_the_run_that_never_stopped(tmp_path) -> None:
    pytest.importorskip("jax")
    from boardlab.az.train import Trainer, Workers
    workers = Workers(1)
    straight = Trainer(tmp_path / "a", _config())
    for _ in range(3):
        straight.run_generation(workers)
    first = Trainer(tmp_path / "b", _config())
    for _ in range(2):
        first.run_generation(workers)
    first.checkpoint()
    del first
    resumed = Trainer(tmp_path / "b")                 # the config comes from the folder
    assert resumed.generation == 2
    resumed.run_generation(workers)
    a, b = straight.numpy_params(), resumed.numpy_params()
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    assert np.array_equal(straight.buffer.data["planes"], resumed.buffer.data["planes"])
    assert straight.rng.bit_generator.state == resumed.rng.bit_generator.state
    with pytest.raises(OptionError, match="other settings"):
        Trainer(tmp_path / "b", _config(lr=0.01))


def test_a_run_learns_from_expert_games_first_and_once(tmp_path) -> None:
    """expert_games=N: before generation 1 the playout search's games fill
    the buffer and train the network (a log row of kind 'expert'); a resumed
    run does not play them again; bad values are refused."""
    pytest.importorskip("jax")
    from boardlab.az.train import Trainer, Workers
    config = _config(expert_games=4, expert_simulations=200, expert_opening=2)
    t = Trainer(tmp_path / "run", config)
    assert t.needs_expert and not Trainer(tmp_path / "plain", _config()).needs_expert
    before = t.numpy_params()
    done: list[int] = []
    row = t.run_expert(Workers(1), done.append)
    assert row["kind"] == "expert" and row["games"] == 4 and row["samples"] == len(t.buffer) > 0
    assert sum(done) == 4 and len(done) == len(t.expert_tasks()) == 2   # a report per task
    assert row["steps"] >= 1 and t.generation == 0 and not t.needs_expert
    assert any(not np.array_equal(before[k], v) for k, v in t.numpy_params().items())
    t.checkpoint()
    resumed = Trainer(tmp_path / "run")
    assert not resumed.needs_expert and len(resumed.buffer) == len(t.buffer)
    for bad, says in ((dict(expert_games=-1), "expert_games"),
                      (dict(expert_simulations=0), "expert_simulations"),
                      (dict(expert_opening=-2), "expert_opening"),
                      (dict(expert_q=1.5), "expert_q")):
        with pytest.raises(OptionError, match=says):
            _config(**bad)


def test_a_local_pool_gives_the_generation_this_process_gives(tmp_path) -> None:
    pytest.importorskip("jax")
    from boardlab.az.train import Trainer, Workers
    t = Trainer(tmp_path / "run", _config())
    tasks = t.generation_tasks()
    pool = Workers(2)
    try:
        pooled = [s for s, _ in pool.map(self_play, tasks)]
    finally:
        pool.close()
    here = [s for s, _ in map(self_play, tasks)]
    for a, b in zip(pooled, here, strict=True):
        np.testing.assert_array_equal(a.planes, b.planes)
        np.testing.assert_array_equal(a.policy, b.policy)


# ---------------------------------------------------------------- the engine


def test_az_refuses_a_board_without_a_network() -> None:
    agent = make_agent("az:50")
    with pytest.raises(OptionError, match="no trained network for vimbre 11x11"):
        agent.choose_action(boardlab.new_game("vimbre", 11))


def test_az_refuses_weights_for_another_board(tmp_path) -> None:
    spec = _spec(4)
    w = Weights(spec, init_params(spec, np.random.default_rng(0)), {"seed": 0})
    save(tmp_path / "w.npz", w)
    back = load(tmp_path / "w.npz")
    assert back.spec == spec and back.meta == {"seed": 0}
    assert set(back.params) == set(w.params)
    head = load(tmp_path / "w.npz", params=False)        # what has_network reads
    assert head.spec == spec and head.meta == {"seed": 0} and head.params == {}
    with pytest.raises(OptionError, match="for robble 4x4, not robble 5x5"):
        AZAgent(Limit(8), weights=back).choose_action(boardlab.new_game("robble", 5))
    named = make_agent(f"az:12,net={tmp_path / 'w.npz'}", 1)   # a run's network by its path
    assert named.limit == Limit(12) and named._weights.spec == spec
    game = boardlab.new_game("robble", 4)
    assert named.choose_action(game) in game.legal_actions()
    with pytest.raises(OptionError, match="az takes net=PATH and root="):
        make_agent("az:12,c=1")
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(OptionError, match="not a boardlab network weights file"):
        load(tmp_path / "bad.npz")


def test_expert_games_come_in_small_tasks_that_add_up(tmp_path) -> None:
    """Many expert games are split into tasks of at most EXPERT_CHUNK (so
    their progress shows), at least one per task slot, every game once."""
    from boardlab.az.train import EXPERT_CHUNK, Trainer
    for games, tasks in ((4, 2), (1, 2), (10 * EXPERT_CHUNK + 3, 2), (30, 8)):
        t = Trainer(tmp_path / f"r{games}-{tasks}", _config(expert_games=games, tasks=tasks, games=8))
        sizes = [task.games for task in t.expert_tasks()]
        assert sum(sizes) == games and max(sizes) <= EXPERT_CHUNK and min(sizes) >= 1
        assert len(sizes) == min(games, max(tasks, -(-games // EXPERT_CHUNK)))
        assert len({task.seed for task in t.expert_tasks()}) == len(sizes)


def test_az_with_a_puct_root_searches_its_budget_and_plays_legal_moves(tmp_path) -> None:
    """root=puct: AlphaZero's search from the root (NetSearch) instead of
    the Gumbel root; the budget is the tree's root visits, the move one of
    the most visited, the comment its value and visits; a bad root refused."""
    spec = _spec(4)
    save(tmp_path / "w.npz", Weights(spec, init_params(spec, np.random.default_rng(0))))
    agent = make_agent(f"az:40,net={tmp_path / 'w.npz'},root=puct", 3)
    assert agent.root == "puct"
    game = boardlab.new_game("robble", 4)
    for _ in range(3):
        a = agent.choose_action(game)
        assert a in game.legal_actions()
        ns = agent._puct
        assert ns.root_visits == 40
        most = max(c.visits for c in ns.children())
        assert a in [c.action for c in ns.children() if c.visits == most]
        assert "/40" in agent.move_comment()
        game.apply_action(a)
    timed = make_agent(f"az:0.05s,net={tmp_path / 'w.npz'},root=puct", 3)
    assert timed.choose_action(game) in game.legal_actions() and timed._puct.root_visits > 1
    with pytest.raises(OptionError, match="root must be one of gumbel, puct"):
        make_agent("az:12,root=ucb")


def _trained_under(options: dict, spec) -> Weights:
    """Weights whose run says it trained under ``options`` (as Trainer.weights writes)."""
    return Weights(spec, init_params(spec, np.random.default_rng(0)),
                   {"config": {"game": spec.game, "size": spec.size, "options": options}})


def test_az_refuses_a_network_trained_under_other_rules(tmp_path) -> None:
    """A komi or pie rule the network never saw changes what a position is
    worth: az refuses, naming the option and both values; the same rules
    (defaults filled in either way) play."""
    spec = _spec(4)
    no_pie = _trained_under({"pie": False}, spec)
    with pytest.raises(OptionError, match="trained with pie=no, this game has pie=yes"):
        AZAgent(Limit(8), weights=no_pie).choose_action(boardlab.new_game("robble", 4))
    game = boardlab.new_game("robble", 4, pie=False)
    assert AZAgent(Limit(8), weights=no_pie).choose_action(game) in game.legal_actions()
    game = boardlab.new_game("robble", 4)
    assert AZAgent(Limit(8), weights=_trained_under({}, spec)).choose_action(game) in game.legal_actions()
    ycls = boardlab.game_class("yugo")
    yspec = Spec("yugo", 4, len(tensors.plane_names(ycls)), ycls.num_distinct_actions_for(4), 8, 1, 16)
    from boardlab.az.weights import mismatch
    komi = _trained_under({"komi": 3}, yspec)
    assert "komi=3, this game has komi=0" in mismatch(komi, boardlab.new_game("yugo", 4))
    assert mismatch(komi, boardlab.new_game("yugo", 4, komi=3)) is None
    from boardlab.az.netsearch import NetSearch
    with pytest.raises(OptionError, match="komi=3, this game has komi=1"):
        NetSearch(boardlab.new_game("yugo", 4, komi=1), komi)


@pytest.mark.parametrize("game,size", shipped() or [pytest.param("robble", 5, marks=pytest.mark.skip(
    reason="no shipped weights yet"))])
def test_shipped_weights_load_and_play(game: str, size: int) -> None:
    w = for_game(game, size)
    assert {"command", "seed", "commit", "generation"} <= set(w.meta)
    assert w.meta["command"].startswith("boardlab train")
    agent = make_agent("az:24", seed=0)
    g = boardlab.new_game(game, size)
    for _ in range(6):
        if g.is_over:
            break
        a = agent.choose_action(g)
        assert a in g.legal_actions()
        g.apply_action(a)


def test_net_search_serves_the_analysis_tree_protocol() -> None:
    from boardlab.ai.analysis import snapshot
    from boardlab.az.netsearch import NetSearch
    game = _position(4, 5, 4)
    spec = _spec(5)
    w = Weights(spec, init_params(spec, np.random.default_rng(0)))
    s = NetSearch(game, w, seed=2, batch=8)
    prior = s.prior()
    assert sorted(prior) == game.legal_actions() and sum(prior.values()) == pytest.approx(1.0)
    assert -1 <= s.net_value(0) == -s.net_value(1) <= 1
    done = s.run_for(Limit(100))
    assert done >= 100 and s.root_visits >= 101 and s.search.pending == 0
    an = snapshot(game, s, 0.0)
    assert an.visits == s.root_visits and an.candidates
    assert an.best is not None and an.best.action in game.legal_actions()
    assert s.best_action() in game.legal_actions()
    assert sum(c.visits for c in s.children()) == s.root_visits - 1


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_gives_the_generation_this_process_gives(tmp_path) -> None:
    pytest.importorskip("jax")
    from boardlab.az.train import Trainer, Workers
    t = Trainer(tmp_path / "run", _config(games=2, tasks=2))
    tasks = t.generation_tasks()
    remote = [s for s, _ in Workers(1, ray_address="local").map(self_play, tasks)]
    here = [s for s, _ in map(self_play, tasks)]
    for a, b in zip(remote, here, strict=True):
        np.testing.assert_array_equal(a.policy, b.policy)
        np.testing.assert_array_equal(a.z, b.z)
    # a Ray started for training runs its workers at the trainer's priority,
    # as the study's does (Ray's default niceness 15 starves them)
    ray = Workers(1, ray_address="local")._ray

    def niceness() -> int:  # (nested: Ray ships it by value)
        import os
        return os.getpriority(os.PRIO_PROCESS, 0)
    assert ray.get(ray.remote(niceness).remote()) == niceness()


def test_playing_needs_no_training_framework(tmp_path) -> None:
    """``make run`` installs no JAX: the engine, its search and a network
    file load and play without importing it."""
    import subprocess
    import sys
    spec = _spec(4)
    save(tmp_path / "w.npz", Weights(spec, init_params(spec, np.random.default_rng(0))))
    code = (
        "import sys, boardlab\n"
        "from boardlab.ai.az import AZAgent\n"
        "from boardlab.ai.limit import Limit\n"
        "from boardlab.az.weights import load\n"
        "from boardlab.az.netsearch import NetSearch\n"
        f"w = load({str(tmp_path / 'w.npz')!r})\n"
        "g = boardlab.new_game('robble', 4)\n"
        "g.apply_action(AZAgent(Limit(16), 0, weights=w).choose_action(g))\n"
        "NetSearch(g, w).run(8)\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('jax', 'optax', 'torch')]\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def _tiny_run(out, games: int, eval_every: int) -> list[str]:
    """``boardlab train`` arguments for a run of a few seconds on robble 4x4."""
    return ["train", "robble", "--size", "4", "--out", str(out), "--games", str(games),
            "--simulations", "8", "--parallel", str(games), "--channels", "8", "--blocks", "1",
            "--batch", "32", "--buffer", "500", "--workers", "1", "--quiet", "--eval-every",
            str(eval_every), "--eval-games", "2", "--eval-engines", "random", "--eval-limit", "8"]


def test_the_train_command_trains_resumes_reports_and_ships(tmp_path, monkeypatch, capsys) -> None:
    pytest.importorskip("jax")
    pytest.importorskip("matplotlib")
    from boardlab.az import weights as weights_module
    from boardlab.cli import main
    out = tmp_path / "run"
    args = _tiny_run(out, games=4, eval_every=2)
    assert main([*args, "--generations", "1"]) == 0
    assert main([*args, "--generations", "2"]) == 0          # the same command resumes
    rows = [r for r in (out / "log.jsonl").read_text().splitlines() if r]
    assert len(rows) == 3 and '"engine": "random"' in rows[-1]
    assert main(["train", "--resume", str(out), "--report", str(tmp_path / "c.png")]) == 0
    assert (tmp_path / "c.png").stat().st_size > 1000 and "| 2 |" in capsys.readouterr().out
    monkeypatch.setattr(weights_module, "SHIPPED", tmp_path / "shipped")
    assert main(["train", "--resume", str(out), "--ship"]) == 0
    w = for_game("robble", 4)
    assert w.meta["generation"] == 2 and w.meta["seed"] == 0
    assert w.meta["command"] == "boardlab train " + " ".join([*args[1:], "--generations", "1"])
    assert main(["train", "robble", "--size", "4", "--out", str(out), "--lr", "0.5"]) == 2
    assert "other settings (lr)" in capsys.readouterr().err


def test_the_train_command_trains_under_the_options_given(tmp_path, capsys) -> None:
    """--option KEY=VALUE: the run's games use it, the network says so (az
    then plays only those rules), a resume must name the same, bad ones are
    refused with the game's own message."""
    pytest.importorskip("jax")
    import json

    from boardlab.cli import main
    out = tmp_path / "run"
    args = [*_tiny_run(out, games=2, eval_every=1), "--option", "pie=no", "--generations", "1"]
    assert main(args) == 0
    assert json.loads((out / "config.json").read_text())["options"] == {"pie": False}
    w = load(out / "weights.npz")
    with pytest.raises(OptionError, match="pie=no, this game has pie=yes"):
        AZAgent(Limit(8), weights=w).choose_action(boardlab.new_game("robble", 4))
    rows = [json.loads(r) for r in (out / "log.jsonl").read_text().splitlines() if r]
    assert [r["kind"] for r in rows] == ["generation", "eval"]   # its evaluation plays those rules
    capsys.readouterr()
    assert main([*args[:-2], "--generations", "2"]) == 0 and main([*args[:-4], "--generations", "2"]) == 0
    assert main([*args[:-4], "--option", "pie=yes", "--generations", "3"]) == 2
    assert "other settings (options)" in capsys.readouterr().err
    assert main(["train", "robble", "--size", "4", "--out", str(tmp_path / "x"), "--option", "komi=3"]) == 2
    assert "robble: unknown option 'komi'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_the_train_command_plays_the_expert_games_first(tmp_path, capsys) -> None:
    pytest.importorskip("jax")
    pytest.importorskip("matplotlib")
    import json

    from boardlab.cli import main
    out = tmp_path / "run"
    args = [*_tiny_run(out, games=2, eval_every=1), "--expert-games", "2",
            "--expert-simulations", "50", "--generations", "1"]
    assert main(args) == 0
    assert main(args) == 0   # resumed: nothing more to do, no second expert stage
    rows = [json.loads(r) for r in (out / "log.jsonl").read_text().splitlines() if r]
    assert [r["kind"] for r in rows] == ["expert", "eval", "generation", "eval"]
    assert rows[1]["generation"] == 0
    assert main(["train", "--resume", str(out), "--report", str(tmp_path / "c.png")]) == 0
    assert "| 0 (expert games) |" in capsys.readouterr().out


def test_with_network_plays_the_network_only_where_one_is_shipped(tmp_path, monkeypatch) -> None:
    from boardlab.ai.az import WithNetwork
    from boardlab.az import weights as weights_module
    from boardlab.az.netsearch import has_network
    spec = _spec(4)
    monkeypatch.setattr(weights_module, "SHIPPED", tmp_path)
    save(tmp_path / "robble-4.npz", _trained_under({"pie": True}, spec))
    agent = WithNetwork(AZAgent(Limit(16), 0), make_agent("mcts:50", 0))
    for size, used in ((4, agent.net), (5, agent.other)):
        game = boardlab.new_game("robble", size)
        assert agent.pick(game) is used
        assert agent.choose_action(game) in game.legal_actions()
        assert agent.move_comment() is not None
    game = boardlab.new_game("robble", 4, pie=False)   # rules the network never saw
    assert agent.pick(game) is agent.other and not has_network("robble", 4, game)
    assert has_network("robble", 4) and has_network("robble", 4, boardlab.new_game("robble", 4))
    assert agent.limit == agent.other.limit        # the rest is the other agent's
    agent.clock = time.thread_time
    assert agent.net.clock is agent.other.clock is time.thread_time


@pytest.mark.parametrize("index", [0, 1])
def test_an_evaluation_game_is_the_one_loops_game_with_the_network_as_a(index) -> None:
    """``play_eval_game`` plays through :func:`boardlab.ai.selfplay.play`: the
    network sits where a match seats engine A (seat 0 in even games), and its
    score is what a plain move-by-move loop over the same agents gives."""
    from boardlab.ai.engines import make_engine
    from boardlab.az.evaluate import EvalTask, play_eval_game
    spec = _spec(4)
    w = Weights(spec, init_params(spec, np.random.default_rng(0)))
    task = EvalTask(w, {}, "random", "8", index, seed=5, clock="wall")
    got = play_eval_game(task)
    game = boardlab.new_game("robble", 4)
    net = AZAgent(Limit(8), task.seed, weights=w)
    other = make_engine("random", task.seed + 1)
    by_seat = [net, other] if index % 2 == 0 else [other, net]
    while not game.is_over:
        game.apply_action(by_seat[game.seat_of(game.to_move)].choose_action(game))
    winner = game.outcome.winner
    want = 0.5 if winner == "draw" else float(by_seat[game.seat_of(winner)] is net)
    assert (got["score"], got["plies"]) == (want, len(game))
    assert got["cpu"] > 0
