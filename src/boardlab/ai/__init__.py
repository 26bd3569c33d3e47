"""Engines that choose moves: the :class:`Agent` protocol and a registry.

Registered engines: ``random``, ``uct`` (plain UCT, the outside baseline),
``mcts`` (1 s a move) and ``level1``..``level5`` (see docs/ai.md);
:func:`make_agent` also takes budgets (:class:`~boardlab.ai.limit.Limit`) such
as ``mcts:500`` (simulations), ``mcts:0.2s``, ``mcts:500+2s`` or ``uct:0.25s``. Front ends
(``boardlab play``, the web app) get engines by name and ask :func:`strongest`
for hints.

>>> import boardlab
>>> from boardlab import ai
>>> agent = ai.make_agent("random", seed=1)
>>> game = boardlab.new_game("robble", size=5)
>>> agent.choose(game) in game.legal_moves()
True
>>> ai.make_agent("alphazero")
Traceback (most recent call last):
...
boardlab.errors.OptionError: unknown engine 'alphazero' (engines: random, level1, level2, level3, level4, uct, level5, mcts)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..core.game import Game
from ..errors import OptionError
from .agent import RandomAgent


@runtime_checkable
class Agent(Protocol):
    """Something that picks a move.

    ``choose`` gets the game (it may look but must not change it; pass a copy
    if unsure) and returns one legal move in canonical notation. Agents are
    made by a factory taking ``seed`` so that games can be reproduced.

    Optional hooks a front end uses when present (``getattr``), for a game's
    pre-game (:mod:`boardlab.core.pregame`, yugo's komi): ``name_value(game) ->
    int`` when the agent names the value (``game``: the start), ``choose_color(game)
    -> str`` when it picks a color (``game``: the start with the named value).
    Without them a front end falls back on the game's rule of thumb or the
    option's default and the color the agent was seated at (see each front end).
    """

    name: str

    def choose(self, game: Game) -> str: ...


@dataclass(frozen=True)
class _Entry:
    factory: Callable[[int | None], Agent]
    strength: int
    summary: str


_REGISTRY: dict[str, _Entry] = {}


def register(name: str, factory: Callable[[int | None], Agent], *, strength: int = 0,
             summary: str = "") -> None:
    """Make an engine available by name. ``strength`` orders engines for hints."""
    _REGISTRY[name.lower()] = _Entry(factory, strength, summary)


def agent_names() -> list[str]:
    """Registered engine names, weakest first."""
    return sorted(_REGISTRY, key=lambda n: (_REGISTRY[n].strength, n))


def strongest() -> str:
    """The name of the strongest registered engine (used for hints)."""
    return agent_names()[-1]


def strength(name: str) -> int:
    """The registered strength of an engine (0: the random mover; more is
    stronger and, for the search engines, slower); OptionError if unknown."""
    entry = _REGISTRY.get(name.lower())
    if entry is None:
        raise OptionError(f"unknown engine {name!r} (engines: {', '.join(agent_names())})")
    return entry.strength


def describe_agent(name: str) -> str:
    entry = _REGISTRY.get(name.lower())
    return entry.summary if entry else ""


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A new engine by name; OptionError for unknown names."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key is not None and (key.startswith(("mcts:", "uct:", "pyuct", "cmd:", "cmd@", "az:"))
                            or key == "az"):
        from .engines import make_engine
        return make_engine(name.strip(), seed)  # (a command keeps its case)
    if key not in _REGISTRY:
        raise OptionError(f"unknown engine {name!r} (engines: {', '.join(agent_names())})")
    return _REGISTRY[key].factory(seed)


register("random", RandomAgent, strength=0, summary="uniformly random legal moves")


def _register_search_engines() -> None:
    from .engines import builtin_engines

    for name, factory, rank, summary in builtin_engines():
        register(name, factory, strength=rank, summary=summary)


_register_search_engines()

__all__ = ["Agent", "RandomAgent", "agent_names", "describe_agent", "make_agent",
           "register", "strength", "strongest"]
