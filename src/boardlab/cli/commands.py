"""``boardlab replay``, ``boardlab check`` and ``boardlab rules``."""

from __future__ import annotations

import sys
from bisect import bisect_left

from .. import records
from ..core.game import Game
from ..records import Record, RecordError
from ..records.movetext import variation_texts
from ..records.results import DECLARED
from ..records.text import parse_each
from ..rules import MissingRulesError, rules_text
from .render import move_points, render_board


def _err(text: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"boardlab: {text}\n")
    sys.stderr.flush()


#: The FILE argument that means standard input (``... | boardlab check -``).
STDIN = "-"


def _label(path: str) -> str:
    """How messages name a FILE argument."""
    return "<stdin>" if path == STDIN else path


def _read(path: str) -> str | int:
    """The text of a file, or of standard input for ``-`` (gunzipped if it is
    gzip, as ``boardlab match`` writes ``.rec.gz``), or an exit status after
    reporting the problem."""
    try:
        if path == STDIN:
            return records.decode_text(sys.stdin.buffer.read(), "<stdin>")
        return records.read_text(path)
    except OSError as exc:
        _err(f"cannot read {path}: {exc.strerror or exc}")
        return 2
    except RecordError as exc:
        _err(str(exc))
        return 1


def _load(path: str) -> list[Record] | int:
    """The records of a file, or an exit status after reporting the problem."""
    text = _read(path)
    if isinstance(text, int):
        return text
    try:
        return records.parse_all(text)
    except RecordError as exc:
        _err(f"{_label(path)}: {exc}")
        return 1


def check(paths: list[str]) -> int:
    """Validate record files: 0 if every game in every file is valid.

    Every bad record of a file is reported, not just the first, so one run
    lists everything to fix.
    """
    status = 0
    for path in paths:
        text = _read(path)
        if isinstance(text, int):
            status = max(status, text)
            continue
        items = parse_each(text)
        if not items:
            _err(f"{_label(path)}: no games found")
            status = max(status, 1)
            continue
        errors = [item for item in items if isinstance(item, RecordError)]
        count = len(items) - len(errors)
        games = f"{count} game{'s' if count != 1 else ''} OK"
        if not errors:
            print(f"{_label(path)}: {games}")
            continue
        for error in errors:
            _err(f"{_label(path)}: {error}")
        _err(f"{_label(path)}: {len(errors)} error{'s' if len(errors) != 1 else ''} ({games})")
        status = max(status, 1)
    return status


def _summary(record: Record) -> str:
    who = ", ".join(f"{c} {record.players[c]}" for c in record.game.colors)
    outcome = record.outcome
    result = records.describe(outcome) if outcome else "unfinished (*)"
    return (f"{record.name} {record.size}x{record.size} · {who} · {record.date} · "
            f"{len(record.moves)} moves · {result}")


def _position(record: Record, game: Game, ply: int, color: bool,
              notes: range | None = None) -> str:
    """The board of ``game`` (the record after ``ply`` moves), with the last
    turn's points marked and the comments made at the plies in ``notes``
    (default: just ``ply``)."""
    bounds = [*record.turn_starts, len(record.moves)]
    lines = []
    if ply == 0:
        title = "start"
        marked: set[int] = set()
    else:
        k = bisect_left(record.turn_starts, ply) - 1  # the turn that holds move ``ply``
        moves = record.moves[record.turn_starts[k]:min(ply, bounds[k + 1])]
        title = f"after {k + 1}. {' '.join(moves)}"
        marked = {p for m in moves for p in move_points(m, game.size)}
    lines.append(f"-- ply {ply}: {title}")
    lines.append(render_board(game, color=color, marked=marked))
    if game.outcome is not None:
        lines.append(f"game over: {records.describe(game.outcome)}")
    else:
        status = f"{game.to_move} to move"
        scores = game._live_scores()
        if scores:
            status += "  (" + ", ".join(f"{c} {_n(v)}" for c, v in scores.items()) + ")"
        lines.append(status)
    for at in notes if notes is not None else (ply,):
        note = record.comments.get(at)
        if note and at != ply:  # made inside the turn: say after which move
            lines.append(f"{{{note}}}  (ply {at}: after {record.moves[at - 1]})")
        elif note:
            lines.append(f"{{{note}}}")
    for at in notes if notes is not None else (ply,):
        if record.variations.get(at):  # side lines instead of move at + 1
            before = game.copy()
            for _ in range(ply - at):
                before.undo()
            for text in variation_texts(record, at, before):
                lines.append(f"variation instead of {record.moves[at]} (move {at + 1}): {text}")
    return "\n".join(lines)


def _n(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def replay(path: str, ply: int | None, number: int | None, color: bool) -> int:
    """Show a record's positions: every turn, or the one after ``ply`` moves."""
    loaded = _load(path)
    if isinstance(loaded, int):
        return loaded
    if not loaded:
        _err(f"{_label(path)}: no games found")
        return 1
    if number is None:
        number = 1
        if len(loaded) > 1:
            print(f"{_label(path)} holds {len(loaded)} games; showing game 1 (use --game K)")
    if not 1 <= number <= len(loaded):
        _err(f"{_label(path)} holds {len(loaded)} game{'s' if len(loaded) != 1 else ''}; "
             f"no game {number}")
        return 2
    record = loaded[number - 1]
    print(_summary(record))
    if ply is not None:
        if not 0 <= ply <= len(record.moves):
            _err(f"--ply {ply} is outside 0..{len(record.moves)}")
            return 2
        print(_position(record, record.game_at(ply), ply, color))
        return 0
    # One game stepped forward through the record: game_at() for each turn
    # would undo from the end every time, quadratic in the game's length.
    game = record.start_game()
    actions = record.game.action_history
    plies = sorted({0, *record.turn_starts[1:], len(record.moves)})
    shown = -1
    for p in plies:
        while len(game) < p:
            game.apply_action(actions[len(game)])
        print(_position(record, game, p, color, range(shown + 1, p + 1)))
        shown = p
    if record.termination in DECLARED:
        print(f"{record.result} wins by {record.termination.value}")
    return 0


def _diagram(block: list[str]) -> list[str]:
    """A rules page's ``board`` block as text: the board drawn by render_board,
    with the ``last:``/``marks:`` points marked and the caption under it."""
    from .. import from_position
    from ..core import grid

    game = from_position(block[0])
    index = grid.point_index(game.size)
    marked: set[int] = set()
    caption = ""
    for line in block[1:]:
        key, _, value = line.partition(":")
        if key.strip() == "caption":
            caption = value.strip()
        else:
            marked.update(index[p] for p in value.replace(",", " ").split() if p in index)
    out = ["    " + line for line in render_board(game, marked=marked).splitlines()]
    return out + ([f"    ({caption})"] if caption else [])


def rules(game: str) -> int:
    """Print a rules page as plain text: the title underlined, diagrams drawn."""
    try:
        text = rules_text(game)
    except MissingRulesError as exc:
        _err(str(exc))
        return 1
    lines: list[str] = []
    block: list[str] | None = None
    for line in text.splitlines():
        if block is not None:
            if line.strip().startswith("```"):
                lines += _diagram(block)
                block = None
            elif line.strip():
                block.append(line.strip())
        elif line.strip() == "```board":
            block = []
        else:
            lines.append(line)
    if lines and lines[0].startswith("# "):
        title = lines[0][2:].strip()
        lines[0:1] = [title, "=" * len(title)]
    print("\n".join(lines))
    return 0
