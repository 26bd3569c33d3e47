"""The web API's wire types: its error envelope and its request/response models.

Kept apart from the routes so that the live-game state (``hub``) and the routes
(``app``) share one definition of what a client sends and gets back.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

import boardlab


# ---------------------------------------------------------------- errors
class ApiError(Exception):
    """An error answered as ``{"error": {"code": ..., "message": ...}}``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def __reduce__(self):  # raised in a worker process, re-raised in the server
        return (_api_error, (self.status, self.code, self.message, self.extra))


def _api_error(status: int, code: str, message: str, extra: dict[str, Any]) -> ApiError:
    return ApiError(status, code, message, **extra)


class JSONAnswer(JSONResponse):
    """Every JSON answer, written as ASCII (``\\uXXXX`` escapes): any string
    can be, so a stored game whose text holds a lone surrogate (no UTF-8 for
    it: stored before such text was refused) is still answered, not 500."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False,
                          separators=(",", ":")).encode("ascii")


def error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONAnswer({"error": {"code": code, "message": message, **extra}}, status_code=status)


class ErrorBody(BaseModel):
    code: str = Field(description="machine-readable: unknown_game, bad_option, malformed_move, "
                      "illegal_move, not_your_turn, game_over, stale, not_found, bad_request, "
                      "unknown_engine, bad_record, cannot_undo, no_rules")
    message: str = Field(description="human-readable; for moves, the library's reason")


class ErrorResponse(BaseModel):
    error: ErrorBody


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse}, 404: {"model": ErrorResponse}, 409: {"model": ErrorResponse}}


# ---------------------------------------------------------------- request / response models
#: request bodies: no unknown fields, and no coercion ("5" is not a size, 1 is
#: not true): a client that sends the wrong type is told so, not guessed at
_STRICT = ConfigDict(extra="forbid", strict=True)


class PreGameIn(BaseModel):
    """A game with a pre-game (``pregame`` in GET /api/kinds; yugo's komi): one
    side names the value of the game's pre-game option, the other picks a color."""
    model_config = _STRICT
    namer: Literal["human", "computer"] = Field(
        description="who names the value; the other side then picks a color")
    value: int | None = Field(None, description="the value, when the human names it")
    color: str | None = Field(None, description="the human's color, when the computer named "
                                                "the value")


class NewGame(BaseModel):
    model_config = _STRICT
    game: str = Field(description="one of: " + ", ".join(boardlab.GAMES), examples=[boardlab.GAMES[0]])
    size: int | None = Field(None, description="board size 4..19; default: the game's default")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description='game options, by the names GET /api/kinds lists: '
                                                '{"pie": false}')
    opponent: Literal["computer", "human", "online"] = Field(
        "computer", description="computer: you against an engine; human: hot-seat on one screen; "
        "online: a friend by link (the answer carries your link, the invite and a spectator link)")
    name: str | None = Field(None, max_length=200, description="online: your display name")
    time_control: TimeControl | None = Field(None, description="online: an enforced clock")
    engine: str = Field("random", description="an engine name from GET /api/engines")
    color: str = Field("random", description="your color against the computer, or 'random'")
    pregame: PreGameIn | None = Field(None, description="settle the game's pre-game "
                                      "(names and picks) before the first move")


class TimeControl(BaseModel):
    """Online: a clock the server enforces. It starts with the first move."""
    model_config = _STRICT
    kind: Literal["move", "total"] = Field(
        description="move: at most `seconds` per move; total: `seconds` for the whole game, "
                    "plus `increment` after each turn")
    seconds: float = Field(gt=0, le=7 * 86400)
    increment: float = Field(0, ge=0, le=3600)


class MoveIn(BaseModel):
    model_config = _STRICT
    move: str = Field(max_length=200, description="a move in the notation of docs/rules.md",
                      examples=["c3"])
    ply: int | None = Field(None, description="the number of moves the client has seen; "
                            "if given and the game has moved on, 409 stale")
    color: str | None = Field(None, description="the color the client moves for; if given and "
                              "it is not that color's turn, 409 not_your_turn")


class ResignIn(BaseModel):
    model_config = _STRICT
    color: str | None = Field(None, description="hot-seat: the color that resigns "
                              "(default: the color to move); against the computer: yours")


class AnswerIn(BaseModel):
    model_config = _STRICT
    accept: bool = Field(description="online: accept (true) or decline the opponent's request")


class ColorPickIn(BaseModel):
    model_config = _STRICT
    color: str = Field(max_length=20, description="online, a game's pre-game: the color the "
                                                  "picker takes")


class NameIn(BaseModel):
    model_config = _STRICT
    name: str = Field(max_length=200, description="online: your display name")


class RecordIn(BaseModel):
    model_config = _STRICT
    text: str = Field(description="a record, as text or as JSON (boardlab.records formats)")


class VariationsIn(BaseModel):
    model_config = _STRICT
    variations: list[Any] = Field(description='[{"ply": k, "moves": [...], "variations": '
                                  '[...]}]: lines replacing move k (0-based) of the line they '
                                  'leave; see docs/records.md, Variations')


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class GameState(Loose):
    """A game as the page draws it. Other fields: see docs/web.md."""
    id: str
    game: str
    size: int
    version: str
    ply: int
    view_ply: int
    moves: list[str]
    to_move: str | None
    legal: list[str]
    over: bool
    thinking: bool
