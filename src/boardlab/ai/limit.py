"""A search budget as a value: simulations, seconds, or both.

Like python-chess's ``engine.Limit``: one immutable object that every engine,
the match runner and the front ends pass around, instead of strings, tuples
and copied ``iterations``/``seconds`` fields. Its text form is the one engine
names use after the colon (``mcts:500``, ``uct:0.25s``, ``mcts:500+2s``), and
:meth:`Limit.parse` / ``str()`` are each other's inverse.

>>> Limit.parse("500+2s")
Limit(simulations=500, seconds=2.0)
>>> str(Limit(seconds=0.25))
'0.25s'
>>> Limit.parse("0s")
Traceback (most recent call last):
...
boardlab.errors.OptionError: budget '0s': seconds must be positive and finite
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import OptionError

#: Bounds that keep a typo from turning into a search that never ends.
MAX_SIMULATIONS = 100_000_000
MAX_SECONDS = 24 * 3600.0
_NUMBER = re.compile(r"\d{1,12}(\.\d{1,9})?")
#: Share of a timed move an agent keeps back, on a running clock, for what
#: follows its search (choosing, commenting, handing the move over).
RESERVE = 0.03


@dataclass(frozen=True)
class Limit:
    """Search budget per move: stop after ``simulations`` or after ``seconds``
    of wall clock, whichever comes first; at least one is set. With only
    simulations a seeded search replays exactly on any machine."""

    simulations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        sims, secs = self.simulations, self.seconds
        if sims is None and secs is None:
            raise OptionError("a budget needs simulations, seconds or both")
        if sims is not None and (isinstance(sims, bool) or not isinstance(sims, int)
                                 or not 1 <= sims <= MAX_SIMULATIONS):
            raise OptionError(f"budget: simulations must be an integer in 1..{MAX_SIMULATIONS:,}, "
                              f"got {sims!r}")
        if secs is not None:
            if isinstance(secs, bool) or not isinstance(secs, int | float) \
                    or not 0 < secs <= MAX_SECONDS or math.isnan(secs):
                raise OptionError(f"budget: seconds must be in (0, {MAX_SECONDS:g}], got {secs!r}")
            object.__setattr__(self, "seconds", float(secs))

    @classmethod
    def parse(cls, text: str) -> Limit:
        """``500`` (simulations), ``0.5s`` (seconds) or ``500+2s`` (both)."""
        sims: int | None = None
        secs: float | None = None
        for part in text.strip().lower().split("+"):
            part = part.strip()
            if part.endswith("s"):
                if secs is not None:
                    raise OptionError(f"budget {text!r} names seconds twice")
                if not _NUMBER.fullmatch(part[:-1]):
                    raise OptionError(f"budget {text!r}: {part!r} is not a number of seconds")
                secs = float(part[:-1])
                if secs <= 0:
                    raise OptionError(f"budget {text!r}: seconds must be positive and finite")
            elif part:
                if sims is not None:
                    raise OptionError(f"budget {text!r} names simulations twice")
                if not part.isdigit() or len(part) > 12:
                    raise OptionError(f"budget {text!r}: {part!r} is not a number of simulations "
                                      "(or seconds with an s: 0.5s)")
                sims = int(part)
        if sims is None and secs is None:
            raise OptionError(f"empty budget {text!r}")
        try:
            return cls(sims, secs)
        except OptionError as exc:
            raise OptionError(f"budget {text!r}: {str(exc).removeprefix('budget: ')}") from None

    def __str__(self) -> str:
        parts = []
        if self.simulations is not None:
            parts.append(str(self.simulations))
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return "+".join(parts)

    def deadline(self, start: float) -> float | None:
        """The clock reading at which a search started at ``start`` stops."""
        return None if self.seconds is None else start + self.seconds

    def for_search(self, clock: Callable[[], float]) -> Limit:
        """The budget an agent's search gets of this move budget on ``clock``:
        :data:`RESERVE` less on a running clock (the wall clock a player or a
        GUI keeps, which goes on while the move is handed over), all of it on
        the search thread's CPU clock (``time.thread_time``, the clock of
        matches at equal work), which counts only the search itself, so the
        agent and a rival without a reserve get the same work."""
        if self.seconds is None or clock is time.thread_time:
            return self
        return Limit(self.simulations, self.seconds * (1 - RESERVE))
