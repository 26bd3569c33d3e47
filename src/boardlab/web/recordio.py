"""Game records for download and review: the web app's adapter to ``boardlab.records``."""

from __future__ import annotations

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


def _record(game: boardlab.Game, players: dict[str, str], resigned: str | None,
            date: str | None, timeout: str | None = None,
            variations: list[dict[str, Any]] | None = None,
            analysis: dict[str, Any] | None = None) -> records.Record:
    """The record; the stored ``variations`` that still fit the game (one
    kept before the main line was taken back past it is left out), and the
    stored whole-game ``analysis`` as evaluations and NAGs."""
    kept: dict[int, list[records.Node]] = {}
    for v in variations or []:
        try:
            nodes = variation_nodes([v])
            records.Record.from_game(game, players, variations=nodes)
        except (RecordProblem, boardlab.BoardlabError):
            continue
        for k, lines in nodes.items():
            kept.setdefault(k, []).extend(lines)
    comments, nags = review.annotations_of(analysis, list(game.colors)) if analysis else ({}, {})
    return records.Record.from_game(game, players, date=date, resigned=resigned, timeout=timeout,
                                    variations=kept, comments=comments, nags=nags)


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
def variation_nodes(data: Any) -> dict[int, list[records.Node]]:
    """The page's variations as ``Record.variations``; RecordProblem names
    what is malformed and where (``variations[1].moves[2]``)."""
    out: dict[int, list[records.Node]] = {}
    count = [0]
    if not isinstance(data, list):
        raise RecordProblem("variations: a list of {ply, moves, variations}")
    for i, v in enumerate(data):
        ply, node = _line(v, f"variations[{i}]", 0, count, top=True)
        out.setdefault(ply, []).append(node)
    return out


def _line(v: Any, where: str, depth: int, count: list[int], top: bool) -> tuple[int, records.Node]:
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
    if count[0] > MAX_VARIATION_MOVES:
        raise RecordProblem(f"variations: at most {MAX_VARIATION_MOVES} moves in all")
    first = records.Node.line(moves)
    nodes = [first]
    while nodes[-1].variations:
        nodes.append(nodes[-1].variations[0])
    subs = v.get("variations") or []
    if not isinstance(subs, list):
        raise RecordProblem(f"{where}.variations: a list")
    for i, w in enumerate(subs):
        k, sub = _line(w, f"{where}.variations[{i}]", depth + 1, count, top=False)
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
                    result=result,
                    variations=variations_json(getattr(record, "variations", {}) or {}),
                    analysis=review.from_record(record))
