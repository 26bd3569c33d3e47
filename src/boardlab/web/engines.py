"""The computer opponents, as the web app sees them: ``boardlab.ai``'s registry.

An engine is asked for one move at a time in a worker process
(:func:`compute_move`, a plain function of plain data), so a thinking engine
never blocks the server's event loop — not even through the GIL. Yugo's
pre-game choices (:func:`komi_for`, :func:`color_for`) run there too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import boardlab
from boardlab import ai


def list_engines() -> list[dict[str, Any]]:
    """The computer opponents on offer: ``random`` (the default) first, then
    the registry's weakest to strongest (the levels, ``mcts``)."""
    out = []
    for name in sorted(ai.agent_names(), key=lambda n: n != "random"):
        if name == "random":
            label = "Random mover"
        elif name.startswith("level") and name[5:].isdigit():
            label = f"Level {name[5:]}"
        else:
            label = name
        out.append({"name": name, "label": label, "summary": ai.describe_agent(name)})
    return out


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


def choose(engine: str, seed: int, game: boardlab.Game) -> str:
    """The move engine ``engine`` (seeded) chooses at ``game``."""
    return ai.make_agent(engine, seed).choose(game)


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


# ---------------------------------------------------------------- yugo's komi
@contained
def komi_for(engine: str, size: int) -> int:
    """The komi the computer names: the agent's ``choose_komi`` hook if it has
    one (MCTS engines: a search of the start position), else :func:`fair_komi`."""
    hook = getattr(ai.make_agent(engine, 0), "choose_komi", None)
    return int(hook("yugo", size)) if callable(hook) else fair_komi(size)


@contained
def color_for(engine: str, komi: int, size: int) -> str:
    """The color the computer picks after the human names komi: the agent's
    ``choose_color`` hook if it has one, else :func:`pick_color`."""
    hook = getattr(ai.make_agent(engine, 0), "choose_color", None)
    return hook(komi, size) if callable(hook) else pick_color(komi, size)


def fair_komi(size: int) -> int:
    """The komi the computer names when it is asked to (yugo).

    A plain rule of thumb, written down so it can be argued with: Go's area
    komi scaled to the board, at most 7 (``min(7, size*size // 12)``)."""
    return min(7, size * size // 12)


def pick_color(komi: int, size: int) -> str:
    """The color the computer picks after the other side names komi (yugo):
    white when the komi is at least what it considers fair, else black."""
    return "white" if komi >= fair_komi(size) else "black"
