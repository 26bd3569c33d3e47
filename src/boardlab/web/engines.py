"""The computer opponents, as the web app sees them.

Engines come from ``boardlab.ai``'s registry (``make_agent(name, seed)``);
until that package exists, or for names it lacks, a uniformly random agent
is built in. An engine is asked for one move at a time in a worker process
(:func:`compute_move`, a plain function of plain data), so a thinking engine
never blocks the server's event loop — not even through the GIL.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

import boardlab


class _RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, game: boardlab.Game) -> str:
        return self.rng.choice(game.legal_moves())


def _ai_module():
    try:
        return importlib.import_module("boardlab.ai")
    except Exception:  # noqa: BLE001 - not written yet, or broken mid-edit: fall back
        return None


def _registry_names(ai) -> list[str]:
    for attr in ("available_agents", "agent_names", "list_agents", "names"):
        fn = getattr(ai, attr, None)
        if callable(fn):
            try:
                return [str(n) for n in fn()]
            except Exception:  # noqa: BLE001 - a broken registry: offer random only
                return []
    for attr in ("AGENTS", "REGISTRY", "registry", "ENGINES"):
        reg = getattr(ai, attr, None)
        if isinstance(reg, dict):
            return [str(n) for n in reg]
        if isinstance(reg, (list, tuple)):
            return [str(n) for n in reg]
    return []


def _level_key(name: str) -> tuple:
    if name == "random":
        return (0, 0, name)
    if name.startswith("level") and name[5:].isdigit():
        return (1, int(name[5:]), name)
    return (2, 0, name)


def list_engines() -> list[dict[str, Any]]:
    """The computer opponents on offer: ``random`` first, then the levels."""
    names = ["random"]
    ai = _ai_module()
    if ai is not None and hasattr(ai, "make_agent"):
        names += [n for n in _registry_names(ai) if n not in names]
    describe = getattr(ai, "describe_agent", None) if ai is not None else None
    out = []
    for name in sorted(names, key=_level_key) if ai is None or not hasattr(ai, "agent_names") \
            else names:
        if name == "random":
            label = "Random mover"
        elif name.startswith("level") and name[5:].isdigit():
            label = f"Level {name[5:]}"
        else:
            label = name
        summary = ""
        if callable(describe):
            try:
                summary = describe(name) or ""
            except Exception:  # noqa: BLE001 - a label is not worth an error
                summary = ""
        out.append({"name": name, "label": label, "summary": summary})
    return out


def make_agent(name: str, seed: int | None = None):
    ai = _ai_module()
    if ai is not None and hasattr(ai, "make_agent"):
        try:
            return ai.make_agent(name, seed=seed)
        except TypeError:
            return ai.make_agent(name, seed)
        except Exception:
            if name != "random":
                raise
    if name == "random":
        return _RandomAgent(seed)
    raise ValueError(f"unknown engine {name!r}")


def choose(agent, game: boardlab.Game) -> str:
    """Ask an agent for a move in notation, whatever its method is called."""
    for attr in ("choose", "choose_move", "select_move", "move"):
        fn = getattr(agent, attr, None)
        if callable(fn):
            out = fn(game)
            return out if isinstance(out, str) else game.action_to_string(out)
    for attr in ("choose_action", "select_action", "act"):
        fn = getattr(agent, attr, None)
        if callable(fn):
            return game.action_to_string(fn(game))
    if callable(agent):
        out = agent(game)
        return out if isinstance(out, str) else game.action_to_string(out)
    raise TypeError(f"{agent!r} has no choose_move / choose_action")


def compute_move(game_name: str, size: int, options: dict, moves: list[str], engine: str,
                 seed: int) -> str:
    """Runs in a worker: rebuild the game from its moves and ask the engine."""
    game = boardlab.new_game(game_name, size, **options)
    for move in moves:
        game.play(move)
    agent = make_agent(engine, seed)
    return choose(agent, game)


# ---------------------------------------------------------------- yugo's komi
def komi_for(engine: str, size: int) -> int:
    """The komi the computer names: the agent's ``choose_komi`` hook if it has
    one, else :func:`fair_komi`."""
    try:
        agent = make_agent(engine, 0)
        hook = getattr(agent, "choose_komi", None)
        if callable(hook):
            return int(hook("yugo", size))
    except Exception:  # noqa: BLE001 - a broken hook: use the rule of thumb
        return fair_komi(size)
    return fair_komi(size)


def color_for(engine: str, komi: int, size: int) -> str:
    """The color the computer picks after the human names komi: the agent's
    ``choose_color`` hook if it has one, else :func:`pick_color`."""
    try:
        agent = make_agent(engine, 0)
        hook = getattr(agent, "choose_color", None)
        if callable(hook):
            color = hook(komi)
            if color in ("black", "white"):
                return color
    except Exception:  # noqa: BLE001 - a broken hook: use the rule of thumb
        return pick_color(komi, size)
    return pick_color(komi, size)


def fair_komi(size: int) -> int:
    """The komi the computer names when it is asked to (yugo).

    A plain rule of thumb, written down so it can be argued with: Go's area
    komi scaled to the board, at most 7 (``min(7, size*size // 12)``)."""
    return min(7, size * size // 12)


def pick_color(komi: int, size: int) -> str:
    """The color the computer picks after the other side names komi (yugo):
    white when the komi is at least what it considers fair, else black."""
    return "white" if komi >= fair_komi(size) else "black"
