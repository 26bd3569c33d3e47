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
* every agent takes ``seed`` so that runs reproduce.
"""

from __future__ import annotations

import random

from ..core.game import Game
from ..errors import GameOverError


class BaseAgent:
    """Base class: subclasses implement :meth:`choose_action`."""

    name = "agent"
    #: ``choose_action`` reads nothing of the game but ``legal_actions()``, so
    #: an adapter may hand it a compiled game (``_adapters.CompiledGame``)
    #: instead of building the Python one.
    legal_actions_only = False

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
