"""MCTS: legality, budgets, reproducibility, per-color backup, pie swap, tree
reuse and one-move wins. Small boards and iteration budgets keep it fast."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.ai.engines import make_engine
from boardlab.ai.mcts import MCTSAgent

SMALL = {"implo": 4, "pilo": 4, "robble": 4, "vimbre": 5, "yugo": 4}


def random_positions(name: str, count: int, seed: int):
    """Positions met along random games of ``name`` on a small board."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = boardlab.new_game(name, SMALL[name])
        while not game.is_over:
            if rng.random() < 0.15:
                out.append(game.copy())
            game.apply_action(rng.choice(game.legal_actions()))
    return out[:count]


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_never_an_illegal_move(name):
    # checked=True replays every tree step through the checked public API
    agent = MCTSAgent(iterations=12, seed=3, checked=True)
    for game in random_positions(name, 25, seed=len(name)):
        before = game.position()
        action = agent.choose_action(game)
        assert action in game.legal_actions()
        assert game.position() == before  # the game is not touched
        game.apply_action(action)


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_full_games_against_random_are_legal(name):
    game = boardlab.new_game(name, SMALL[name])
    agents = [MCTSAgent(iterations=8, seed=1), make_engine("random", seed=2)]
    while not game.is_over:
        mover = agents[len(game) % 2]
        game.play(mover.choose(game))  # play() checks the move
    assert game.outcome is not None


def test_iteration_limit_is_exact():
    game = boardlab.new_game("robble", 5)
    agent = MCTSAgent(iterations=37, seed=1, reuse=False, win_scan=False)
    agent.choose_action(game)
    assert agent.info.iterations == 37
    assert agent.info.root_visits == 37
    agent = MCTSAgent(iterations=37, seed=1, win_scan=False)
    a = agent.choose_action(game)
    game.apply_action(a)
    game.apply_action(game.legal_actions()[0])
    agent.choose_action(game)
    assert agent.info.iterations == 37
    assert agent.info.root_visits == 37 + agent.info.reused


@pytest.mark.parametrize("name", ["vimbre", "pilo", "yugo"])
def test_a_seconds_budget_ends_the_search_by_the_agents_clock(name):
    # A clock that moves 1 ms at every reading: the search must stop inside its
    # budget as that clock tells it, with no iteration cap to stop it otherwise
    # (how long real searches overshoot is measured by bench/time_budget.py).
    game = boardlab.new_game(name)
    rng = random.Random(1)
    for _ in range(12):
        game.apply_action(rng.choice(game.legal_actions()))
    agent = MCTSAgent(seconds=0.3, seed=1)
    readings = iter(range(1, 10**9))
    agent.clock = lambda: next(readings) / 1000
    for _ in range(2):
        action = agent.choose_action(game)
        assert agent.info.iterations > 0
        assert agent.info.seconds <= 0.3, agent.info.seconds
        game.apply_action(action)
        if game.is_over:
            break
        game.apply_action(rng.choice(game.legal_actions()))


def test_tiny_time_budget_still_moves():
    game = boardlab.new_game("vimbre", 7)
    game.play("d4")
    agent = MCTSAgent(seconds=0.001, seed=1)
    assert agent.choose_action(game) in game.legal_actions()


@pytest.mark.parametrize("name", ["implo", "yugo", "vimbre"])
def test_same_seed_same_moves(name):
    def play(seed):
        game = boardlab.new_game(name, SMALL[name])
        agents = [MCTSAgent(iterations=20, seed=seed), MCTSAgent(iterations=20, seed=seed + 1)]
        for _ in range(14):
            if game.is_over:
                break
            game.apply_action(agents[len(game) % 2].choose_action(game))
        return game.history

    assert play(5) == play(5)
    assert play(5) != play(6)


# implo: the color to move wins only with one placement, and then only with one
# resolution: the same color acts twice (found by exhaustive search, where every
# other placement and resolution loses against best play)
IMPLO_TWO_ACTIONS = [
    ("implo 4 ooXo/o2X/XO2/X3 black pie=no swap=no", "c2", "@b1"),
    ("implo 4 4/2O1/1XxO/ooxx white pie=no swap=no", "b4", "@d3/b4"),
]


@pytest.mark.parametrize("position,place,resolve", IMPLO_TWO_ACTIONS)
def test_per_color_backup_two_action_turn(position, place, resolve):
    game = boardlab.from_position(position)
    agent = MCTSAgent(iterations=1500, seed=2, win_scan=False, checked=True)
    assert agent.choose_move(game) == place
    assert agent.info.value > 0.5
    game.play(place)
    assert game.to_move == boardlab.from_position(position).to_move  # same color again
    assert agent.choose_move(game) == resolve
    assert agent.info.reused > 0


# robble pie: positions (exhaustively solved) where the color to move (white)
# wins by any of several moves but swapping loses, and the reverse.
@pytest.mark.parametrize("position,swap", [
    ("robble 4 XXX1/XX1X/X1OX/X1XX white pie=yes swap=yes", False),
    ("robble 4 OX2/XOX1/1XOX/XXOO white pie=yes swap=yes", False),
    ("robble 4 X2X/1XXO/XXXO/XX1O white pie=yes swap=yes", True),
    ("robble 4 XXXO/2XO/OX1X/XXX1 white pie=yes swap=yes", True),
])
def test_swap_by_own_evaluation(position, swap):
    game = boardlab.from_position(position)
    agent = MCTSAgent(iterations=2500, seed=1, win_scan=False)
    assert (agent.choose_move(game) == "swap") is swap


def test_tree_reuse_carries_visits():
    game = boardlab.new_game("robble", 5)
    agent = MCTSAgent(iterations=400, seed=1)
    a = agent.choose_action(game)
    root = agent._root
    game.apply_action(a)
    reply = max(root.children[a].children.items(), key=lambda kv: kv[1].n)[0]
    expected = root.children[a].children[reply].n
    assert expected > 0
    game.apply_action(reply)
    agent.choose_action(game)
    assert agent.info.reused == expected
    assert agent.info.root_visits == expected + 400


def test_tree_reuse_rejects_another_game():
    agent = MCTSAgent(iterations=50, seed=1)
    game = boardlab.new_game("robble", 5)
    agent.choose_action(game)
    other = boardlab.from_position("robble 5 5/5/2X2/5/5 white pie=no swap=no")
    agent.choose_action(other)
    assert agent.info.reused == 0


def test_search_leaves_the_kept_tree_alone():
    """search() (analysis, yugo's decisions) runs the budget, reports every
    simulation to its observer, and does not replace the tree kept for reuse."""
    game = boardlab.new_game("robble", 5)
    agent = MCTSAgent(iterations=300, seed=1)
    first = agent.choose_action(game)
    game.apply_action(first)
    seen = []
    root = agent.search(game, observer=lambda g: seen.append(g.position()))
    assert root.n == 300 and len(seen) == 300
    assert sum(ch.n for ch in root.children.values()) == 300
    assert set(root.children) <= set(game.legal_actions())
    only = game.legal_actions()[:2]
    narrow = agent.search(game, moves=only)
    assert set(narrow.children) == set(only)
    agent.choose_action(game)
    assert agent.info.reused > 0  # the tree of the first move, not the searches


def test_vimbre_one_move_connection():
    # black c1 c2 c3 c4 on a 5x5 board: c5 joins row 1 to row 5
    game = boardlab.from_position("vimbre 5 5/2X2/2X2/O1X1O/2X2 black first=no")
    for agent in (MCTSAgent(iterations=5, seed=1), MCTSAgent(seconds=0.2, seed=1)):
        move = agent.choose_move(game)
        probe = game.copy()
        probe.play(move)
        assert probe.winner == "black", move


def test_vimbre_two_stone_connection():
    # black needs both c3 and c5: only a two-stone move wins
    game = boardlab.from_position("vimbre 5 5/2X2/O4/O1X2/2X2 black first=no")
    agent = MCTSAgent(iterations=5, seed=1)
    move = agent.choose_move(game)
    probe = game.copy()
    probe.play(move)
    assert probe.winner == "black", move
    assert "," in move


def test_vimbre_search_alone_finds_the_win():
    game = boardlab.from_position("vimbre 5 5/2X2/2X2/O1X1O/2X2 black first=no")
    agent = MCTSAgent(iterations=3000, seed=1, win_scan=False)
    move = agent.choose_move(game)
    probe = game.copy()
    probe.play(move)
    assert probe.winner == "black", move


@pytest.mark.parametrize("position,move", [
    # two empty points: the mover picks one, the opponent must fill the other
    # and that ends the game; exhaustive search: exactly one choice wins
    ("robble 5 OXOXX/2OXX/OXOOX/XXOOO/OOOXO black pie=no swap=no", "b4"),
    ("robble 5 OOXOX/OOOX1/XX1XO/OXXXX/XOXXO white pie=no swap=no", "c3"),
    ("robble 5 XOXXX/OOOXO/XXOXO/OOXOX/1XX1O black pie=no swap=no", "a1"),
])
def test_robble_endgame_choice(position, move):
    game = boardlab.from_position(position)
    agent = MCTSAgent(iterations=60, seed=1)
    assert agent.choose_move(game) == move
