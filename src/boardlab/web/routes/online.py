"""Routes: what only a game by link has (undo requests answered by the other
seat, the friend's color pick in a game's pre-game, display names), and how such a game is
set up (:func:`online_game`: its seat tokens, links and clock).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

import boardlab

from .. import access, online
from ..db import GameMeta, Seat
from ..hub import Hub, Live
from ..schemas import ERRORS, AnswerIn, ApiError, ColorPickIn, GameState, NameIn, NewGame
from . import HubDep, SeatToken, client_of

router = APIRouter()


def online_game(spec: NewGame, cls: type[boardlab.Game], options: dict[str, Any],
                meta: GameMeta) -> tuple[list[Seat], Callable[[str, Hub, Live], dict]]:
    """The seats of a new game by link (each with its token's hash), its meta
    (the pre-game value the creator names, the clock), and how to answer its creation:
    the state plus the three links, which are never stored."""
    if spec.engine != "random":
        raise ApiError(400, "bad_option", "an online game has no engine")
    colors = cls.colors
    tokens = [online.new_token(), online.new_token()]
    spectator = online.new_token()
    neg = spec.pregame
    pg = cls.pregame
    if neg is not None and pg is not None:
        if neg.namer != "human" or neg.value is None or neg.color is not None:
            raise ApiError(400, "bad_option", f"online, you name the {pg.option} "
                           "(pregame: {namer: human, value: N}) and your friend "
                           "picks a color")
        if spec.color != "random":
            raise ApiError(400, "bad_option", "with a pre-game your friend picks "
                           "the colors")
        options[pg.option] = neg.value
        meta["pregame"] = {"option": pg.option, "value": neg.value, "named_by": "creator",
                           "picked_by": "friend", "pending": True}
        mine = 0
    else:
        human = random.choice(colors) if spec.color == "random" else spec.color
        if human not in colors:
            raise ApiError(400, "bad_option", f"color must be {' or '.join(colors)} or "
                           f"random, got {human!r}")
        mine = colors.index(human)
    seats: list[Seat] = [{"kind": "human", "online": True,
                          "label": (online.clean_name(spec.name, f"Player {i + 1}") if i == mine
                                    else f"Player {i + 1}"),
                          "token_hash": online.token_hash(tokens[i])}
                         for i in range(len(colors))]
    meta.update({"online": True, "creator_seat": mine,
                 "spectator_hash": online.token_hash(spectator)})
    tc = spec.time_control
    if tc is not None:
        meta["clock"] = {"kind": tc.kind, "seconds": tc.seconds, "increment": tc.increment,
                         "remaining": [tc.seconds] * len(colors) if tc.kind == "total"
                         else None, "started": None}

    def answer(gid: str, hub: Hub, live: Live) -> dict[str, Any]:
        links = {"you": tokens[mine], "invite": tokens[1 - mine], "spectate": spectator}
        return {**hub.views.state(live, viewer=mine), "tokens": links,
                "links": {"you": f"/#/play/{gid}/{tokens[mine]}",
                          "invite": f"/#/play/{gid}/{tokens[1 - mine]}",
                          "spectate": f"/#/watch/{gid}/{spectator}"}}
    return seats, answer


@router.post("/api/games/{gid}/undo/answer", response_model=GameState, responses=ERRORS,
            summary="Online: accept or decline the other player's undo request")
async def answer_undo(gid: str, body: AnswerIn, x_seat_token: str | None = SeatToken,
                      hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    me = access.need_online_seat(live, x_seat_token,
                                 "only an online game has undo requests")
    async with live.lock:
        req = live.row.meta.get("undo_request")
        if req is None:
            raise ApiError(409, "no_request", "there is no undo request to answer")
        if req["by"] == me:
            raise ApiError(409, "not_your_turn", "your friend answers your undo request")
        n = live.online_undo_count(req["by"])
        if req["ply"] != len(live.row.moves) or n is None or live.is_over():
            hub.store.change_meta(live.row, undo_request=None)
            hub.bump(live)
            raise ApiError(409, "stale", "the game has changed since the request")
        if body.accept:  # first: if its write fails, the request stays unanswered
            hub.take_back(live, n)
            hub.clocks.restart(live)
        # "at": the ply after the answer, so the asker is told while the game
        # stands there (a move after it makes the answer old news)
        hub.store.change_meta(live.row, undo_request=None,
                              undo_answer={"by": me, "accepted": body.accept, "ply": req["ply"],
                                           "at": len(live.row.moves)})
        hub.bump(live)
        return hub.views.state(live, viewer=me)


@router.post("/api/games/{gid}/rematch", response_model=GameState, responses=ERRORS,
             summary="Online: a new game with the same settings and the colors exchanged "
                     "(your friend is offered it; each keeps their link's token)")
async def rematch(request: Request, gid: str, x_seat_token: str | None = SeatToken,
                  hub: Hub = HubDep) -> dict[str, Any]:
    """The finished game's rematch, made by the first seat that asks (a
    new game, counted as that client's: its creation rate and stored games)
    and the same one for the other seat afterwards."""
    live = hub.get(gid, x_seat_token)
    me = access.need_online_seat(live, x_seat_token, "only a game by link has rematches "
                                 "(start another game with Play again)")
    async with live.lock:
        if not live.is_over():
            raise ApiError(409, "not_over", "the game is still on: a rematch comes after it")
        done = live.row.meta.get("rematch")
        if done is None:
            client = client_of(request)
            hub.admission.allow_creation(client)
            hub.admission.make_room(client)
            row = live.row
            # the seats change colors, each with its player's token, name and spectators
            seats: list[Seat] = [s.copy() for s in reversed(row.seats)]
            meta: GameMeta = {"online": True, "creator_seat": 1 - me, "client": client}
            if "spectator_hash" in row.meta:
                meta["spectator_hash"] = row.meta["spectator_hash"]
            if "pregame" in row.meta:  # the value stands; no color to pick again
                meta["pregame"] = {**row.meta["pregame"], "pending": False}
            clock = row.meta.get("clock")
            if clock:
                meta["clock"] = {**clock, "started": None,
                                 "remaining": None if clock["kind"] == "move"
                                 else [clock["seconds"]] * len(seats)}
            new = hub.store.create(row.game, row.size, dict(row.options), seats, meta)
            done = {"id": new.id, "by": me}
            hub.store.change_meta(live.row, rematch=done)
            hub.bump(live)
    new_live = hub.get(done["id"], x_seat_token)
    return hub.views.state(new_live, viewer=access.identify(new_live, x_seat_token))


@router.post("/api/games/{gid}/color", response_model=GameState, responses=ERRORS,
            summary="Online, a game's pre-game (yugo's komi): the friend picks a color after "
                    "the creator named the value")
async def pick_color(gid: str, body: ColorPickIn, x_seat_token: str | None = SeatToken,
                      hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    me = access.need_online_seat(live, x_seat_token,
                                 "only an online game settles a pre-game this way")
    async with live.lock:
        deal = live.row.meta.get("pregame") or {}
        if live.is_over():
            raise ApiError(409, "game_over", "the game is over: there is no color to pick")
        if not deal.get("pending"):
            raise ApiError(409, "pregame_settled", "there is no color to pick")
        creator = live.row.meta.get("creator_seat", 0)
        if me == creator:
            raise ApiError(409, "not_your_turn", f"you named the {deal.get('option')}; your "
                           "friend picks")
        colors = live.game.colors
        if body.color not in colors:
            raise ApiError(400, "bad_option", f"pick a color: {' or '.join(colors)}")
        seats = list(live.row.seats)
        if colors.index(body.color) != me:
            seats.reverse()
            creator = 1 - creator
            me = 1 - me
            # what is kept per seat follows its player (open sockets, polls, rate limits)
            for per_seat in (live.sockets, live.polled, live.limits):
                swapped = {1 - k: v for k, v in per_seat.items()}
                per_seat.clear()
                per_seat.update(swapped)  # type: ignore[arg-type]  # each keeps its value type
        meta: GameMeta = {**live.row.meta, "creator_seat": creator,
                          "pregame": {**deal, "pending": False, "friend_color": body.color}}
        hub.store.update(gid, seats=seats, meta=meta)
        live.row.seats, live.row.meta = seats, meta
        hub.bump(live)
        return hub.views.state(live, viewer=me)


@router.post("/api/games/{gid}/name", response_model=GameState, responses=ERRORS,
            summary="Online: set your display name")
async def set_name(gid: str, body: NameIn, x_seat_token: str | None = SeatToken,
                      hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    me = access.need_online_seat(live, x_seat_token,
                                 "only an online game has display names")
    async with live.lock:
        seats = [Seat(**s) for s in live.row.seats]
        seats[me]["label"] = online.clean_name(body.name, f"Player {me + 1}")
        hub.store.update(gid, seats=seats)
        live.row.seats = seats
        hub.bump(live)
        return hub.views.state(live, viewer=me)
