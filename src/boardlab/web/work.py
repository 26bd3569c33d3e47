"""The heavy work the event loop hands to the work pool (``Hub.work``, see
:mod:`~boardlab.web.pool`): whatever grows with what a client sends. Rendering
and reading records (their variations), checking a game's variations,
replaying and drawing any position (vimbre 19x19 has 64,333 legal moves after
one move: a 2 MB answer); the list's replays are ``state._outcomes``. On the
event loop, one such request stalled every other client (33 s for one record).

Each function takes and returns plain data (a process pool pickles them) and
says what is wrong as :class:`ApiError` (the same 4xx a route would answer).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import boardlab
from boardlab import records
from boardlab.core import grid
from boardlab.errors import IllegalMoveError, OptionError, PositionError
from boardlab.games import view as plugin
from boardlab.records.model import format_option

from . import recordio, review, view
from .analysis_worker import Request
from .db import GameRow
from .live import new_library_game
from .schemas import ApiError
from .settings import Settings


# ---------------------------------------------------------------- records
@dataclass(frozen=True)
class GameSpec:
    """A stored game as plain data: where it starts and its moves."""

    game: str
    size: int
    options: dict[str, Any]
    start: str | None
    moves: tuple[str, ...]

    @classmethod
    def of(cls, row: GameRow) -> GameSpec:
        return cls(row.game, row.size, dict(row.options), row.meta.get("start"),
                   tuple(row.moves))

    def build(self) -> boardlab.Game:
        game = new_library_game(self.game, self.size, self.options, self.start)
        for move in self.moves:
            game.play(move)
        return game


def render_record(spec: GameSpec, players: dict[str, str], resigned: str | None,
                  date: str, timeout: str | None, variations: list[dict[str, Any]] | None,
                  fmt: str, analysis: dict[str, Any] | None = None) -> str:
    """A stored game's record, as text or JSON, with the variations that fit
    and the stored whole-game ``analysis`` (as far as it is of the game's
    moves still) as evaluations and judgements."""
    game = spec.build()
    if analysis is not None:
        analysis = review.cut(analysis, list(spec.moves), list(game.colors))
    write = recordio.to_json if fmt == "json" else recordio.to_text
    try:
        return write(game, players, resigned, date, timeout, variations, analysis)
    except boardlab.BoardlabError as exc:
        raise ApiError(409, "bad_record", str(exc)) from None


def read_record(text: str, caps: recordio.Caps) -> recordio.Imported:
    """A record loaded to be stored: read, replayed and within ``caps``."""
    try:
        return recordio.parse(text, caps)
    except (recordio.RecordProblem, boardlab.BoardlabError) as exc:
        raise ApiError(400, "bad_record", str(exc)) from None


def check_variations(spec: GameSpec, players: dict[str, str], variations: list[Any],
                     max_moves: int) -> list[dict[str, Any]]:
    """The page's variations for a game, checked against it (400
    ``bad_variation`` naming the line and move), as they are kept."""
    try:
        nodes = recordio.variation_nodes(variations, max_moves)
        records.Record.from_game(spec.build(), players, variations=nodes)
    except (recordio.RecordProblem, boardlab.BoardlabError) as exc:
        raise ApiError(400, "bad_variation", str(exc)) from None
    return recordio.variations_json(nodes)


def board_at(spec: GameSpec, ply: int) -> dict[str, Any]:
    """A stored game's position after ``ply`` moves, drawn (``view.game_view``)
    as a view of the past: without its legal moves (no one moves there)."""
    drawn = view.game_view(GameSpec(spec.game, spec.size, spec.options, spec.start,
                                    spec.moves[:ply]).build())
    return {**drawn, "legal": []}


# ---------------------------------------------------------------- analyses
def keep_analysis(body: review.GameAnalysisIn, spec: GameSpec, max_bytes: int
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A whole-game analysis sent to be kept with a stored game: as stored
    and as shown. 400 ``bad_analysis`` if it is not of the game's moves, 413
    ``analysis_too_large`` over ``max_bytes`` as stored."""
    start = GameSpec(spec.game, spec.size, spec.options, spec.start, ()).build()
    data = review.check(body, start, list(spec.moves))
    review.check_size(data, max_bytes)
    return data, review.shown(data, spec.size)


def show_analysis(data: dict[str, Any], spec: GameSpec) -> dict[str, Any] | None:
    """A stored analysis as the page draws it, cut to the moves the game
    still has (None: none of it applies any more)."""
    kept = review.cut(data, list(spec.moves), list(boardlab.game_class(spec.game).colors))
    return None if kept is None else review.shown(kept, spec.size)


# ---------------------------------------------------------------- positions
def replay_position(req: Request, max_moves: int) -> tuple[boardlab.Game, list[str]]:
    """The position ``req`` names, replayed, and who made each move; every
    problem as the API's 4xx error saying what and where."""
    if len(req.moves) > max_moves:
        raise ApiError(400, "too_many_moves", f"{len(req.moves)} moves: at most "
                       f"{max_moves} may be analysed")
    if req.start is not None:
        try:
            game = boardlab.from_position(req.start)
        except (PositionError, OptionError) as exc:
            raise ApiError(400, "bad_position", f"start: {exc}") from None
        if game.name != req.game:
            raise ApiError(400, "bad_position", f"start is a {game.name} position, "
                           f"not {req.game}")
    else:
        try:
            cls = boardlab.game_class(req.game)
        except OptionError as exc:
            raise ApiError(400, "unknown_game", str(exc)) from None
        try:
            game = cls(req.size, **req.options)
        except (OptionError, TypeError) as exc:
            raise ApiError(400, "bad_option", str(exc)) from None
    movers = []
    for i, move in enumerate(req.moves):
        if not isinstance(move, str) or len(move) > 200:
            raise ApiError(400, "malformed_move", f"move {i + 1} is not a move text")
        movers.append(game.to_move or "")
        try:
            game.play(move)
        except IllegalMoveError as exc:
            raise ApiError(400, "illegal_move", f"move {i + 1} ({move}): {exc.reason}",
                           move=move, index=i) from None
    return game, movers


def position_view(req: Request, max_moves: int) -> bytes:
    """``POST /api/analysis/view``'s answer, as JSON already (encoding 2 MB
    takes the event loop a quarter of a second): the position drawn, with
    each legal move's points."""
    game, movers = replay_position(req, max_moves)
    size = game.size
    return json.dumps({"game": game.name, "size": size, "colors": list(game.colors),
                       **view.board_facts(game), "ply": len(req.moves),
                       "moves": list(req.moves), "movers": movers,
                       "legal_points": {m: view.move_points(m, size)
                                        for m in game.legal_moves()},
                       **view.game_view(game)},
                      ensure_ascii=True, separators=(",", ":")).encode("ascii")


def setup_position(game: str, size: int, cells: list[tuple[str, int] | None], to_move: str,
                   options: dict[str, Any]) -> bytes:
    """``POST /api/analysis/setup``'s answer: the board editor's pieces as a
    position (``position``: its text) drawn as :func:`position_view` draws
    one, or 400 ``bad_position`` saying what makes it impossible."""
    try:
        cls = boardlab.game_class(game)
    except OptionError as exc:
        raise ApiError(400, "unknown_game", str(exc)) from None
    if len(cells) != size * size:
        raise ApiError(400, "bad_position", f"cells: {size * size} for a {size}x{size} "
                       f"board, got {len(cells)}")
    known = set(plugin.pieces(cls))
    tokens = []
    for i, c in enumerate(cells):
        if c is not None and c[0] not in known:
            raise ApiError(400, "bad_position", f"cells[{i}]: {c[0]!r} is not a {cls.name} "
                           f"piece ({', '.join(sorted(known))})")
        tokens.append(None if c is None else c[0] + (f"({c[1]})" if c[1] > 1 else ""))
    if to_move not in cls.colors:
        raise ApiError(400, "bad_position", f"to_move: {' or '.join(cls.colors)}")
    implied = plugin.hook(cls, "setup_fields")
    given = {**(implied(cls, to_move) if implied else {}),
             **{k: format_option(v) for k, v in options.items()}}
    fields = " ".join(f"{k}={v}" for k, v in given.items())
    text = f"{cls.name} {size} {grid.format_board(tokens, size)} {to_move} {fields}"
    try:
        position = boardlab.from_position(text.strip()).position()
    except (PositionError, OptionError) as exc:
        raise ApiError(400, "bad_position", str(exc)) from None
    return position_view(Request(cls.name, size, {}, position, (), 0.0), 0)


def check_analysis(req: Request, kind: str, settings: Settings) -> None:
    """Refuse (4xx) an analysis of a position that cannot be analysed, or of
    a game over its budget; ``req.seconds`` is already within its cap."""
    game, _ = replay_position(req, settings.analysis_max_moves)
    if kind == "game":
        positions = len(req.moves) + (0 if game.is_over else 1)
        if positions * req.seconds > settings.analysis_game_budget:
            raise ApiError(400, "bad_budget", f"{positions} positions x {req.seconds:g} s is "
                           f"over the {settings.analysis_game_budget:g} s a game analysis "
                           "may take")
    elif game.is_over:
        raise ApiError(409, "game_over", "the game is over at this position: nothing to "
                       "analyse")


def budget(seconds: float | None, kind: str, settings: Settings) -> float:
    """An analysis's seconds (per position for a game): the default, or the
    asked-for within the cap (400 ``bad_budget``). Cheap: the event loop's."""
    whole = kind == "game"
    default, cap = ((settings.analysis_game_seconds, settings.analysis_game_max_seconds)
                    if whole else (settings.analysis_seconds, settings.analysis_max_seconds))
    seconds = default if seconds is None else seconds
    if not math.isfinite(seconds) or seconds <= 0:
        raise ApiError(400, "bad_budget", f"seconds must be positive, got {seconds!r}")
    if seconds > cap:
        raise ApiError(400, "bad_budget", f"seconds: at most {cap:g} "
                       f"{'per position' if whole else ''}, got {seconds:g}".replace("  ", " "))
    return float(seconds)


def warm_up() -> None:
    """Import what the first call would (a work worker's start)."""
    boardlab.new_game(boardlab.GAMES[0])
