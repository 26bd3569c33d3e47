"""What each research protocol costs by itself: the random loops of
bench/adapters.py on a do-nothing game (20 legal actions, 40 plies, nothing
computed), so the cost of the protocol's own machinery, which no game behind
it can go below. One core, CPU time.

* OpenSpiel: its C++ core calls back into the Python state for every
  ``current_player``, ``is_terminal``, ``legal_actions`` and ``apply_action``
  and copies the legal list both ways.
* PettingZoo AEC: ``agent_iter``, ``last()`` (a fixed observation dict) and
  ``step()`` with the rewards / terminations / truncations / infos dicts an
  AEC env must keep, as ``boardlab.research.pettingzoo`` keeps them.

    python bench/adapter_floors.py
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np


def _per_step_us(loop: Any, seconds: float) -> float:
    start = time.process_time()
    steps = loop(start + seconds)
    return (time.process_time() - start) / steps * 1e6


def openspiel_floor_us(seconds: float = 1.0) -> float:
    """µs a step of OpenSpiel's random loop on a do-nothing Python game with
    20 legal actions and 40 plies: the cost of the C++ <-> Python bridge alone,
    which no Python game can go below."""
    import pyspiel
    name = "python_boardlab_bench_floor"
    gtype = pyspiel.GameType(
        short_name=name, long_name=name, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=20, max_chance_outcomes=0, num_players=2,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=40)

    class FloorState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.n = 0
            self.legal = list(range(20))

        def current_player(self):
            return pyspiel.PlayerId.TERMINAL if self.n >= 40 else self.n % 2

        def _legal_actions(self, player):
            return self.legal

        def _apply_action(self, action):
            self.n += 1

        def is_terminal(self):
            return self.n >= 40

        def returns(self):
            return [0.0, 0.0]

        def _action_to_string(self, player, action):
            return str(action)

    class FloorGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(gtype, info, params or {})

        def new_initial_state(self):
            return FloorState(self)

    if name not in pyspiel.registered_names():
        pyspiel.register_game(gtype, FloorGame)
    from adapters import spiel_loop
    return _per_step_us(spiel_loop(pyspiel.load_game(name), random.Random(1)), seconds)


def pettingzoo_floor_us(seconds: float = 1.0) -> float:
    """µs a step of bench/adapters.py's PettingZoo loop on a do-nothing AEC env."""
    from adapters import aec_loop
    from pettingzoo import AECEnv

    class FloorEnv(AECEnv):
        metadata: dict[str, Any] = {"name": "floor_v0", "render_modes": []}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["black", "white"]
            self.obs = {"observation": np.zeros((5, 7, 7), np.float32),
                        "action_mask": np.ones(20, np.int8)}

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = "black"
            self.n = 0

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            return self.obs

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.n += 1
            if self.n >= 40:
                for a in self.agents:
                    self.terminations[a] = True
                self._deads_step_first()
            else:
                self.agent_selection = "white" if agent == "black" else "black"

    return _per_step_us(aec_loop(FloorEnv(), random.Random(1)), seconds)


def floors_us(seconds: float = 1.0) -> tuple[float, float]:
    """(OpenSpiel, PettingZoo) µs a step on the do-nothing game."""
    return openspiel_floor_us(seconds), pettingzoo_floor_us(seconds)


if __name__ == "__main__":
    openspiel_us, pettingzoo_us = floors_us()
    print(f"OpenSpiel {openspiel_us:.1f} us a step, PettingZoo AEC {pettingzoo_us:.1f} us a step")
