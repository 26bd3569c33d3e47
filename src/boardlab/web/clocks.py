"""Clocks of games by link: the seat whose clock runs, what each has left, the
flag that falls on time (a task per game, woken by every change). A mixin of
:class:`~boardlab.web.hub.Hub`; it writes through the hub's store.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .live import Live
from .seating import Seats


class Clocks(Seats):
    """The hub's clock logic."""

    def clock_deadline(self, live: Live) -> tuple[int, float] | None:
        """The seat whose clock runs and the wall time its flag falls, if one runs."""
        c = live.row.meta.get("clock")
        if not c or c.get("started") is None or self.is_over(live):
            return None
        seat = self.to_move_seat(live)
        if seat is None:
            return None
        budget = c["seconds"] if c["kind"] == "move" else c["remaining"][seat]
        return seat, c["started"] + budget

    def clock_view(self, live: Live) -> dict[str, Any] | None:
        c = live.row.meta.get("clock")
        if not c:
            return None
        d = self.clock_deadline(live)
        now = time.time()
        if c["kind"] == "move":
            remaining = [float(c["seconds"])] * len(live.row.seats)
        else:
            remaining = [float(r) for r in c["remaining"]]
        if d is not None:
            remaining[d[0]] = max(0.0, d[1] - now)
        flagged = (live.row.result or {}).get("flagged")
        if flagged in live.game.colors:  # its time ran out: 0, not what it had at its last move
            remaining[self.seat_of(live, flagged)] = 0.0
        return {"kind": c["kind"], "seconds": c["seconds"], "increment": c["increment"],
                "remaining": remaining, "running": None if d is None else d[0]}

    def check_flag(self, live: Live) -> bool:
        """End the game if the clock of the seat to move has run out."""
        d = self.clock_deadline(live)
        if d is None or time.time() < d[1]:
            return False
        colors = live.game.colors
        loser = self.color_of(live, d[0])
        result = {"winner": colors[1 - colors.index(loser)], "termination": "timeout",
                  "flagged": loser, "scores": None}
        self.store.set_result(live.row.id, result, "over")
        live.row.result = result
        if "undo_request" in live.row.meta:
            self.set_meta(live, undo_request=None)
        self.bump(live)
        return True

    def ensure_clock(self, live: Live) -> None:
        """Online games with a clock: a task that makes the flag fall on time."""
        if not live.row.meta.get("clock") or self.is_over(live):
            return
        if live.clock_task is None or live.clock_task.done():
            live.clock_task = asyncio.get_running_loop().create_task(self._clock_loop(live))

    async def _clock_loop(self, live: Live) -> None:
        while not self.is_over(live):
            event = live.changed
            d = self.clock_deadline(live)
            if d is not None and time.time() >= d[1]:
                self.check_flag(live)
                continue
            timeout = None if d is None else d[1] - time.time() + 0.005
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                pass

    def restart_clock(self, live: Live) -> None:
        """After an undo the clock of the seat to move starts afresh (remaining kept)."""
        c = live.row.meta.get("clock")
        if c:
            self.set_meta(live, clock={**c, "started": time.time() if live.row.moves else None})
