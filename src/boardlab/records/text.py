"""The text record format: parse and format (docs/records.md).

Parsing replays every move and checks the result; any problem raises a
:class:`RecordError` with the line and column where it was found.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from typing import Any

from .. import GAMES, from_position, game_class
from ..core import grid, numbers
from ..core.game import Game
from ..core.outcome import Termination
from ..errors import BoardlabError, OptionError
from .errors import RecordError
from .model import (
    UNKNOWN_DATE,
    Record,
    assemble,
    check_date,
    format_option,
    option_tag,
    parse_option,
    player_tag,
    result_words,
)
from .movetext import MoveText, move_units, read_moves
from .results import UNFINISHED, Problem, settle_result
from .source import Source

WIDTH = 80


def _shown(text: str) -> str:
    """``repr(text)`` for an error message, cut short (a tag may be long)."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


# ---------------------------------------------------------------- tags
def _read_tag(src: Source) -> tuple[str, str, int, int]:
    """Read ``[Name "value"]`` at src.pos (a '['): name, value, name and value offsets."""
    text = src.text
    start = src.pos
    end = src.line_end(start)
    pos = start + 1
    while pos < end and text[pos] in " \t":
        pos += 1
    m = _TAG_NAME.match(text, pos, end)
    if m is None:
        raise src.error(pos, "malformed tag: expected a tag name (letters, digits, _) "
                             "after '['")
    name, name_at = m.group(0), pos
    pos = m.end()
    blanks = pos
    while pos < end and text[pos] in " \t":
        pos += 1
    if pos >= end or text[pos] != '"':
        if pos == blanks and pos < end and text[pos] != "]":
            raise src.error(pos, f"malformed tag: expected a blank after the tag name {name!r}")
        raise src.error(pos, f"malformed tag {name!r}: the value must be in double quotes")
    quote = pos
    pos += 1
    value: list[str] = []
    while True:
        if pos >= end:
            raise src.error(quote, f"malformed tag {name!r}: the value has no closing '\"'")
        ch = text[pos]
        if ch == "\\" and pos + 1 < end and text[pos + 1] in '"\\':
            value.append(text[pos + 1])
            pos += 2
            continue
        if ch == '"':
            break
        value.append(ch)
        pos += 1
    pos += 1
    while pos < end and text[pos] in " \t":
        pos += 1
    if pos >= end or text[pos] != "]":
        raise src.error(pos, f"malformed tag {name!r}: expected ']' after the value")
    pos += 1
    while pos < end and text[pos] in " \t":
        pos += 1
    if pos < end:
        raise src.error(pos, f"malformed tag {name!r}: unexpected text after ']' "
                             "(one tag per line)")
    src.pos = pos
    return name, "".join(value), name_at, quote + 1


class _Tags:
    """The tags of one game, in order, with where each value starts."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}
        self.at: dict[str, int] = {}

    def get(self, name: str) -> str | None:
        return self.values.get(name)

    def pop(self, name: str) -> str | None:
        return self.values.pop(name, None)


def _read_tags(src: Source) -> tuple[_Tags, int]:
    tags = _Tags()
    first = src.pos
    while True:
        src.skip_blanks()
        if src.peek() != "[":
            return tags, first
        name, value, name_at, value_at = _read_tag(src)
        if name in tags.values:
            line, _ = src.where(tags.at[name])
            raise src.error(name_at, f"duplicate tag {name!r} (first given on line {line}; "
                                     "is the result of the game before missing?)")
        tags.values[name] = value
        tags.at[name] = value_at


# ---------------------------------------------------------------- the start
def _start_game(src: Source, tags: _Tags, first: int) -> tuple[Game, str | None]:
    """The game the moves start from, from Game, Size, option and Position tags."""
    values, at = tags.values, tags.at
    name = values.get("Game")
    position = values.get("Position")
    cls: type[Game] | None = None
    if name is not None:
        try:
            cls = game_class(name)
        except OptionError:
            raise src.error(at["Game"], f"unknown game {name!r} "
                                        f"(games: {', '.join(GAMES)})") from None
    elif position is None:
        raise src.error(first, "missing Game tag: a record starts with [Game \"name\"]")
    pos_game: Game | None = None
    if position is not None:
        try:
            pos_game = from_position(position)
        except BoardlabError as exc:
            raise src.error(at["Position"], f"bad Position: {exc}") from None
        if cls is not None and pos_game.name != cls.name:
            raise src.error(at["Position"], f"Position is a {pos_game.name} position but "
                                            f"Game is {cls.name!r}")
        cls = type(pos_game)
    assert cls is not None
    size: int | None = None
    if "Size" in values:
        text = values["Size"]
        if not re.fullmatch(r"[0-9]+", text):
            raise src.error(at["Size"], f"bad size {_shown(text)}: not a whole number")
        if numbers.too_long(text):
            raise src.error(at["Size"], f"bad size: {numbers.too_long(text)}; {cls.name} "
                                        f"boards are {grid.MIN_SIZE}..{grid.MAX_SIZE}")
        size = int(text)
        if not grid.MIN_SIZE <= size <= grid.MAX_SIZE:
            raise src.error(at["Size"], f"bad size {text!r}: {cls.name} boards are "
                                        f"{grid.MIN_SIZE}..{grid.MAX_SIZE}")
        if pos_game is not None and pos_game.size != size:
            raise src.error(at["Size"], f"Size {size} but the Position is "
                                        f"{pos_game.size}x{pos_game.size}")
    options: dict[str, Any] = {}
    for key, default in cls.option_defaults.items():
        tag = option_tag(key)
        if tag not in values:
            continue
        try:
            options[key] = parse_option(values[tag], default)
            cls._check_options({key: options[key]})  # its range, reported at its tag
        except ValueError as exc:
            raise src.error(at[tag], f"bad {tag}: {exc}") from None
        if pos_game is not None and pos_game.options[key] != options[key]:
            raise src.error(at[tag], f"{tag} {values[tag]!r} contradicts the Position "
                                     f"({key}={format_option(pos_game.options[key])})")
    for other in _other_games_option_tags(cls):
        if other in values:
            raise src.error(at[other], f"{cls.name} has no {other.lower()} option "
                                       f"(the {other} tag does not apply)")
    if pos_game is not None:
        return pos_game, pos_game.position()
    try:
        return cls(size, **options), None
    except OptionError as exc:
        raise src.error(first, str(exc)) from None


def _other_games_option_tags(cls: type[Game]) -> list[str]:
    """The tags of the options other games have and ``cls`` has not (``Komi``
    in a robble record): a record naming one is refused, not silently read."""
    own = {option_tag(k) for k in cls.option_defaults}
    every = dict.fromkeys(option_tag(k) for g in GAMES for k in game_class(g).option_defaults)
    return [tag for tag in every if tag not in own]  # in the games' order: Pie, then Komi


# ---------------------------------------------------------------- the moves
def _parse_one(src: Source) -> Record:
    """Read one game at src.pos (tags first)."""
    tags, first = _read_tags(src)
    if not tags.values:
        raise src.error(src.pos, "expected a game's tags (a record starts with "
                                 "[Game \"name\"])")
    start, position = _start_game(src, tags, first)
    game = start.copy()
    cls = type(game)
    words = result_words(cls)
    # Result and Termination tags are checked before the moves so that a bad
    # tag is reported as such, not as a replay problem.
    result_tag = tags.get("Result")
    if result_tag is not None and result_tag not in words:
        raise src.error(tags.at["Result"], f"bad Result {result_tag!r}: use "
                                           f"{', '.join(words[:-1])} or *")
    termination: Termination | None = None
    if "Termination" in tags.values:
        try:
            termination = Termination(tags.values["Termination"])
        except ValueError:
            known = ", ".join(t.value for t in Termination)
            raise src.error(tags.at["Termination"], f"bad Termination "
                            f"{tags.values['Termination']!r}: use one of {known}") from None
    if "Date" in tags.values:
        try:
            check_date(tags.values["Date"])
        except ValueError as exc:
            raise src.error(tags.at["Date"], f"bad Date: {exc}") from None

    found = read_moves(src, game, words)
    word, at = found.result, found.result_at
    if word not in words:
        raise src.error(at, f"result {word!r} is not a {cls.name} result (use "
                            f"{', '.join(words[:-1])} or *)")
    if result_tag is not None and word != result_tag:
        raise src.error(at, f"result {word!r} does not match the Result tag "
                            f"{result_tag!r}")
    try:
        result, term = settle_result(game, word, termination)
    except Problem as exc:
        offset = tags.at["Termination"] if exc.field == "termination" else at
        raise src.error(offset, exc.reason) from None
    return _finish(src, tags, game, position, found, result, term)


def _finish(src: Source, tags: _Tags, game: Game, position: str | None, found: MoveText,
            result: str, termination: Termination | None) -> Record:
    cls = type(game)
    values = dict(tags.values)
    players = {c: values.get(player_tag(c), "?") for c in cls.colors}
    date = values.get("Date", UNKNOWN_DATE)
    standard = {"Game", "Size", "Date", "Result", "Termination", "Position",
                *(option_tag(k) for k in cls.option_defaults),
                *(player_tag(c) for c in cls.colors)}
    extra = {k: v for k, v in values.items() if k not in standard}
    try:
        return assemble(game, start=position, turn_starts=found.turn_starts,
                        players=players, date=date, result=result, termination=termination,
                        extra=extra, comments=found.comments, variations=found.variations,
                        checked=True, nags=found.nags)
    except RecordError as exc:  # pragma: no cover - values were checked on the way
        raise src.error(src.pos, exc.reason) from None


# ---------------------------------------------------------------- public API
def _not_a_game(src: Source, after_game: bool) -> RecordError:
    """The error for text at src.pos where a game's tags should start.

    After a game, say what the text is (a comment, stray words): calling it
    a missing or second game would send the reader looking for the wrong thing.
    """
    if not after_game:
        return src.error(src.pos, "expected a game's tags (a record starts with "
                                  "[Game \"name\"])")
    if src.peek() == "{":
        return src.error(src.pos, "comment after the result: a comment must come before "
                                  "the result token")
    word = src.text[src.pos:src.line_end(src.pos)].split()[0]
    return src.error(src.pos, f"text after the result: {word!r} (the result ends the "
                              "game; another game starts with its tags)")


def _next_tags(src: Source, after: int) -> int:
    """Where the next block of tags starts after offset ``after`` (the end if none):
    a line starting with '[' that does not follow another tag line."""
    starts, text = src.line_starts, src.text

    def tag_line(start: int) -> bool:
        return text[start:src.line_end(start)].lstrip(" \t").startswith("[")

    for i in range(bisect_right(starts, after), len(starts)):
        if tag_line(starts[i]) and not tag_line(starts[i - 1]):
            return starts[i]
    return len(text)


def parse_each(text: str) -> list[Record | RecordError]:
    """Every game in ``text``: a Record, or the RecordError that stopped it.

    Unlike :func:`parse_all`, one bad game does not hide the rest (``boardlab
    check`` reports them all): after an error, reading goes on at the next
    block of tags.
    """
    if not isinstance(text, str):
        raise TypeError("parse_each() needs a str")
    src = Source(text)
    items: list[Record | RecordError] = []
    while True:
        src.skip_blanks()
        if src.at_end():
            return items
        start = src.pos
        try:
            if src.peek() != "[":
                raise _not_a_game(src, bool(items))
            items.append(_parse_one(src))
        except RecordError as exc:
            items.append(exc)
            src.pos = _next_tags(src, start)


def parse_all(text: str) -> list[Record]:
    """Every game in ``text`` (possibly none), replayed and checked; the first
    bad game's RecordError is raised."""
    if not isinstance(text, str):
        raise TypeError("parse_all() needs a str")
    records: list[Record] = []
    for item in parse_each(text):
        if isinstance(item, RecordError):
            raise item
        records.append(item)
    return records


def parse(text: str) -> Record:
    """The one game in ``text``; RecordError if there is none or more than one."""
    if not isinstance(text, str):
        raise TypeError("parse() needs a str")
    src = Source(text)
    src.skip_blanks()
    if src.at_end():
        raise src.error(src.pos, "no game found: the text is empty")
    if src.peek() != "[":
        raise _not_a_game(src, False)
    record = _parse_one(src)
    src.skip_blanks()
    if not src.at_end():
        if src.peek() != "[":
            raise _not_a_game(src, True)
        raise src.error(src.pos, "more than one game: use parse_all() to read several")
    return record


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wrap(units: Iterable[str], width: int = WIDTH) -> list[str]:
    lines: list[str] = []
    line = ""
    for unit in units:
        if not line:
            line = unit
        elif len(line) + 1 + len(unit) <= width:
            line += " " + unit
        else:
            lines.append(line)
            line = unit
    if line:
        lines.append(line)
    return lines


def format_record(record: Record) -> str:
    """The record as text: tags, a blank line, the moves; lines fit in 80 columns."""
    tag_lines = [f"[{name} {_quote(value)}]" for name, value in record.tags.items()]
    return "\n".join(tag_lines) + "\n\n" + "\n".join(_wrap(move_units(record))) + "\n"


def format_all(records: Iterable[Record]) -> str:
    """Several records, separated by blank lines (parse_all reads them back)."""
    return "\n".join(format_record(r) for r in records)


__all__ = ["UNFINISHED", "format_all", "format_record", "parse", "parse_all", "parse_each"]
