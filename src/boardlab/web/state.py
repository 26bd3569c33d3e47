"""What a client is shown: a game's state (the board, whose turn, the seats
and, for a game by link, the viewer's own view) and the saved-games list's
summary of each game, with who won and how. A mixin of
:class:`~boardlab.web.hub.Hub`.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from . import view
from .clocks import Clocks
from .db import GameRow
from .live import Live, reason, replay

#: finished games whose result the saved-games list remembers (see State.summary)
OUTCOMES_REMEMBERED = 1024


#: what a game's meta holds that no answer shows: the hashes of its tokens
SECRET_META = ("spectator_hash", "owner_hash", "share_token")


def public_meta(meta: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in meta.items() if k not in SECRET_META}


class State(Clocks):
    """The hub's views of a game."""

    _outcomes: OrderedDict[tuple, dict[str, Any]]

    def state(self, live: Live, ply: int | None = None,
              viewer: int | str | None = None) -> dict[str, Any]:
        row = live.row
        n = len(row.moves)
        if ply is None or ply >= n:
            view_ply = n
            game = live.game
        else:
            view_ply = max(0, ply)
            game = live.game.copy()
            for _ in range(n - view_ply):
                game.undo()
        v = view.game_view(game)
        over = self.is_over(live)
        seat = self.to_move_seat(live)
        your_turn = (not over and seat is not None and row.seats[seat]["kind"] == "human")
        is_online = self.is_online(live)
        komi_pending = bool(is_online and (row.meta.get("komi") or {}).get("pending"))
        read_only = viewer == "spectator"  # a spectator or share link: it may only look
        if is_online:
            your_turn = your_turn and seat == viewer and not komi_pending
        your_turn = your_turn and not read_only
        if view_ply != n or not your_turn:
            v["legal"] = []
        result = row.result if row.result is not None else (
            None if live.game.outcome is None else view.game_view(live.game)["outcome"])
        seats = []
        for i, s in enumerate(row.seats):
            seats.append({**self.public_seats([s])[0], "color": self.color_of(live, i)})
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
            "result_text": result_text(result, row, live, self),
            "thinking": live.task is not None and not live.task.done(),
            "engine_error": live.engine_error,
            "can_undo": not read_only and self.undo_count(live) is not None,
            "read_only": read_only,
            "swapped": bool(self.swapped(live)),
            "online": is_online,
            **({"you": ({"seat": viewer, "color": self.color_of(live, viewer)}
                        if isinstance(viewer, int) else viewer),
                "undo_request": row.meta.get("undo_request"),
                "komi_pending": komi_pending,
                "connected": [self.connected(live, i) for i in range(len(row.seats))],
                "clock": self.clock_view(live),
                "can_undo": (isinstance(viewer, int) and not over
                             and self.online_undo_count(live, viewer) is not None)}
               if is_online else {}),
        }

    def summary(self, row: GameRow, n_moves: int) -> dict[str, Any]:
        """A saved game as the list shows it: who won and how, also for a game
        the rules decided (whose result is not stored: it is the replay's). A
        game that cannot be replayed is listed with the reason, never failing
        the list."""
        out = {"id": row.id, "game": row.game, "size": row.size, "options": row.options,
               "seats": self.public_seats(row.seats), "moves": n_moves, "status": row.status,
               "result": row.result, "result_text": None, "problem": None,
               "meta": public_meta(row.meta),
               "created": row.created, "updated": row.updated}
        if row.status != "over" and row.result is None:
            return out
        key = (row.id, row.updated, n_moves)
        found = self._outcomes.get(key)
        if found is None:
            found = self._outcome_of(row.id)
            self._outcomes[key] = found
            while len(self._outcomes) > OUTCOMES_REMEMBERED:
                self._outcomes.popitem(last=False)
        out.update(found)
        return out

    def _outcome_of(self, gid: str) -> dict[str, Any]:
        live = self.live.get(gid)
        try:
            if live is None or live.game is None:
                row = self.store.load(gid)
                if row is None:
                    return {"problem": "deleted"}
                live = Live(row=row, game=replay(row))
            state_result = live.row.result if live.row.result is not None else (
                None if live.game.outcome is None else view.game_view(live.game)["outcome"])
            return {"result": state_result,
                    "result_text": result_text(state_result, live.row, live, self)}
        except Exception as exc:  # noqa: BLE001 - one bad game must not fail the list
            return {"problem": f"cannot be replayed: {reason(exc)}"}

def result_text(result, row: GameRow, live: Live, hub: Any) -> str | None:
    """"White (Player 2) wins by score — black 0.5, white 3" (None: not over)."""
    if result is None:
        return None
    term = result["termination"]
    if result["winner"] == "draw":
        text = f"Draw by {term}"
    else:
        winner = result["winner"]
        seat = hub.seat_of(live, winner)
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
