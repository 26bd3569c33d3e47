"""Game records for download and review: the web app's adapter to ``boardlab.records``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import boardlab
from boardlab import records

from . import review


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
    #: the record's variations as the page keeps them (see :func:`variations_json`)
    variations: list[dict[str, Any]] = field(default_factory=list)
    #: the whole-game analysis the record carries (``review.from_record``), or None
    analysis: dict[str, Any] | None = None


#: variation moves a game may keep (all lines together), and how deep they may nest
MAX_VARIATION_MOVES = 4000
MAX_VARIATION_DEPTH = 40

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Caps:
    """What a loaded record may hold (``Settings.max_record_moves``, ...):
    each bounds the work of reading, storing and rendering it."""

    moves: int = 2000
    variation_moves: int = MAX_VARIATION_MOVES
    name: int = 100
    #: bytes of the analysis its evaluations make, as stored (``review.check_size``)
    analysis_bytes: int = 1024 * 1024


def scrub(text: str) -> str:
    """``text`` with any lone surrogate (no character: it cannot be written as
    UTF-8) replaced by U+FFFD. For what was stored before such text was
    refused, so that it can still be shown and downloaded."""
    return _SURROGATE.sub("\ufffd", text)


def _record(game: boardlab.Game, players: dict[str, str], resigned: str | None,
            date: str | None, timeout: str | None = None,
            variations: list[dict[str, Any]] | None = None,
            analysis: dict[str, Any] | None = None) -> records.Record:
    """The record; the stored ``variations`` that still fit the game (one
    kept before the main line was taken back past it is left out), and the
    stored whole-game ``analysis`` as evaluations and NAGs."""
    players = {color: scrub(name) for color, name in players.items()}
    comments, nags = review.annotations_of(analysis, list(game.colors)) if analysis else ({}, {})
    return records.Record.from_game(game, players, date=date, resigned=resigned, timeout=timeout,
                                    variations=_fitting(game, variations or []),
                                    comments=comments, nags=nags)


def _fitting(game: boardlab.Game, variations: list[dict[str, Any]]
             ) -> dict[int, list[records.Node]]:
    """The well-formed ``variations`` whose every move is legal where it is
    played, as ``Record.variations``. One walk of the main line, each line
    replayed once from a copy of the game where it branches: the work is the
    moves of the game and of the lines, not their product (a line checked by
    building a whole record took 33 s for 300 lines of a 421-move game)."""
    by_ply: dict[int, list[dict[str, Any]]] = {}
    for v in variations:
        try:
            variation_nodes([v], max_moves=10 ** 9)  # stored: a cap of its time
        except RecordProblem:
            continue
        by_ply.setdefault(v["ply"], []).append(v)
    kept: dict[int, list[records.Node]] = {}
    if not by_ply:
        return kept
    history = list(game.history)
    at = game.copy()
    while len(at):
        at.undo()
    for k, move in enumerate(history):
        for v in by_ply.get(k, ()):
            if _line_fits(at, v):
                kept.setdefault(k, []).extend(variation_nodes([v], max_moves=10 ** 9)[k])
        at.play(move)
    return kept


def _line_fits(at: boardlab.Game, v: dict[str, Any]) -> bool:
    """Whether line ``v`` (well-formed) and its sub-lines are legal from ``at``."""
    subs = v.get("variations") or []
    need = {w["ply"] for w in subs}
    game = at.copy()
    branches: dict[int, boardlab.Game] = {}
    for j, move in enumerate(v["moves"]):
        if j in need:
            branches[j] = game.copy()
        try:
            game.play(move)
        except boardlab.BoardlabError:
            return False
    return all(_line_fits(branches[w["ply"]], w) for w in subs)


def to_text(game: boardlab.Game, players: dict[str, str], resigned: str | None = None,
            date: str | None = None, timeout: str | None = None,
            variations: list[dict[str, Any]] | None = None,
            analysis: dict[str, Any] | None = None) -> str:
    return records.format(_record(game, players, resigned, date, timeout, variations, analysis))


def to_json(game: boardlab.Game, players: dict[str, str], resigned: str | None = None,
            date: str | None = None, timeout: str | None = None,
            variations: list[dict[str, Any]] | None = None,
            analysis: dict[str, Any] | None = None) -> str:
    return records.to_json(_record(game, players, resigned, date, timeout, variations,
                                   analysis))


# ---------------------------------------------------------------- variations
# The page keeps a game's variations as plain JSON (in the game's meta):
# ``[{"ply": k, "moves": [...], "variations": [...]}]``, each line replacing
# move ``k`` (0-based) of the line it leaves, nested lines likewise within
# theirs (k >= 1). ``records.Record.variations`` is the same tree as Nodes.
def variation_nodes(data: Any, max_moves: int = MAX_VARIATION_MOVES
                    ) -> dict[int, list[records.Node]]:
    """The page's variations as ``Record.variations``; RecordProblem names
    what is malformed and where (``variations[1].moves[2]``)."""
    out: dict[int, list[records.Node]] = {}
    count = [0]
    if not isinstance(data, list):
        raise RecordProblem("variations: a list of {ply, moves, variations}")
    for i, v in enumerate(data):
        ply, node = _line(v, f"variations[{i}]", 0, count, max_moves, top=True)
        out.setdefault(ply, []).append(node)
    return out


def _line(v: Any, where: str, depth: int, count: list[int], max_moves: int,
          top: bool) -> tuple[int, records.Node]:
    if depth > MAX_VARIATION_DEPTH:
        raise RecordProblem(f"{where}: variations nest at most {MAX_VARIATION_DEPTH} deep")
    if not isinstance(v, dict) or set(v) - {"ply", "moves", "variations"}:
        raise RecordProblem(f"{where}: an object with ply, moves and variations")
    ply, moves = v.get("ply"), v.get("moves")
    if isinstance(ply, bool) or not isinstance(ply, int) or ply < (0 if top else 1):
        raise RecordProblem(f"{where}.ply: a whole number{'' if top else ' from 1'}, got {ply!r}")
    if not isinstance(moves, list) or not moves:
        raise RecordProblem(f"{where}.moves: a list of at least one move")
    for j, m in enumerate(moves):
        if not isinstance(m, str) or not m or len(m) > 200:
            raise RecordProblem(f"{where}.moves[{j}]: a move text, got {m!r}")
    count[0] += len(moves)
    if count[0] > max_moves:
        raise RecordProblem(f"variations: more than {max_moves} moves in all; a game may "
                            f"keep at most {max_moves}")
    first = records.Node.line(moves)
    nodes = [first]
    while nodes[-1].variations:
        nodes.append(nodes[-1].variations[0])
    subs = v.get("variations") or []
    if not isinstance(subs, list):
        raise RecordProblem(f"{where}.variations: a list")
    for i, w in enumerate(subs):
        k, sub = _line(w, f"{where}.variations[{i}]", depth + 1, count, max_moves, top=False)
        if k >= len(moves):
            raise RecordProblem(f"{where}.variations[{i}].ply: the line has {len(moves)} moves, "
                                f"got {k}")
        nodes[k - 1].variations.append(sub)
    return ply, first


def variations_json(variations: dict[int, list[records.Node]]) -> list[dict[str, Any]]:
    """``Record.variations`` as the page keeps them (the inverse of
    :func:`variation_nodes`; comments are not kept)."""
    return [_line_json(k, node) for k, lines in sorted(variations.items()) for node in lines]


def _line_json(ply: int, first: records.Node) -> dict[str, Any]:
    moves, subs = [], []
    node: records.Node | None = first
    while node is not None:
        moves.append(node.move)
        for alt in node.variations[1:]:
            subs.append(_line_json(len(moves), alt))
        node = node.variations[0] if node.variations else None
    return {"ply": ply, "moves": moves, "variations": subs}


def parse(text: str, caps: Caps = Caps()) -> Imported:
    """Read a record (text or JSON) and replay it; RecordProblem says what is
    wrong (and where), also for a record over ``caps``."""
    if not isinstance(text, str) or not text.strip():
        raise RecordProblem("the record is empty")
    bad = _SURROGATE.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise RecordProblem(f"line {line}, column {column}: U+{ord(bad.group()):04X} is half "
                            "of a surrogate pair, not a character")
    read = records.from_json if text.lstrip().startswith("{") else records.parse
    try:
        record = read(text)
        imported = _from_record(record)
    except boardlab.BoardlabError as exc:
        raise RecordProblem(str(exc)) from None
    _check_caps(imported, caps)
    # its evaluations: read once the moves are known to be within the caps
    imported.analysis = review.from_record(record)
    _check_analysis(imported, caps)
    return imported


def _check_caps(imp: Imported, caps: Caps) -> None:
    if len(imp.moves) > caps.moves:
        raise RecordProblem(f"{len(imp.moves)} moves: a loaded record may have at most "
                            f"{caps.moves}")
    for color, name in imp.players.items():
        if len(name) > caps.name:
            raise RecordProblem(f"[{color.capitalize()}]: a name of {len(name)} characters; "
                                f"at most {caps.name}")
    n = variation_moves(imp.variations)
    if n > caps.variation_moves:
        raise RecordProblem(f"variations: {n} moves in all; a loaded record may keep at most "
                            f"{caps.variation_moves}")


def _check_analysis(imp: Imported, caps: Caps) -> None:
    if imp.analysis is not None:
        size = len(json.dumps(imp.analysis))
        if size > caps.analysis_bytes:
            raise RecordProblem(f"evaluations: they make an analysis of {size} bytes; a game "
                                f"keeps one of at most {caps.analysis_bytes}")


def variation_moves(lines: list[dict[str, Any]]) -> int:
    """The moves of ``lines`` (the page's variations) and of their sub-lines."""
    total, todo = 0, list(lines)
    while todo:
        line = todo.pop()
        total += len(line.get("moves") or ())
        todo.extend(line.get("variations") or ())
    return total


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
                    result=result,
                    variations=variations_json(getattr(record, "variations", {}) or {}))
