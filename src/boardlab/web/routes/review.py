"""Routes: looking back at a game with others — its read-only share link and
its whole-game analysis kept with it (``web/review.py``).

A share link (``/#/watch/<id>/<token>``) lets anyone who has it read the
game, its positions, its record and its analysis, and nothing else: the
token is a spectator's (``Seats.identify``), never a seat's or the owner's.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .. import online, review
from ..hub import Hub
from ..schemas import ERRORS, ApiError
from . import HubDep, SeatToken

router = APIRouter()


@router.post("/api/games/{gid}/share", responses=ERRORS,
             summary="A read-only link to the game (and its analysis) to share")
async def share(gid: str, x_seat_token: str | None = SeatToken,
                hub: Hub = HubDep) -> dict[str, str]:
    """Anyone who may read the game gets its one share link (made on the
    first request, the same one afterwards)."""
    live = hub.get(gid, x_seat_token)
    hub.identify(live, x_seat_token)
    async with live.lock:
        token = live.row.meta.get("share_token")
        if token is None:
            token = online.new_token()
            hub.set_meta(live, share_token=token)
    return {"token": token, "link": f"/#/watch/{gid}/{token}"}


@router.get("/api/games/{gid}/analysis", responses=ERRORS,
            summary="The game's whole-game analysis kept with it (404 no_analysis if none)")
async def get_analysis(gid: str, x_seat_token: str | None = SeatToken,
                       hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    hub.identify(live, x_seat_token)
    data = hub.store.load_analysis(gid)
    kept = None if data is None else review.cut(data, live.row.moves, list(live.game.colors))
    if kept is None:
        raise ApiError(404, "no_analysis", "this game has not been analysed as a whole yet")
    return review.shown(kept, live.row.size)


@router.put("/api/games/{gid}/analysis", responses=ERRORS,
            summary="Keep a whole-game analysis with the game (the analysis socket's "
                    "result); its record downloads with the evaluations and judgements")
async def put_analysis(gid: str, body: review.GameAnalysisIn,
                       x_seat_token: str | None = SeatToken,
                       hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    hub.need_seat(live, x_seat_token)
    async with live.lock:
        data = review.check(body, live.game, live.row.moves)
        meta = {**live.row.meta, "analysis": review.summary(data)}
        hub.store.save_analysis(gid, data, meta)
        live.row.meta = meta
        hub.bump(live)
    return review.shown(data, live.row.size)
