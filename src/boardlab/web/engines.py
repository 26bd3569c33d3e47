"""The computer opponents, as the web app sees them: ``boardlab.ai``'s registry.

An engine is asked for one move at a time in a worker process
(:func:`compute_move`, a plain function of plain data), so a thinking engine
never blocks the server's event loop — not even through the GIL. Yugo's
pre-game choices (:func:`komi_for`, :func:`color_for`) run there too.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import boardlab
from boardlab import ai


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


# ---------------------------------------------------------------- yugo's komi
@contained
def komi_for(engine: str, size: int) -> int:
    """The komi the computer names: the agent's ``choose_komi`` hook if it has
    one (MCTS engines: a search of the start position), else :func:`fair_komi`.

    A weak level's search of the start is mostly noise (level 1 named 13 on
    7x7 and -6 on 5x5), so a search's answer is kept within
    ``0 .. 2 * fair_komi(size)``: komi compensates the first player, and no
    player would name more than twice the rule of thumb."""
    hook = getattr(ai.make_agent(engine, 0), "choose_komi", None)
    if not callable(hook):
        return fair_komi(size)
    from boardlab.ai.decisions import komi_game
    return max(0, min(2 * fair_komi(size), int(hook(komi_game(), size))))


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
