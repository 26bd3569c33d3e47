"""JSON import and export of records: the same information as the text format.

::

    {"format": "boardlab-record", "version": 1,
     "game": "implo", "size": 9, "options": {"pie": true},
     "players": {"black": "Ann", "white": "Bo"}, "date": "2025.03.01",
     "result": "white", "termination": "score", "position": null,
     "moves": ["e5", "swap", "d4", "@c3"], "turns": [[0], [1], [2, 3]],
     "comments": {"0": "a comment before the first move", "3": "after move 3"},
     "tags": {"Event": "club night"}, "scores": {"black": 1.0, "white": 2.0},
     "nags": {"3": [2]},
     "variations": {"2": [{"moves": ["c4", "@c4"], "comments": {"0": "idea", "1": "x"},
                           "variations": {"1": [{"moves": ["@b4"]}]}}]}}

``nags`` maps a ply count ``k`` (1 .. moves) to the Numeric Annotation
Glyphs of the k-th move (``[2]``: a mistake, as PGN's ``$2``); a line may
have its own ``nags`` likewise (``"i"``: its i-th move).
``variations`` maps a ply count ``k`` to the lines played instead of
``moves[k]``; each line has the main line's shape: ``moves``, ``comments``
(``"0"`` before its first move, ``"i"`` after its i-th) and its own
``variations`` (``"i"``: instead of its ``moves[i]``, i >= 1; the
alternatives to its first move are the lines beside it). A line is flat,
so JSON nests only as deep as the variations do.

On input ``format``, ``version``, ``turns`` and ``scores`` are optional and
``turns``/``scores`` are ignored (they are recomputed by the replay);
``options``, ``players``, ``date``, ``termination``, ``position``,
``comments``, ``tags``, ``nags`` and ``variations`` are optional too. Unknown keys are
an error.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

from .. import from_position, game_class
from ..core import numbers
from ..core.game import Game
from ..core.outcome import Termination
from ..errors import BoardlabError, GameOverError, IllegalMoveError
from .errors import RecordError
from .model import (
    UNKNOWN_DATE,
    Record,
    assemble,
    continues_turn,
    result_words,
)
from .results import Problem, describe, settle_result
from .tree import Node, check_nags

FORMAT = "boardlab-record"
VERSION = 1
_KEYS = {"format", "version", "game", "size", "options", "players", "date", "result",
         "termination", "position", "moves", "turns", "comments", "tags", "scores",
         "variations", "nags"}
_LINE_KEYS = {"moves", "comments", "variations", "nags"}


def to_dict(record: Record) -> dict[str, Any]:
    """The record as a JSON-ready dict."""
    outcome = record.outcome
    bounds = [*record.turn_starts, len(record.moves)]
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": record.name,
        "size": record.size,
        "options": record.options,
        "players": dict(record.players),
        "date": record.date,
        "result": record.result,
        "termination": record.termination.value if record.termination else None,
        "position": record.start,
        "moves": list(record.moves),
        "turns": [list(range(a, b)) for a, b in pairwise(bounds)],
        "comments": {str(k): v for k, v in sorted(record.comments.items())},
        "tags": record.extra_tags,
        "scores": outcome.scores if outcome is not None else None,
        "variations": {str(k): [_line_to_dict(n) for n in v]
                       for k, v in sorted(record.variations.items())},
        "nags": {str(k): list(v) for k, v in sorted(record.nags.items())},
    }


def _line_to_dict(first: Node) -> dict[str, Any]:
    """A variation (its first node and its line) in the flat JSON shape."""
    nodes = [first, *first.mainline()]
    line: dict[str, Any] = {"moves": [n.move for n in nodes]}
    comments = {str(i + 1): n.comment for i, n in enumerate(nodes) if n.comment}
    if first.starting_comment:
        comments = {"0": first.starting_comment, **comments}
    if comments:
        line["comments"] = comments
    nags = {str(i + 1): list(n.nags) for i, n in enumerate(nodes) if n.nags}
    if nags:
        line["nags"] = nags
    alternatives = {str(i): [_line_to_dict(alt) for alt in parent.variations[1:]]
                    for i, parent in enumerate(nodes[:-1], start=1) if len(parent.variations) > 1}
    if alternatives:
        line["variations"] = alternatives
    return line


def _ply_key(key: Any, where: str) -> int:
    """A JSON object key that must be a ply number (ASCII digits)."""
    if not (isinstance(key, str) and key.isascii() and key.isdigit()):
        raise RecordError(f"must map a ply number to lines, got key {key!r}", where=where)
    if numbers.too_long(key):
        raise RecordError(f"a ply number must be short, got {numbers.too_long(key)}",
                          where=where)
    return int(key)


def _lines_from_dict(value: Any, where: str) -> list[Node]:
    """Nodes from a JSON list of lines; structure only (the replay checks moves)."""
    if not isinstance(value, list):
        raise RecordError(f"must be a list of lines, got {value!r}", where=where)
    return [_line_from_dict(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _line_from_dict(data: Any, where: str) -> Node:
    if not isinstance(data, dict):
        raise RecordError(f"a line must be an object, got {data!r}", where=where)
    unknown = sorted(set(data) - _LINE_KEYS)
    if unknown:
        raise RecordError(f"unknown key(s): {', '.join(map(str, unknown))}", where=where)
    moves = data.get("moves")
    if not isinstance(moves, list) or not moves:
        raise RecordError("a line needs 'moves', a list of at least one move",
                          where=f"{where}.moves")
    for i, move in enumerate(moves):
        if not isinstance(move, str):
            raise RecordError(f"a move must be a string, got {move!r}",
                              where=f"{where}.moves[{i}]")
    comments = data.get("comments") or {}
    if not isinstance(comments, dict):
        raise RecordError(f"must be an object, got {comments!r}", where=f"{where}.comments")
    notes: dict[int, str] = {}
    for key, text in comments.items():
        ply = _ply_key(key, f"{where}.comments")
        if not isinstance(text, str) or ply > len(moves):
            raise RecordError(f"comment {key!r}: must be text at 0..{len(moves)}",
                              where=f"{where}.comments")
        notes[ply] = text
    first = Node.line(moves, notes)
    nodes = [first, *first.mainline()]
    for ply, value in _nags_from_dict(data.get("nags"), f"{where}.nags").items():
        if ply > len(moves):
            raise RecordError(f"NAGs at {ply}: must be 1..{len(moves)}", where=f"{where}.nags")
        nodes[ply - 1].nags = value
    alternatives = data.get("variations") or {}
    if not isinstance(alternatives, dict):
        raise RecordError(f"must be an object, got {alternatives!r}",
                          where=f"{where}.variations")
    for key, lines in sorted(alternatives.items(), key=lambda kv: str(kv[0])):
        ply = _ply_key(key, f"{where}.variations")
        if not 1 <= ply < len(moves):
            raise RecordError(f"variations at {key!r}: must be 1..{len(moves) - 1} (the "
                              "alternatives to a line's first move stand beside it)",
                              where=f"{where}.variations")
        nodes[ply - 1].variations.extend(_lines_from_dict(lines, f"{where}.variations.{key}"))
    return first


def _nags_from_dict(value: Any, where: str) -> dict[int, tuple[int, ...]]:
    """``{"k": [n, ...]}`` as ply -> NAGs (k >= 1; the numbers are checked)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError(f"must be an object, got {value!r}", where=where)
    out: dict[int, tuple[int, ...]] = {}
    for key, nags in value.items():
        ply = _ply_key(key, where)
        if ply < 1:
            raise RecordError("a NAG belongs to a move: plies from 1", where=where)
        out[ply] = check_nags(nags, f"{where}.{key}")
    return out


def to_json(record: Record, indent: int | None = 2) -> str:
    """The record as JSON text."""
    return json.dumps(to_dict(record), indent=indent, ensure_ascii=False)


def _want(data: dict, key: str, kind: type | tuple, required: bool = False) -> Any:
    if key not in data or data[key] is None:
        if required:
            raise RecordError(f"missing {key!r}", where=key)
        return None
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"must be {name}, got {value!r}", where=key)
    return value


def from_dict(data: dict[str, Any]) -> Record:
    """A record from :func:`to_dict`'s shape; replays and checks like :func:`parse`."""
    if not isinstance(data, dict):
        raise RecordError("a JSON record must be an object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise RecordError(f"unknown key(s): {', '.join(unknown)}")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(f"not a {FORMAT}: {data['format']!r}", where="format")
    if data.get("version", VERSION) != VERSION:
        raise RecordError(f"unsupported version {data['version']!r}", where="version")
    name = _want(data, "game", str, required=True)
    try:
        cls = game_class(name)
    except BoardlabError as exc:
        raise RecordError(str(exc), where="game") from None
    position = _want(data, "position", str)
    options = _want(data, "options", dict) or {}
    size = _want(data, "size", int)
    start: Game
    if position is not None:
        try:
            start = from_position(position)
        except BoardlabError as exc:
            raise RecordError(f"bad position: {exc}", where="position") from None
        position = start.position()
        if start.name != cls.name:
            raise RecordError(f"a {start.name} position in a {cls.name} record",
                              where="position")
        if size is not None and size != start.size:
            raise RecordError(f"size {size} but the position is {start.size}x{start.size}",
                              where="size")
        for key, value in options.items():
            if start.options.get(key, object()) != value:
                raise RecordError(f"option {key}={value!r} contradicts the position",
                                  where="options")
    else:
        try:
            start = cls(size, **options)
        except BoardlabError as exc:
            raise RecordError(str(exc), where="options" if options else "size") from None
    moves = _want(data, "moves", list, required=True)
    result = _want(data, "result", str, required=True)
    if result not in result_words(cls):
        raise RecordError(f"bad result {result!r}: use {', '.join(result_words(cls))}",
                          where="result")
    termination = None
    term_text = _want(data, "termination", str)
    if term_text is not None:
        try:
            termination = Termination(term_text)
        except ValueError:
            raise RecordError(f"bad termination {term_text!r}", where="termination") from None
    game = start.copy()
    turn_starts: list[int] = []
    new_turn = True
    for i, move in enumerate(moves):
        where = f"moves[{i}]"
        if not isinstance(move, str):
            raise RecordError(f"a move must be a string, got {move!r}", where=where)
        if game.outcome is not None:
            raise RecordError(f"move {move!r} after the end of the game "
                              f"({describe(game.outcome)})", where=where)
        mover = game.to_move
        try:
            action = game.string_to_action(move)
            game.apply_action(action)
        except (GameOverError, IllegalMoveError) as exc:
            raise RecordError(f"illegal move {move!r}: {exc.reason}", where=where) from None
        if new_turn:
            turn_starts.append(i)
        new_turn = not continues_turn(game, mover, game.action_to_string(action))
    try:
        result, termination = settle_result(game, result, termination)
    except Problem as exc:
        raise RecordError(exc.reason, where=exc.field) from None
    comments_in = _want(data, "comments", dict) or {}
    comments: dict[int, str] = {}
    for key, text in comments_in.items():
        # ASCII digits only: str.isdigit() also takes "²", which int() rejects
        if not (isinstance(key, str) and key.isascii() and key.isdigit()) \
                or not isinstance(text, str):
            raise RecordError(f"comments map a ply number to text, got {key!r}: {text!r}",
                              where="comments")
        if numbers.too_long(key):
            raise RecordError(f"a ply number must be short, got {numbers.too_long(key)}",
                              where="comments")
        comments[int(key)] = text
    tags = _want(data, "tags", dict) or {}
    for key, value in tags.items():
        if not isinstance(value, str):
            raise RecordError(f"tag {key!r} must be a string", where="tags")
    players = _want(data, "players", dict) or {}
    date = _want(data, "date", str) or UNKNOWN_DATE
    variations = {_ply_key(k, "variations"): _lines_from_dict(v, f"variations.{k}")
                  for k, v in (_want(data, "variations", dict) or {}).items()}
    nags = _nags_from_dict(data.get("nags"), "nags")
    try:
        return assemble(game, start=position, turn_starts=turn_starts, players=players,
                        date=date, result=result, termination=termination, extra=tags,
                        comments=comments, variations=variations, start_game=start,
                        nags=nags)
    except RecordError as exc:  # assemble names the field at fault
        raise RecordError(exc.reason, where=exc.where or "record") from None


def from_json(data: str | bytes | dict[str, Any]) -> Record:
    """A record from JSON text (or an already decoded dict)."""
    if isinstance(data, dict):
        return from_dict(data)
    try:
        decoded = json.loads(data, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") \
            from None
    except (TypeError, ValueError) as exc:  # bytes that are not UTF-8, say
        raise RecordError(f"not JSON: {exc}") from None
    except RecursionError:  # pathologically nested input
        raise RecordError("the record's JSON is nested too deeply to be a record") from None
    where = _long_number(decoded, "")
    if where is not None:
        path, digits = where
        raise RecordError(numbers.too_long(digits) or "", where=path or "record")
    return from_dict(decoded)


class _LongNumber(str):
    """A JSON integer with too many digits to convert (kept as its text, so
    the field that holds it can be named)."""


def _parse_int(text: str) -> int | _LongNumber:
    return _LongNumber(text) if numbers.too_long(text) else int(text)


def _long_number(value: Any, path: str) -> tuple[str, str] | None:
    """The path (``options.komi``, ``moves[3]``) and text of the first too-long
    integer in decoded JSON, or None. Iterative: the depth is json's own."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, _LongNumber):
            return where, str(item)
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k))
                         for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(item))))
    return None
