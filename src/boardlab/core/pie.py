"""The pie rule shared by implo, pilo and robble (docs/rules.md, Every game).

The swap state is a small int kept by the game:

* PENDING: pie on, the first color has not finished its first turn;
* OPEN: the second color's first turn has started and ``swap`` is legal;
* CLOSED: pie off, swap used, or the second color made a regular move.

A swap exchanges the players' colors; the board and the color to move do not
change, so the library (which reports by color) only records that it happened.

Who sits where is the front ends' concern (the web app, the CLI, matches and
studies), but they all need the same answer, so it is given here once: a
*seat* is one of the two people, numbered by the color it started with (seat
0 started with ``colors[0]``). :func:`swapped` says whether the people now
hold each other's starting colors, :func:`seat_of` and :func:`color_of`
translate between the two. :class:`~boardlab.core.game.Game` offers the same
through ``colors_swapped``, ``seat_of`` and ``color_of``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import PositionError

SWAP = "swap"
#: the option that switches the rule on or off, its name and what it does
#: in texts (``Game.option_labels`` / ``option_help``)
OPTION = "pie"
LABEL = "pie rule"
HELP = "the second player may swap colors instead of their first move"
#: a position set up on a board (not played from the start) has no first
#: move to swap: its default (``Game.setup_defaults``)
SETUP_DEFAULTS = {OPTION: False}
#: the words of the swap's button (``Game.move_words``)
SWAP_LABEL = "Swap colors (pie rule)"

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


def played_for(mover: int, action: int, swap_action: int | None) -> int:
    """The color index (0 or 1) a move is played for: a swap hands the
    mover's position to the other color, so its outcome is that color's.
    Searches, analyses and reviews read a move's value from this color's side.
    (The compiled search has its own copy, ``fast._tree._owner``: numba code
    cannot call this one.)"""
    return 1 - mover if action == swap_action else mover


# ---------------------------------------------------------------- seats
def swapped(moves: Iterable[str]) -> bool:
    """Whether the two people hold each other's starting colors after
    ``moves`` (canonical move texts from the start, or from a set-up
    position): an odd number of ``swap`` moves."""
    return sum(1 for m in moves if m == SWAP) % 2 == 1


def mover_seats(colors: Sequence[str], movers: Sequence[str], moves: Sequence[str]) -> list[int]:
    """The seat that made each of ``moves`` (canonical texts from the start),
    ``movers[i]`` being the color that made ``moves[i]``: a swap is made by
    the seat holding the color to move, and changes the seats after it."""
    if len(movers) != len(moves):
        raise ValueError(f"{len(movers)} movers for {len(moves)} moves")
    out: list[int] = []
    is_swapped = False
    for color, move in zip(movers, moves, strict=True):
        out.append(seat_of(colors, color, is_swapped))
        is_swapped ^= move == SWAP
    return out


def seat_of(colors: Sequence[str], color: str, is_swapped: bool) -> int:
    """The seat (0 or 1, by starting color) that holds ``color`` now.
    ValueError for a name that is not one of ``colors``."""
    if color not in colors:
        raise ValueError(f"{color!r} is not a color of this game ({', '.join(colors)})")
    return colors.index(color) ^ int(is_swapped)


def color_of(colors: Sequence[str], seat: int, is_swapped: bool) -> str:
    """The color seat ``seat`` (0 or 1) holds now."""
    if seat not in (0, 1):
        raise ValueError(f"a seat is 0 or 1, got {seat!r}")
    return colors[seat ^ int(is_swapped)]
