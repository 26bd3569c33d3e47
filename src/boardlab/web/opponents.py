"""The computer opponents, as the web app sees them: ``boardlab.ai``'s registry.

An engine is asked for one move at a time in a worker process
(:func:`compute_move`, a plain function of plain data), so a thinking engine
never blocks the server's event loop — not even through the GIL. A game's
pre-game choices (:func:`value_for`, :func:`color_for`: yugo's komi) run
there too.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import boardlab
from boardlab import ai
from boardlab.core.pregame import PreGame


def list_engines() -> list[dict[str, Any]]:
    """The computer opponents on offer: the levels weakest first, then the
    registry's other engines (``mcts``), and ``random`` last. The form offers
    the first one by default, and a newcomer's first opponent should play the
    game, not pick moves at random."""
    out = []
    for name in sorted(ai.agent_names(), key=lambda n: (n == "random", not _is_level(n))):
        if name == "random":
            label = "Random moves"
        elif _is_level(name):
            label = f"Level {name[5:]}"
        else:
            label = name
        out.append({"name": name, "label": label, "summary": ai.describe_agent(name)})
    return out


def _is_level(name: str) -> bool:
    return name.startswith("level") and name[5:].isdigit()


F = TypeVar("F", bound=Callable[..., Any])


def contained(fn: F) -> F:
    """An engine call that raises SystemExit (or any other BaseException) fails
    like any error instead of stopping the server: asyncio lets SystemExit out
    of the event loop, from a worker thread's future as from a process's."""
    @functools.wraps(fn)
    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except Exception:
            raise
        except BaseException as exc:  # noqa: BLE001 - the point of this wrapper
            raise RuntimeError(f"the engine raised {type(exc).__name__}: {exc}") from None
    return call  # type: ignore[return-value]


#: Agents that keep their search tree between moves (``continues(game)``),
#: kept per worker process for the next move of the same line: the web asks
#: for one move at a time, and a fresh agent each move would throw the tree
#: away. A few, newest last; any game of the same line may continue one.
_KEPT: list[tuple[str, Any]] = []
_KEEP = 8
_KEPT_LOCK = threading.Lock()  # thread workers (``--engine-workers 0``) share the list


def _kept_agent(engine: str, game: boardlab.Game) -> Any | None:
    with _KEPT_LOCK:
        for i in range(len(_KEPT) - 1, -1, -1):
            name, agent = _KEPT[i]
            if name == engine and agent.continues(game):
                del _KEPT[i]
                return agent
    return None


def choose(engine: str, seed: int, game: boardlab.Game) -> str:
    """The move engine ``engine`` (seeded) chooses at ``game``; an agent kept
    from an earlier move of this line continues its tree."""
    agent = _kept_agent(engine, game) or ai.make_agent(engine, seed)
    move = agent.choose(game)
    if callable(getattr(agent, "continues", None)):
        with _KEPT_LOCK:
            _KEPT.append((engine, agent))
            del _KEPT[:-_KEEP]
    return move


@contained
def compute_move(game_name: str, size: int, options: dict, start: str | None,
                 moves: list[str], engine: str, seed: int) -> str:
    """Runs in a worker (plain data in, so a process pool can pickle it):
    rebuild the game from its start (``start``: a set-up position text) and
    its moves, and ask the engine."""
    game = boardlab.from_position(start) if start else boardlab.new_game(game_name, size,
                                                                         **options)
    for move in moves:
        game.play(move)
    return choose(engine, seed, game)


# ---------------------------------------------------------------- the pre-game
def _start(game_name: str, size: int) -> tuple[boardlab.Game, PreGame]:
    start = boardlab.new_game(game_name, size)
    pg = start.pregame
    if pg is None:
        raise boardlab.OptionError(f"{game_name} has no pre-game")
    return start, pg


@contained
def value_for(engine: str, game_name: str, size: int) -> int:
    """The value of the game's pre-game option the computer names (yugo: its
    komi): the agent's ``name_value`` hook if it has one (the search engines:
    a search of the start position), kept within what a player would name
    (``PreGame.reasonable``: a weak level's search of the start is mostly
    noise), else the game's rule of thumb (``PreGame.fair``)."""
    start, pg = _start(game_name, size)
    hook = getattr(ai.make_agent(engine, 0), "name_value", None)
    if not callable(hook):
        return pg.fair(size)
    return pg.keep_reasonable(int(hook(start)), size)


@contained
def color_for(engine: str, game_name: str, size: int, value: int) -> str:
    """The color the computer picks after the human named ``value``: the
    agent's ``choose_color`` hook if it has one, else the game's rule of
    thumb (``PreGame.pick``)."""
    start, pg = _start(game_name, size)
    start = type(start)(size, **{**start.options, pg.option: value})
    hook = getattr(ai.make_agent(engine, 0), "choose_color", None)
    return hook(start) if callable(hook) else pg.pick(start.colors, value, size)
