"""N games of one kind as one batched environment, stepped in compiled code (pgx style).

>>> from boardlab.research.vector import VectorEnv
>>> env = VectorEnv("robble", 4, size=5, pie=False)
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape, info["current_player"].tolist()
((4, 8, 5, 5), (4, 26), [0, 0, 0, 0])
>>> obs, rewards, terminated, truncated, info = env.step(env.random_actions())
>>> rewards.shape, terminated.tolist(), info["current_player"].tolist()
((4, 2), [False, False, False, False], [1, 1, 1, 1])

Why not a ``gymnasium.vector.VectorEnv``: that API has one reward per
sub-env and one agent; these are two-player games where the mover changes
(and sometimes stays, in a multi-action turn), so, like pgx, every array
here says *who* moves (``current_player``) and rewards come per color.

Each env is a row of a :class:`boardlab.fast.Batch` (the compiled kernels);
``step`` applies one action per env in one compiled call, restarts every game
that ended (*autoreset in the same step*: the returned observation of such an
env is already its new game's, while ``rewards``/``terminated`` describe the
game that ended) and computes every observation in compiled code.

* ``observation``: float32 ``(num_envs, C, size, size)``, the planes of
  :mod:`boardlab.research.tensors` (docs/research.md lists them per game), each env
  seen by its color to move (``info["current_player"]``);
* ``action_mask``: bool ``(num_envs, num_actions)``, the legal actions;
* ``rewards``: float64 ``(num_envs, 2)``, each color's return (+1 win, -1 loss,
  0 draw) for a game that ended at this step, else 0;
* ``terminated`` / ``truncated``: bool ``(num_envs,)``; a game truncates
  when it reaches ``max_game_length`` actions (rewards 0; default as the other
  adapters, see ``boardlab.research._adapters``) and is restarted too;
* ``info``: ``{"current_player": (num_envs,) int64, "plies": (num_envs,)
  int64}``, the color to act and the actions played so far in each env's game.

Options: ``size``, the game's own (``pie``, ``komi``), ``max_game_length`` and
``copy`` (default True: every call returns new arrays; False returns the
env's own buffers, overwritten by the next call: faster, for loops that
consume them at once). Bad input raises boardlab's errors naming the env
index: an action array of the wrong shape or type ``BoardlabError``, an action
out of range or illegal ``IllegalMoveError``; either way no env changes.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from numba import njit

from .. import game_class
from ..errors import BoardlabError, IllegalMoveError, OptionError
from ..fast import Batch
from ..fast._batch_loops import planes_table
from . import _adapters, tensors

__all__ = ["VectorEnv"]


@njit(cache=True)
def _count_plies(plies, terminated, cap, truncated):  # pragma: no cover - compiled
    """Advance every env's ply count (0 for a game that ended and restarted);
    flag those reaching ``cap`` in ``truncated``; return how many do."""
    count = 0
    for i in range(plies.shape[0]):
        plies[i] = 0 if terminated[i] else plies[i] + 1
        truncated[i] = plies[i] >= cap
        count += truncated[i]
    return count


class VectorEnv:
    """See the module docstring."""

    def __init__(self, game: str, num_envs: int, size: int | None = None, *,
                 max_game_length: int | None = None, copy: bool = True, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise OptionError(f"VectorEnv: num_envs must be a positive integer, got {num_envs!r}")
        if type(copy) is not bool:
            raise OptionError(f"VectorEnv: copy must be True or False, got {copy!r}")
        cls = game_class(game)
        self._batch = Batch(cls.name, num_envs, size, auto_reset=True, **options)
        b = self._batch
        self.game, self.size, self.options = b.game, b.size, b.options
        self.num_envs, self.num_actions = num_envs, b.num_actions
        if max_game_length is None:
            self.max_game_length = _adapters.default_length(cls, self.size)
        elif type(max_game_length) is not int or max_game_length < 1:
            raise OptionError(f"{self.game}: max_game_length must be a positive integer, "
                              f"got {max_game_length!r}")
        else:
            self.max_game_length = max_game_length
        self.copy = copy
        self.observation_shape = tensors.observation_shape(cls, self.size)
        self.plane_names = tensors.plane_names(cls)
        module = importlib.import_module(f"boardlab.fast._{self.game}_planes")
        if module.NUM_PLANES != len(self.plane_names):
            raise BoardlabError(f"{self.game}: the compiled planes ({module.NUM_PLANES}) and "
                                f"boardlab.research.tensors ({len(self.plane_names)}) disagree")
        self._planes, self._planes_of = module.planes, module.planes_of
        self._planes_table = planes_table(module)
        c, s, _ = self.observation_shape
        self._flat = (num_envs, c, s * s)
        self._obs = np.zeros(self._flat, np.float32)
        self._obs_view = self._obs.reshape(num_envs, c, s, s)
        self.plies = np.zeros(num_envs, np.int64)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._shape = (num_envs,)
        self._started = False

    # ------------------------------------------------------------ state views
    @property
    def current_player(self) -> np.ndarray:
        """(num_envs,) int64: the color index to act in each env."""
        return self._batch.current_player

    @property
    def legal_mask(self) -> np.ndarray:
        """(num_envs, num_actions) bool: the env's own legal-action mask (read only)."""
        return self._batch.legal_mask

    @property
    def states(self) -> np.ndarray:
        """(num_envs, L) int64: the compiled states (read only; see boardlab.fast.kernels)."""
        return self._batch.states

    # ------------------------------------------------------------ the API
    def reset(self, seed: int | None = None) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Every env to a new game. ``seed`` reseeds :meth:`random_actions`
        (env i from ``seed + i``, so a seeded run replays at any batch size)."""
        self._batch.reset(seed)
        self.plies[:] = 0
        self._truncated[:] = False
        self._started = True
        return self._observe(), self._info()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, np.ndarray]]:
        """One action per env (an integer array of shape ``(num_envs,)``);
        returns ``(obs, rewards, terminated, truncated, info)``."""
        if not self._started:
            raise BoardlabError("VectorEnv.step: call reset() first")
        acts = actions
        if (type(acts) is not np.ndarray or acts.dtype != np.int64 or acts.shape != self._shape
                or not acts.flags.c_contiguous):
            acts = self._convert(actions)
        b = self._batch
        # with copy, the planes go straight into the new array handed out (no second copy)
        obs = np.empty(self._flat, np.float32) if self.copy else self._obs
        # checks every action before applying any, then steps, refreshes the masks
        # and writes the planes in one pass over the states (fast/_batch_loops.py)
        bad = b.try_step(acts, (self._planes_table, obs))
        if bad >= 0:
            self._refuse(acts, bad)
        truncated = self._truncated
        if _count_plies(self.plies, b.terminated, self.max_game_length, truncated):
            self._restart(np.flatnonzero(truncated), obs)
        if self.copy:
            return (self._observation(obs), b.rewards.copy(), b.terminated.copy(),
                    truncated.copy(), self._info())
        return self._observation(obs), b.rewards, b.terminated, truncated, self._info()

    def random_actions(self) -> np.ndarray:
        """A uniform random legal action per env ((num_envs,) int64), drawn in
        compiled code from each env's own generator (see :meth:`reset`)."""
        return self._batch.random_actions()

    # ------------------------------------------------------------ helpers
    def _convert(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != self._shape or acts.dtype.kind not in "iu":
            raise BoardlabError(f"VectorEnv.step: actions must be an integer array of shape "
                                f"({self.num_envs},), got {acts.dtype} array of shape {acts.shape}")
        if acts.dtype.kind == "u" and acts.max(initial=0) > np.iinfo(np.int64).max:
            i = int(np.argmax(acts))
            raise IllegalMoveError(int(acts[i]), f"env {i}: action {int(acts[i])} is outside "
                                                 f"0..{self.num_actions - 1}")
        return np.ascontiguousarray(acts, dtype=np.int64)

    def _refuse(self, acts: np.ndarray, i: int) -> None:
        a = int(acts[i])
        if not 0 <= a < self.num_actions:
            raise IllegalMoveError(a, f"env {i}: action {a} is outside 0..{self.num_actions - 1}")
        raise IllegalMoveError(a, f"env {i}: action {a} is not legal in that {self.game} game")

    def _restart(self, rows: np.ndarray, obs: np.ndarray) -> None:
        """Restart the games in ``rows`` (truncated ones: the batch restarts
        only the games that end by the rules), their planes in ``obs`` too."""
        b = self._batch
        b.restart(rows)
        self.plies[rows] = 0
        for i in rows.tolist():
            self._planes_of(b.states[i], max(int(b.current_player[i]), 0), obs[i])

    def _observe(self) -> dict[str, np.ndarray]:
        """Every env's planes computed now (after a reset)."""
        obs = np.empty(self._flat, np.float32) if self.copy else self._obs
        self._planes(self._batch.states, self._batch.current_player, obs)
        return self._observation(obs)

    def _observation(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        mask = self._batch.legal_mask
        if obs is self._obs:  # copy=False: the env's own buffers, the same objects every call
            return {"observation": self._obs_view, "action_mask": mask}
        return {"observation": obs.reshape(self.num_envs, *self.observation_shape),
                "action_mask": self._batch.mask_copy()}

    def _info(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"current_player": self._batch.current_player.copy(), "plies": self.plies.copy()}
        return {"current_player": self._batch.current_player, "plies": self.plies}
