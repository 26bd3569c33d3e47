"""Every engine states its full settings (what a study records and checks)."""

from __future__ import annotations

import inspect
import json

import pytest

import boardlab
from boardlab.ai.agent import BaseAgent
from boardlab.ai.engines import make_engine

NAMES = ["random", "uct:50", "mcts:50", "mcts:0.2s,c=1.4,solver=yes,fpu=0.2,reuse=no,rave=0.01",
         "pymcts:30,pw=2/0.5,scan=no", "level2", "cmd@5:boardlab engine robble"]


@pytest.mark.parametrize("name", NAMES)
def test_settings_hold_every_parameter_as_json(name):
    agent = make_engine(name, seed=3)
    settings = agent.settings(boardlab.new_game("robble", 5))
    assert json.loads(json.dumps(settings)) == settings
    assert settings["agent"].endswith(type(agent).__name__)
    params = inspect.signature(type(agent).__init__).parameters
    assert set(settings) - {"agent"} == set(params) - {"self", "seed", "name"}
    assert make_engine(name, seed=4).settings(boardlab.new_game("robble", 5)) == settings


def test_defaults_are_resolved_and_changes_show():
    plain = make_engine("mcts:50").settings()
    assert plain == make_engine("mcts:50,c=1,solver=no,reuse=yes,threads=1").settings()
    assert plain["limit"] == {"simulations": 50, "seconds": None}
    assert plain["solver"] is False and plain["c"] == 1.0
    assert make_engine("mcts:50,solver=yes").settings()["solver"] is True
    assert make_engine("mcts:60").settings()["limit"]["simulations"] == 60
    # a game-dependent default: vimbre's own playout policy under "auto"
    assert make_engine("pymcts:10").settings()["playout"] == "auto"
    vimbre = make_engine("pymcts:10").settings(boardlab.new_game("vimbre", 5))["playout"]
    robble = make_engine("pymcts:10").settings(boardlab.new_game("robble", 5))["playout"]
    assert vimbre != "auto" and robble == "random" and vimbre != robble


def test_a_parameter_the_agent_does_not_keep_is_an_error():
    class Forgetful(BaseAgent):
        def __init__(self, depth: int = 3, seed: int | None = None) -> None:
            super().__init__(seed)

    with pytest.raises(TypeError, match="'depth' is not kept"):
        Forgetful().settings()
