"""What a client is shown: a game's state (the board, whose turn, the seats
and, for a game by link, the viewer's own view) and the saved-games list's
summary of each game, with who won and how.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from . import view
from .access import public_seats
from .clocks import Clocks
from .db import SECRET_META, GameMeta, GameRow, Store
from .live import Live, reason, replay

#: finished games whose result the saved-games list remembers (see Views.summary)
OUTCOMES_REMEMBERED = 1024


def public_meta(meta: GameMeta) -> dict[str, Any]:
    return {k: v for k, v in meta.items() if k not in SECRET_META}


class Views:
    """The answers' views of games. ``live`` is the hub's registry of live
    games (a finished game in memory is not replayed again for the list)."""

    def __init__(self, store: Store, live: dict[str, Live], clocks: Clocks) -> None:
        self.store = store
        self.live = live
        self.clocks = clocks
        #: (id, updated, moves) -> the list's result fields of a finished game
        self._outcomes: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
        #: positions drawn (``view.game_view``), for the probes and tests
        self.drawn = 0

    def state(self, live: Live, ply: int | None = None, viewer: int | str | None = None,
              board: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game as ``viewer`` sees it after ``ply`` moves (None: now);
        ``board``: that earlier position as drawn already (``work.board_at``)."""
        row = live.row
        n = len(row.moves)
        view_ply = n if ply is None or ply >= n else max(0, ply)
        v = dict(board if board is not None and view_ply != n else self.board(live, view_ply))
        over = live.is_over()
        seat = live.to_move_seat()
        your_turn = (not over and seat is not None and row.seats[seat]["kind"] == "human")
        is_online = live.is_online()
        pregame_pending = bool(is_online and (row.meta.get("pregame") or {}).get("pending"))
        read_only = viewer == "spectator"  # a spectator or share link: it may only look
        if is_online:
            your_turn = your_turn and seat == viewer and not pregame_pending
        your_turn = your_turn and not read_only
        if view_ply != n or not your_turn:
            v["legal"] = []
        result = row.result if row.result is not None else (
            None if live.game.outcome is None else self.board(live, n)["outcome"])
        seats = []
        for i, s in enumerate(row.seats):
            seats.append({**public_seats([s])[0], "color": live.color_of(i)})
        return {
            "id": row.id, "game": row.game, "size": row.size, "options": row.options,
            "colors": list(live.game.colors), **view.board_facts(row.game),
            "meta": public_meta(row.meta), "created": row.created, "updated": row.updated,
            "version": live.version, "seats": seats,
            "ply": n, "view_ply": view_ply, "viewing": view_ply != n,
            "moves": list(row.moves),
            "movers": list(live.movers),
            **v,
            "to_move": None if over else live.game.to_move if view_ply == n else v["to_move"],
            "to_move_seat": seat,
            "your_turn": your_turn,
            "over": over,
            "result": result,
            "result_text": result_text(result, row, live),
            "thinking": live.task is not None and not live.task.done(),
            "engine_error": live.engine_error,
            "can_undo": not read_only and live.undo_count() is not None,
            "read_only": read_only,
            "swapped": bool(live.swapped()),
            "online": is_online,
            **({"you": ({"seat": viewer, "color": live.color_of(viewer)}
                        if isinstance(viewer, int) else viewer),
                "undo_request": row.meta.get("undo_request"),
                "pregame_pending": pregame_pending,
                "connected": [live.connected(i) for i in range(len(row.seats))],
                "clock": self.clocks.view(live),
                "can_undo": (isinstance(viewer, int) and not over
                             and live.online_undo_count(viewer) is not None)}
               if is_online else {}),
        }

    def board(self, live: Live, ply: int) -> dict[str, Any]:
        """``view.game_view`` of the game after ``ply`` moves; the current
        position's is computed once per change of the game and shared by
        every answer (the state sent to each of 100 spectators of a vimbre
        19x19 game computed its 64,333 legal moves anew: 7 s a move). Do not
        change what it returns."""
        n = len(live.row.moves)
        if ply == n and live.board is not None and live.board[0] == live.board_version:
            return live.board[1]
        game = live.game
        if ply != n:
            game = game.copy()
            for _ in range(n - ply):
                game.undo()
        drawn = view.game_view(game)
        self.drawn += 1
        if ply == n:
            live.board = (live.board_version, drawn)
        return drawn

    async def summaries(self, rows: list[tuple[GameRow, int]], client: str,
                        offload: Callable[..., Awaitable[Any]]) -> list[dict[str, Any]]:
        """Saved games as the list shows them: who won and how, also for a
        game the rules decided (whose result is not stored: it is the
        replay's). The replays the list needs are done in the work pool
        (``offload``), all at once: 200 long games are seconds of work. A
        game that cannot be replayed is listed with the reason, never failing
        the list."""
        out, todo = [], []
        for row, n_moves in rows:
            item = {"id": row.id, "game": row.game, "size": row.size, "options": row.options,
                    "seats": public_seats(row.seats), "moves": n_moves, "status": row.status,
                    "result": row.result, "result_text": None, "problem": None,
                    "meta": public_meta(row.meta),
                    "created": row.created, "updated": row.updated}
            out.append(item)
            if row.status != "over" and row.result is None:
                continue
            key = (row.id, row.updated, n_moves)
            found = self._outcomes.get(key)
            if found is None:
                live = self.live.get(row.id)
                if live is not None and live.game is not None:
                    found = self._remember(key, _outcome(live))
            if found is None:
                todo.append((key, item))
            else:
                item.update(found)
        if todo:
            loaded = [(key, item, self.store.load(key[0])) for key, item in todo]
            stored = [full for _, _, full in loaded if full is not None]
            results = iter(await offload(client, _outcomes, stored) if stored else ())
            for key, item, full in loaded:
                item.update(self._remember(key, next(results) if full is not None
                                           else {"problem": "deleted"}))
        return out

    def _remember(self, key: tuple, found: dict[str, Any]) -> dict[str, Any]:
        self._outcomes[key] = found
        while len(self._outcomes) > OUTCOMES_REMEMBERED:
            self._outcomes.popitem(last=False)
        return found


def _outcome(live: Live) -> dict[str, Any]:
    result = live.row.result if live.row.result is not None else (
        None if live.game.outcome is None else view.game_view(live.game)["outcome"])
    return {"result": result, "result_text": result_text(result, live.row, live)}


def _outcomes(rows: list[GameRow]) -> list[dict[str, Any]]:
    """The list's result fields of stored finished games, one per row (the
    work pool's: each is a replay)."""
    out = []
    for row in rows:
        try:
            out.append(_outcome(Live(row=row, game=replay(row))))
        except Exception as exc:  # noqa: BLE001 - one bad game must not fail the list
            out.append({"problem": f"cannot be replayed: {reason(exc)}"})
    return out


def result_text(result, row: GameRow, live: Live) -> str | None:
    """"White (Player 2) wins by score — black 0.5, white 3" (None: not over)."""
    if result is None:
        return None
    term = result["termination"]
    if result["winner"] == "draw":
        text = f"Draw by {term}"
    else:
        winner = result["winner"]
        seat = live.seat_of(winner)
        who = row.seats[seat].get("label") or winner
        if term == "resignation":
            text = f"{winner.capitalize()} ({who}) wins: {result.get('resigned', 'the other side')} resigned"
        elif term == "timeout" and result.get("flagged"):
            text = f"{winner.capitalize()} ({who}) wins on time: {result['flagged']} ran out of time"
        else:
            text = f"{winner.capitalize()} ({who}) wins by {term}"
    scores = result.get("scores")
    if scores:
        text += " — " + ", ".join(f"{c} {_num(v)}" for c, v in scores.items())
    return text


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
