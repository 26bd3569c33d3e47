"""Named engines: ``random``, ``uct``, ``mcts`` (with an optional budget), ``level1``..``level5``.

:func:`make_engine` turns a name into an agent; ``boardlab.ai.make_agent``
delegates every name other than its own to it. Names:

* ``random``: a uniformly random legal move.
* ``uct``, ``uct:BUDGET``: plain UCT (:mod:`boardlab.ai.uct`), the outside
  baseline; BUDGET as for ``mcts`` (default 1 s).
* ``mcts``, ``mcts:BUDGET[,key=value...]``: the strongest search, MCTS on the
  compiled core (:mod:`boardlab.ai.fast_mcts`); default 1 s a move. BUDGET is
  a simulation count (``mcts:5000``), seconds (``mcts:0.25s``) or both
  (``mcts:5000+2s``: whichever ends first). Keys: ``c`` (exploration),
  ``solver`` (yes/no: prove wins and losses), ``fpu`` (an unvisited child's
  value, -1..1; default: try each child once), ``reuse`` (yes/no: keep the
  subtree of the position reached), ``threads`` (N or ``auto``: root-parallel
  trees searched at once), ``rave`` (``no``, or the RAVE bias, e.g.
  ``rave=0.001``: all-moves-as-first values mixed into each child's).
* ``pymcts:BUDGET[,key=value...]``: the pure-Python MCTS with the games'
  own playout policies (:mod:`boardlab.ai.mcts`), which the levels use. Keys:
  ``c``, ``playout`` (``auto``, ``random``, or the game's own), ``reuse``,
  ``scan`` (yes/no: look for one-move wins), ``pw`` (progressive widening
  ``K/ALPHA``, e.g. ``pw=2/0.5``), ``moves`` (``auto``: vimbre's tree uses
  candidate moves; ``all``: every legal move).
* ``cmd:COMMAND`` / ``cmd@BUDGET:COMMAND``: an outside engine speaking UGI
  (:mod:`boardlab.ai.external`), e.g. ``cmd:boardlab engine robble``.
* ``levelN``: the levels of :data:`LEVELS` (docs/ai.md has their measured
  strengths): fixed simulation counts of ``pymcts``, so they replay exactly.

Every engine takes ``seed``; with a simulation budget the same seed replays the
same moves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import OptionError
from .agent import BaseAgent, RandomAgent
from .limit import Limit
from .mcts import MCTSAgent
from .uct import UCTAgent


@dataclass(frozen=True)
class Level:
    number: int
    iterations: int | None
    seconds: float | None
    win_scan: bool
    summary: str

    def make(self, seed: int | None = None) -> MCTSAgent:
        return MCTSAgent(iterations=self.iterations, seconds=self.seconds, seed=seed,
                         win_scan=self.win_scan, name=f"level{self.number}")


#: The levels: a x4 ladder of simulation budgets, so every level plays the same
#: on any machine and replays exactly with a seed (researchers' baselines stay
#: comparable). Full strength on a given machine is ``mcts:Ns``, not a level.
LEVELS: tuple[Level, ...] = (
    Level(1, 10, None, False,
          "10 simulations a move and blind to one-move wins: beats a random mover "
          "in about 80% of games; a beginner's first opponent"),
    Level(2, 40, None, True,
          "40 simulations a move; always takes a one-move win: about 200-400 Elo "
          "above level 1"),
    Level(3, 160, None, True,
          "160 simulations a move: about 650-800 Elo above level 1"),
    Level(4, 640, None, True,
          "640 simulations a move: about 1,000-1,200 Elo above level 1; "
          "0.1-0.6 s a move (median, by game)"),
    Level(5, 2560, None, True,
          "2,560 simulations a move, the strongest level: 250-650 Elo above level 4; "
          "0.3-2 s a move (median, by game)"),
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
    if spec == "uct" or spec.startswith("uct:"):
        rest = spec.partition(":")[2]
        limit = Limit.parse(rest) if rest else Limit(seconds=DEFAULT_SECONDS)
        return UCTAgent(limit, seed, name=name.strip())
    head, _, rest = spec.partition(":")
    if head in ("mcts", "fmcts"):  # fmcts: the name the compiled search had while it was new
        from .fast_mcts import FastMCTSAgent
        limit, items = _budget(rest)
        kw: dict = {}
        for key, value in items:
            if key == "c":
                kw["c"] = float(value)
            elif key == "solver":
                kw["solver"] = _flag(value)
            elif key == "fpu":
                kw["fpu"] = float(value)
            elif key == "reuse":
                kw["reuse"] = _flag(value)
            elif key == "threads":
                kw["threads"] = (os.cpu_count() or 1) if value == "auto" else int(value)
            elif key == "rave":
                kw["rave"] = None if value in ("no", "off") else float(value)
            else:
                raise ValueError(f"unknown engine option {key!r} in {name!r} (mcts takes c, "
                                 "solver, fpu, reuse, threads, rave)")
        return FastMCTSAgent(limit, seed, name=name.strip(), **kw)
    if head == "pymcts":
        limit, items = _budget(rest)
        kwargs: dict = {}
        for key, value in items:
            if key == "c":
                kwargs["c"] = float(value)
            elif key == "playout":
                kwargs["playout"] = value
            elif key == "reuse":
                kwargs["reuse"] = _flag(value)
            elif key == "scan":
                kwargs["win_scan"] = _flag(value)
            elif key == "moves":
                kwargs["moves"] = value
            elif key == "pw":
                k, _, alpha = value.partition("/")
                kwargs["widening"] = (float(k), float(alpha or 0.5))
            else:
                raise ValueError(f"unknown engine option {key!r} in {name!r}")
        return MCTSAgent(iterations=limit.simulations, seconds=limit.seconds, seed=seed,
                         name=name.strip(), **kwargs)
    raise OptionError(f"unknown engine {name!r} (engines: {', '.join(engine_names())}, "
                      "mcts:SIMULATIONS, mcts:SECONDSs, uct:..., pymcts:...)")


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


def register_all() -> None:
    """Register ``mcts`` and the levels in ``boardlab.ai``'s registry
    (``random`` is registered there already)."""
    from . import register

    register("uct", lambda seed=None: make_engine("uct", seed), strength=45,
             summary=f"plain UCT (the outside baseline), {DEFAULT_SECONDS:g} s a move")
    register("mcts", lambda seed=None: make_engine("mcts", seed), strength=50,
             summary=f"MCTS on the compiled core, {DEFAULT_SECONDS:g} s a move")
    for level in LEVELS:
        register(f"level{level.number}", level.make, strength=10 * level.number,
                 summary=level.summary)
