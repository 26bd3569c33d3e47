"""The compiled MCTS (boardlab.fast.search, engine name ``mcts``), for every game.

Correctness, not choices: every move legal, a move that wins at once is
found (the solver proves it), the tree's visit counts add up, the same seed
and simulation budget replay, and a kept tree moves its root to the position
reached (and refuses one it does not contain).
"""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab import OptionError
from boardlab.ai import make_agent
from boardlab.fast.search import Search


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


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_moves_are_legal_and_visits_add_up(name: str) -> None:
    for game in _random_positions(name, 12, seed=1):
        s = Search(game, seed=2)
        s.run(300)
        kids = s.children()
        assert {c.action for c in kids} == set(game.legal_actions())
        if s.proven == -1:  # (a proven root stops early; its counts are still consistent)
            assert s.root_visits == sum(c.visits for c in kids) == s.simulations
        assert s.best_action() in game.legal_actions()
        for c in kids:
            assert -1.0 <= c.value <= 1.0
        pv = s.principal_variation(s.best_action())
        replay = game.copy()
        for a in pv:  # a principal variation is a legal line
            assert a in replay.legal_actions()
            replay.apply_action(a)
            if replay.is_over:
                break


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_a_move_that_wins_at_once_is_proven_and_played(name: str) -> None:
    found = 0
    rng = random.Random(5)
    for _ in range(60):
        game = boardlab.new_game(name, 4)
        while not game.is_over:
            wins = _winning_moves(game)
            if wins:
                s = Search(game, seed=found)
                s.run(4 * len(game.legal_actions()) + 50)
                assert s.proven == game.current_player, game.position()
                assert s.best_action() in wins, game.position()
                found += 1
                break
            game.apply_action(rng.choice(game.legal_actions()))
        if found >= 6:
            break
    assert found >= 3, f"too few immediate wins met in {name}: {found}"


@pytest.mark.parametrize("name", ["robble", "yugo"])
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
    kept = next(c.visits for c in s.children(s.child_node(s.root, a)) if c.action == reply.action)
    game.apply_action(a)
    game.apply_action(reply.action)
    assert s.advance(game)
    assert s.root_visits == kept and s.game.history == game.history
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
    assert agent.info.iterations == 3000


def test_a_finished_game_and_bad_settings_are_refused() -> None:
    game = boardlab.new_game("robble", 4)
    while not game.is_over:
        game.apply_action(game.legal_actions()[0])
    with pytest.raises(OptionError, match="over"):
        Search(game)
    for spec in ("mcts:10,c=-1", "mcts:10,fpu=3", "mcts:10,reuse=maybe", "mcts:10,rave=yes", "mcts:10,rave=-1",
                 "mcts:10,threads=0", "mcts:10,threads=two"):
        with pytest.raises(OptionError):
            make_agent(spec)


@pytest.mark.parametrize("name", ["robble", "yugo", "vimbre"])
def test_root_parallel_trees_read_as_one(name: str) -> None:
    """threads=N: the trees' counts add up, the merged children are each
    legal move once with visit-weighted values, and the move is legal; a
    simulation budget is shared out (each tree gets its part)."""
    from boardlab.fast.search import RootParallel
    for game in _random_positions(name, 4, seed=3):
        agent = make_agent("mcts:600,threads=3", seed=1)
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


def test_root_parallel_finds_a_win_at_once() -> None:
    rng = random.Random(5)
    for _ in range(40):
        game = boardlab.new_game("robble", 4)
        while not game.is_over:
            wins = _winning_moves(game)
            if wins:
                budget = 4 * len(game.legal_actions()) + 50
                agent = make_agent(f"mcts:{budget},threads=2,solver=yes", seed=1)
                assert agent.choose_action(game) in wins, game.position()
                return
            game.apply_action(rng.choice(game.legal_actions()))
    pytest.fail("no immediate win met")


def _played_by(game, actions) -> list[tuple[int, int]]:
    """(action, mover) for ``actions`` played from ``game`` on a copy."""
    g = game.copy()
    out = []
    for a in actions:
        out.append((a, g.current_player))
        g.apply_action(a)
    return out


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_rave_counts_what_the_first_simulation_played(name: str) -> None:
    """After one simulation (root expanded, one child visited, a playout from
    it), a root child has AMAF statistics exactly when the root's mover played
    its action in that simulation (the tree step or the playout), and they
    are the simulation's returns."""
    for game in _random_positions(name, 4, seed=8):
        s = Search(game, rave=0.01, solver=False, seed=3)
        assert s.run(1) == 1
        t = s.tree
        f, k = int(t.first[0]), int(t.kids[0])
        visited = [j for j in range(f, f + k) if t.n[j] > 0]
        assert len(visited) == 1
        child = visited[0]
        after = game.copy()
        after.apply_action(int(t.action[child]))
        playout = []
        while not after.is_over:   # the playout's recorded actions, up to the end
            a = int(t.record[len(playout)])
            playout.append(a)
            after.apply_action(a)
        returns = after.returns()
        mover = game.current_player
        moves = _played_by(game, [int(t.action[child]), *playout])
        played = {a for a, m in moves if m == mover and a != s.swap}
        for j in range(f, f + k):
            a = int(t.action[j])
            expect = 1.0 if a in played else 0.0
            assert t.amaf_n[j] == expect, (game.position(), a)
            if expect:
                assert list(t.amaf_w[j]) == [float(r) for r in returns]


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_rave_search_is_consistent(name: str) -> None:
    """With RAVE: legal moves, visits that add up, every root child's AMAF
    count at least its visits (each simulation through it plays its action
    first) and at most the root's, and the same seed replays."""
    for game in _random_positions(name, 6, seed=4):
        runs = []
        for _ in range(2):
            s = Search(game, rave=0.001, solver=False, seed=5)
            s.run(400)
            runs.append([(c.action, c.visits) for c in s.children()])
        assert runs[0] == runs[1]
        t = s.tree
        kids = s.children()
        assert {c.action for c in kids} == set(game.legal_actions())
        assert s.root_visits == sum(c.visits for c in kids) == s.simulations == 400
        f, k = int(t.first[0]), int(t.kids[0])
        for j in range(f, f + k):
            if t.action[j] != s.swap:
                assert t.n[j] <= t.amaf_n[j] <= t.n[0]
        assert s.best_action() in game.legal_actions()
    agent = make_agent("mcts:300,rave=0.001", seed=2)
    assert agent.rave == 0.001 and agent.choose_action(game) in game.legal_actions()
