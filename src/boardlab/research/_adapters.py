"""What the research adapters (openspiel, pettingzoo, gymnasium) share: turning
their keyword options into a checked game factory, the length cap, and the
text rendering.

Options every adapter takes: ``size`` (the board size, default the game's),
the game's own options (``pie`` for implo / pilo / robble, ``komi`` for
yugo), and ``max_game_length``: the number of actions after which an
episode is *truncated* (a draw for OpenSpiel, ``truncated=True`` for
PettingZoo and Gymnasium). It defaults to the game's proven bound from
``info()`` (implo, pilo, yugo never reach it), or ``10 * size**2 + 100`` for
the games without one (robble ends by its repetition rule, vimbre by the
board filling up in practice, but neither has a small proven bound).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import game_class
from ..core.game import Game
from ..errors import BoardlabError, OptionError


@dataclass(frozen=True)
class Spec:
    """A checked game configuration: ``new()`` makes a fresh game."""

    cls: type[Game]
    size: int
    options: dict[str, Any]
    max_game_length: int
    num_distinct_actions: int

    def new(self) -> Game:
        return self.cls(self.size, **self.options)


def default_length(cls: type[Game], size: int) -> int:
    bound = cls.max_game_length_for(size)
    return bound if bound is not None else 10 * size * size + 100


def spec(name: str, size: int | None = None, max_game_length: int | None = None,
         **options: Any) -> Spec:
    """The game ``name`` with these options, checked (OptionError names what is wrong)."""
    cls = game_class(name)
    game = cls(size, **options)  # checks size and options with the game's own messages
    if max_game_length is None:
        cap = default_length(cls, game.size)
    elif type(max_game_length) is not int or max_game_length < 1:
        raise OptionError(f"{cls.name}: max_game_length must be a positive integer, "
                          f"got {max_game_length!r}")
    else:
        cap = max_game_length
    return Spec(cls, game.size, dict(game.options), cap, game.num_distinct_actions)


def legal_mask(game: Game, size: int) -> np.ndarray:
    """The int8 legal-action mask of ``game`` (``size`` entries). np.fromiter
    then one fancy assignment: 2-5x faster than assigning through the list
    (NumPy converts a list index element by element)."""
    mask = np.zeros(size, np.int8)
    legal = game.legal_actions()
    mask[np.fromiter(legal, np.intp, len(legal))] = 1
    return mask


class CompiledGame:
    """A game played on the compiled kernel (``boardlab.fast``), with the
    Python game built on demand: for adapters whose every step would
    otherwise pay the pure-Python rules (PettingZoo's AEC env). The kernel
    agrees with the Python engine ply by ply (``boardlab.fast.check``, and
    ``tests/test_research_pettingzoo.py`` replays the env's games in Python);
    an illegal action is refused with the Python engine's own reason.

    ``game`` is the episode as a :class:`~boardlab.Game`, brought up to date
    (the actions since the last access applied) when read: read it, do not
    change it.
    """

    def __init__(self, config: Spec) -> None:
        import importlib

        from ..fast._resolve import resolve
        from . import tensors

        r = resolve(config.cls.name, config.size, config.options)
        self.config = config
        module = importlib.import_module(f"boardlab.fast._{r.name}_planes")
        self._try_apply, self._observe_one = module.try_apply, module.observe_one
        self._planes_of, self._replay = module.planes_of, module.replay
        self._kernel = r.kernel
        self._state = np.zeros(r.state_len, np.int64)
        self._size, self._opts = r.size, r.opts
        self._buf = np.zeros(r.num_actions, np.int64)
        self._scores = np.zeros(2, np.float64)
        self.shape = tensors.observation_shape(config.cls, config.size)
        self._flat = (self.shape[0], config.size * config.size)
        self.actions: list[int] = []
        self.reset()

    def reset(self) -> None:
        self._kernel.init(self._state, self._size, self._opts)
        self.actions = []
        self._game: Game | None = None   # built when first read
        self._built = 0

    @property
    def game(self) -> Game:
        game, actions = self._game, self.actions
        if game is None:
            game = self._game = self.config.new()
        for i in range(self._built, len(actions)):
            game.apply_action(actions[i])
        self._built = len(actions)
        return game

    def play(self, action: int) -> int:
        """Apply an int action: the color to act next (-1 once over), plus 2
        while that color is inside a multi-action turn. An illegal or
        out-of-range action raises the Python engine's IllegalMoveError
        (GameOverError once over) and changes nothing."""
        code = self._try_apply(self._state, action) if 0 <= action < len(self._buf) else -2
        if code == -2:
            self.game.copy().apply_action(action)  # raises with the engine's reason
            raise BoardlabError(f"{self.config.cls.name}: the compiled kernel refused action {action}, "
                                f"which the Python engine accepts (a kernel bug)")
        self.actions.append(action)
        return code

    def play_code(self) -> int:
        """What :meth:`play` would return for the position now (-1 once over,
        the color to act, plus 2 inside a multi-action turn)."""
        player = int(self._kernel.current_player(self._state))
        return player + 2 if player >= 0 and self._kernel.mid_turn(self._state) else player

    def returns(self) -> list[float]:
        """Each color's return once over (+1, -1; 0 for a draw)."""
        winner, _ = self._kernel.outcome(self._state, self._scores)
        return [0.0, 0.0] if winner == 2 else ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])

    def observe(self, player: int) -> tuple[np.ndarray, np.ndarray]:
        """New arrays: the planes (as ``tensors.observe``) seen by ``player`` and the int8 legal mask."""
        out = np.empty(self._flat, np.float32)
        mask = np.empty(len(self._buf), np.int8)
        self._observe_one(self._state, player, out, mask, self._buf)
        return out.reshape(self.shape), mask

    # ---------------------------------------------------------- for OpenSpiel's states
    def current_player(self) -> int:
        """The color to act, -1 once over."""
        return int(self._kernel.current_player(self._state))

    def legal_actions(self) -> list[int]:
        return self._buf[:self._kernel.legal_actions(self._state, self._buf)].tolist()

    def planes_into(self, player: int, out: np.ndarray) -> None:
        """The planes seen by ``player`` into ``out`` (float32 ``(C, size * size)``)."""
        if player != 0 and player != 1:
            raise OptionError(f"{self.config.cls.name}: player must be 0 or 1 (a color index), "
                              f"got {player!r}")
        self._planes_of(self._state, player, out)

    def __deepcopy__(self, memo: dict) -> CompiledGame:
        """A cheap copy (OpenSpiel clones states for every search step): the
        kernel state and the actions; the copy's Python game is rebuilt on demand."""
        new = object.__new__(CompiledGame)
        new.__dict__.update(self.__dict__)
        new._state = self._state.copy()
        new.actions = list(self.actions)
        new._game = None
        new._built = 0
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config, "actions": list(self.actions)}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__init__(saved["config"])  # type: ignore[misc]
        self._replay(self._state, self._size, self._opts, np.array(saved["actions"], np.int64))
        self.actions = list(saved["actions"])


def render_text(game: Game, mode: str | None) -> str | None:
    """Gymnasium's and PettingZoo's ``render``: the board as text for
    ``"ansi"``, printed for ``"human"`` (returning None), nothing without a
    mode."""
    if mode is None:
        return None
    text = str(game)
    if mode == "human":
        print(text)
        return None
    return text
