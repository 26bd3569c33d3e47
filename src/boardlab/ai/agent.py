"""The base class of the AI engines.

``boardlab.ai`` (its ``__init__``) owns the public :class:`~boardlab.ai.Agent`
protocol (``name`` and ``choose(game) -> str``) and the registry. The engines
here satisfy that protocol and add the integer interface search
code wants:

* ``choose(game) -> str`` / ``choose_move(game) -> str``: a legal move in
  notation for the color to move (``game`` is never modified);
* ``choose_action(game) -> int``: the same move as an integer action;
* ``reset()``: forget anything kept between moves (a new game starts);
* ``move_comment()``: a short text on the last move chosen (or None), which
  the match runner writes into the record after that move;
* ``name``: a short label, used in match tables and records;
* ``settings(game=None) -> dict``: every parameter that decides how the agent
  plays, defaults resolved (what a study records and refuses to mix);
* every agent takes ``seed`` so that runs reproduce.
"""

from __future__ import annotations

import dataclasses
import inspect
import random
from typing import Any, ClassVar

from ..core.game import Game
from ..errors import GameOverError


class BaseAgent:
    """Base class: subclasses implement :meth:`choose_action`."""

    name = "agent"
    #: ``choose_action`` reads nothing of the game but ``legal_actions()``, so
    #: an adapter may hand it a compiled game (``_adapters.CompiledGame``)
    #: instead of building the Python one.
    legal_actions_only = False
    #: constructor parameter -> the attribute that holds its value, where the
    #: two names differ (:meth:`settings` reads every parameter back)
    setting_attributes: ClassVar[dict[str, str]] = {}

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose_action(self, game: Game) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def choose_move(self, game: Game) -> str:
        return game.action_to_string(self.choose_action(game))

    def choose(self, game: Game) -> str:
        """The :class:`boardlab.ai.Agent` protocol."""
        return self.choose_move(game)

    # common aliases, so the agent fits the other callers' protocol too
    def select_action(self, game: Game) -> int:
        return self.choose_action(game)

    def reset(self) -> None:
        pass

    def move_comment(self) -> str | None:
        """What the agent thought of its last move, for a record comment (the
        match runner writes it after the move); None: nothing to say."""
        return None

    def settings(self, game: Game | None = None) -> dict[str, Any]:
        """Every parameter that decides how this agent plays, with the values
        the engine string left to defaults filled in, as JSON values:
        ``{"agent": "boardlab.ai.uct.UCTAgent", "limit":
        {"simulations": 200, "seconds": None}}``.

        Two agents with equal settings (and equal seeds) play the same moves,
        so a study records them and refuses to mix games of different ones.
        Generic: the parameters of the class's ``__init__`` (bar ``seed``,
        ``name`` and ``clock``, which do not change what is searched: a match
        or study records its clock itself) are read back from the attributes
        of the same name (or :attr:`setting_attributes`); a parameter the agent
        does not keep is an error, so a new parameter cannot be left out
        silently. ``game``: resolve what depends on the game (a subclass's
        ``auto`` values); without it they stay as given."""
        cls = type(self)
        out: dict[str, Any] = {"agent": f"{cls.__module__}.{cls.__qualname__}"}
        for param in inspect.signature(cls.__init__).parameters.values():
            if param.name in ("self", "seed", "name", "clock") or param.kind in (
                    param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            attr = self.setting_attributes.get(param.name, param.name)
            if not hasattr(self, attr):
                raise TypeError(f"{cls.__name__}.settings(): parameter {param.name!r} is not "
                                f"kept as self.{attr} (store it, or map it in "
                                "setting_attributes)")
            out[param.name] = _plain(getattr(self, attr))
        return out

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomAgent(BaseAgent):
    """Plays a uniformly random legal move (the ``random`` engine, the same
    seeded moves wherever it is named: match, play, web)."""

    name = "random"
    legal_actions_only = True

    def choose_action(self, game: Game) -> int:
        legal = game.legal_actions()
        if not legal:
            raise GameOverError(None, "the game is over: no move to choose")
        return legal[int(self.rng.random() * len(legal))]


def _plain(value: Any) -> Any:
    """``value`` as JSON: a dataclass (a :class:`~boardlab.ai.limit.Limit`)
    as its fields, a tuple as a list, anything else not JSON as its text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
