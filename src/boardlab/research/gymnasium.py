"""The five games as single-agent Gymnasium environments against a boardlab
engine (``pip install 'boardlab[gymnasium]'``).

``import boardlab.research.gymnasium`` registers ``boardlab/<game>-v0`` for every game:

>>> import gymnasium, boardlab.research.gymnasium
>>> env = gymnasium.make("boardlab/robble-v0", opponent="random", size=5)
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].dtype
((8, 5, 5), dtype('int8'))
>>> obs, reward, terminated, truncated, info = env.step(12)

Options: ``opponent`` (an engine name of ``boardlab.ai``: ``random``,
``level1``..``level5``, ``mcts:...``; default ``random``), ``player`` (the
color index the agent plays, 0 = first to move, default 0), ``size``, the
game's own options (``pie``, ``komi``), ``max_game_length`` (reaching it
truncates) and ``illegal_action``:

* ``"lose"`` (default): an in-range illegal action ends the episode as a loss
  (reward -1, ``info["illegal_action"]`` holds our reason), the usual
  convention for learning without a mask, and what ``check_env``'s random
  actions need;
* ``"raise"``: it raises ``IllegalMoveError`` with the reason instead.

Either way an action outside ``action_space`` (out of range, not an integer)
raises ``IllegalMoveError``, and stepping a finished episode raises
``GameOverError``: both are ValueErrors carrying our message. Each step plays
the agent's action and then every opponent action until the agent is to move
again (a whole multi-action turn: implo's resolutions, yugo's marking, a
swap), so the agent also plays its own multi-action turns one action per
step. The observation is ``{"observation": planes, "action_mask": mask}``
(:mod:`boardlab.research.tensors`, the agent's side); ``action_masks()`` returns the
mask too (for maskable policies). The reward is the agent's result (+1 win,
-1 loss, 0 draw) at the end, 0 before. The opponent is reseeded from the
``reset`` seed, so a seeded episode replays.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import GAMES
from ..ai import make_agent
from ..core.game import Game
from ..errors import GameOverError, IllegalMoveError, OptionError
from . import _adapters, tensors

__all__ = ["BoardlabEnv", "env_id"]


def env_id(game: str) -> str:
    return f"boardlab/{game}-v0"


class BoardlabEnv(gymnasium.Env):
    """See the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game: str, opponent: str = "random", player: int = 0,
                 illegal_action: str = "lose", render_mode: str | None = None,
                 **options: Any) -> None:
        self.config = _adapters.spec(game, **options)
        if type(player) is not int or player not in (0, 1):
            raise OptionError(f"{game}: player must be 0 or 1 (the agent's color index), got {player!r}")
        if illegal_action not in ("lose", "raise"):
            raise OptionError(f"{game}: illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise OptionError(f"{game}: render_mode must be ansi, human or None, got {render_mode!r}")
        make_agent(opponent)  # check the name now, with the engine registry's message
        self.opponent_name = opponent
        self.player = player
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        cls = self.config.cls
        low, high = tensors.plane_bounds(cls, self.config.size, self.config.options)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.config.num_distinct_actions,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.config.num_distinct_actions)
        # the episode is played on the compiled kernel (one call a step);
        # ``game`` builds the Python game from its actions when read
        self._cg = _adapters.CompiledGame(self.config)
        self._code = self._cg.play_code()
        self.opponent = make_agent(opponent, seed=0)
        self._done = True

    @property
    def plies(self) -> int:
        """Actions played this episode, by both sides."""
        return len(self._cg.actions)

    @property
    def game(self) -> Game:
        """The episode so far as a :class:`~boardlab.Game` (built when read: read it, do not change it)."""
        return self._cg.game

    # ------------------------------------------------------------ helpers
    def _obs(self) -> dict[str, np.ndarray]:
        planes, mask = self._cg.observe(self.player)  # compiled, one call
        if self._done:
            mask[:] = 0
        return {"observation": planes, "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        return self._obs()["action_mask"].astype(bool)

    def _info(self, **extra: Any) -> dict[str, Any]:
        code = self._code
        return {"to_move": None if code < 0 else self.config.cls.colors[code % 2],
                "mid_turn": code >= 2, **extra}

    def _truncated(self) -> bool:
        return self._code >= 0 and len(self._cg.actions) >= self.config.max_game_length

    def _opponent_moves(self) -> None:
        cg = self._cg
        agent = self.opponent
        # an engine's integer interface where it has one (the same choice as
        # choose(), without writing the move out and parsing it back); one
        # that reads only the legal actions gets the compiled game itself
        choose_action = getattr(agent, "choose_action", None)
        direct = getattr(agent, "legal_actions_only", False)
        me, cap = self.player, self.config.max_game_length
        while True:
            mover = self._code % 2 if self._code >= 0 else -1
            if mover < 0 or mover == me or len(cg.actions) >= cap:
                return
            if choose_action is None:
                action = cg.game.string_to_action(agent.choose(cg.game))
            else:
                action = choose_action(cg if direct else cg.game)
            self._code = cg.play(action)

    # ------------------------------------------------------------ the Env API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._cg.reset()
        self._code = self._cg.play_code()
        self.opponent = make_agent(self.opponent_name, seed=int(self.np_random.integers(2**31)))
        self._done = False
        self._opponent_moves()
        self._done = self._code < 0 or self._truncated()
        return self._obs(), self._info()

    def step(self, action: Any):
        if self._done:
            raise GameOverError(action, "the episode is over; call reset()")
        if type(action) is not int and isinstance(action, np.integer):
            action = int(action)
        if type(action) is not int or not 0 <= action < self.config.num_distinct_actions:
            raise IllegalMoveError(action, f"action must be an integer in "
                                           f"0..{self.config.num_distinct_actions - 1}")
        try:
            self._code = self._cg.play(action)  # an illegal action changes nothing
        except IllegalMoveError as exc:
            if self.illegal_action == "raise":
                raise
            self._done = True
            return self._obs(), -1.0, True, False, self._info(illegal_action=exc.reason)
        self._opponent_moves()
        terminated = self._code < 0
        truncated = self._truncated()
        self._done = terminated or truncated
        reward = self._cg.returns()[self.player] if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), terminated, truncated, self._info()

    def render(self) -> str | None:
        return _adapters.render_text(self.game, self.render_mode)


def _register() -> None:
    for name in GAMES:
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(id=env_id(name), entry_point=BoardlabEnv,  # type: ignore[arg-type]
                               kwargs={"game": name}, disable_env_checker=False)


_register()
