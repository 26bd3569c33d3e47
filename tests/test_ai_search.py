"""The one search as an agent (``mcts``, the levels): legality, budgets,
reproducibility, per-color backup, the pie swap, tree reuse, and the games'
own advice (informed playouts that replay through the checked API).
Small boards and simulation budgets keep it fast."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab.ai.engines import LEVELS, make_engine
from boardlab.ai.limit import Limit
from boardlab.ai.search import SearchAgent, level_budgets
from boardlab.fast import advice
from boardlab.fast._rng import new_rng
from boardlab.fast.search import Settings
from conftest import own_playout, returns_of

SMALL = {"implo": 4, "pilo": 4, "robble": 4, "vimbre": 5, "yugo": 4}


def random_positions(name: str, count: int, seed: int, size: int | None = None):
    """Positions met along random games of ``name`` on a small board."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = boardlab.new_game(name, size or SMALL[name])
        while not game.is_over:
            if rng.random() < 0.15:
                out.append(game.copy())
            game.apply_action(rng.choice(game.legal_actions()))
    return out[:count]


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_never_an_illegal_move_and_the_game_is_not_touched(name):
    for spec in ("mcts:20", "mcts:20,knowledge=no", "level1", "level2"):
        agent = make_engine(spec, seed=3)
        for game in random_positions(name, 8, seed=len(name)):
            before = game.position()
            action = agent.choose_action(game)
            assert action in game.legal_actions()
            assert game.position() == before
            game.apply_action(action)


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_full_games_against_random_are_legal(name):
    game = boardlab.new_game(name, SMALL[name])
    agents = [make_engine("mcts:30", seed=1), make_engine("random", seed=2)]
    while not game.is_over:
        game.play(agents[len(game) % 2].choose(game))  # play() checks the move
    assert game.outcome is not None


def test_a_simulation_budget_is_exact_and_reuse_adds_to_it():
    game = boardlab.new_game("robble", 5)
    agent = make_engine("mcts:37,reuse=no", seed=1)
    agent.choose_action(game)
    assert agent.info.simulations == 37 == agent.info.root_visits
    agent = make_engine("mcts:37", seed=1)
    game.apply_action(agent.choose_action(game))
    game.apply_action(game.legal_actions()[0])
    agent.choose_action(game)
    assert agent.info.simulations == 37
    assert agent.info.root_visits >= 37


class StepClock:
    """A clock that moves ``step`` seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("name", ["vimbre", "pilo", "yugo"])
def test_a_seconds_budget_ends_the_search_by_the_agents_clock(name):
    # (how long a real search overshoots is measured by bench/time_budget.py)
    game = random_positions(name, 1, seed=2, size=boardlab.game_class(name).default_size)[0]
    agent = SearchAgent(Limit(seconds=0.3), seed=1)
    agent.clock = StepClock(0.05)
    action = agent.choose_action(game)
    assert action in game.legal_actions()
    assert 0 < agent.info.simulations and agent.info.seconds <= 0.3 + 0.1


@pytest.mark.parametrize("name", ["implo", "yugo", "vimbre"])
def test_same_seed_same_moves(name):
    def play(seed):
        game = boardlab.new_game(name, SMALL[name])
        agents = [make_engine("mcts:20", seed=seed), make_engine("mcts:20", seed=seed + 1)]
        for _ in range(14):
            if game.is_over:
                break
            game.apply_action(agents[len(game) % 2].choose_action(game))
        return game.history

    assert play(5) == play(5)


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
    agent = make_engine("mcts:3000,knowledge=no", seed=2)
    assert agent.choose_move(game) == place
    assert agent.info.value > 0.5
    game.play(place)
    assert game.to_move == boardlab.from_position(position).to_move  # same color again
    assert agent.choose_move(game) == resolve
    assert agent.info.root_visits > agent.info.simulations  # the tree was kept


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
    agent = make_engine("mcts:4000,knowledge=no", seed=1)
    assert (agent.choose_move(game) == "swap") is swap


@pytest.mark.parametrize("position,move", [
    # two empty points: the mover picks one, the opponent must fill the other
    # and that ends the game; exhaustive search: exactly one choice wins
    ("robble 5 OXOXX/2OXX/OXOOX/XXOOO/OOOXO black pie=no swap=no", "b4"),
    ("robble 5 OOXOX/OOOX1/XX1XO/OXXXX/XOXXO white pie=no swap=no", "c3"),
    ("robble 5 XOXXX/OOOXO/XXOXO/OOXOX/1XX1O black pie=no swap=no", "a1"),
])
def test_robble_endgame_choice(position, move):
    game = boardlab.from_position(position)
    assert make_engine("mcts:200", seed=1).choose_move(game) == move


@pytest.mark.parametrize("position", [
    "vimbre 5 5/2X2/2X2/O1X1O/2X2 black first=no",   # c5 joins row 1 to row 5
    "vimbre 5 5/2X2/O4/O1X2/2X2 black first=no",     # only the pair c3,c5 wins
])
def test_vimbre_finds_the_connection(position):
    game = boardlab.from_position(position)
    move = make_engine("mcts:400", seed=1).choose_move(game)
    probe = game.copy()
    probe.play(move)
    assert probe.winner == "black", move


def test_levels_are_simulation_budgets_from_each_game():
    for name in boardlab.GAMES:
        budgets = level_budgets(name)
        assert len(budgets) == len(LEVELS)
        assert list(budgets) == sorted(budgets) and budgets[0] >= 1
    agent = make_engine("level2", seed=1)
    game = boardlab.new_game("robble", 5)
    agent.choose_action(game)
    assert agent.info.simulations == level_budgets("robble")[1]
    assert agent.settings(game)["limit"]["simulations"] == level_budgets("robble")[1]


def test_an_agent_describes_its_full_settings():
    agent = make_engine("mcts:0.5s,c=0.7,knowledge=no")
    d = agent.settings(boardlab.new_game("robble"))
    assert d["limit"] == {"simulations": None, "seconds": 0.5} and d["settings"]["c"] == 0.7
    assert set(Settings.names()) == set(d["settings"])
    knows = make_engine("mcts").settings_for("vimbre")
    assert knows == Settings(**advice.advice("vimbre").settings)


# ---------------------------------------------------------------- informed playouts
@pytest.mark.parametrize("name", [g for g in boardlab.GAMES
                                  if advice.advice(g).for_state(5, "policy")[1].has_policy])
def test_a_games_own_playout_replays_through_the_checked_api(name):
    for seed, game in enumerate(random_positions(name, 6, seed=9, size=5)):
        policy, state, kernel = own_playout(game)
        record = np.zeros(100_000, dtype=np.int64)
        plies = policy(state, new_rng(seed), record)
        replay = game.copy()
        for a in record[:plies]:
            replay.apply_action(int(a))  # raises on an illegal action
        assert replay.is_over
        scores = np.zeros(2)
        winner, _ = kernel.outcome(state, scores)
        assert replay.returns() == returns_of(winner)


def test_an_explicit_spec_names_the_same_engine_whatever_the_defaults():
    from boardlab.ai.engines import explicit_spec
    for name in boardlab.GAMES:
        spec = explicit_spec("mcts:0.25s,c=0.8", name)
        agent = make_engine(spec)
        assert agent.settings_for(name) == make_engine("mcts:0.25s,c=0.8").settings_for(name)
        # every field is given: a game's own settings no longer matter
        assert agent.settings_for("robble") == agent.settings_for(name)
        assert agent.limit == Limit(seconds=0.25)
    assert explicit_spec("uct:0.25s", "robble") == "uct:0.25s"
    assert explicit_spec("level3", "robble") == "level3"
