"""The pie rule shared by implo, pilo and robble (docs/rules.md, Every game).

The swap state is a small int kept by the game:

* PENDING: pie on, the first color has not finished its first turn;
* OPEN: the second color's first turn has started and ``swap`` is legal;
* CLOSED: pie off, swap used, or the second color made a regular move.

A swap exchanges the players' colors; the board and the color to move do not
change, so the library (which reports by color) only records that it happened.
"""

from __future__ import annotations

from ..errors import PositionError

PENDING, OPEN, CLOSED = 0, 1, 2


def initial(pie: bool) -> int:
    return PENDING if pie else CLOSED


def after_turn(state: int) -> int:
    """The state after a turn (or a swap) ends."""
    return OPEN if state == PENDING else CLOSED


def why_no_swap(state: int, pie: bool, second_color: str) -> str:
    if not pie:
        return "the pie rule is off in this game"
    if state == PENDING:
        return f"swap is only legal on {second_color}'s first turn"
    return f"swap is only legal on {second_color}'s first turn, which has passed"


def load(fields: dict[str, str], pie: bool, board_empty: bool) -> int:
    """Read the ``swap`` position field (yes/no) and derive the pie state.

    An empty board with the pie rule on is the game's start (PENDING)."""
    value = fields.pop("swap", "no")
    if value not in ("yes", "no"):
        raise PositionError(f"field 'swap' must be yes or no, got {value!r}")
    if value == "yes":
        if not pie:
            raise PositionError("swap=yes needs pie=yes")
        if board_empty:
            raise PositionError("swap=yes on an empty board: nobody has moved yet")
        return OPEN
    if pie and board_empty:
        return PENDING
    return CLOSED
