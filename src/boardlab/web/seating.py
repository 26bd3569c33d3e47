"""Who sits where: the seats of a game by color (a pie swap flips them), who
may act (seat tokens of games by link, the owner token of the others), what an
undo takes back, and who is connected. A mixin of :class:`~boardlab.web.hub.Hub`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from . import online, view
from .live import Live
from .schemas import ApiError

if TYPE_CHECKING:
    from .db import Store


class Seats:
    """The hub's seat logic (reads only the live game and its row). The first
    of the hub's layers: ``Seats`` < ``Clocks`` < ``State`` < ``Hub``."""

    store: Store
    live: dict[str, Live]

    if TYPE_CHECKING:  # the hub's own (hub.py)
        def bump(self, live: Live) -> None: ...
        def set_meta(self, live: Live, **changes: Any) -> None: ...

    @staticmethod
    def swapped(live: Live) -> int:
        return live.row.moves.count("swap") % 2

    def seat_of(self, live: Live, color: str) -> int:
        return live.game.colors.index(color) ^ self.swapped(live)

    def color_of(self, live: Live, seat: int) -> str:
        return live.game.colors[seat ^ self.swapped(live)]

    def to_move_seat(self, live: Live) -> int | None:
        mover = live.game.to_move
        if self.is_over(live) or mover is None:
            return None
        return self.seat_of(live, mover)

    @staticmethod
    def is_over(live: Live) -> bool:
        return live.row.result is not None or live.game.is_over

    @staticmethod
    def vs_computer(live: Live) -> bool:
        return any(s["kind"] == "computer" for s in live.row.seats)

    def undo_count(self, live: Live) -> int | None:
        """How many moves an undo takes back now, or None if it cannot."""
        if live.row.result is not None or not live.row.moves:
            return None
        if not self.vs_computer(live):
            return 1
        game = live.game.copy()
        moves = list(live.row.moves)
        n = 0
        while moves:
            game.undo()
            moves.pop()
            n += 1
            swapped = moves.count("swap") % 2
            seat = game.colors.index(game.to_move) ^ swapped
            if live.row.seats[seat]["kind"] == "human" and not view.mid_turn(game, game.legal_moves()):
                return n
        return None

    # ------------------------------------------------------------ online seats
    @staticmethod
    def is_online(live: Live) -> bool:
        return bool(live.row.meta.get("online"))

    def not_found(self, gid: str) -> ApiError:
        """The one answer for an unknown id, a missing token and a wrong one,
        so a client without the link cannot tell which ids exist."""
        return ApiError(404, "not_found", f"no game {gid[:40]!r} (or not with that link)")

    def identify(self, live: Live, token: str | None) -> int | str | None:
        """Who holds ``token``: a seat index or "spectator" for a game by link;
        None for a game without seat tokens (its owner, when it has one, or
        anyone in a public game); "spectator" for any game's share link
        (read-only, :func:`online.matches_share`). A missing or wrong token
        is 404, as for an unknown id (:meth:`not_found`)."""
        meta = live.row.meta
        if online.matches_share(meta.get("share_token"), token):
            return "spectator"
        if not self.is_online(live):
            owner = meta.get("owner_hash")
            if owner is not None and not (token and len(token) <= online.MAX_TOKEN
                                          and online.matches(owner, token)):
                raise self.not_found(live.row.id)
            return None
        if not token or len(token) > online.MAX_TOKEN:
            raise self.not_found(live.row.id)
        found: int | str | None = None
        for i, seat in enumerate(live.row.seats):
            if online.matches(seat.get("token_hash"), token):
                found = i
        if found is None and online.matches(meta.get("spectator_hash"), token):
            found = "spectator"
        if found is None:
            raise self.not_found(live.row.id)
        return found

    def need_seat(self, live: Live, token: str | None) -> int | None:
        """The seat that may change an online game (None: not online)."""
        who = self.identify(live, token)
        if who == "spectator":
            raise ApiError(403, "spectator", "a spectator link can only watch")
        if isinstance(who, int):
            limit = live.limits.setdefault(who, online.RateLimit())
            if not limit.allow():
                raise ApiError(429, "rate_limited", "too many requests; slow down")
        return who  # type: ignore[return-value]

    def need_online_seat(self, live: Live, token: str | None, refusal: str) -> int:
        """:meth:`need_seat` for what only an online game has; ``refusal``
        is the 400 message for a game that is not online."""
        me = self.need_seat(live, token)
        if me is None:
            raise ApiError(400, "bad_request", refusal)
        return me

    def mover_seats(self, live: Live) -> list[int]:
        """The seat that made each move."""
        out, swaps = [], 0
        for color, move in zip(live.movers, live.row.moves, strict=True):
            out.append(live.game.colors.index(color) ^ swaps)
            if move == "swap":
                swaps ^= 1
        return out

    def online_undo_count(self, live: Live, seat: int) -> int | None:
        """Online: how many moves taking back ``seat``'s last turn removes."""
        if live.row.result is not None or not live.row.moves:
            return None
        seats = self.mover_seats(live)
        j = len(seats) - 1
        while j >= 0 and seats[j] != seat:
            j -= 1
        if j < 0:
            return None
        while j > 0 and seats[j - 1] == seat:
            j -= 1
        return len(seats) - j

    @staticmethod
    def connected(live: Live, seat: int) -> bool:
        """A seat is connected while it holds a WebSocket or has polled lately."""
        if live.sockets.get(seat):
            return True
        seen = live.polled.get(seat)
        return seen is not None and time.monotonic() - seen < online.POLL_PRESENCE

    @staticmethod
    def public_seats(seats: list[dict]) -> list[dict]:
        return [{k: v for k, v in s.items() if k not in ("token", "token_hash")} for s in seats]
