"""Game records for download and review: the web app's adapter to ``boardlab.records``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import boardlab
from boardlab import records


class RecordProblem(ValueError):
    """A record that cannot be read (the message says why)."""


@dataclass
class Imported:
    game: str
    size: int
    options: dict[str, Any]
    moves: list[str]
    start: str | None = None
    players: dict[str, str] = field(default_factory=dict)
    #: a declared result the rules do not make: {"winner", "termination", "resigned"}
    result: dict[str, Any] | None = None


def _record(game: boardlab.Game, players: dict[str, str], resigned: str | None,
            date: str | None, timeout: str | None = None) -> records.Record:
    return records.Record.from_game(game, players, date=date, resigned=resigned, timeout=timeout)


def to_text(game: boardlab.Game, players: dict[str, str], resigned: str | None = None,
            date: str | None = None, timeout: str | None = None) -> str:
    return records.format(_record(game, players, resigned, date, timeout))


def to_json(game: boardlab.Game, players: dict[str, str], resigned: str | None = None,
            date: str | None = None, timeout: str | None = None) -> str:
    return records.to_json(_record(game, players, resigned, date, timeout))


def parse(text: str) -> Imported:
    """Read a record (text or JSON) and replay it; RecordProblem says what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise RecordProblem("the record is empty")
    read = records.from_json if text.lstrip().startswith("{") else records.parse
    try:
        return _from_record(read(text))
    except boardlab.BoardlabError as exc:
        raise RecordProblem(str(exc)) from None


def _from_record(record) -> Imported:
    game = record.game
    start = getattr(record, "start", None)
    result = None
    term = getattr(record, "termination", None)
    term_value = getattr(term, "value", term)
    if term_value in ("resignation", "timeout"):
        winner = record.result
        loser = game.colors[1 - game.colors.index(winner)]
        result = {"winner": winner, "termination": term_value, "resigned": loser}
    return Imported(game=game.name, size=game.size, options=dict(game.options),
                    moves=list(record.moves), start=start, players=dict(record.players),
                    result=result)
