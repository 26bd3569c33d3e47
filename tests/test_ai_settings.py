"""Every engine states its full settings (what a study records and checks)."""

from __future__ import annotations

import inspect
import json

import pytest

import boardlab
from boardlab.ai.agent import BaseAgent
from boardlab.ai.engines import make_engine

NAMES = ["random", "uct:50", "pyuct:20", "mcts:50",
         "mcts:0.2s,c=1.4,solver=yes,fpu=0.2,reuse=no,evaluator=mast", "level2",
         "cmd@5:boardlab engine robble"]


@pytest.mark.parametrize("name", NAMES)
def test_settings_hold_every_parameter_as_json(name):
    agent = make_engine(name, seed=3)
    settings = agent.settings(boardlab.new_game("robble", 5))
    assert json.loads(json.dumps(settings)) == settings
    assert settings["agent"].endswith(type(agent).__name__)
    params = inspect.signature(type(agent).__init__).parameters
    assert set(settings) - {"agent"} == set(params) - {"self", "seed", "name", "clock"}
    assert make_engine(name, seed=4).settings(boardlab.new_game("robble", 5)) == settings


def test_defaults_are_resolved_and_changes_show():
    robble = boardlab.new_game("robble", 5)
    plain = make_engine("mcts:50").settings(robble)
    assert plain == make_engine("mcts:50,c=1,solver=no,reuse=yes,threads=1").settings(robble)
    assert plain["limit"] == {"simulations": 50, "seconds": None}
    assert plain["settings"]["solver"] is False and plain["settings"]["c"] == 1.0
    assert make_engine("mcts:50,solver=yes").settings(robble)["settings"]["solver"] is True
    assert make_engine("mcts:60").settings()["limit"]["simulations"] == 60
    # a game-dependent default: each game's own search settings
    vimbre = make_engine("mcts:10").settings(boardlab.new_game("vimbre", 5))["settings"]
    assert vimbre != plain["settings"] and vimbre["priors"] is True
    assert make_engine("mcts:10").settings()["settings"] == {}
    # a level's budget is the game's own
    assert make_engine("level2").settings(robble)["limit"]["simulations"] > 0


def test_a_parameter_the_agent_does_not_keep_is_an_error():
    class Forgetful(BaseAgent):
        def __init__(self, depth: int = 3, seed: int | None = None) -> None:
            super().__init__(seed)

    with pytest.raises(TypeError, match="'depth' is not kept"):
        Forgetful().settings()
