"""The five games as OpenSpiel Python games (``pip install 'boardlab[openspiel]'``).

``import boardlab.research.openspiel`` registers ``python_boardlab_<game>`` for every
game with ``pyspiel.register_game``; then::

    import pyspiel, boardlab.research.openspiel
    game = pyspiel.load_game("python_boardlab_robble", {"size": 5, "pie": False})

Parameters: ``size`` (default the game's), the game's options (``pie``,
``komi``) and ``max_game_length`` (0: the default of ``boardlab.research._adapters``;
a game that reaches it ends as a draw, returns ``[0, 0]``). GameType and
GameInfo come from ``Game.info()``: two players, sequential, deterministic,
perfect information, zero-sum, terminal rewards in [-1, 1].

Players are color indices (0 = the first color: black, or blue in pilo). A
multi-action turn (implo's resolutions, yugo's marks, the pie swap) is simply
the same ``current_player()`` for several actions. Observations come from
:mod:`boardlab.research.tensors` (``observation_tensor`` is the planes, flattened;
``observation_string`` is the position text). An illegal or out-of-range
action, or an action on a finished game, raises boardlab's
``IllegalMoveError`` / ``GameOverError`` (ValueErrors) with our reason, and
the state is unchanged.

The information state of these perfect-information games is the public
history: ``information_state_string`` is the action history (OpenSpiel's
convention for public-information games) and ``information_state_tensor``
the observation planes, which fix everything the history does for play (the
legal actions and the result: tests/test_research_markov.py). ``undo_action``
raises ``pyspiel.SpielError`` saying why: OpenSpiel keeps a Python game's
history in its C++ state, which Python cannot shorten, so an undone state
would still serialize (and report ``history()``) with the undone action;
clone the state before a move instead (``state.clone()``, cheap here).

States play on the compiled kernel (``boardlab.fast``, held to the Python
engine ply by ply; ``_adapters.CompiledGame``), so steps, clones and
OpenSpiel's searches cost little beyond OpenSpiel's own C++ <-> Python
bridge (and ``state.legal_actions()`` from Python skips the bridge);
``state.game`` is the boardlab ``Game``, built from the actions when
read (read it, do not change it).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from .. import GAMES, game_class
from ..core.game import Game
from ..errors import GameOverError
from . import _adapters, tensors

__all__ = ["BoardlabGame", "BoardlabState", "short_name"]

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(game: str) -> str:
    """The OpenSpiel name of a boardlab game."""
    return f"python_boardlab_{game}"


def _game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    info = cls.info()
    params: dict[str, Any] = {"size": info.size, "max_game_length": 0, **cls.option_defaults}
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"boardlab {name.capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class BoardlabGame(pyspiel.Game):
    """One boardlab game with its parameters (see the module docstring)."""

    game_name: str = ""  # set per registered subclass

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cap = params.pop("max_game_length", 0)
        self.config = _adapters.spec(self.game_name, max_game_length=cap or None, **params)
        info = self.config.cls.info(self.config.size)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=info.min_utility,
            max_utility=info.max_utility,
            utility_sum=info.utility_sum,
            max_game_length=self.config.max_game_length,
        )
        full = {"size": self.config.size, "max_game_length": cap, **self.config.options}
        super().__init__(_TYPES[self.game_name], game_info, full)
        self.shape = tensors.observation_shape(self.config.cls, self.config.size)

    def new_initial_state(self) -> BoardlabState:
        return BoardlabState(self)

    def _start(self) -> _adapters.CompiledGame:
        """A fresh compiled game, copied from one made once per game object
        (making one checks the options and loads the kernel: ~50 µs)."""
        first = self.__dict__.get("_first")
        if first is None:
            first = self._first = _adapters.CompiledGame(self.config)
        return copy.deepcopy(first)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation (the default), or the information state (perfect
        recall: its string the history, its tensor the planes); an observer of
        private information only sees nothing, as in every public-information game."""
        if iig_obs_type is None:
            return BoardlabObserver(self.config, params)
        if not iig_obs_type.public_info:
            return IIGObserverForPublicInfoGame(iig_obs_type, params)
        return BoardlabObserver(self.config, params, history=iig_obs_type.perfect_recall)


class BoardlabState(pyspiel.State):
    """A state: the game played on the compiled kernel (``_adapters.CompiledGame``:
    cheap steps and clones for OpenSpiel's searches) plus the length cap;
    ``state.game`` is it as a boardlab :class:`~boardlab.Game`."""

    def __init__(self, game: BoardlabGame) -> None:
        super().__init__(game)
        self._play = game._start()
        self._cap = game.config.max_game_length
        self._player = self._player_now()

    @property
    def game(self) -> Game:
        """The boardlab game (built on demand from the actions: read it, do not change it)."""
        return self._play.game

    # OpenSpiel's C++ calls back into Python for current_player four times a
    # step and is_terminal twice (measured): each crossing costs more than our
    # work, so the player (TERMINAL once over or truncated) is computed once
    # per action and these two return a stored int.
    def _player_now(self) -> int:
        player = self._play.current_player()
        if player < 0 or len(self._play.actions) >= self._cap:
            return _TERMINAL
        return player

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._player < 0

    def _legal_actions(self, player: int) -> list[int]:
        if self._player < 0:
            return []
        return self._play.legal_actions()

    # A Python caller's ``state.legal_actions()`` is answered here instead of
    # going through pyspiel's C++ ``LegalActions``, which calls back into
    # Python four times (current_player three times, is_terminal once) and
    # copies the list into a C++ vector and out again: 3-4 µs a step, more
    # than the kernel's work. C++ callers (OpenSpiel's algorithms) still go
    # through ``_legal_actions``; both give the same list (tested).
    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is None or player == self._player:
            return [] if self._player < 0 else self._play.legal_actions()
        return super().legal_actions(player)  # another player, a pseudo-player: C++ decides

    def _apply_action(self, action: int) -> None:
        if self._player < 0 and self._play.current_player() >= 0:
            raise GameOverError(action, f"the game was truncated at max_game_length={self._cap}")
        code = self._play.play(action)  # the engine's GameOverError once over, IllegalMoveError
        # code: the color to act next (-1 once over), + 2 inside a multi-action turn
        self._player = _TERMINAL if code < 0 or len(self._play.actions) >= self._cap else code & 1

    def undo_action(self, player: int, action: int) -> None:
        """Refused, with OpenSpiel's error type and the reason (module docstring)."""
        raise pyspiel.SpielError(
            f"{self.get_game().get_type().short_name}: undo_action is not supported: OpenSpiel "
            "keeps a Python game's history in C++, where Python cannot remove the action, so "
            "history() and serialize() would still hold it; clone the state before applying "
            "an action instead (state.clone())")

    def _action_to_string(self, player: int, action: int) -> str:
        return self.game.action_to_string(int(action))

    def returns(self) -> list[float]:
        return self._play.returns() if self._play.current_player() < 0 else [0.0, 0.0]

    def __str__(self) -> str:
        return self.game.position()


class BoardlabObserver:
    """The PyObserver of every boardlab game: planes into ``tensor`` / ``dict``
    (the planes of :mod:`boardlab.research.tensors`, computed in compiled code from
    the state's kernel state). ``history``: the information state's observer,
    whose string is the action history (the tensor stays the planes)."""

    def __init__(self, config: _adapters.Spec, params: dict | None, history: bool = False) -> None:
        if params:
            raise ValueError(f"boardlab observers take no parameters, got {params}")
        self.history = history
        shape = tensors.observation_shape(config.cls, config.size)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}
        self._rows = self.tensor.reshape(shape[0], -1)

    def set_from(self, state: BoardlabState, player: int) -> None:
        state._play.planes_into(player, self._rows)

    def string_from(self, state: BoardlabState, player: int) -> str:
        if self.history:
            return state.history_str()
        return tensors.observation_string(state.game, player)


_TYPES: dict[str, pyspiel.GameType] = {}


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for name in GAMES:
        _TYPES[name] = _game_type(name)
        cls = type(f"Boardlab{name.capitalize()}Game", (BoardlabGame,), {"game_name": name})
        globals()[cls.__name__] = cls
        if short_name(name) not in registered:
            pyspiel.register_game(_TYPES[name], cls)


_register()
