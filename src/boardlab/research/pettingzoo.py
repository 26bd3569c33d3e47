"""The five games as PettingZoo AEC environments (``pip install 'boardlab[pettingzoo]'``).

>>> from boardlab.research import pettingzoo
>>> env = pettingzoo.env("robble", size=5, pie=False)
>>> env.reset(seed=0)
>>> env.agent_selection, env.possible_agents
('black', ['black', 'white'])
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((8, 5, 5), 25)
>>> env.step(12)
>>> env.agent_selection
'white'

Agents are the game's colors (``black``/``white``; ``blue``/``orange`` in
pilo). ``agent_selection`` is always the color to move, so a multi-action
turn is the same agent selected several times in a row: implo's resolutions
after a placement, yugo's ``mark``/``done`` sequence, and the pie rule's
``swap`` (the players exchange colors but the colors stay: white swaps and
white moves again; results are by color, so whoever tracks seats maps them).
``env.infos[agent]["mid_turn"]`` says when the next action continues a turn.

Observations are ``{"observation": planes, "action_mask": int8 mask}``, the
planes of :mod:`boardlab.research.tensors` from the observing agent's side; the mask
is all zero for the agent not to move. Rewards are +1/-1 (0: draw) when the
game ends, 0 before. Options: ``size``, the game's own (``pie``, ``komi``),
``max_game_length`` (see ``boardlab.research._adapters``; reaching it truncates) and
``render_mode`` (``"ansi"``: ``render()`` returns the diagram; ``"human"``
prints it). An action that is out of range, not an int, or illegal raises
``IllegalMoveError`` (a ValueError) with our reason and changes nothing;
stepping after every agent is done (or before ``reset``) raises ``GameOverError``.

The env plays on the compiled kernel (``boardlab.fast``, held to the Python
engine ply by ply; ``_adapters.CompiledGame``): a step and an observation are
one compiled call each. ``env.game`` is the episode as a boardlab ``Game``,
built from the actions when read (read it, do not change it).

``state()`` is the global view for centralised training: the planes seen by
the first color (a perfect-information game hides nothing from either color,
and the planes hold who is to move), shaped as ``state_space``.

``parallel_env(game, **options)`` is the same game as a ``ParallelEnv``,
through PettingZoo's own ``turn_based_aec_to_parallel``: ``step`` takes a
dict of every live agent's action and plays the mover's (the other's is
ignored; its mask is all zero, so sample anything there), and the mover may
be the same agent for several steps (a multi-action turn).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ..core.game import Game
from ..errors import GameOverError, IllegalMoveError, OptionError
from . import _adapters, tensors

__all__ = ["BoardlabAECEnv", "env", "parallel_env", "raw_env"]


def env(game: str, **options: Any) -> BoardlabAECEnv:
    """The AEC environment of ``game``. It checks call order itself (a step
    before ``reset`` or after the end raises), so it needs none of
    PettingZoo's wrappers; ``OrderEnforcingWrapper`` would turn a step after
    the end into a warning."""
    return BoardlabAECEnv(game, **options)


raw_env = env  #: PettingZoo's usual name for the unwrapped environment


def parallel_env(game: str, **options: Any) -> ParallelEnv:
    """The ``ParallelEnv`` of ``game`` (see the module docstring)."""
    return turn_based_aec_to_parallel(BoardlabAECEnv(game, **options))


class BoardlabAECEnv(AECEnv):
    """See the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "boardlab_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, game: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise OptionError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.config = _adapters.spec(game, **options)
        cls = self.config.cls
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"boardlab_{cls.name}_v0"}
        self.possible_agents = list(cls.colors)
        self._player_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        low, high = tensors.plane_bounds(cls, self.config.size, self.config.options)
        observation = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.config.num_distinct_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.state_space = observation["observation"]
        self.action_spaces = {a: spaces.Discrete(self.config.num_distinct_actions)
                              for a in self.possible_agents}
        self._play = _adapters.CompiledGame(self.config)  # the rules, compiled; see `game`
        self._mover = 0   # the color to act (-1 once over), as the kernel said
        self._no_mask = np.zeros(self.config.num_distinct_actions, np.int8)
        self.agents: list[str] = []   # no game in progress until reset()
        self.agent_selection = ""

    @property
    def game(self) -> Game:
        """The episode as a boardlab Game (read it, do not change it). The env
        steps the compiled kernel (``boardlab.fast``, held to the Python engine
        ply by ply); this Python game is brought up to date when read."""
        return self._play.game

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # The games have no chance: the seed has nothing to seed (the
        # action spaces are seeded for callers that sample from them).
        if seed is not None:
            for i, space in enumerate(self.action_spaces.values()):
                space.seed(seed + i)
        self._play.reset()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"mid_turn": False} for a in self.agents}
        self._mover = 0
        self.agent_selection = self.agents[0]  # the first color starts every game

    def state(self) -> np.ndarray:
        """The planes seen by the first color (see the module docstring)."""
        return self._play.observe(0)[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._player_of[agent]
        planes, mask = self._play.observe(player)  # compiled: planes and mask in one call
        if self._mover != player or self.truncations[agent]:
            mask = self._no_mask.copy()
        return {"observation": planes, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last`` (the same tuple), without its per-call assert."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        if not self.agents:
            raise GameOverError(action, "no game in progress (it has ended, every agent is done, "
                                        "or reset() was not called); call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            if not isinstance(action, np.integer):
                raise IllegalMoveError(action, "an action must be an int (or a NumPy integer)")
            action = int(action)
        play = self._play
        code = play.play(action)  # IllegalMoveError with the engine's reason; nothing changes
        self._cumulative_rewards[agent] = 0.0
        self._mover = player = code & 1 if code >= 0 else -1
        # Before the end every reward is 0 (they are only set when the game
        # ends), so only the last step has rewards to set and accumulate.
        if player < 0:
            for a, value in zip(self.possible_agents, play.returns(), strict=True):
                self.rewards[a] = value
                self.terminations[a] = True
            self._accumulate_rewards()
            self._deads_step_first()
        elif len(play.actions) >= self.config.max_game_length:
            for a in self.agents:
                self.truncations[a] = True
            self._deads_step_first()
        else:
            self.agent_selection = mover = self.possible_agents[player]
            self.infos[mover]["mid_turn"] = code >= 2
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return _adapters.render_text(self.game, self.render_mode)

    def close(self) -> None:
        pass
