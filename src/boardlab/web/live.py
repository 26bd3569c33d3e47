"""A game the server holds in memory (:class:`Live`): its stored row, the
library game rebuilt by replaying the row's moves, what only memory holds
(the engine's task, open sockets, presence) and who sits where.

A stored game is its creation parameters plus its moves, so replaying them
through the library gives back the game exactly (:func:`replay`).

Who sits where: a game has two seats listed by starting color; a pie swap
flips which seat holds which color. Everything here reads only the live game
and its row, so it is a method of :class:`Live`.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import boardlab
from boardlab.core import pie

from . import online, view
from .db import GameRow


@dataclass
class Live:
    row: GameRow
    game: boardlab.Game
    version: str = ""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task | None = None
    engine_error: str | None = None
    #: the color that made each move (parallel to row.moves)
    movers: list[str] = field(default_factory=list)
    #: online play: every change to this game is made holding this lock
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: online play: open WebSockets per seat, and when each seat last polled
    sockets: dict[int, int] = field(default_factory=dict)
    polled: dict[int, float] = field(default_factory=dict)
    clock_task: asyncio.Task | None = None
    #: online play: a rate limit per seat for the HTTP actions
    limits: dict[int, online.RateLimit] = field(default_factory=dict)
    #: connections following this game right now (WebSockets, long-polls):
    #: they wait on ``changed``, so a held game is never evicted
    holds: int = 0
    #: the client the computer's moves are queued for (fair share: see pool);
    #: the creator, else the game itself (a game loaded after a restart)
    client: str = ""
    #: computer moves of this turn whose worker died; retried up to a bound
    engine_failures: int = 0
    #: counts the changes of ``game`` (moves, undos): the key of ``board``,
    #: the current position as drawn (``Views.board``)
    board_version: int = 0
    board: tuple[int, dict] | None = None
    _undo: tuple[int, int | None] | None = None

    def moved(self) -> None:
        """Say that ``game`` changed (a move played or taken back)."""
        self.board_version += 1
        self.board = None

    def quiet(self) -> bool:
        """Nothing refers to this live game but the hub: it can be dropped and
        rebuilt from the store later (no one following it, no change under
        way, no engine or clock running)."""
        return (self.holds == 0 and not self.lock.locked()
                and (self.task is None or self.task.done())
                and (self.clock_task is None or self.clock_task.done()))

    # ------------------------------------------------------------ seats
    def swapped(self) -> bool:
        """Whether the seats hold each other's starting colors (a pie swap):
        the library game's answer, replayed from the row's moves."""
        return self.game.colors_swapped

    def seat_of(self, color: str) -> int:
        return self.game.seat_of(color)

    def color_of(self, seat: int) -> str:
        return self.game.color_of(seat)

    def is_over(self) -> bool:
        return self.row.result is not None or self.game.is_over

    def to_move_seat(self) -> int | None:
        mover = self.game.to_move
        if self.is_over() or mover is None:
            return None
        return self.seat_of(mover)

    def vs_computer(self) -> bool:
        return any(s["kind"] == "computer" for s in self.row.seats)

    def is_online(self) -> bool:
        return bool(self.row.meta.get("online"))

    def undo_count(self) -> int | None:
        """How many moves an undo takes back now, or None if it cannot.
        Against the computer this walks back to a human's turn (each step
        asks for the legal moves: 70 ms on vimbre 19x19), so it is worked
        out once per change of the game, not for every answer."""
        if self.row.result is not None or not self.row.moves:
            return None
        if not self.vs_computer():
            return 1
        if self._undo is None or self._undo[0] != self.board_version:
            self._undo = (self.board_version, self._undo_steps())
        return self._undo[1]

    def _undo_steps(self) -> int | None:
        game = self.game.copy()
        n = 0
        while len(game):
            game.undo()
            n += 1
            mover = game.to_move
            assert mover is not None  # a game taken back is not over
            seat = game.seat_of(mover)
            if self.row.seats[seat]["kind"] == "human" and not view.mid_turn(game, game.legal_moves()):
                return n
        return None

    def mover_seats(self) -> list[int]:
        """The seat that made each move."""
        return pie.mover_seats(self.game.colors, self.movers, self.row.moves)

    def online_undo_count(self, seat: int) -> int | None:
        """Online: how many moves taking back ``seat``'s last turn removes."""
        if self.row.result is not None or not self.row.moves:
            return None
        seats = self.mover_seats()
        j = len(seats) - 1
        while j >= 0 and seats[j] != seat:
            j -= 1
        if j < 0:
            return None
        while j > 0 and seats[j - 1] == seat:
            j -= 1
        return len(seats) - j

    def connected(self, seat: int) -> bool:
        """A seat is connected while it holds a WebSocket or has polled lately."""
        if self.sockets.get(seat):
            return True
        seen = self.polled.get(seat)
        return seen is not None and time.monotonic() - seen < online.POLL_PRESENCE


def new_library_game(name: str, size: int, options: dict, start: str | None) -> boardlab.Game:
    if start:
        return boardlab.from_position(start)
    return boardlab.new_game(name, size, **options)


def replay(row: GameRow, upto: int | None = None) -> boardlab.Game:
    game = new_library_game(row.game, row.size, row.options, row.meta.get("start"))
    for move in row.moves[:upto]:
        game.play(move)
    return game


def reason(exc: Exception) -> str:
    """What a replay failure says to a client: the library's own reason, but
    not the text of an error that is no part of boardlab's (a Python message
    naming its settings), nor more than a line of it."""
    if isinstance(exc, boardlab.BoardlabError):
        text = str(exc)
        return text if len(text) <= 300 else text[:297] + "..."
    return f"the stored game makes the library fail ({type(exc).__name__})"
