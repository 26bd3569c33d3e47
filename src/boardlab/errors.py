"""The exception family of boardlab.

Every error a caller can provoke with bad input is a ``ValueError`` (so code
that only knows the standard library still catches it) and a
``BoardlabError`` (so code that knows boardlab can tell ours from others).
"""

from __future__ import annotations


class BoardlabError(ValueError):
    """Base class of every error boardlab raises for bad input."""


class OptionError(BoardlabError):
    """Unknown game, unknown option, option of the wrong type or out of range."""


class IllegalMoveError(BoardlabError):
    """A move that is malformed or not legal in the current position.

    ``move`` is what the caller passed; ``reason`` says why it was refused.
    The game is left exactly as it was.
    """

    def __init__(self, move: object, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {move!r}: {reason}")

    def __reduce__(self):
        # Pickled as its arguments, not its message: raised in a worker
        # process (matches, studies, Ray), it reaches the caller as itself.
        return (type(self), (self.move, self.reason))


class GameOverError(IllegalMoveError):
    """A move (or undo-less action) attempted after the game has ended."""


class UndoError(BoardlabError):
    """``undo()`` called with nothing to take back."""


class PositionError(BoardlabError):
    """A position text that cannot be parsed or describes an impossible state."""
