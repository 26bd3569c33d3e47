"""Named engines: ``random``, ``mcts`` (with an optional budget), ``level1``..``level5``.

:func:`make_engine` turns a name into an agent; ``boardlab.ai.make_agent``
delegates every name other than its own to it. Names:

* ``random``: a uniformly random legal move.
* ``mcts``: MCTS with the default budget, 1 second a move.
* ``mcts:BUDGET[,key=value...]``: BUDGET is an iteration count (``mcts:500``)
  or seconds (``mcts:0.2s``), or both (``mcts:500+2s``: whichever ends
  first). Keys: ``c`` (exploration), ``playout`` (``auto``, ``random``, or the
  game's own), ``reuse`` (yes/no), ``scan`` (yes/no: look for one-move wins),
  ``pw`` (progressive widening ``K/ALPHA``, e.g. ``pw=2/0.5``), ``moves``
  (``auto``: vimbre's tree uses candidate moves; ``all``: every legal move).
* ``levelN``: the levels of :data:`LEVELS` (docs/ai.md has their measured
  strengths).

Every engine takes ``seed``; with an iteration budget the same seed replays the
same moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import OptionError
from .agent import BaseAgent, RandomAgent
from .mcts import MCTSAgent


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
    return ["random", "mcts", *(f"level{lv.number}" for lv in LEVELS)]


def _flag(text: str) -> bool:
    if text in ("yes", "true", "1", "on"):
        return True
    if text in ("no", "false", "0", "off"):
        return False
    raise ValueError(f"expected yes or no, got {text!r}")


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """``500`` (simulations), ``2s`` / ``0.5s`` (seconds) or both, ``500+2s``
    (whichever runs out first)."""
    iterations = seconds = None
    for part in text.split("+"):
        part = part.strip()
        if part.endswith("s"):
            if seconds is not None:
                raise ValueError(f"budget {text!r} names seconds twice")
            seconds = float(part[:-1])
            if not 0 < seconds < math.inf:
                raise ValueError(f"budget {text!r}: seconds must be positive and finite")
        elif part:
            if iterations is not None:
                raise ValueError(f"budget {text!r} names simulations twice")
            iterations = int(part)
    if iterations is None and seconds is None:
        raise ValueError(f"empty budget {text!r}")
    return iterations, seconds


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
    if spec == "mcts" or spec.startswith("mcts:"):
        head, _, rest = spec.partition(":")
        kwargs: dict = {}
        iterations, seconds = None, DEFAULT_SECONDS
        if rest:
            items = rest.split(",")
            if "=" not in items[0]:
                iterations, seconds = parse_budget(items.pop(0))
            for item in items:
                key, sep, value = item.partition("=")
                if not sep:
                    raise ValueError(f"engine option {item!r} is not key=value")
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
        return MCTSAgent(iterations=iterations, seconds=seconds, seed=seed,
                         name=name.strip(), **kwargs)
    raise OptionError(f"unknown engine {name!r} (engines: {', '.join(engine_names())}, "
                      "mcts:ITERATIONS, mcts:SECONDSs)")


def register_all() -> None:
    """Register ``mcts`` and the levels in ``boardlab.ai``'s registry
    (``random`` is registered there already)."""
    from . import register

    register("mcts", lambda seed=None: make_engine("mcts", seed), strength=50,
             summary=f"MCTS, {DEFAULT_SECONDS:g} s a move")
    for level in LEVELS:
        register(f"level{level.number}", level.make, strength=10 * level.number,
                 summary=level.summary)
