"""The one search (boardlab.fast.search, engine name ``mcts``), for every game.

Correctness, not choices: every move legal, the tree's visit counts add up
in every evaluator mode, a move that wins at once is proven, the same seed
and simulation budget replay, a kept tree moves its root to the position
reached, and an outside (batched) evaluator's priors and values land where
they should, with every virtual loss taken back.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab import OptionError
from boardlab.ai import make_agent
from boardlab.ai.limit import Limit
from boardlab.fast import advice
from boardlab.fast.search import Search, Settings, kernel_state
from conftest import own_playout


def _random_positions(name: str, count: int, seed: int, size: int = 5):
    """Positions met along seeded random games (not over)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = boardlab.new_game(name, size)
        while not game.is_over and len(out) < count:
            if rng.random() < 0.3:
                out.append(game.copy())
            game.apply_action(rng.choice(game.legal_actions()))
    return out


def _winning_moves(game) -> list[int]:
    mover = game.current_player
    wins = []
    for a in game.legal_actions():
        g = game.copy()
        g.apply_action(a)
        if g.is_over and g.returns()[mover] > 0:
            wins.append(a)
    return wins


def _chooser_sign(s: Search, node: int, e: int) -> float:
    """+1 if color 0 owns edge ``e`` of ``node`` (its mover, or the other
    color for the swap), else -1: the sign of a mean return for its chooser."""
    chooser = int(s.tree.player[node]) ^ (int(s.tree.action[e]) == s.swap)
    return 1.0 if chooser == 0 else -1.0


def _check_tree(s: Search, game) -> None:
    """Visits add up at the root and at every expanded node below it, each
    node's children are legal moves there, values lie in [-1, 1]."""
    t = s.tree
    legal = set(game.legal_actions())
    kids = s.children()
    assert {c.action for c in kids} <= legal
    if s.settings.maxkids == 0:
        assert {c.action for c in kids} == legal
    if s.proven == -1:  # (an external evaluator's root evaluation has no child)
        assert sum(c.visits for c in kids) <= s.root_visits <= sum(c.visits for c in kids) + 1
    for c in kids:
        assert -1.0 <= c.value <= 1.0
    for node in range(1, int(t.meta[0])):
        f, tried = int(t.first[node]), int(t.tried[node])
        if f >= 0 and tried:
            below = sum(t.en[f:f + tried])
            assert below <= t.n[node] <= below + 1
            for e in range(f, f + tried):
                assert t.n[t.child[e] - 1] == t.en[e]
    if s.settings.evaluator != "external":  # the simulation loop's cache of UCB1's terms
        for node in range(int(t.meta[0])):
            f, tried = int(t.first[node]), int(t.tried[node])
            for e in range(f, f + tried) if f >= 0 else ():
                sign = _chooser_sign(s, node, e)
                assert t.eq[e, 0] == pytest.approx(sign * t.ew[e] / t.en[e], abs=1e-12)
                assert t.eq[e, 1] == pytest.approx(t.en[e] ** -0.5, abs=1e-12)
    if s.settings.grave:  # all-moves-as-first: once a simulation through the node, at
        for node in range(int(t.meta[0])):  # least each time its edge was taken
            f, k = int(t.first[node]), int(t.kids[node])
            for e in range(f, f + k) if f >= 0 else ():
                assert t.amaf[e, 0] <= t.n[node]
                assert abs(t.amaf[e, 1]) <= t.amaf[e, 0]
                if int(t.action[e]) != s.swap and e < f + int(t.tried[node]):
                    assert t.amaf[e, 0] >= t.en[e]


MODES = {
    "plain": Settings(),
    "priors": Settings(priors=True, cpuct=1.0, c=0.3, fpu_red=0.2, maxkids=30),
    "implicit": Settings(implicit=0.3, score=0.5),
    "heuristic": Settings(evaluator="heuristic", c=0.5),
    "cutoff": Settings(cutoff=6),
    "mast": Settings(evaluator="mast", mast_eps=0.2),
    "nst": Settings(evaluator="nst", mast_eps=0.2),
    "nst_plies": Settings(evaluator="nst", mast_eps=0.2, mast_plies=2, grave=True, grave_ref=5),
    "policy": Settings(evaluator="policy"),
    "solver": Settings(solver=True),
    "grave": Settings(grave=True, grave_ref=5),
    "grave_policy": Settings(grave=True, grave_ref=5, evaluator="policy", c=0.2),
    "grave_solver": Settings(grave=True, grave_ref=5, solver=True),
    "forced": Settings(forced=True, solver=True, grave=True, grave_ref=5),
    "grave_max": Settings(grave=True, grave_ref=5, grave_max=40, solver=True),
}


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name", boardlab.GAMES)
def test_every_mode_keeps_the_tree_consistent(name: str, mode: str) -> None:
    for game in _random_positions(name, 3, seed=1):
        s = Search(game, MODES[mode], seed=2)
        done = s.run(300)
        assert done == 300 or s.proven != -1
        _check_tree(s, game)
        assert s.best_action() in game.legal_actions()
        pv = s.principal_variation(s.best_action())
        replay = game.copy()
        for a in pv:  # a principal variation is a legal line
            assert a in replay.legal_actions()
            replay.apply_action(a)
            if replay.is_over:
                break


def _forced_leaves(s: Search, game) -> int:
    """How many unexpanded nodes of the tree have a single legal move (each
    node's position replayed from the root along its edges)."""
    t = s.tree
    count = 0
    for node in range(int(t.meta[0])):
        if int(t.first[node]) >= 0 or int(t.player[node]) < 0:
            continue
        line, i = [], node
        while i != s.root:
            line.append(int(t.action[t.pedge[i]]))
            i = int(t.parent[i])
        g = game.copy()
        for a in reversed(line):
            g.apply_action(a)
        count += len(g.legal_actions()) == 1
    return count


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_forced_moves_are_passed_through_in_the_same_simulation(name: str) -> None:
    """With ``forced``, no leaf of the tree is a position with one legal
    move; without it, implo's single resolutions leave such leaves (so the
    check can fail)."""
    without = 0
    for game in _random_positions(name, 4, seed=3):
        s = Search(game, Settings(forced=True), seed=2)
        s.run(400)
        _check_tree(s, game)
        assert _forced_leaves(s, game) == 0
        if name == "implo":
            plain = Search(game, Settings(), seed=2)
            plain.run(400)
            without += _forced_leaves(plain, game)
    assert without > 0 or name != "implo"


@pytest.mark.parametrize("grave", [False, True])
@pytest.mark.parametrize("name", boardlab.GAMES)
def test_a_move_that_wins_at_once_is_proven_and_played(name: str, grave: bool) -> None:
    found = 0
    rng = random.Random(5)
    for _ in range(60):
        game = boardlab.new_game(name, 4)
        while not game.is_over:
            wins = _winning_moves(game)
            if wins:
                s = Search(game, Settings(solver=True, grave=grave, grave_ref=5), seed=found)
                s.run(4 * len(game.legal_actions()) + 50)
                assert s.proven == game.current_player, game.position()
                assert s.best_action() in wins, game.position()
                found += 1
                break
            game.apply_action(rng.choice(game.legal_actions()))
        if found >= 6:
            break
    assert found >= 3, f"too few immediate wins met in {name}: {found}"


@pytest.mark.parametrize("name", ["robble", "yugo", "vimbre"])
def test_same_seed_and_budget_replay(name: str) -> None:
    lines = []
    for _ in range(2):
        game = boardlab.new_game(name, 5)
        agent = make_agent("mcts:200", seed=7)
        while not game.is_over and len(game) < 8:
            game.play(agent.choose(game))
        lines.append(game.history)
    assert lines[0] == lines[1]


def test_the_kept_tree_follows_the_game_and_refuses_another() -> None:
    game = boardlab.new_game("robble", 5)
    s = Search(game, seed=1)
    s.run(2000)
    a = s.best_action()
    reply = max(s.children(s.child_node(s.root, a)), key=lambda c: c.visits)
    game.apply_action(a)
    game.apply_action(reply.action)
    assert s.advance(game)
    assert s.root_visits == reply.visits and s.game.history == game.history
    s.run(100)
    assert s.best_action() in game.legal_actions()
    other = boardlab.new_game("robble", 5)
    other.apply_action(other.legal_actions()[-1])
    assert not s.advance(other)                 # a different line
    assert not s.advance(boardlab.new_game("robble", 6))  # another size
    assert s.game.history == game.history      # refused: nothing changed


def test_an_agent_reuses_its_tree_between_moves() -> None:
    game = boardlab.new_game("robble", 5)
    agent = make_agent("mcts:3000", seed=3)
    game.play(agent.choose(game))
    tree = agent._tree
    game.apply_action(game.legal_actions()[0])
    game.play(agent.choose(game))
    # either the opponent's move was in the tree (kept) or it was not (a new tree)
    assert agent._tree is tree or agent._tree.root == 0
    assert agent.info.simulations == 3000


def test_a_finished_game_and_bad_settings_are_refused() -> None:
    game = boardlab.new_game("robble", 4)
    while not game.is_over:
        game.apply_action(game.legal_actions()[0])
    with pytest.raises(OptionError, match="over"):
        Search(game)
    for spec, says in (("mcts:10,c=-1", "c "), ("mcts:10,fpu=3", "fpu"),
                       ("mcts:10,reuse=maybe", "yes or no"), ("mcts:10,evaluator=nn", "evaluator"),
                       ("mcts:10,rave=1", "unknown engine option 'rave'"),
                       ("mcts:10,threads=0", "threads"), ("mcts:10,threads=two", "two"),
                       ("mcts:10,maxkids=-1", "maxkids"), ("mcts:10,grave_bias=-1", "grave_bias"),
                       ("mcts:10,grave_ref=-5", "grave_ref"), ("mcts:10,grave_max=-1", "grave_max"),
                       ("mcts:10,grave=often", "yes or no"),
                       ("mcts:10,grave=yes,evaluator=external", "grave needs"),
                       ("mcts:10,forced=yes,evaluator=external", "forced passes"),
                       ("mcts:10,forced=sometimes", "yes or no"),
                       ("mcts:10,leaf_playouts=0", "leaf_playouts"),
                       ("mcts:10,mast_plies=-1", "mast_plies"), ("mcts:10,mast_plies=ten", "ten"),
                       ("mcts:10,leaf_playouts=2,evaluator=heuristic", "leaf_playouts averages")):
        with pytest.raises(OptionError, match=says):
            make_agent(spec)


@pytest.mark.parametrize("name", ["robble", "yugo", "vimbre"])
def test_root_parallel_trees_read_as_one(name: str) -> None:
    """threads=N: the trees' counts add up, the merged children are each
    legal move once with visit-weighted values, and the move is legal; a
    simulation budget is shared out (each tree gets its part)."""
    from boardlab.fast.search import RootParallel
    for game in _random_positions(name, 3, seed=3):
        agent = make_agent("mcts:600,threads=3,knowledge=no", seed=1)
        action = agent.choose(game)
        assert action in game.legal_moves()
        s = agent.search(game)   # the trees, kept, searched once more
        assert isinstance(s, RootParallel) and len(s.trees) == 3
        kids = s.children()
        assert [c.action for c in kids] == sorted(set(game.legal_actions()))
        assert sum(c.visits for c in kids) == sum(sum(c.visits for c in t.children())
                                                  for t in s.trees)
        if s.proven == -1:
            assert s.root_visits == sum(t.root_visits for t in s.trees) == s.simulations
            assert all(t.simulations >= 200 for t in s.trees)
        for c in kids:
            assert -1.0 <= c.value <= 1.0
        assert s.best_action() in game.legal_actions()


# ---------------------------------------------------------------- priors and advice
def test_vimbre_priors_order_the_children_and_maxkids_keeps_the_best() -> None:
    game = _random_positions("vimbre", 1, seed=2, size=9)[0]
    s = Search(game, Settings(priors=True, maxkids=25, cpuct=1.0, fpu_red=0.2), seed=1)
    s.run(1)
    t = s.tree
    f, k = int(t.first[0]), int(t.kids[0])
    assert k == 25 and int(t.nlegal[0]) == len(game.legal_actions()) > 25
    priors = t.prior[f:f + k]
    assert np.all(np.diff(priors) <= 1e-6) and abs(float(priors.sum()) - 1) < 1e-5
    # the kept moves are the best-scored legal moves
    from boardlab.fast.search import kernel_state
    state, req = kernel_state(game)
    legal = np.array(game.legal_actions(), dtype=np.int64)
    scores = np.zeros(len(legal))
    advice.plugin_module("vimbre").PRIOR(state, legal, len(legal), scores)
    kept = {int(a) for a in t.action[f:f + k]}
    worst_kept = min(scores[i] for i, a in enumerate(legal) if int(a) in kept)
    best_dropped = max(scores[i] for i, a in enumerate(legal) if int(a) not in kept)
    assert worst_kept >= best_dropped


def test_best_first_keeps_the_highest_scores_in_order() -> None:
    """The allocation-free selection the expansion orders moves by: for
    random scores (ties included), the kept indices are the ``keep`` best,
    highest first, each once."""
    from boardlab.fast._select import _best_first
    rng = np.random.default_rng(3)
    for _ in range(300):
        k = int(rng.integers(1, 120))
        keep = int(rng.integers(1, k + 1))
        scores = rng.integers(0, 12, size=k + 5).astype(np.float64)  # many ties
        out = np.full(k + 5, -1, dtype=np.int64)
        _best_first(scores, k, keep, out)
        got = out[:keep]
        assert len(set(got.tolist())) == keep and got.min() >= 0 and got.max() < k
        assert np.all(np.diff(scores[got]) <= 0)  # highest first
        assert np.array_equal(np.sort(scores[got]), np.sort(scores[:k])[k - keep:])


def test_leaf_playouts_average_several_playouts_a_leaf() -> None:
    """leaf_playouts=N: each simulation's value is the mean of N playouts, so
    with N = 4 the moves' summed returns are multiples of 1/4, and some fall
    between the integers that one playout a leaf always gives."""
    game = _random_positions("robble", 1, seed=5, size=5)[0]

    def sums(settings: Settings) -> np.ndarray:
        s = Search(game, settings, seed=2)
        s.run(400)
        assert s.root_visits == 400 and s.best_action() in game.legal_actions()
        return np.array([c.returns[0] * c.visits for c in s.children()])

    one = sums(Settings(evaluator="policy"))
    assert np.allclose(one, np.round(one))
    four = sums(Settings(evaluator="policy", leaf_playouts=4))
    assert np.allclose(four * 4, np.round(four * 4)) and not np.allclose(four, np.round(four))


def test_unvisited_children_are_taken_in_prior_order() -> None:
    game = _random_positions("vimbre", 1, seed=4, size=7)[0]
    s = Search(game, Settings(priors=True, cpuct=2.0, c=0.0, fpu_red=0.0, maxkids=40), seed=3)
    s.run(200)
    t = s.tree
    f, tried = int(t.first[0]), int(t.tried[0])
    # the visited children are a prefix of the prior order
    assert all(t.child[f + j] > 0 for j in range(tried))
    assert all(t.child[f + j] == 0 for j in range(tried, int(t.kids[0])))


def test_each_game_advice_table_points_at_its_plug_in() -> None:
    for name in boardlab.GAMES:
        a = advice.advice(name)
        module = advice.plugin_module(name)
        assert a.has_prior == hasattr(module, "PRIOR")
        assert a.has_evaluate == hasattr(module, "EVALUATE")
        Settings(**a.settings)  # a game's settings are valid settings


# ---------------------------------------------------------------- external evaluation
@pytest.mark.parametrize("name", boardlab.GAMES)
def test_an_outside_evaluator_drives_the_search(name: str) -> None:
    """collect() hands out distinct waiting leaves with virtual losses,
    deliver() expands them with the given priors and backs their values up:
    afterwards no virtual loss remains (the visits add up) and a child's
    value is exactly the values delivered below it."""
    game = _random_positions(name, 1, seed=6)[0]
    s = Search(game, Settings(evaluator="external", cpuct=1.5, c=0.0, fpu_red=0.3,
                              solver=False), seed=4)
    rng = np.random.default_rng(0)
    num = game.num_distinct_actions
    delivered = 0
    for _ in range(30):
        states, nodes = s.collect(8)
        assert len(set(nodes.tolist())) == len(nodes) == s.pending
        if not len(nodes):
            break
        values = rng.uniform(-1, 1, len(nodes))
        priors = rng.dirichlet(np.ones(num), len(nodes))
        s.deliver(states, nodes, values, priors)
        delivered += len(nodes)
        assert s.pending == 0
    assert delivered >= 30
    _check_tree(s, game)
    # the root's edges carry the priors delivered for the root, best first
    t = s.tree
    f, k = int(t.first[0]), int(t.kids[0])
    assert k == len(game.legal_actions())
    assert np.all(np.diff(t.prior[f:f + k]) <= 1e-6)
    assert s.best_action() in game.legal_actions()


def test_a_forced_root_move_is_the_first_step_of_every_path() -> None:
    game = boardlab.new_game("robble", 5)
    s = Search(game, Settings(evaluator="external", cpuct=1.0), seed=1)
    num = game.num_distinct_actions
    states, nodes = s.collect(1)
    s.deliver(states, nodes, np.zeros(1), np.full((1, num), 1 / num))
    target = game.legal_actions()[-1]
    for _ in range(5):
        states, nodes = s.collect(1, force=target)
        assert len(nodes) == 1
        s.deliver(states, nodes, np.zeros(1), np.full((1, num), 1 / num))
    node = s.child_node(s.root, target)
    assert node is not None and s.tree.n[node] == 5


def test_run_refuses_an_external_search_and_collect_a_playout_one() -> None:
    game = boardlab.new_game("robble", 5)
    with pytest.raises(OptionError, match="collect"):
        Search(game, Settings(evaluator="external")).run(10)
    with pytest.raises(OptionError, match="external"):
        Search(game).collect(4)


def test_a_search_keeps_to_its_simulation_budget() -> None:
    game = boardlab.new_game("pilo", 6)
    s = Search(game, seed=1)
    assert s.run_for(Limit(777)) == 777 == s.simulations


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_every_game_is_searched_from_a_set_up_position(name: str) -> None:
    """A position given as text (the board editor, analysis by link) has no
    history: the kernel loads it (``from_game``) and, with the moves played
    after it, stays the Python engine's game ply by ply, repetitions included."""
    from boardlab.fast.kernels import kernel
    k = kernel(name)
    rng = random.Random(3)
    checked = 0
    for start in _random_positions(name, 8, seed=11, size=4 if name != "vimbre" else 5):
        game = boardlab.from_position(start.position())
        while not game.is_over:
            state, _ = kernel_state(game)
            buf = np.zeros(game.num_distinct_actions + 1, dtype=np.int64)
            count = k.legal_actions(state, buf)
            assert sorted(buf[:count].tolist()) == sorted(game.legal_actions()), game.position()
            assert k.current_player(state) == game.current_player
            checked += 1
            game.apply_action(rng.choice(game.legal_actions()))
        state, _ = kernel_state(game)
        winner, _ = k.outcome(state, np.zeros(2))
        assert winner == {"draw": 2, **{c: i for i, c in enumerate(game.colors)}}[game.outcome.winner]
    assert checked > 20
    s = Search(boardlab.from_position(start.position()), seed=1)
    s.run(50)
    assert s.best_action() in start.legal_actions()


def test_all_moves_as_first_counts_each_movers_later_actions_once() -> None:
    """GRAVE's backup, on a hand-built path: a node counts the actions its
    own mover played at it or later (a repeat once, the swap never)."""
    from boardlab.fast import _select, _tree
    t = _tree.Tree(16, 16, 8, 4)
    swap = 5
    # node 0 (color 0 to move): actions 1, 2, 3; node 1 (color 1): 1, 2, 4, 5
    for node, mover, first, acts in ((0, 0, 0, (1, 2, 3)), (1, 1, 3, (1, 2, 4, 5))):
        t.player[node], t.first[node], t.kids[node] = mover, first, len(acts)
        t.action[first:first + len(acts)] = acts
    t.first[2] = -1  # the new leaf: not expanded, counts nothing
    path = np.array([0, 1, 2], dtype=np.int64)
    played = [(2, 0), (5, 1), (3, 0), (1, 1), (3, 0), (2, 1), (4, 1)]
    for i, (a, p) in enumerate(played):
        t.seq[0, i], t.seq[1, i] = a, p
    for r0 in (1.0, -0.5):
        _select._amaf_update(path, 2, t.seq, len(played), r0, swap, t.first, t.kids, t.player,
                             t.action, t.amaf, t.gtab, t.meta)
    counts = {(e, int(t.action[e])): t.amaf[e, 0] for e in range(7)}
    # node 0: color 0 played 2 and 3 (3 twice), never 1
    assert counts[(0, 1)] == 0 and counts[(1, 2)] == 2 and counts[(2, 3)] == 2
    # node 1, from its own move on: color 1 played the swap (not counted), 1, 2 and 4
    assert counts[(3, 1)] == 2 and counts[(4, 2)] == 2 and counts[(5, 4)] == 2
    assert counts[(6, 5)] == 0
    assert t.amaf[1, 1] == pytest.approx(0.5)


def test_nst_counts_each_action_and_each_reply_for_its_mover() -> None:
    """NST's backup on a hand-built simulation: every action counts once
    more for its mover (MAST's 1-grams), and every action after the first
    counts as the reply to the one before it; an action's value averages in
    the reply's mean only once the pair has NST_MIN_VISITS visits."""
    from boardlab.fast import _leaf, _tree
    t = _tree.Tree(16, 16, 8, 4, nst=True)
    num = 9  # 8 actions + 1, as a tree sizes its MAST row
    assert t.mast.shape == (2, 2, num + _tree.NST_SLOTS)
    played = [(2, 0), (5, 1), (3, 0), (2, 1)]
    for i, (a, p) in enumerate(played):
        t.seq[0, i], t.seq[1, i] = a, p
    _leaf._mast_update(t.mast, t.seq, len(played), 1.0, True)   # color 0 won
    m = t.mast
    assert m[0, 0, 2] == 1 and m[0, 1, 2] == 1 and m[1, 0, 2] == 1 and m[1, 1, 2] == -1
    assert m[1, 1, 5] == -1 and m[0, 1, 3] == 1
    # (prev, action): the reply's mover and its return
    pairs = {(2, 5): (1, -1.0), (5, 3): (0, 1.0), (3, 2): (1, -1.0)}
    for (prev, a), (p, r) in pairs.items():
        slot = _leaf._nst_slot(prev, a, num)
        assert num <= slot < num + _tree.NST_SLOTS
        assert m[p, 0, slot] == 1 and m[p, 1, slot] == r
    assert m[:, 0, num:].sum() == len(played) - 1     # three pairs in four actions
    # color 0's value of 3 after 5: its 1-gram mean (1.0) while the pair 5 -> 3
    # has fewer than 7 visits; then the mean of the two (the pair's is -1: 0.0)
    slot = _leaf._nst_slot(5, 3, num)
    assert _leaf._action_value(m, 0, 3, 5, num, True) == 1.0
    m[0, 0, slot], m[0, 1, slot] = _tree.NST_MIN_VISITS, -_tree.NST_MIN_VISITS
    assert _leaf._action_value(m, 0, 3, 5, num, True) == 0.0
    assert _leaf._action_value(m, 0, 3, 5, num, False) == 1.0   # MAST alone
    assert _leaf._action_value(m, 0, 3, -1, num, True) == 1.0   # no action before
    assert _leaf._action_value(m, 0, 7, 5, num, True) == 1.0    # untried: optimistic
    without = _leaf._mast_update
    t2 = _tree.Tree(16, 16, 8, 4)
    t2.seq[:] = t.seq
    without(t2.mast, t2.seq, len(played), 1.0, False)
    assert t2.mast.shape == (2, 2, num) and (t2.mast == m[:, :, :num]).all()


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_mast_plies_hands_the_playout_on_and_still_counts_every_ply(name: str) -> None:
    """``mast_plies``: NST chooses a playout's first plies only and the
    kernel's uniform playout finishes the game; the backup still counts
    every ply of it (the whole playout recorded with its movers), so the
    statistics grow as fast as without the limit."""
    from boardlab.fast import _tree
    sims = 50
    for plies in (0, 1):
        s = Search(boardlab.new_game(name, 5), Settings(evaluator="nst", mast_plies=plies), seed=1)
        assert s.run(sims) == sims
        num = s.tree.mast.shape[2] - _tree.NST_SLOTS
        ones, pairs = s.tree.mast[:, 0, :num].sum(), s.tree.mast[:, 0, num:].sum()
        # no 5x5 game ends within a few plies of the root: each simulation
        # counted far more than the tree's plies and the one NST ply
        assert ones > 5 * sims
        assert pairs == ones - sims   # every ply after a simulation's first


def _hands_the_turn_over(kernel, state, a: int, swap) -> bool:
    """Apply ``a``: whether the other color moves next (the same one after the
    swap), or the game is over."""
    p = kernel.current_player(state)
    kernel.apply(state, a)
    return kernel.current_player(state) in (-1, p if a == swap else 1 - p)


def test_a_kernel_that_says_its_turns_alternate_does() -> None:
    """``ALTERNATES``: after every action but the swap the other color moves
    (GRAVE reads who played each ply of a playout from that alone)."""
    from boardlab.fast._resolve import resolve
    declared = 0
    for name in boardlab.GAMES:
        g = resolve(name, None, {})
        if not getattr(g.kernel, "ALTERNATES", False):
            continue
        declared += 1
        swap = boardlab.new_game(name).swap_action
        rng = random.Random(3)
        buf = np.zeros(g.num_actions + 1, dtype=np.int64)
        for _ in range(40):
            state = np.zeros(g.state_len, dtype=np.int64)
            g.kernel.init(state, g.size, g.opts)
            while g.kernel.current_player(state) >= 0:
                a = int(buf[rng.randrange(g.kernel.legal_actions(state, buf))])
                assert _hands_the_turn_over(g.kernel, state, a, swap), (name, a)
    assert declared >= 1


def test_a_playout_that_says_its_turns_alternate_does() -> None:
    """``POLICY_ALTERNATES``: the game's playout, from positions of random
    games (yugo's marking and answering phases among them), hands the turn
    over at every ply but the swap, replayed on the kernel."""
    from boardlab.fast._rng import new_rng
    declared = 0
    for name in boardlab.GAMES:
        if not advice.advice(name).for_state(5, "policy")[1].policy_alternates:
            continue
        declared += 1
        swap = boardlab.new_game(name).swap_action
        rng = random.Random(5)
        for trial in range(120):
            g = boardlab.new_game(name)
            depth = rng.randrange(0, 4 * g.n_points)
            while not g.is_over and len(g.action_history) < depth:
                g.apply_action(rng.choice(g.legal_actions()))
            if g.is_over:
                continue
            playout, state, kernel = own_playout(g)
            record = np.zeros(64 * g.n_points, dtype=np.int64)
            plies = playout(state.copy(), new_rng(trial), record)
            for a in record[:plies]:
                assert _hands_the_turn_over(kernel, state, int(a), swap), (name, a)
    assert declared >= 1


@pytest.mark.parametrize("name, evaluator", [("pilo", "playout"), ("robble", "policy"),
                                             ("vimbre", "playout"), ("yugo", "policy")])
def test_grave_reads_the_same_movers_off_alternating_turns_as_by_replay(name: str,
                                                                         evaluator: str) -> None:
    """GRAVE learns who played each playout ply from the record alone where
    the kernel's turns alternate, else by replaying the record on a copy of
    its start. On a kernel that alternates, both give the same statistics
    (the swap, which keeps the mover, included: searched from the position
    where it is legal); yugo's own playout alternates where its kernel does not."""
    from boardlab.fast import _tree
    g = boardlab.new_game(name)
    g.apply_action(g.legal_actions()[0])
    trees = []
    for alternates in (1.0, 0.0):
        s = Search(g, Settings(grave=True, grave_ref=5, evaluator=evaluator, nodes=20_000,
                               edges=400_000), seed=4)
        assert s.params[_tree.P_ALTERNATES] == 1.0
        s.params[_tree.P_ALTERNATES] = alternates
        s.run(300)
        trees.append(s.tree)
    a, b = trees
    assert a.meta[1] == b.meta[1] > 0
    assert np.array_equal(a.amaf, b.amaf) and np.array_equal(a.en, b.en)
    assert a.amaf[:, 0].sum() > 0


def _root_choices(s: Search) -> tuple[int, int]:
    """The root edge plain UCB1 takes next and the one GRAVE takes (the root
    is its own reference), from the tree's statistics: the rules of
    ``_select`` and ``_select_grave`` written out in Python."""
    t, root, c = s.tree, s.root, s.settings.c
    f, k = int(t.first[root]), int(t.kids[root])
    logn = c * np.sqrt(np.log(t.n[root] + 1.0))
    plain, grave = [], []
    for e in range(f, f + k):
        sign = _chooser_sign(s, root, e)
        nj = t.en[e]
        q = sign * t.ew[e] / nj
        plain.append(q + logn / np.sqrt(nj + 1e-9))
        na = t.amaf[e, 0] if int(t.action[e]) != s.swap else 0.0
        v = q + (sign * t.amaf[e, 1] - na * q) / (na + nj + s.settings.grave_bias * na * nj) \
            if na > 0 else q
        grave.append(v + logn / np.sqrt(nj + 1.0))
    return f + int(np.argmax(plain)), f + int(np.argmax(grave))


@pytest.mark.parametrize("grave_max", [0, 200])
def test_a_node_past_grave_max_visits_selects_by_its_own_means(grave_max: int) -> None:
    """With ``grave_max``, a node with more visits than that and every move
    tried (here the root) takes the move plain UCB1 takes, not GRAVE's
    blend; without it (0) GRAVE's. Both rules are recomputed here from the
    tree, and the two disagree on some simulations, so the check can fail."""
    game = boardlab.new_game("pilo", 5)
    game.apply_action(game.legal_actions()[3])
    s = Search(game, Settings(grave=True, grave_ref=5, grave_max=grave_max), seed=3)
    s.run(400)
    t = s.tree
    f, k = int(t.first[0]), int(t.kids[0])
    assert int(t.tried[0]) == k and t.n[0] > 200
    differ = 0
    for _ in range(200):
        plain, grave = _root_choices(s)
        differ += plain != grave
        before = t.en[f:f + k].copy()
        s.run(1)
        taken = f + int(np.flatnonzero(t.en[f:f + k] != before)[0])
        assert taken == (plain if grave_max else grave)
    assert differ > 0


def _vm_flags(arr: np.ndarray) -> set[str] | None:
    """The kernel's VmFlags of the mapping holding the middle of ``arr``
    (``hg``: huge pages asked for, ``nh``: refused); None where not told."""
    address = arr.ctypes.data + arr.nbytes // 2
    try:
        lines = open("/proc/self/smaps").read().splitlines()
    except OSError:
        return None
    inside = False
    for line in lines:
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            lo, _, hi = head.partition("-")
            inside = int(lo, 16) <= address < int(hi, 16)
        elif inside and head == "VmFlags:":
            return set(line.split()[1:])
    return None


def test_tree_arrays_are_zeroed_writable_and_kept_off_huge_pages() -> None:
    """small_pages: what np.zeros gives (shape, dtype, zeros, writable,
    contiguous, structured fields too), but where NumPy asks Linux for 2 MB
    pages for np.zeros' memory these refuse them (docs/ai.md: a growing
    tree's rows should find their page just zeroed, in the cache)."""
    from boardlab.fast._tree import EDGE_ROW, Tree, small_pages
    a = small_pages((1 << 19, 2), np.float64)
    assert a.shape == (1 << 19, 2) and a.dtype == np.float64
    assert a.flags.c_contiguous and a.flags.writeable and not a.any()
    a[12345, 1] = 2.5
    assert a.sum() == 2.5
    rows = small_pages(1 << 18, EDGE_ROW)
    rows["child"][7] = 3
    assert rows["child"].sum() == 3 and rows["en"].sum() == 0.0
    assert small_pages(10, np.int64).tolist() == [0] * 10   # small: plain zeros
    tree = Tree(1 << 16, 1 << 20, 50, 100)
    plain = np.zeros((1 << 20, 2), dtype=np.float64)
    if "hg" not in (_vm_flags(plain) or set()):
        pytest.skip("NumPy asks for no huge pages here")
    for arr in (a, rows, tree.eq, tree._edges, tree.prior, tree._nodes):
        assert "nh" in (_vm_flags(arr) or set())


# ---------------------------------------------------------------- transpositions
KEYED = ("implo", "pilo", "robble")  # the games whose search state has position_key


def _key(game) -> int:
    """The position key of ``game`` on the state its search plays on (robble
    up to 8x8: its own search state; above, and the other games: the kernel's)."""
    from boardlab.fast.search import search_state
    state, module, _, _ = search_state(game, "policy")
    return int(module.position_key(state))


@pytest.mark.parametrize("name", KEYED)
def test_position_keys_tell_positions_apart_whatever_the_move_order(name: str) -> None:
    """Over the positions of many random games (5x5, the default size and
    9x9, where robble's search leaves its own state for the kernel's; a tree
    has one size), two positions share a key exactly when they are
    the same position (the text of ``position()``: the board, the mover and
    the game's state), and the key is never 0 (an empty slot of the
    search's table)."""
    rng = random.Random(11)
    for size in (5, None, 9):
        by_key: dict[int, str] = {}
        by_position: dict[str, int] = {}
        for _ in range(40):
            game = boardlab.new_game(name, size)
            while not game.is_over:
                key, pos = _key(game), game.position()
                assert key != 0
                assert by_key.setdefault(key, pos) == pos, (pos, by_key[key])
                assert by_position.setdefault(pos, key) == key, pos
                game.apply_action(rng.choice(game.legal_actions()))
        assert len(by_key) > 1000
        assert len(by_key) == len(by_position)


def test_the_same_stones_by_another_move_order_give_the_same_key() -> None:
    """Robble 7x7: black a1, white d4, black g7 and black g7, white d4, black
    a1 (three stones too far apart to push each other) reach one position,
    hence one key; a different third stone does not."""
    def line(*moves: str):
        game = boardlab.new_game("robble", 7)
        for m in moves:
            game.play(m)
        return game
    one, two = line("a1", "d4", "g7"), line("g7", "d4", "a1")
    assert one.position() == two.position()
    assert _key(one) == _key(two)
    assert _key(line("a1", "d4", "g6")) != _key(one)


def _incoming(s: Search) -> dict[int, list[int]]:
    """Each node's edges in (a transposition has several)."""
    t = s.tree
    into: dict[int, list[int]] = {}
    for node in range(int(t.meta[0])):
        f = int(t.first[node])
        for e in range(f, f + int(t.tried[node])) if f >= 0 else ():
            into.setdefault(int(t.child[e]) - 1, []).append(e)
    return into


@pytest.mark.parametrize("mode", ["plain", "grave", "solver"])
@pytest.mark.parametrize("name", KEYED)
def test_transpositions_share_a_node_and_keep_the_counts(name: str, mode: str) -> None:
    """With ``transpose``, positions reached by several move orders get one
    node: some node has two edges in; every path to a node replays to the
    same position; a node's visits are the sum of its edges' in; the
    moves kept are legal there; and the search plays a legal move."""
    settings = Settings(transpose=True, grave=mode == "grave", grave_ref=5,
                        solver=mode == "solver")
    linked = 0
    for game in _random_positions(name, 2, seed=4, size=5):
        s = Search(game, settings, seed=3)
        s.run(3000)
        t = s.tree
        into = _incoming(s)
        linked += sum(len(edges) > 1 for edges in into.values())
        for j, edges in into.items():
            assert t.n[j] == sum(t.en[e] for e in edges), j
        # every node's position, by every path to it (breadth first from the root)
        seen = {s.root: game.position()}
        frontier = [(s.root, game)]
        while frontier:
            node, g = frontier.pop()
            f = int(t.first[node])
            legal = set(g.legal_actions())
            for e in range(f, f + int(t.tried[node])) if f >= 0 else ():
                assert int(t.action[e]) in legal
                nxt = g.copy()
                nxt.apply_action(int(t.action[e]))
                j = int(t.child[e]) - 1
                if j in seen:
                    assert seen[j] == nxt.position()
                else:
                    seen[j] = nxt.position()
                    if len(seen) < 3000:
                        frontier.append((j, nxt))
        assert s.best_action() in game.legal_actions()
    assert linked > 0


def test_the_transposition_table_is_cleared_when_the_root_moves_on() -> None:
    """The table keeps the first positions made (it stays small enough to be
    cached): when the root moves on it is emptied for the new root's ones,
    and the kept tree stays consistent."""
    game = boardlab.new_game("robble", 5)
    s = Search(game, Settings(transpose=True), seed=1)
    s.run(2000)
    assert s.tree.table[:-1, 0].any()
    best = s.best_action()
    after = game.copy()
    after.apply_action(best)
    assert s.advance(after)
    assert not s.tree.table.any()
    s.run(500)
    into = _incoming(s)
    for j, edges in into.items():  # (the new root's later visits came in no edge)
        assert s.tree.n[j] == sum(s.tree.en[e] for e in edges) or j == s.root


def test_transpose_is_refused_without_position_keys_or_with_other_selections() -> None:
    for name in ("yugo", "vimbre"):
        with pytest.raises(OptionError, match="position_key"):
            Search(boardlab.new_game(name, 5), Settings(transpose=True))
    with pytest.raises(OptionError, match="transpose links positions"):
        make_agent("mcts:10,transpose=yes,evaluator=external")
    with pytest.raises(OptionError, match="yes or no"):
        make_agent("mcts:10,transpose=often")


def test_lines_through_shared_nodes_stay_legal_where_positions_repeat() -> None:
    """Robble 4x4, where positions repeat: a shared node may have been made
    on a line where the game went on, and be reached on one where a third
    repetition ends it. Each move's principal variation is still a legal
    line, and the search plays a legal move."""
    rng = random.Random(8)
    checked = 0
    for _ in range(6):
        game = boardlab.new_game("robble", 4)
        while not game.is_over:
            if len(game) % 3 == 0:
                s = Search(game, Settings(transpose=True, evaluator="policy"), seed=len(game))
                s.run(3000)
                assert s.best_action() in game.legal_actions()
                for child in s.children():
                    line = game.copy()
                    for a in s.principal_variation(child.action, length=40):
                        assert not line.is_over and a in line.legal_actions(), line.position()
                        line.apply_action(a)
                checked += 1
            game.apply_action(rng.choice(game.legal_actions()))
    assert checked > 10


def test_key_zero_finds_and_records_nothing() -> None:
    """The contract's default key (0, a kernel without keys) marks the
    table's empty slots: it is never matched to a node nor recorded; a real
    key is recorded once, then found."""
    from boardlab.fast._search import _transposition
    table = np.zeros((16 + 1, 2), dtype=np.int64)
    assert _transposition(0, 5, table) == -1
    assert not table.any()
    assert _transposition(12345, 7, table) == -1
    assert _transposition(12345, 9, table) == 7
    assert table[-1, 0] == 1
