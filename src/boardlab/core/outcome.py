"""How a game ended: winner, reason and scores."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Termination(StrEnum):
    """Why a game ended. The value is the word used in records and the UI."""

    SCORE = "score"            # decided by the game's score
    STONES = "stones"          # implo: scores tied at 0, more stones on the board
    LAST_MOVE = "last-move"    # tie broken against the color that moved last
    CONNECTION = "connection"  # vimbre: a chain joined the mover's edges
    REPETITION = "repetition"  # robble: third occurrence of a position (draw)
    RESIGNATION = "resignation"  # set by records / play front ends, never by the rules
    TIMEOUT = "timeout"          # likewise


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``winner`` is a color name or ``"draw"``; ``scores`` maps each color to
    its final score where the game has one (see each game's docs), else None.
    """

    winner: str
    termination: Termination
    scores: dict[str, float] | None = field(default=None, compare=True)

    @property
    def is_draw(self) -> bool:
        return self.winner == "draw"

    def result_for(self, color: str) -> float:
        """1 for a win of ``color``, 0 for a loss, 0.5 for a draw."""
        if self.winner == "draw":
            return 0.5
        return 1.0 if self.winner == color else 0.0
