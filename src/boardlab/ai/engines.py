"""Named engines: ``random``, ``uct``, ``mcts`` (with an optional budget), ``level1``..``level5``.

:func:`make_engine` turns a name into an agent; ``boardlab.ai.make_agent``
delegates every name other than its own to it. Names:

* ``random``: a uniformly random legal move.
* ``uct``, ``uct:BUDGET``: plain UCT on the compiled kernels
  (:mod:`boardlab.ai.uct`), the yardstick; BUDGET as for ``mcts`` (default
  1 s). ``pyuct``, ``pyuct:BUDGET``: the same algorithm over the Python games.
* ``mcts``, ``mcts:BUDGET[,key=value...]``: the one search
  (:mod:`boardlab.ai.search`) with the game's knowledge; default 1 s a move.
  BUDGET is a simulation count (``mcts:5000``), seconds (``mcts:0.25s``) or
  both (``mcts:5000+2s``: whichever ends first). Keys: every search setting
  (:class:`boardlab.fast.search.Settings`: ``c``, ``cpuct``, ``priors``,
  ``evaluator``, ``score``, ``implicit``, ``solver``, ``grave``, ``reuse``, ...), plus
  ``knowledge`` (``no``: plain UCB1 with uniform playouts, the game's own
  settings ignored) and ``threads`` (N or ``auto``: root-parallel trees).
* ``az``, ``az:BUDGET[,net=PATH]``: the one search guided by the network
  trained for the game and board size (:mod:`boardlab.ai.az`), budget as for
  ``mcts`` (default 1 s); it refuses, naming the networks shipped, where none
  was trained; ``net``: a weights file instead (a training run's).
* ``cmd:COMMAND`` / ``cmd@BUDGET:COMMAND``: an outside engine speaking UGI
  (:mod:`boardlab.ai.external`), e.g. ``cmd:boardlab engine robble``.
* ``levelN``: the levels of :data:`LEVELS`: the one search with the game's
  knowledge at fixed simulation budgets (each game's own ladder, from its
  plug-in), so they replay exactly on any machine.

Every engine takes ``seed``; with a simulation budget the same seed replays the
same moves.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from ..errors import OptionError
from .agent import BaseAgent, RandomAgent
from .limit import Limit


@dataclass(frozen=True)
class Level:
    """A level: a rung of each game's simulation ladder (``level_budgets``)."""

    number: int
    summary: str

    def make(self, seed: int | None = None) -> BaseAgent:
        from .search import SearchAgent
        return SearchAgent(None, seed, level=self.number, name=f"level{self.number}")


#: The levels, weakest first. A level is a simulation budget, not a clock,
#: so it plays the same on every machine and replays exactly with a seed (a
#: researcher's "level 4" is everyone's); each game's plug-in sets its own
#: ladder (``SEARCH_SETTINGS["levels"]``), measured so that level 5 answers
#: within about a second on the default board, and docs/ai.md has each
#: level's measured strength. Full strength on a given machine is
#: ``mcts:Ns``, not a level.
LEVELS: tuple[Level, ...] = (
    Level(1, "a few simulations a move: a beginner's first opponent; it misses "
             "what a little reading finds"),
    Level(2, "a short search: takes wins in one, still loose"),
    Level(3, "a real search, well below full strength"),
    Level(4, "a strong search: about the yardstick uct at a quarter second a move"),
    Level(5, "the strongest level: the game's full knowledge and about a second of "
             "search on the default board"),
)

DEFAULT_SECONDS = 1.0


def engine_names() -> list[str]:
    return ["random", "uct", "mcts", *(f"level{lv.number}" for lv in LEVELS)]


def _flag(text: str) -> bool:
    if text in ("yes", "true", "1", "on"):
        return True
    if text in ("no", "false", "0", "off"):
        return False
    raise ValueError(f"expected yes or no, got {text!r}")


def make_engine(name: str, seed: int | None = None) -> BaseAgent:
    """The agent a name denotes; OptionError (a ValueError) if unknown or malformed."""
    try:
        return _make(name, seed)
    except OptionError:
        raise
    except ValueError as exc:
        raise OptionError(f"engine {name!r}: {exc}") from None


def _make(name: str, seed: int | None) -> BaseAgent:
    spec = name.strip().lower()
    if spec == "random":
        return RandomAgent(seed)
    if spec.startswith("level"):
        try:
            number = int(spec[5:])
        except ValueError:
            number = 0
        for level in LEVELS:
            if level.number == number:
                return level.make(seed)
        raise OptionError(f"unknown level {name!r}: levels are 1..{len(LEVELS)}")
    if spec.startswith(("cmd:", "cmd@")):
        from .external import UGIAgent
        return UGIAgent(name.strip(), seed)
    head, _, rest = spec.partition(":")
    if head in ("uct", "pyuct"):
        limit = Limit.parse(rest) if rest else Limit(seconds=DEFAULT_SECONDS)
        if head == "uct":
            from .uct import UCTAgent
            return UCTAgent(limit, seed, name=name.strip())
        from .pyuct import PyUCTAgent
        return PyUCTAgent(limit, seed, name=name.strip())
    if head == "az":
        from .az import make as make_az
        return make_az(name.strip().partition(":")[2], seed, name.strip())  # a path keeps its case
    if head == "mcts":
        limit, items = _budget(rest)
        return _search_agent(limit, items, seed, name.strip())
    raise OptionError(f"unknown engine {name!r} (engines: {', '.join(engine_names())}, "
                      "mcts:SIMULATIONS, mcts:SECONDSs, uct:..., pyuct:..., az:...)")


def _search_agent(limit: Limit, items: list[tuple[str, str]], seed: int | None,
                  name: str) -> BaseAgent:
    """``mcts:BUDGET,key=value...``: keys are the search settings
    (:class:`boardlab.fast.search.Settings`), ``threads`` and ``knowledge``."""
    from ..fast.search import Settings
    from .search import SearchAgent
    kinds = {f.name: str(f.type) for f in fields(Settings)}
    settings: dict = {}
    kw: dict = {}
    for key, value in items:
        if key == "threads":
            kw["threads"] = (os.cpu_count() or 1) if value == "auto" else int(value)
        elif key == "knowledge":
            kw["knowledge"] = _flag(value)
        elif key in kinds:
            settings[key] = _value(kinds[key], value)
        else:
            raise ValueError(f"unknown engine option {key!r} in {name!r} (mcts takes "
                             f"{', '.join(['threads', 'knowledge', *kinds])})")
    return SearchAgent(limit, seed, settings=settings, name=name, **kw)


def _value(kind: str, text: str):
    """An engine option's text as its settings type (``bool``, ``int``,
    ``float``, ``str``, or ``float | None`` with ``none``)."""
    if "None" in kind and text in ("none", "no", "off"):
        return None
    if kind.startswith("bool"):
        return _flag(text)
    if kind.startswith("int"):
        return int(text)
    if kind.startswith("float"):
        return float(text)
    return text


def _budget(rest: str) -> tuple[Limit, list[tuple[str, str]]]:
    """``BUDGET[,key=value...]`` (or just the keys): the limit (default
    :data:`DEFAULT_SECONDS`) and the key/value pairs."""
    items = rest.split(",") if rest else []
    limit = Limit(seconds=DEFAULT_SECONDS)
    if items and "=" not in items[0]:
        limit = Limit.parse(items.pop(0))
    pairs = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"engine option {item!r} is not key=value")
        pairs.append((key, value))
    return limit, pairs


def explicit_spec(name: str, game: str) -> str:
    """An ``mcts`` name with every search setting it resolves to on ``game``
    spelled out (``mcts:0.25s,c=1.0,...``: every field given, so neither the
    defaults nor the game's own settings can change it later, while the
    game's hooks, yugo's marking plan, stay on), which is what a published
    table names. Other engines come back unchanged."""
    agent = make_engine(name)
    from .search import SearchAgent
    if not isinstance(agent, SearchAgent) or agent.level is not None:
        return name
    settings = agent.settings_for(game).as_dict()
    items = [f"{k}={'none' if v is None else ('yes' if v is True else 'no' if v is False else v)}"
             for k, v in settings.items()]
    head = f"mcts:{agent.limit}"
    threads = [f"threads={agent.threads}"] if agent.threads != 1 else []
    return ",".join([head, *threads, *items])


def same_engine(recorded: str, name: str) -> bool:
    """Whether a record's engine name denotes the engine ``name``: the same
    name, or, where ``name`` spells every search setting out
    (:func:`explicit_spec`), a recorded name that spells out the same search
    but predates settings added since. A setting it lacks reads as the
    :class:`~boardlab.fast.search.Settings` default, which is how a new
    setting keeps the search as it was (``grave=no`` for a name written
    before GRAVE), so a published match stays resumable and reportable."""
    if recorded == name:
        return True
    from ..fast.search import Settings
    from .search import SearchAgent
    try:
        old, new = make_engine(recorded), make_engine(name)
    except ValueError:
        return False
    if not (isinstance(old, SearchAgent) and isinstance(new, SearchAgent)):
        return False
    if set(new.overrides) != set(Settings.names()) or not set(old.overrides) <= set(new.overrides):
        return False
    return ((old.limit, old.level, old.threads, old.knowledge)
            == (new.limit, new.level, new.threads, new.knowledge)
            and Settings(**old.overrides) == Settings(**new.overrides))


def builtin_engines() -> list[tuple[str, Callable[..., Any], int, str]]:
    """``uct``, ``mcts`` and the levels as ``(name, factory, strength, summary)``,
    for ``boardlab.ai``'s registry to register (``random`` is its own); this
    module does not import the registry, so the two do not import each other."""
    out: list[tuple[str, Callable[..., Any], int, str]] = [
        ("uct", lambda seed=None: make_engine("uct", seed), 45,
         f"plain UCT, the yardstick every search is measured against "
         f"({DEFAULT_SECONDS:g} s a move, no game knowledge)"),
        ("mcts", lambda seed=None: make_engine("mcts", seed), 50,
         f"the full search with the game's knowledge, {DEFAULT_SECONDS:g} s a move"),
    ]
    out += [(f"level{level.number}", level.make, 10 * level.number, level.summary)
            for level in LEVELS]
    return out
