"""The one error of :mod:`boardlab.records`."""

from __future__ import annotations

from ..errors import BoardlabError


class RecordError(BoardlabError):
    """A record that cannot be read, or a game that cannot be recorded.

    ``reason`` says what is wrong. For record text, ``line`` and ``column``
    (both counted from 1) locate the problem; for JSON input ``where`` names
    the field (``moves[12]``). The message puts the location first::

        line 12, column 7: illegal move 'e5': e5 is occupied
    """

    def __init__(self, reason: str, line: int | None = None, column: int | None = None,
                 where: str | None = None) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.where = where
        if line is not None:
            prefix = f"line {line}, column {column}: " if column is not None else f"line {line}: "
        elif where:
            prefix = f"{where}: "
        else:
            prefix = ""
        super().__init__(prefix + reason)
