"""``boardlab replay``, ``boardlab check`` and ``boardlab rules``."""

from __future__ import annotations

import sys

from .. import records
from ..records import Record, RecordError
from ..records.model import DECLARED
from ..rules import MissingRulesError, rules_text
from .render import move_points, render_board


def _err(text: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"boardlab: {text}\n")
    sys.stderr.flush()


def _load(path: str) -> list[Record] | int:
    """The records of a file, or an exit status after reporting the problem."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        _err(f"cannot read {path}: {exc.strerror or exc}")
        return 2
    except UnicodeDecodeError:
        _err(f"{path}: not UTF-8 text")
        return 1
    try:
        return records.parse_all(text)
    except RecordError as exc:
        _err(f"{path}: {exc}")
        return 1


def check(paths: list[str]) -> int:
    """Validate record files: 0 if every game in every file is valid."""
    status = 0
    for path in paths:
        loaded = _load(path)
        if isinstance(loaded, int):
            status = max(status, loaded)
            continue
        if not loaded:
            _err(f"{path}: no games found")
            status = max(status, 1)
            continue
        count = len(loaded)
        print(f"{path}: {count} game{'s' if count != 1 else ''} OK")
    return status


def _summary(record: Record) -> str:
    who = ", ".join(f"{c} {record.players[c]}" for c in record.game.colors)
    outcome = record.outcome
    result = records.describe(outcome) if outcome else "unfinished (*)"
    return (f"{record.name} {record.size}x{record.size} · {who} · {record.date} · "
            f"{len(record.moves)} moves · {result}")


def _position(record: Record, ply: int, color: bool) -> str:
    """The board after ``ply`` moves, with the last turn's points marked."""
    game = record.game_at(ply)
    bounds = [*record.turn_starts, len(record.moves)]
    lines = []
    if ply == 0:
        title = "start"
        marked: set[int] = set()
    else:
        k = max(i for i, start in enumerate(record.turn_starts) if start < ply)
        moves = record.moves[record.turn_starts[k]:min(ply, bounds[k + 1])]
        title = f"after {k + 1}. {' '.join(moves)}"
        marked = {p for m in moves for p in move_points(m, game.size)}
    lines.append(f"-- ply {ply}: {title}")
    lines.append(render_board(game, color=color, marked=marked))
    if game.is_over:
        lines.append(f"game over: {records.describe(game.outcome)}")
    else:
        status = f"{game.to_move} to move"
        scores = game._live_scores()
        if scores:
            status += "  (" + ", ".join(f"{c} {_n(v)}" for c, v in scores.items()) + ")"
        lines.append(status)
    note = record.comments.get(ply)
    if note:
        lines.append(f"{{{note}}}")
    return "\n".join(lines)


def _n(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def replay(path: str, ply: int | None, number: int | None, color: bool) -> int:
    """Show a record's positions: every turn, or the one after ``ply`` moves."""
    loaded = _load(path)
    if isinstance(loaded, int):
        return loaded
    if not loaded:
        _err(f"{path}: no games found")
        return 1
    if number is None:
        number = 1
        if len(loaded) > 1:
            print(f"{path} holds {len(loaded)} games; showing game 1 (use --game K)")
    if not 1 <= number <= len(loaded):
        _err(f"{path} holds {len(loaded)} game{'s' if len(loaded) != 1 else ''}; "
             f"no game {number}")
        return 2
    record = loaded[number - 1]
    print(_summary(record))
    if ply is not None:
        if not 0 <= ply <= len(record.moves):
            _err(f"--ply {ply} is outside 0..{len(record.moves)}")
            return 2
        print(_position(record, ply, color))
        return 0
    plies = [0] + [start for start in record.turn_starts[1:]] + [len(record.moves)]
    for p in sorted(set(plies)):
        print(_position(record, p, color))
    if record.termination in DECLARED:
        print(f"{record.result} wins by {record.termination.value}")
    return 0


def rules(game: str) -> int:
    try:
        text = rules_text(game)
    except MissingRulesError as exc:
        _err(str(exc))
        return 1
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        title = lines[0][2:].strip()
        lines[0:1] = [title, "=" * len(title)]
    print("\n".join(lines))
    return 0
