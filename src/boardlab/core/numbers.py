"""How long a number in text may be, for every parser of boardlab's texts.

Python refuses to convert more than 4,300 digits to an ``int`` with a plain
``ValueError`` whose message names its own setting; a parser that let that
through would answer a record or a position with a crash (or leak that
message). No number boardlab reads needs more than a few digits — a size is
at most 2, a turn number of the longest game 6 — so each parser refuses a
run of more than :data:`MAX_DIGITS` digits first, with its own kind of error
and location, and only then converts.
"""

from __future__ import annotations

#: the most digits a number in a position, record or option text may have
MAX_DIGITS = 9


def too_long(digits: str) -> str | None:
    """Why ``digits`` (a run of digits, maybe signed) is refused, or None if it
    is short enough to convert."""
    n = len(digits.lstrip("+-"))
    if n > MAX_DIGITS:
        return f"a number of {n} digits (at most {MAX_DIGITS})"
    return None
