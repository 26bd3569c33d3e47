"""Game records for download and review, through ``boardlab.records``.

``boardlab.records`` owns the record format (text and JSON). This module
adapts the web app to it, and carries a minimal stand-in in the same tag
style (``[Game "robble"]`` ... then the moves) for as long as that package is
not importable, so the app never breaks on a half-finished neighbour.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

import boardlab


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


def _records():
    try:
        mod = importlib.import_module("boardlab.records")
    except Exception:  # noqa: BLE001 - not importable: use the stand-in
        return None
    return mod if hasattr(mod, "Record") or hasattr(mod, "parse") else None


def _fn(mod, *names):
    for name in names:
        fn = getattr(mod, name, None)
        if callable(fn):
            return fn
    return None


def _library_record(game: boardlab.Game, players: dict[str, str], resigned: str | None,
                    date: str | None):
    mod = _records()
    if mod is None or not hasattr(mod, "Record"):
        return None, None
    kwargs: dict[str, Any] = {}
    if date:
        kwargs["date"] = date
    if resigned:
        kwargs["resigned"] = resigned
    return mod, mod.Record.from_game(game, players, **kwargs)


def to_text(game: boardlab.Game, players: dict[str, str], resigned: str | None = None,
            date: str | None = None) -> str:
    mod, record = _library_record(game, players, resigned, date)
    if record is not None:
        fn = _fn(mod, "format_record", "to_text", "dumps", "format")
        if fn is not None:
            return fn(record)
    return _fallback_text(game, players, resigned, date)


def to_json(game: boardlab.Game, players: dict[str, str], resigned: str | None = None,
            date: str | None = None) -> str:
    mod, record = _library_record(game, players, resigned, date)
    if record is not None:
        fn = _fn(mod, "to_json", "record_to_json", "dumps_json", "format_json")
        if fn is not None:
            out = fn(record)
            return out if isinstance(out, str) else json.dumps(out, indent=2)
    return json.dumps(_fallback_obj(game, players, resigned, date), indent=2)


def parse(text: str) -> Imported:
    """Read a record (text or JSON) and replay it; RecordProblem says what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise RecordProblem("the record is empty")
    mod = _records()
    if mod is not None:
        is_json = text.lstrip().startswith("{")
        fn = (_fn(mod, "from_json", "parse_json", "loads_json", "read_json") if is_json
              else _fn(mod, "parse_record", "parse", "loads", "read"))
        if fn is None and is_json:
            fn = _fn(mod, "parse_record", "parse", "loads", "read")
        if fn is not None:
            try:
                record = fn(text)
            except boardlab.BoardlabError as exc:
                raise RecordProblem(str(exc)) from None
            return _from_record(record)
    return _fallback_parse(text)


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


# ---------------------------------------------------------------- stand-in format
def _result_token(game: boardlab.Game, resigned: str | None) -> tuple[str, str | None]:
    if resigned:
        return game.colors[1 - game.colors.index(resigned)], "resignation"
    out = game.outcome
    if out is None:
        return "*", None
    return out.winner, out.termination.value


def _fallback_obj(game, players, resigned, date) -> dict:
    result, termination = _result_token(game, resigned)
    return {
        "game": game.name, "size": game.size, "options": dict(game.options),
        "players": {c: players.get(c, "?") for c in game.colors},
        "date": date or "????.??.??", "result": result, "termination": termination,
        "moves": game.history,
    }


def _fallback_text(game, players, resigned, date) -> str:
    obj = _fallback_obj(game, players, resigned, date)
    tags = [("Game", game.name), ("Size", str(game.size))]
    for k, v in game.options.items():
        tags.append((k.capitalize(), "yes" if v is True else "no" if v is False else str(v)))
    for c in game.colors:
        tags.append((c.capitalize(), obj["players"][c]))
    tags += [("Date", obj["date"]), ("Result", obj["result"])]
    if obj["termination"]:
        tags.append(("Termination", obj["termination"]))
    lines = [f'[{k} "{v}"]' for k, v in tags]
    body = []
    for i, move in enumerate(obj["moves"]):
        body.append(f"{i + 1}. {move}")
    return "\n".join(lines) + "\n\n" + "\n".join(body) + ("\n" if body else "") + obj["result"] + "\n"


def _fallback_parse(text: str) -> Imported:
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordProblem(f"bad JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise RecordProblem("a JSON record must be an object")
        name, size = obj.get("game"), obj.get("size")
        options = obj.get("options") or {}
        moves = obj.get("moves") or []
        players = obj.get("players") or {}
        termination = obj.get("termination")
        winner = obj.get("result")
    else:
        tags = dict(re.findall(r'^\[(\w+)\s+"([^"]*)"\]\s*$', text, re.MULTILINE))
        name, size = tags.get("Game"), tags.get("Size")
        body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("["))
        tokens = [t for t in body.split() if not re.fullmatch(r"\d+\.", t)]
        moves = []
        for t in tokens:
            if moves and moves[-1] == "mark":
                moves[-1] = f"mark {t}"
            else:
                moves.append(t)
        winner = tags.get("Result")
        if moves and moves[-1] in ("*", winner):
            moves.pop()
        termination = tags.get("Termination")
        options = {}
        players = {}
        try:
            cls = boardlab.game_class(name or "")
        except boardlab.OptionError as exc:
            raise RecordProblem(str(exc)) from None
        for key, default in cls.option_defaults.items():
            value = tags.get(key.capitalize())
            if value is None:
                continue
            options[key] = (value == "yes") if isinstance(default, bool) else int(value)
        players = {c: tags[c.capitalize()] for c in cls.colors if c.capitalize() in tags}
    try:
        size = int(size)
        game = boardlab.new_game(str(name), size, **options)
        for i, move in enumerate(moves):
            try:
                game.play(move)
            except boardlab.BoardlabError as exc:
                raise RecordProblem(f"move {i + 1}: {exc}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RecordProblem):
            raise
        raise RecordProblem(str(exc)) from None
    result = None
    if termination in ("resignation", "timeout") and winner in game.colors:
        result = {"winner": winner, "termination": termination,
                  "resigned": game.colors[1 - game.colors.index(winner)]}
    return Imported(game=game.name, size=game.size, options=dict(game.options),
                    moves=game.history, players=players, result=result)
