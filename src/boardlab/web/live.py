"""A game the server holds in memory (:class:`Live`) and how one is rebuilt
from the store: a stored game is its creation parameters plus its moves, so
replaying them through the library gives back the game exactly.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import boardlab

from . import online
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

    def quiet(self) -> bool:
        """Nothing refers to this live game but the hub: it can be dropped and
        rebuilt from the store later (no one following it, no change under
        way, no engine or clock running)."""
        return (self.holds == 0 and not self.lock.locked()
                and (self.task is None or self.task.done())
                and (self.clock_task is None or self.clock_task.done()))


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
