"""Routes: a game's record to download, and a record loaded as a stored game."""

from __future__ import annotations

import time
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse

import boardlab
from boardlab.core import pie

from .. import access, recordio, review, work
from ..db import GameMeta, Seat
from ..hub import Hub, Live
from ..schemas import ERRORS, GameState, RecordIn, VariationsIn
from . import HubDep, SeatToken, client_of

router = APIRouter()


def _players(live: Live) -> dict[str, str]:
    return {live.color_of(i): s.get("name") or s.get("label") or "?"
            for i, s in enumerate(live.row.seats)}


@router.get("/api/games/{gid}/record", responses=ERRORS,
            summary="Download the game record (format=text or json)")
async def record(request: Request, gid: str, format: Literal["text", "json"] = "text",
                 x_seat_token: str | None = SeatToken,
                 hub: Hub = HubDep) -> Response:
    live = hub.get(gid, x_seat_token)
    access.identify(live, x_seat_token)
    result = live.row.result or {}
    resigned = result.get("resigned")
    timeout = None
    if result.get("termination") == "timeout":
        resigned, timeout = None, result.get("flagged") or result.get("resigned")
    date = time.strftime("%Y.%m.%d", time.localtime(live.row.created))
    # the analysis kept with the game goes in as evaluations and judgements
    analysis = hub.store.load_analysis(gid) if live.row.meta.get("analysis") else None
    # rendering grows with the game's moves, variations and analysis: the work pool's
    body = await hub.offload(client_of(request), work.render_record, work.GameSpec.of(live.row),
                             _players(live), resigned, date, timeout,
                             live.row.meta.get("variations"), format, analysis)
    ext, media = ("json", "application/json") if format == "json" else ("txt", "text/plain")
    filename = f"{live.row.game}-{live.row.id}.{ext}"
    return PlainTextResponse(body, media_type=f"{media}; charset=utf-8",
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.post("/api/records", status_code=201, response_model=GameState, responses=ERRORS,
             summary="Load a record (text or JSON) as a stored game to review (or play on, "
                     "hot-seat)")
async def load_record(body: RecordIn, request: Request,
                      hub: Hub = HubDep) -> dict[str, Any]:
    client = client_of(request)
    hub.admission.allow_creation(client)
    s = hub.settings
    imp = await hub.offload(client, work.read_record, body.text,
                            recordio.Caps(s.max_record_moves, s.max_variation_moves, s.max_name,
                                          s.max_analysis_bytes))
    players = imp.players or {}
    game_cls = boardlab.game_class(imp.game)
    # players name colors after any swap; seats are by starting color
    swapped = pie.swapped(imp.moves)
    seats: list[Seat] = []
    for i in range(len(game_cls.colors)):
        now = pie.color_of(game_cls.colors, i, swapped)
        name = players.get(now) or "?"
        # whoever plays on now is a person at this screen; the record's name stays for downloads
        seats.append({"kind": "human", "label": f"Player {i + 1}",
                      **({"name": name} if name != "?" else {})})
    meta: GameMeta = {"source": "record", "client": client}
    if imp.start:
        meta["start"] = imp.start
    if imp.variations:
        meta["variations"] = imp.variations
    owner = hub.admission.new_owner(meta)
    status = "over" if imp.result else "playing"
    hub.admission.make_room(client)
    row = hub.store.create(imp.game, imp.size, imp.options, seats, meta, imp.moves,
                           imp.result, status)
    live = hub.get(row.id)
    if live.game.is_over:
        hub.store.set_result(row.id, imp.result, "over")
    if imp.analysis is not None:  # the record's evaluations: its analysis, kept
        hub.store.save_analysis(live.row, imp.analysis, review.summary(imp.analysis))
    return hub.owned_answer(live, owner, ply=0)


@router.put("/api/games/{gid}/variations", response_model=GameState, responses=ERRORS,
            summary="Keep variations with a game (the analysis mode's branches); its record "
                    "downloads with them")
async def set_variations(request: Request, gid: str, body: VariationsIn,
                         x_seat_token: str | None = SeatToken,
                         hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    me = access.need_seat(live, x_seat_token)
    kept = await hub.offload(client_of(request), work.check_variations,
                             work.GameSpec.of(live.row), _players(live), body.variations,
                             hub.settings.max_variation_moves)
    hub.store.change_meta(live.row, variations=kept or None)
    hub.bump(live)
    return hub.views.state(live, viewer=me)
