"""Routes: looking back at a game with others — its read-only share link and
its whole-game analysis kept with it (``web/review.py``).

A share link (``/#/watch/<id>/<token>``) lets anyone who has it read the
game, its positions, its record and its analysis, and nothing else: the
token is a spectator's (``access.identify``), never a seat's or the owner's.
The stored analysis is bounded (``Settings.max_analysis_bytes``), and
checking and drawing it grow with it: the work pool's.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from .. import access, online, review, work
from ..hub import Hub
from ..schemas import ERRORS, ApiError
from . import HubDep, SeatToken, client_of

router = APIRouter()


@router.post("/api/games/{gid}/share", responses=ERRORS,
             summary="A read-only link to the game (and its analysis) to share")
async def share(gid: str, x_seat_token: str | None = SeatToken,
                hub: Hub = HubDep) -> dict[str, str]:
    """Anyone who may read the game gets its one share link (made on the
    first request, the same one afterwards)."""
    live = hub.get(gid, x_seat_token)
    access.identify(live, x_seat_token)
    async with live.lock:
        token = live.row.meta.get("share_token")
        if token is None:
            token = online.new_token()
            hub.store.change_meta(live.row, share_token=token)
    return {"token": token, "link": f"/#/watch/{gid}/{token}"}


@router.get("/api/games/{gid}/analysis", responses=ERRORS,
            summary="The game's whole-game analysis kept with it (404 no_analysis if none)")
async def get_analysis(request: Request, gid: str, x_seat_token: str | None = SeatToken,
                       hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    access.identify(live, x_seat_token)
    data = hub.store.load_analysis(gid) if live.row.meta.get("analysis") else None
    shown = None if data is None else await hub.offload(
        client_of(request), work.show_analysis, data, work.GameSpec.of(live.row))
    if shown is None:
        raise ApiError(404, "no_analysis", "this game has not been analysed as a whole yet")
    return shown


@router.put("/api/games/{gid}/analysis", responses=ERRORS,
            summary="Keep a whole-game analysis with the game (the analysis socket's "
                    "result); its record downloads with the evaluations and judgements")
async def put_analysis(request: Request, gid: str, body: review.GameAnalysisIn,
                       x_seat_token: str | None = SeatToken,
                       hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    access.need_seat(live, x_seat_token)
    async with live.lock:  # checked against the moves it is stored for
        data, shown = await hub.offload(client_of(request), work.keep_analysis, body,
                                        work.GameSpec.of(live.row),
                                        hub.settings.max_analysis_bytes)
        hub.store.save_analysis(live.row, data, review.summary(data))
        hub.bump(live)
    return shown
