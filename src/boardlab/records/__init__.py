"""Game records: a PGN-like text format and JSON, for all five games.

The format is specified in docs/records.md. Functions come in pairs:
:func:`parse` / :func:`format`, :func:`parse_all` / :func:`format_all`,
:func:`read` / :func:`write`, :func:`from_json` / :func:`to_json`.
Reading replays every move; a bad record raises :class:`RecordError`
with the line, column and reason.

>>> import boardlab
>>> from boardlab import records
>>> game = boardlab.new_game("robble", size=5)
>>> for move in ["c3", "swap", "c2"]:
...     game.play(move)
>>> rec = records.Record.from_game(game, {"black": "Ann", "white": "Bo"}, date="2025.03.01")
>>> text = records.format(rec)
>>> print(text)
[Game "robble"]
[Size "5"]
[Pie "yes"]
[Black "Ann"]
[White "Bo"]
[Date "2025.03.01"]
[Result "*"]
<BLANKLINE>
1. c3 2. swap 3. c2 *
<BLANKLINE>
>>> records.parse(text) == rec
True
>>> records.parse(text.replace("3. c2", "3. c3"))
Traceback (most recent call last):
...
boardlab.records.errors.RecordError: line 9, column 18: illegal move 'c3': c3 is occupied
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable
from typing import IO

from .errors import RecordError
from .jsonio import from_dict, from_json, to_dict, to_json
from .model import Record
from .results import describe
from .text import format_all, format_record, parse, parse_all
from .tree import Node

#: ``records.format(record)`` is the text of one record (paired with :func:`parse`).
format = format_record


_GZIP_MAGIC = b"\x1f\x8b"


def read_text(path: str | os.PathLike, *, drop_cut_off: bool = False) -> str:
    """The text of a record file, gunzipped when it is gzip (recognised by its
    magic number, whatever the name: ``boardlab match`` writes ``.rec.gz``).

    A gzip records file is a series of members, one per appended game. A last
    member cut short (a run killed while writing it) is a RecordError, or with
    ``drop_cut_off`` left out, so that the games before it still count (how
    a match resumes). OSError when the file cannot be read; RecordError when
    it is damaged or not UTF-8 text."""
    with open(path, "rb") as handle:
        data = handle.read()
    return decode_text(data, os.fspath(path), drop_cut_off=drop_cut_off)


def decode_text(data: bytes, name: str, *, drop_cut_off: bool = False) -> str:
    """The text of the bytes of a record file (gzip or not, as read_text), for
    input that is not a named file (standard input); ``name`` is used in errors."""
    if data.startswith(_GZIP_MAGIC):
        data = _gunzip(data, name, drop_cut_off)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{name}: not UTF-8 text (byte {exc.start})") from None


def _gunzip(data: bytes, name: str, drop_cut_off: bool) -> bytes:
    parts: list[bytes] = []
    while data:
        member = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer
        try:
            parts.append(member.decompress(data))
        except zlib.error as exc:
            raise RecordError(f"{name}: damaged gzip file ({exc})") from None
        if not member.eof:
            if drop_cut_off:
                parts.pop()
                break
            raise RecordError(f"{name}: damaged gzip file (its last part is cut short)")
        data = member.unused_data
    return b"".join(parts)


def read(source: str | os.PathLike | IO[str]) -> list[Record]:
    """Every game in a record file (a path, gzip or not, or an open text file)."""
    if hasattr(source, "read"):
        return parse_all(source.read())  # type: ignore[union-attr]
    return parse_all(read_text(source))


def write(records: Record | Iterable[Record], target: str | os.PathLike | IO[str]) -> None:
    """Write one or several records to a path or an open text file."""
    items = [records] if isinstance(records, Record) else list(records)
    text = format_all(items)
    if hasattr(target, "write"):
        target.write(text)  # type: ignore[union-attr]
        return
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(text)


__all__ = [
    "Node", "Record", "RecordError", "describe", "format", "format_all", "format_record",
    "from_dict", "from_json", "parse", "parse_all", "read", "read_text", "to_dict", "to_json", "write",
]
