"""Routes: the catalogue, and creating, reading, playing and deleting games.

Every game but one played by link has an owner token unless the server runs
``--public``: the creation answer carries it (``tokens.owner``), the page
keeps it in the creator's browser and sends it as ``X-Seat-Token``. A
request without it is answered exactly as one for an unknown id (404), so
ids cannot be probed.
"""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi import APIRouter, Query, Request, Response

import boardlab
from boardlab.errors import GameOverError, IllegalMoveError, OptionError

from .. import access, online, opponents, view, work
from ..db import GameMeta, Seat
from ..hub import Hub, Live, result_text
from ..schemas import ERRORS, ApiError, GameState, MoveIn, NewGame, ResignIn
from . import HubDep, SeatToken, client_of
from .online import online_game

router = APIRouter()


# ---------------------------------------------------------------- catalogue
@router.get("/api/kinds", summary="The five games: colors, sizes, options, board kind")
async def kinds() -> list[dict[str, Any]]:
    return [view.kind_info(name) for name in boardlab.GAMES]


@router.get("/api/engines", summary="The computer opponents on offer (boardlab.ai's registry)")
async def engine_list() -> list[dict[str, Any]]:
    return opponents.list_engines()


@router.get("/api/{game}/pregame", summary="The value the computer names in a game's "
            "pre-game (a game with one: yugo's komi)", responses=ERRORS)
async def computer_value(request: Request, game: str, size: int = Query(9, ge=4, le=19),
                         engine: str = Query("random"),
                         hub: Hub = HubDep) -> dict[str, Any]:
    if game not in boardlab.GAMES:
        raise ApiError(404, "unknown_game", f"unknown game {game!r}: one of {', '.join(boardlab.GAMES)}")
    pg = boardlab.game_class(game).pregame
    if pg is None:
        raise ApiError(400, "bad_option", f"{game} has no pre-game")
    if engine not in hub.engine_names():
        raise ApiError(400, "unknown_engine", f"unknown engine {engine!r}")
    value = await hub.pre_game_choice(client_of(request), opponents.value_for, engine, game, size)
    return {"option": pg.option, "value": value}


# ---------------------------------------------------------------- the list
@router.get("/api/games", summary="Saved games (yours: send X-Owner-Tokens), most recent first")
async def list_games(request: Request, hub: Hub = HubDep) -> list[dict[str, Any]]:
    # a game by link is reached by its link, not listed; a game with an owner
    # only for the browser that holds its token
    owned = online.owner_tokens(request.headers.get(online.OWNER_TOKENS_HEADER))
    hashes = [online.token_hash(t) for t in owned]
    return await hub.views.summaries(hub.store.list(online=False, owners=hashes),
                                     client_of(request), hub.offload)


# ---------------------------------------------------------------- creating
@router.post("/api/games", status_code=201, response_model=GameState, responses=ERRORS,
             summary="Start a game (against the computer, hot-seat or online)")
async def new_game(spec: NewGame, request: Request,
                   hub: Hub = HubDep) -> dict[str, Any]:
    client = client_of(request)
    hub.admission.allow_creation(client)
    if spec.time_control is not None and spec.opponent != "online":
        raise ApiError(400, "bad_option", "time controls are for online games")
    try:
        cls = boardlab.game_class(spec.game)
    except OptionError as exc:
        raise ApiError(400, "unknown_game", str(exc)) from None
    options = dict(spec.options)
    if "size" in options:
        raise ApiError(400, "bad_option", "size is a field of its own, not an option")
    neg = spec.pregame
    pg = cls.pregame
    if neg is not None and pg is None:
        raise ApiError(400, "bad_option", f"a pre-game is for a game with one; {cls.name} "
                       "has none")
    try:  # size and options first: nothing below (an engine's search) may run on bad ones
        cls(spec.size, **options)
        if pg is not None and neg is not None and neg.value is not None:
            cls(spec.size, **{**options, pg.option: neg.value})
    except OptionError as exc:
        raise ApiError(400, "bad_option", str(exc)) from None
    meta: GameMeta = {}
    seats: list[Seat]
    if spec.opponent == "online":
        seats, answer = online_game(spec, cls, options, meta)
    elif spec.opponent == "computer":
        seats = await _computer_seats(hub, client, spec, cls, options, meta)
    else:
        if pg is not None and neg is not None and neg.value is not None:
            options[pg.option] = neg.value
        seats = [{"kind": "human", "label": "Player 1"}, {"kind": "human", "label": "Player 2"}]
    try:
        game = cls(spec.size, **options)
    except OptionError as exc:
        raise ApiError(400, "bad_option", str(exc)) from None
    owner = None if spec.opponent == "online" else hub.admission.new_owner(meta)
    meta["client"] = client
    hub.admission.make_room(client)
    row = hub.store.create(cls.name, game.size, dict(game.options), seats, meta)
    live = hub.get(row.id)
    hub.ensure_engine(live)
    if spec.opponent == "online":
        return answer(row.id, hub, live)
    return hub.owned_answer(live, owner)


async def _computer_seats(hub: Hub, client: str, spec: NewGame, cls: type[boardlab.Game],
                          options: dict[str, Any], meta: GameMeta) -> list[Seat]:
    """The seats of a game against the computer (and, for a game's pre-game,
    the value and the colors it settles: the engine names or picks)."""
    colors = cls.colors
    if spec.engine not in hub.engine_names():
        raise ApiError(400, "unknown_engine", f"unknown engine {spec.engine!r} (engines: "
                       f"{', '.join(sorted(hub.engine_names()))})")
    human = spec.color
    neg = spec.pregame
    pg = cls.pregame
    if neg is not None and pg is not None:
        size_for = spec.size or cls.default_size
        if neg.namer == "human":
            if neg.value is None:
                raise ApiError(400, "bad_option", f"name the {pg.option} (pregame.value)")
            options[pg.option] = neg.value
            machine = await hub.pre_game_choice(client, opponents.color_for, spec.engine,
                                                cls.name, size_for, neg.value)
            human = colors[1 - colors.index(machine)]
            meta["pregame"] = {"option": pg.option, "value": neg.value, "named_by": "human",
                               "picked_by": "computer", "computer_color": machine}
        else:
            if neg.color not in colors:
                raise ApiError(400, "bad_option", f"pick a color: {' or '.join(colors)}")
            value = await hub.pre_game_choice(client, opponents.value_for, spec.engine,
                                              cls.name, size_for)
            options[pg.option] = value
            human = neg.color
            meta["pregame"] = {"option": pg.option, "value": value, "named_by": "computer",
                               "picked_by": "human", "human_color": human}
    if human == "random":
        human = random.choice(colors)
    if human not in colors:
        raise ApiError(400, "bad_option", f"color must be {' or '.join(colors)} or random, "
                       f"got {human!r}")
    label = next((e["label"] for e in opponents.list_engines() if e["name"] == spec.engine),
                 spec.engine)
    return [{"kind": "human", "label": "You"} if c == human else
            {"kind": "computer", "engine": spec.engine, "label": f"Computer · {label}"}
            for c in colors]


# ---------------------------------------------------------------- reading
@router.get("/api/games/{gid}", response_model=GameState, responses=ERRORS,
            summary="A game's state; ?ply=N shows it after N moves; ?after=VERSION long-polls")
async def get_game(request: Request,
                   gid: str, ply: int | None = Query(None, ge=0, description="view after N moves"),
                   after: str | None = Query(None, description="wait until the version differs"),
                   wait: float = Query(20.0, ge=0, le=60, description="longest wait, seconds"),
                   x_seat_token: str | None = SeatToken,
                   hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    viewer = access.identify(live, x_seat_token)
    hub.ensure_engine(live)
    if isinstance(viewer, int):
        if not live.connected(viewer):
            live.polled[viewer] = time.monotonic()
            hub.bump(live)  # the other seat sees this one come back
        live.polled[viewer] = time.monotonic()
    client = client_of(request)
    if after is not None and hub.held.enter(client):  # else: at once (too many held)
        try:
            await hub.wait_change(live, after, wait)
        finally:
            hub.held.leave(client)
        if isinstance(viewer, int):
            live.polled[viewer] = time.monotonic()
    board = None
    if ply is not None and ply < len(live.row.moves):
        # an earlier position: drawn in the work pool (its legal moves are
        # worked out; 70 ms each on vimbre 19x19, and a client may ask for
        # any ply of any game it sees, as fast as its rate allows)
        spec = work.GameSpec.of(live.row)
        drawn = await hub.offload(client, work.board_at, spec, ply)
        if live.row.moves[:ply] == list(spec.moves[:ply]):   # still that game's history
            board = drawn
    return hub.views.state(live, ply, viewer, board)


@router.delete("/api/games/{gid}", status_code=204, responses=ERRORS,
               summary="Delete a saved game")
async def delete_game(gid: str, x_seat_token: str | None = SeatToken,
                      hub: Hub = HubDep) -> Response:
    try:
        live = hub.get(gid, x_seat_token)
    except ApiError as exc:
        if exc.code != "corrupt_game":
            raise
        # a game that no longer replays can still be deleted: only its seats are checked
        live = Live(row=hub.store.load(gid), game=None)  # type: ignore[arg-type]
    access.need_seat(live, x_seat_token)
    hub.forget(gid)
    if not hub.store.delete(gid):
        raise access.not_found(gid)
    return Response(status_code=204)


# ---------------------------------------------------------------- playing
@router.post("/api/games/{gid}/moves", response_model=GameState, responses=ERRORS,
             summary="Play a move for the human to move")
async def play(gid: str, body: MoveIn, x_seat_token: str | None = SeatToken,
               hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    seat = access.need_seat(live, x_seat_token)
    async with live.lock:
        return _play(hub, live, body, seat)


def _play(hub: Hub, live: Live, body: MoveIn, me: int | None) -> dict[str, Any]:
    game = live.game
    if me is not None:
        if (live.row.meta.get("pregame") or {}).get("pending"):
            raise ApiError(409, "pregame_pending", "your friend has yet to pick a color")
        if body.ply is None:
            raise ApiError(400, "bad_request", "online, a move names the ply it was made at")
    if live.is_over():
        raise ApiError(409, "game_over", "the game is over: "
                       + (result_text(hub.views.state(live)["result"], live.row, live) or ""))
    if body.ply is not None and body.ply != len(live.row.moves):
        raise ApiError(409, "stale", f"the game has moved on: {len(live.row.moves)} moves, "
                       f"you saw {body.ply}", ply=len(live.row.moves))
    seat = live.to_move_seat()
    assert seat is not None  # the game is not over
    if me is not None and seat != me:
        raise ApiError(409, "not_your_turn", f"it is {game.to_move}'s turn; wait for your "
                       "friend's move")
    if live.row.seats[seat]["kind"] != "human":
        raise ApiError(409, "not_your_turn",
                       f"it is the computer's turn ({game.to_move}); wait for its move")
    if body.color is not None and body.color != game.to_move:
        raise ApiError(409, "not_your_turn", f"it is {game.to_move}'s turn, not {body.color}'s")
    try:
        game.string_to_action(body.move)
    except IllegalMoveError as exc:
        raise ApiError(400, "malformed_move", f"{body.move!r} is not a move: {exc.reason}",
                       move=body.move) from None
    try:
        hub.commit_move(live, body.move)
    except GameOverError as exc:
        raise ApiError(409, "game_over", exc.reason) from None
    except IllegalMoveError as exc:
        raise ApiError(400, "illegal_move", exc.reason, move=body.move) from None
    return hub.views.state(live, viewer=me)


@router.post("/api/games/{gid}/undo", response_model=GameState, responses=ERRORS,
             summary="Take back: against the computer, back to your previous turn; "
                     "hot-seat, one move; online, ask your friend")
async def undo(gid: str, x_seat_token: str | None = SeatToken,
               hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    me = access.need_seat(live, x_seat_token)
    if me is not None:  # online: ask; the other seat answers at /undo/answer
        async with live.lock:
            if live.is_over() or live.online_undo_count(me) is None:
                raise ApiError(409, "cannot_undo", "the game is over" if live.is_over()
                               else "you have no move to take back")
            req = live.row.meta.get("undo_request")
            if req is not None and req["by"] != me:
                raise ApiError(409, "undo_pending", "answer your friend's undo request first")
            hub.store.change_meta(live.row, undo_request={"by": me, "ply": len(live.row.moves)})
            hub.bump(live)
            return hub.views.state(live, viewer=me)
    n = live.undo_count()
    if n is None:
        why = ("the game was resigned" if live.row.result is not None else
               "nothing to undo" if not live.row.moves else "you have no move to take back yet")
        raise ApiError(409, "cannot_undo", why)
    hub.take_back(live, n)
    hub.bump(live)
    hub.ensure_engine(live)
    return hub.views.state(live)


@router.post("/api/games/{gid}/resign", response_model=GameState, responses=ERRORS,
             summary="Resign (against the computer: you; hot-seat: the given color or the "
                     "one to move)")
async def resign(gid: str, body: ResignIn | None = None, x_seat_token: str | None = SeatToken,
                 hub: Hub = HubDep) -> dict[str, Any]:
    body = body or ResignIn(color=None)
    live = hub.get(gid, x_seat_token)
    me = access.need_seat(live, x_seat_token)
    if live.is_over():
        raise ApiError(409, "game_over", "the game is already over")
    colors = live.game.colors
    if me is not None:
        color = live.color_of(me)
        if body.color is not None and body.color != color:
            raise ApiError(409, "not_your_turn", f"you play {color}; you cannot resign for "
                           f"{body.color}")
    elif live.vs_computer():
        humans = [i for i, s in enumerate(live.row.seats) if s["kind"] == "human"]
        color = live.color_of(humans[0])
        if body.color is not None and body.color != color:
            raise ApiError(409, "not_your_turn", f"you play {color}; you cannot resign for "
                           f"{body.color}")
    else:
        color = body.color or live.game.to_move or ""
        if color not in colors:
            raise ApiError(400, "bad_request", f"color must be {' or '.join(colors)}")
    result = {"winner": colors[1 - colors.index(color)], "termination": "resignation",
              "resigned": color, "scores": None}
    hub.store.set_result(gid, result, "over")
    live.row.result = result
    if live.task is not None:
        live.task.cancel()
        live.task = None
    if me is not None and "undo_request" in live.row.meta:
        hub.store.change_meta(live.row, undo_request=None)
    hub.bump(live)
    return hub.views.state(live, viewer=me)


@router.post("/api/games/{gid}/engine", response_model=GameState, responses=ERRORS,
             summary="Ask the computer to try again after an engine error")
async def retry_engine(gid: str, x_seat_token: str | None = SeatToken,
                       hub: Hub = HubDep) -> dict[str, Any]:
    live = hub.get(gid, x_seat_token)
    access.need_seat(live, x_seat_token)
    if live.task is not None and not live.task.done():
        return hub.views.state(live)  # already thinking: a retry would only throw that away
    live.engine_error = None
    live.engine_failures = 0
    hub.bump(live)
    hub.ensure_engine(live)
    return hub.views.state(live)
