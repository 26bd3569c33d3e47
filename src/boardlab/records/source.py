"""The text of a record being read: a cursor, offset -> (line, column), and
errors that say where. Shared by the tag reader (:mod:`.text`) and the move
reader (:mod:`.movetext`), which sit side by side above it.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from .errors import RecordError


class Source:
    """The text being read, with offset -> (line, column) and error helpers."""

    def __init__(self, text: str) -> None:
        # A byte-order mark (Windows editors write one) is not part of the record.
        text = text.removeprefix("\ufeff")
        self.text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        self.pos = 0

    def where(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def error(self, offset: int, reason: str) -> RecordError:
        line, column = self.where(offset)
        return RecordError(reason, line, column)

    def skip_blanks(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        self.pos = pos

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def line_end(self, offset: int) -> int:
        end = self.text.find("\n", offset)
        return len(self.text) if end < 0 else end
