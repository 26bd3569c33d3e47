"""What two players settle before the first move, as a game declares it.

A game with a pre-game names a :class:`PreGame` (``Game.pregame``; None for
the others). boardlab knows one kind, *cut and choose*, in two steps:

1. **name** — the first player (the seat that starts with ``colors[0]``)
   names a whole-number value of one of the game's options (:attr:`PreGame.option`);
2. **pick** — the other player then picks which color to play, so the namer
   wants the game even.

Yugo's komi is one (docs/rules.md, Yugo). The web app, ``boardlab play`` and
the agents drive the two steps from this declaration alone, never from a
game's name: the prompts say :attr:`PreGame.option` and :attr:`PreGame.about`,
an agent answers through its ``name_value(game)`` / ``choose_color(game)``
hooks (:mod:`boardlab.ai.decisions` for the search engines), and a player
with no hook follows the game's own rule of thumb (:meth:`PreGame.fair`,
:meth:`PreGame.pick`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: The steps of a pre-game, in order: who acts at each (a seat, by starting
#: color) and what it does.
STEPS: tuple[tuple[str, int], ...] = (("name", 0), ("pick", 1))


@dataclass(frozen=True)
class PreGame:
    """Cut and choose over one whole-number option (see the module docstring).

    ``option``: the option the first player names; ``favours``: the color
    index a larger value helps (yugo's komi: 1, white); ``about``: what the
    value is, for a prompt ("points added to white's score"); ``rule_of_thumb``:
    board size -> the value a player names without searching; ``reasonable``:
    board size -> the least and greatest value a player would name (a search's
    answer is kept within it); ``searched``: board size -> the values a search
    for the even value looks between."""

    option: str
    favours: int
    about: str
    rule_of_thumb: Callable[[int], int]
    reasonable: Callable[[int], tuple[int, int]]
    searched: Callable[[int], tuple[int, int]]

    def fair(self, size: int) -> int:
        """The value the rule of thumb names on a ``size`` board."""
        return int(self.rule_of_thumb(size))

    def keep_reasonable(self, value: int, size: int) -> int:
        """``value`` brought within :attr:`reasonable` for this size."""
        low, high = self.reasonable(size)
        return max(low, min(high, int(value)))

    def pick(self, colors: Sequence[str], value: int, size: int) -> str:
        """The color the rule of thumb picks after the other player named
        ``value``: the favoured color when the value is at least fair, else
        the other."""
        favoured = colors[self.favours]
        return favoured if value >= self.fair(size) else colors[1 - self.favours]

    def describe(self) -> dict[str, Any]:
        """The declaration as plain data (the web page's form)."""
        return {"option": self.option, "about": self.about, "favours": self.favours,
                "steps": [{"step": step, "seat": seat} for step, seat in STEPS]}
