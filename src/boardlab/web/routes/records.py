"""Routes: a game's record to download, and a record loaded as a stored game."""

from __future__ import annotations

import time
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse

import boardlab
from boardlab import records

from .. import recordio, review
from ..hub import Hub, Live
from ..schemas import ERRORS, ApiError, GameState, RecordIn, VariationsIn
from . import HubDep, SeatToken, client_of

router = APIRouter()


def _players(hub: Hub, live: Live) -> dict[str, str]:
    return {hub.color_of(live, i): s.get("name") or s.get("label") or "?"
            for i, s in enumerate(live.row.seats)}


@router.get("/api/games/{gid}/record", responses=ERRORS,
            summary="Download the game record (format=text or json)")
async def record(gid: str, format: Literal["text", "json"] = "text",
                 x_seat_token: str | None = SeatToken,
                 hub: Hub = HubDep) -> Response:
    live = hub.get(gid, x_seat_token)
    hub.identify(live, x_seat_token)
    result = live.row.result or {}
    resigned = result.get("resigned")
    timeout = None
    if result.get("termination") == "timeout":
        resigned, timeout = None, result.get("flagged") or result.get("resigned")
    date = time.strftime("%Y.%m.%d", time.localtime(live.row.created))
    variations = live.row.meta.get("variations")
    stored = hub.store.load_analysis(gid) if live.row.meta.get("analysis") else None
    analysis = stored and review.cut(stored, live.row.moves, list(live.game.colors))
    try:
        if format == "json":
            body = recordio.to_json(live.game, _players(hub, live), resigned, date, timeout,
                                    variations, analysis)
        else:
            body = recordio.to_text(live.game, _players(hub, live), resigned, date, timeout,
                                    variations, analysis)
    except boardlab.BoardlabError as exc:
        raise ApiError(409, "bad_record", str(exc)) from None
    ext, media = ("json", "application/json") if format == "json" else ("txt", "text/plain")
    filename = f"{live.row.game}-{live.row.id}.{ext}"
    return PlainTextResponse(body, media_type=f"{media}; charset=utf-8",
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.post("/api/records", status_code=201, response_model=GameState, responses=ERRORS,
             summary="Load a record (text or JSON) as a stored game to review (or play on, "
                     "hot-seat)")
async def load_record(body: RecordIn, request: Request,
                      hub: Hub = HubDep) -> dict[str, Any]:
    hub.allow_creation(client_of(request))
    try:
        imp = recordio.parse(body.text)
    except (recordio.RecordProblem, boardlab.BoardlabError) as exc:
        raise ApiError(400, "bad_record", str(exc)) from None
    players = imp.players or {}
    game_cls = boardlab.game_class(imp.game)
    # players name colors after any swap; seats are by starting color
    swapped = imp.moves.count("swap") % 2
    seats = []
    for i in range(len(game_cls.colors)):
        now = game_cls.colors[i ^ swapped]
        name = players.get(now) or "?"
        # whoever plays on now is a person at this screen; the record's name stays for downloads
        seats.append({"kind": "human", "label": f"Player {i + 1}",
                      **({"name": name} if name != "?" else {})})
    meta: dict[str, Any] = {"source": "record"}
    if imp.start:
        meta["start"] = imp.start
    if imp.variations:
        meta["variations"] = imp.variations
    owner = hub.new_owner(meta)
    status = "over" if imp.result else "playing"
    hub.make_room()
    row = hub.store.create(imp.game, imp.size, imp.options, seats, meta, imp.moves,
                           imp.result, status)
    live = hub.get(row.id)
    if live.game.is_over:
        hub.store.set_result(row.id, imp.result, "over")
    if imp.analysis is not None:  # the record's evaluations: its analysis, kept
        meta = {**live.row.meta, "analysis": review.summary(imp.analysis)}
        hub.store.save_analysis(row.id, imp.analysis, meta)
        live.row.meta = meta
    return hub.owned_answer(live, owner, ply=0)


@router.put("/api/games/{gid}/variations", response_model=GameState, responses=ERRORS,
            summary="Keep variations with a game (the analysis mode's branches); its record "
                    "downloads with them")
async def set_variations(gid: str, body: VariationsIn, x_seat_token: str | None = SeatToken,
                         hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    me = hub.need_seat(live, x_seat_token)
    try:
        nodes = recordio.variation_nodes(body.variations)
        records.Record.from_game(live.game, _players(hub, live), variations=nodes)
    except (recordio.RecordProblem, boardlab.BoardlabError) as exc:
        raise ApiError(400, "bad_variation", str(exc)) from None
    hub.set_meta(live, variations=recordio.variations_json(nodes) or None)
    hub.bump(live)
    return hub.state(live, viewer=me)
