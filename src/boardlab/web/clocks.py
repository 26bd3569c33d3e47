"""Clocks of games by link: the seat whose clock runs, what each has left, the
flag that falls on time (a task per game, woken by every change).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from .db import Store
from .live import Live


class Clocks:
    """The clocks of the live games. ``store`` keeps a flag fall; ``changed``
    tells the game's followers (the hub's ``bump``)."""

    def __init__(self, store: Store, changed: Callable[[Live], None]) -> None:
        self.store = store
        self.changed = changed

    @staticmethod
    def deadline(live: Live) -> tuple[int, float] | None:
        """The seat whose clock runs and the wall time its flag falls, if one runs."""
        c = live.row.meta.get("clock")
        if not c or c.get("started") is None or live.is_over():
            return None
        seat = live.to_move_seat()
        if seat is None:
            return None
        remaining = c["remaining"]
        budget = c["seconds"] if c["kind"] == "move" or remaining is None else remaining[seat]
        return seat, c["started"] + budget  # type: ignore[operator]  # started is set

    def view(self, live: Live) -> dict[str, Any] | None:
        c = live.row.meta.get("clock")
        if not c:
            return None
        d = self.deadline(live)
        now = time.time()
        if c["kind"] == "move" or c["remaining"] is None:
            remaining = [float(c["seconds"])] * len(live.row.seats)
        else:
            remaining = [float(r) for r in c["remaining"]]
        if d is not None:
            remaining[d[0]] = max(0.0, d[1] - now)
        flagged = (live.row.result or {}).get("flagged")
        if flagged in live.game.colors:  # its time ran out: 0, not what it had at its last move
            remaining[live.seat_of(flagged)] = 0.0
        return {"kind": c["kind"], "seconds": c["seconds"], "increment": c["increment"],
                "remaining": remaining, "running": None if d is None else d[0]}

    def check_flag(self, live: Live) -> bool:
        """End the game if the clock of the seat to move has run out."""
        d = self.deadline(live)
        if d is None or time.time() < d[1]:
            return False
        colors = live.game.colors
        loser = live.color_of(d[0])
        result = {"winner": colors[1 - colors.index(loser)], "termination": "timeout",
                  "flagged": loser, "scores": None}
        self.store.set_result(live.row.id, result, "over")
        live.row.result = result
        if "undo_request" in live.row.meta:
            self.store.change_meta(live.row, undo_request=None)
        self.changed(live)
        return True

    def ensure(self, live: Live) -> None:
        """Online games with a clock: a task that makes the flag fall on time."""
        if not live.row.meta.get("clock") or live.is_over():
            return
        if live.clock_task is None or live.clock_task.done():
            live.clock_task = asyncio.get_running_loop().create_task(self._run(live))

    async def _run(self, live: Live) -> None:
        while not live.is_over():
            event = live.changed
            d = self.deadline(live)
            if d is not None and time.time() >= d[1]:
                self.check_flag(live)
                continue
            timeout = None if d is None else d[1] - time.time() + 0.005
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                pass

    def restart(self, live: Live) -> None:
        """After an undo the clock of the seat to move starts afresh (remaining kept)."""
        c = live.row.meta.get("clock")
        if c:
            self.store.change_meta(live.row, clock={**c, "started": time.time()
                                                    if live.row.moves else None})
