"""How a record states a game's result: the words for an outcome and the
check of a stated result against the replayed game (docs/records.md, "Results").

A module of its own below :mod:`.model` and :mod:`.tree`, which both need it.
"""

from __future__ import annotations

from ..core.game import Game
from ..core.outcome import Outcome, Termination

#: Terminations that the rules never produce: a record states them.
DECLARED = (Termination.RESIGNATION, Termination.TIMEOUT)
UNFINISHED = "*"
DRAW = "draw"


def describe(outcome: Outcome) -> str:
    """``white won by score (black 3, white 5)``, ``draw by repetition``."""
    if outcome.is_draw:
        text = f"draw by {outcome.termination.value}"
    else:
        text = f"{outcome.winner} won by {outcome.termination.value}"
    if outcome.scores:
        text += " (" + ", ".join(f"{c} {_num(v)}" for c, v in outcome.scores.items()) + ")"
    return text


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


class Problem(Exception):
    """A result that contradicts the game; ``field`` is ``result`` or ``termination``."""

    def __init__(self, field_name: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field_name
        self.reason = reason


def settle_result(game: Game, result: str,
                  termination: Termination | None) -> tuple[str, Termination | None]:
    """Check a stated result against the replayed game.

    Returns the result and the termination to record (a finished game's
    termination is filled in when the record left it out). Raises
    :class:`Problem` when they disagree; see docs/records.md, "Results".
    """
    outcome = game.outcome
    if outcome is not None:
        if termination in DECLARED:
            raise Problem("termination", f"Termination {termination.value!r} but the game "
                          f"ended by the rules: {describe(outcome)}")
        if result == UNFINISHED:
            raise Problem("result", f"result '*' but the game is over: {describe(outcome)}")
        if result != outcome.winner:
            raise Problem("result", f"result {result!r} contradicts the game: "
                          f"{describe(outcome)}")
        if termination is not None and termination != outcome.termination:
            raise Problem("termination", f"Termination {termination.value!r} contradicts "
                          f"the game: {describe(outcome)}")
        return result, outcome.termination
    if termination is None:
        if result != UNFINISHED:
            raise Problem("result", f"result {result!r} but the game is not over: use '*' "
                          "for an unfinished game, or say how it ended with "
                          "[Termination \"resignation\"] or [Termination \"timeout\"]")
        return result, None
    if termination not in DECLARED:
        raise Problem("termination", f"Termination {termination.value!r} but the game is not "
                      "over (only \"resignation\" or \"timeout\" can end it early)")
    if result == UNFINISHED:
        raise Problem("result", f"a game ended by {termination.value} needs the winner's "
                      "color as its result, not '*'")
    if result == DRAW:
        raise Problem("result", f"a game ended by {termination.value} cannot be a draw: "
                      "the result names the winner")
    return result, termination
