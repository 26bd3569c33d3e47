"""The web app: a FastAPI (ASGI) JSON API plus the static page that uses it.

Design in one paragraph: a stored game is its creation parameters plus its
move list (``db.Store``). The server keeps a live :class:`boardlab.Game` per
game it has touched, rebuilt by replaying the stored moves, and validates every
move with the library before committing it. All mutation happens on the event
loop; a computer move is computed in a worker process from plain data (the
move list) and applied only if the game has not changed meanwhile. Clients
learn about changes by long-polling ``GET /api/games/{id}?after=<version>``.
A game has two seats (human or computer), listed by starting color; a pie
swap flips which seat holds which color. See docs/web.md.

This module holds the routes; ``hub`` the live games (clocks, engine pool,
seats) and ``schemas`` the wire types both share.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

import boardlab
from boardlab.errors import GameOverError, IllegalMoveError, OptionError
from boardlab.rules import MissingRulesError, rules_text

from . import DEFAULT_DB, engines, markdown, online, recordio, view
from .db import Store
from .hub import ENGINE_TIMEOUT, Hub, Live, result_text
from .schemas import (
    ERRORS,
    AnswerIn,
    ApiError,
    GameState,
    KomiPickIn,
    MoveIn,
    NameIn,
    NewGame,
    RecordIn,
    ResignIn,
    error_response,
)

STATIC = Path(__file__).parent / "static"



class _Close(Exception):
    """Close the WebSocket with this code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


_WS_ACTIONS = ("move", "undo", "answer", "resign", "komi", "name")


# ---------------------------------------------------------------- rules pages
def rules_markdown(name: str) -> str | None:
    """The rules page of a game, in the project's words (boardlab/rules/<game>.md)."""
    try:
        return rules_text(name)
    except MissingRulesError:
        return None


# ---------------------------------------------------------------- the app
def create_app(db_path: str | Path = DEFAULT_DB, engine_workers: int = 1,
               engine_timeout: float = ENGINE_TIMEOUT,
               http_rate: tuple[float, float] = online.HTTP_RATE) -> FastAPI:
    """The ASGI app. ``engine_workers``: processes that run the computer's moves
    (0: a thread pool instead, for tests); ``engine_timeout``: seconds an
    engine call may take before its worker is killed and the game shows an
    engine error (the player may retry); ``http_rate``: (requests a second,
    burst) each HTTP connection may make before it is answered 429."""
    hub = Hub(Store(db_path), engine_workers, engine_timeout)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hub.start()
        try:
            yield
        finally:
            hub.stop()

    app = FastAPI(
        title="boardlab", version=boardlab.__version__, lifespan=lifespan,
        description="Play Implo, Yugo, Pilo, Vimbre and Robble in the browser. "
                    "Every move is validated by the boardlab library; errors are "
                    '`{"error": {"code", "message"}}`.',
        docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.hub = hub

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        details = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            details.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
        return error_response(400, "bad_request", "; ".join(details) or "bad request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
                413: "too_large"}.get(exc.status_code, "http_error")
        return error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception):  # never a stack trace to a client
        return error_response(500, "internal", "the server failed on this request")

    app.add_middleware(online.BodyLimit, limit=online.MAX_BODY)
    rate, burst = http_rate
    app.add_middleware(online.ConnectionRateLimit, rate=rate, burst=burst)

    # ------------------------------------------------------------ catalogue
    @app.get("/api/kinds", summary="The five games: colors, sizes, options, board kind")
    async def kinds() -> list[dict[str, Any]]:
        return [view.kind_info(name) for name in boardlab.GAMES]

    @app.get("/api/engines", summary="The computer opponents on offer (boardlab.ai's registry)")
    async def engine_list() -> list[dict[str, Any]]:
        return engines.list_engines()

    @app.get("/api/yugo/komi", summary="The komi the computer names for a yugo game",
             responses=ERRORS)
    async def yugo_komi(size: int = Query(9, ge=4, le=19),
                        engine: str = Query("random")) -> dict[str, int]:
        if engine not in hub.engine_names():
            raise ApiError(400, "unknown_engine", f"unknown engine {engine!r}")
        return {"komi": await hub.pre_game_choice(engines.komi_for, engine, size)}

    # ------------------------------------------------------------ games
    @app.get("/api/games", summary="Saved games, most recently changed first")
    async def list_games() -> list[dict[str, Any]]:
        # a game by link is reached by its link, not listed
        return [hub.summary(row, n) for row, n in hub.store.list(online=False)]

    @app.post("/api/games", status_code=201, response_model=GameState, responses=ERRORS,
              summary="Start a game (against the computer or hot-seat)")
    async def new_game(spec: NewGame) -> dict[str, Any]:
        if spec.time_control is not None and spec.opponent != "online":
            raise ApiError(400, "bad_option", "time controls are for online games")
        try:
            cls = boardlab.game_class(spec.game)
        except OptionError as exc:
            raise ApiError(400, "unknown_game", str(exc)) from None
        options = dict(spec.options)
        if "size" in options:
            raise ApiError(400, "bad_option", "size is a field of its own, not an option")
        try:  # size and options first: nothing below (an engine's komi search) may run on bad ones
            cls(spec.size, **options)
        except OptionError as exc:
            raise ApiError(400, "bad_option", str(exc)) from None
        meta: dict[str, Any] = {}
        colors = cls.colors
        if spec.opponent == "computer":
            if spec.engine not in hub.engine_names():
                raise ApiError(400, "unknown_engine", f"unknown engine {spec.engine!r} (engines: "
                               f"{', '.join(sorted(hub.engine_names()))})")
            human = spec.color
            neg = spec.komi_negotiation
            if neg is not None:
                if cls.name != "yugo":
                    raise ApiError(400, "bad_option", "komi negotiation is for yugo only")
                size_for = spec.size or cls.default_size
                if neg.namer == "human":
                    if neg.komi is None:
                        raise ApiError(400, "bad_option", "name the komi (komi_negotiation.komi)")
                    options["komi"] = neg.komi
                    machine = await hub.pre_game_choice(engines.color_for, spec.engine,
                                                        neg.komi, size_for)
                    human = colors[1 - colors.index(machine)]
                    meta["komi"] = {"named_by": "human", "komi": neg.komi, "picked_by": "computer",
                                    "computer_color": machine}
                else:
                    komi = await hub.pre_game_choice(engines.komi_for, spec.engine, size_for)
                    options["komi"] = komi
                    if neg.color not in colors:
                        raise ApiError(400, "bad_option", f"pick a color: {' or '.join(colors)}")
                    human = neg.color
                    meta["komi"] = {"named_by": "computer", "komi": komi, "picked_by": "human",
                                    "human_color": human}
            if human == "random":
                human = random.choice(colors)
            if human not in colors:
                raise ApiError(400, "bad_option", f"color must be {' or '.join(colors)} or random, "
                               f"got {human!r}")
            label = next((e["label"] for e in engines.list_engines() if e["name"] == spec.engine),
                         spec.engine)
            seats = [{"kind": "human", "label": "You"} if c == human else
                     {"kind": "computer", "engine": spec.engine, "label": f"Computer ({label})"}
                     for c in colors]
        elif spec.opponent == "online":
            if spec.engine != "random":
                raise ApiError(400, "bad_option", "an online game has no engine")
            tokens = [online.new_token(), online.new_token()]
            spectator = online.new_token()
            neg = spec.komi_negotiation
            if neg is not None:
                if cls.name != "yugo":
                    raise ApiError(400, "bad_option", "komi negotiation is for yugo only")
                if neg.namer != "human" or neg.komi is None or neg.color is not None:
                    raise ApiError(400, "bad_option", "online, you name the komi "
                                   "(komi_negotiation: {namer: human, komi: N}) and your friend "
                                   "picks a color")
                if spec.color != "random":
                    raise ApiError(400, "bad_option", "with komi negotiation your friend picks "
                                   "the colors")
                options["komi"] = neg.komi
                meta["komi"] = {"named_by": "creator", "komi": neg.komi, "picked_by": "friend",
                                "pending": True}
                mine = 0
            else:
                human = random.choice(colors) if spec.color == "random" else spec.color
                if human not in colors:
                    raise ApiError(400, "bad_option", f"color must be {' or '.join(colors)} or "
                                   f"random, got {human!r}")
                mine = colors.index(human)
            seats = [{"kind": "human", "online": True,
                      "label": (online.clean_name(spec.name, f"Player {i + 1}") if i == mine
                                else f"Player {i + 1}"),
                      "token_hash": online.token_hash(tokens[i])} for i in range(len(colors))]
            meta.update(online=True, creator_seat=mine,
                        spectator_hash=online.token_hash(spectator))
            tc = spec.time_control
            if tc is not None:
                meta["clock"] = {"kind": tc.kind, "seconds": tc.seconds, "increment": tc.increment,
                                 "remaining": [tc.seconds] * len(colors) if tc.kind == "total"
                                 else None, "started": None}
        else:
            if spec.komi_negotiation is not None:
                if cls.name != "yugo":
                    raise ApiError(400, "bad_option", "komi negotiation is for yugo only")
                if spec.komi_negotiation.komi is not None:
                    options["komi"] = spec.komi_negotiation.komi
            seats = [{"kind": "human", "label": "Player 1"}, {"kind": "human", "label": "Player 2"}]
        try:
            game = cls(spec.size, **options)
        except OptionError as exc:
            raise ApiError(400, "bad_option", str(exc)) from None
        row = hub.store.create(cls.name, game.size, dict(game.options), seats, meta)
        live = hub.get(row.id)
        hub.ensure_engine(live)
        if spec.opponent != "online":
            return hub.state(live)
        gid = row.id
        links = {"you": tokens[mine], "invite": tokens[1 - mine], "spectate": spectator}
        return {**hub.state(live, viewer=mine), "tokens": links,
                "links": {"you": f"/#/play/{gid}/{tokens[mine]}",
                          "invite": f"/#/play/{gid}/{tokens[1 - mine]}",
                          "spectate": f"/#/watch/{gid}/{spectator}"}}

    @app.get("/api/games/{gid}", response_model=GameState, responses=ERRORS,
             summary="A game's state; ?ply=N shows it after N moves; ?after=VERSION long-polls")
    async def get_game(gid: str, ply: int | None = Query(None, ge=0, description="view after N moves"),
                       after: str | None = Query(None, description="wait until the version differs"),
                       wait: float = Query(20.0, ge=0, le=60, description="longest wait, seconds"),
                       x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        viewer = hub.identify(live, x_seat_token)
        hub.ensure_engine(live)
        if isinstance(viewer, int):
            if not hub.connected(live, viewer):
                live.polled[viewer] = time.monotonic()
                hub.bump(live)  # the other seat sees this one come back
            live.polled[viewer] = time.monotonic()
        if after is not None:
            await hub.wait_change(live, after, wait)
            if isinstance(viewer, int):
                live.polled[viewer] = time.monotonic()
        return hub.state(live, ply, viewer)

    @app.delete("/api/games/{gid}", status_code=204, responses=ERRORS, summary="Delete a saved game")
    async def delete_game(gid: str, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> Response:
        try:
            live = hub.get(gid)
        except ApiError as exc:
            if exc.code != "corrupt_game":
                raise
            # a game that no longer replays can still be deleted: only its seats are checked
            live = Live(row=hub.store.load(gid), game=None)  # type: ignore[arg-type]
        hub.need_seat(live, x_seat_token)
        live = hub.live.pop(gid, None)
        if live is not None and live.task is not None:
            live.task.cancel()
        if live is not None and live.clock_task is not None:
            live.clock_task.cancel()
        if not hub.store.delete(gid):
            raise ApiError(404, "not_found", f"no game {gid!r}")
        return Response(status_code=204)

    @app.post("/api/games/{gid}/moves", response_model=GameState, responses=ERRORS,
              summary="Play a move for the human to move")
    async def play(gid: str, body: MoveIn, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        seat = hub.need_seat(live, x_seat_token)
        async with live.lock:
            return _play(live, body, seat)

    def _play(live: Live, body: MoveIn, me: int | None) -> dict[str, Any]:
        game = live.game
        if me is not None:
            if (live.row.meta.get("komi") or {}).get("pending"):
                raise ApiError(409, "komi_pending", "your friend has yet to pick a color")
            if body.ply is None:
                raise ApiError(400, "bad_request", "online, a move names the ply it was made at")
        if hub.is_over(live):
            raise ApiError(409, "game_over", "the game is over: "
                           + (result_text(hub.state(live)["result"], live.row, live, hub) or ""))
        if body.ply is not None and body.ply != len(live.row.moves):
            raise ApiError(409, "stale", f"the game has moved on: {len(live.row.moves)} moves, "
                           f"you saw {body.ply}", ply=len(live.row.moves))
        seat = hub.to_move_seat(live)
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
        return hub.state(live, viewer=me)

    @app.post("/api/games/{gid}/undo", response_model=GameState, responses=ERRORS,
              summary="Take back: against the computer, back to your previous turn; hot-seat, one move")
    async def undo(gid: str, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        me = hub.need_seat(live, x_seat_token)
        if me is not None:  # online: ask; the other seat answers at /undo/answer
            async with live.lock:
                if hub.is_over(live) or hub.online_undo_count(live, me) is None:
                    raise ApiError(409, "cannot_undo", "the game is over" if hub.is_over(live)
                                   else "you have no move to take back")
                req = live.row.meta.get("undo_request")
                if req is not None and req["by"] != me:
                    raise ApiError(409, "undo_pending", "answer your friend's undo request first")
                hub.set_meta(live, undo_request={"by": me, "ply": len(live.row.moves)})
                hub.bump(live)
                return hub.state(live, viewer=me)
        n = hub.undo_count(live)
        if n is None:
            why = ("the game was resigned" if live.row.result is not None else
                   "nothing to undo" if not live.row.moves else "you have no move to take back yet")
            raise ApiError(409, "cannot_undo", why)
        hub.take_back(live, n)
        hub.bump(live)
        hub.ensure_engine(live)
        return hub.state(live)

    @app.post("/api/games/{gid}/resign", response_model=GameState, responses=ERRORS,
              summary="Resign (against the computer: you; hot-seat: the given color or the one to move)")
    async def resign(gid: str, body: ResignIn | None = None, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        body = body or ResignIn()
        live = hub.get(gid)
        me = hub.need_seat(live, x_seat_token)
        if hub.is_over(live):
            raise ApiError(409, "game_over", "the game is already over")
        colors = live.game.colors
        if me is not None:
            color = hub.color_of(live, me)
            if body.color is not None and body.color != color:
                raise ApiError(409, "not_your_turn", f"you play {color}; you cannot resign for "
                               f"{body.color}")
        elif hub.vs_computer(live):
            humans = [i for i, s in enumerate(live.row.seats) if s["kind"] == "human"]
            color = hub.color_of(live, humans[0])
            if body.color is not None and body.color != color:
                raise ApiError(409, "not_your_turn", f"you play {color}; you cannot resign for "
                               f"{body.color}")
        else:
            color = body.color or live.game.to_move
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
            hub.set_meta(live, undo_request=None)
        hub.bump(live)
        return hub.state(live, viewer=me)

    @app.post("/api/games/{gid}/undo/answer", response_model=GameState, responses=ERRORS,
              summary="Online: accept or decline the other player's undo request")
    async def answer_undo(gid: str, body: AnswerIn, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        me = hub.need_online_seat(live, x_seat_token,
                                     "only an online game has undo requests")
        async with live.lock:
            req = live.row.meta.get("undo_request")
            if req is None:
                raise ApiError(409, "no_request", "there is no undo request to answer")
            if req["by"] == me:
                raise ApiError(409, "not_your_turn", "your friend answers your undo request")
            n = hub.online_undo_count(live, req["by"])
            if req["ply"] != len(live.row.moves) or n is None or hub.is_over(live):
                hub.set_meta(live, undo_request=None)
                hub.bump(live)
                raise ApiError(409, "stale", "the game has changed since the request")
            if body.accept:  # first: if its write fails, the request stays unanswered
                hub.take_back(live, n)
                hub.restart_clock(live)
            hub.set_meta(live, undo_request=None,
                         undo_answer={"by": me, "accepted": body.accept, "ply": req["ply"]})
            hub.bump(live)
            return hub.state(live, viewer=me)

    @app.post("/api/games/{gid}/komi", response_model=GameState, responses=ERRORS,
              summary="Online yugo: the friend picks a color after the creator named the komi")
    async def pick_color(gid: str, body: KomiPickIn, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        me = hub.need_online_seat(live, x_seat_token,
                                     "only an online game negotiates komi this way")
        async with live.lock:
            komi = live.row.meta.get("komi") or {}
            if hub.is_over(live):
                raise ApiError(409, "game_over", "the game is over: there is no color to pick")
            if not komi.get("pending"):
                raise ApiError(409, "komi_settled", "there is no color to pick")
            creator = live.row.meta.get("creator_seat", 0)
            if me == creator:
                raise ApiError(409, "not_your_turn", "you named the komi; your friend picks")
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
                    per_seat.update(swapped)
            meta = {**live.row.meta, "creator_seat": creator,
                    "komi": {**komi, "pending": False, "friend_color": body.color}}
            hub.store.update(gid, seats=seats, meta=meta)
            live.row.seats, live.row.meta = seats, meta
            hub.bump(live)
            return hub.state(live, viewer=me)

    @app.post("/api/games/{gid}/name", response_model=GameState, responses=ERRORS,
              summary="Online: set your display name")
    async def set_name(gid: str, body: NameIn, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        me = hub.need_online_seat(live, x_seat_token,
                                     "only an online game has display names")
        async with live.lock:
            seats = [dict(s) for s in live.row.seats]
            seats[me]["label"] = online.clean_name(body.name, f"Player {me + 1}")
            hub.store.update(gid, seats=seats)
            live.row.seats = seats
            hub.bump(live)
            return hub.state(live, viewer=me)

    # ------------------------------------------------------------ live updates
    @app.websocket("/api/games/{gid}/ws")
    async def game_socket(websocket: WebSocket, gid: str) -> None:
        """Live updates both ways. The first message authenticates:
        ``{"type": "auth", "token": T}`` (the token never goes in the URL). Then the server
        sends ``{"type": "state", "state": ...}`` on every change, and the client may send
        ``move`` (move, ply), ``undo``, ``answer`` (accept), ``resign``, ``komi`` (color),
        ``name`` (name) and ``ping``; a refused action answers ``{"type": "error", "error":
        {code, message}}``. Messages over 4 KiB close the socket (1009); more than 10 a
        second (bursts of 20) are refused with ``rate_limited``."""
        await websocket.accept()
        limit = online.RateLimit()

        async def receive() -> dict[str, Any]:
            msg = await websocket.receive()
            if msg["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(msg.get("code", 1000))
            text = msg.get("text")
            if text is None:
                raw = msg.get("bytes") or b""
                if len(raw) > online.MAX_MESSAGE:
                    raise _Close(1009, "message too big")
                try:
                    text = raw.decode()
                except UnicodeDecodeError:
                    raise _Close(1003, "not text") from None
            if len(text) > online.MAX_MESSAGE:
                raise _Close(1009, "message too big")
            try:
                data = json.loads(text)
            except ValueError:
                return {"type": "_malformed"}
            return data if isinstance(data, dict) else {"type": "_malformed"}

        async def send_error(code: str, message: str, msg_id: Any = None) -> None:
            await websocket.send_json({"type": "error", "id": msg_id,
                                       "error": {"code": code, "message": message}})

        viewer: int | str | None = None
        token: str | None = None
        live: Live | None = None
        pusher: asyncio.Task | None = None
        try:
            try:
                first = await asyncio.wait_for(receive(), online.AUTH_TIMEOUT)
            except TimeoutError:
                raise _Close(1008, "no auth message") from None
            try:
                live = hub.get(gid)
                live.holds += 1
                token = first.get("token") if first.get("type") == "auth" else None
                if not isinstance(token, (str, type(None))):
                    token = ""
                viewer = hub.identify(live, token)
            except ApiError as exc:
                await send_error(exc.code, exc.message)
                raise _Close(1008, exc.code) from None
            if isinstance(viewer, int):
                live.sockets[viewer] = live.sockets.get(viewer, 0) + 1
                hub.bump(live)

            async def push() -> None:
                nonlocal viewer
                sent = None
                while True:
                    event = live.changed
                    if live.version != sent:
                        sent = live.version
                        # the token's seat, asked afresh: a komi pick can swap the seats
                        viewer = hub.identify(live, token)
                        await websocket.send_json({"type": "state",
                                                   "state": hub.state(live, None, viewer)})
                    await event.wait()

            pusher = asyncio.create_task(push())
            while True:
                msg = await receive()
                msg_id = msg.get("id")
                if not limit.allow():
                    if limit.refused > 100:
                        raise _Close(1008, "too many messages")
                    await send_error("rate_limited", "too many messages; slow down", msg_id)
                    continue
                kind = msg.get("type")
                try:
                    if kind == "ping":
                        await websocket.send_json({"type": "pong", "id": msg_id})
                        continue
                    if kind not in _WS_ACTIONS:
                        raise ApiError(400, "bad_request", "unknown or malformed message")
                    if viewer == "spectator":
                        raise ApiError(403, "spectator", "a spectator link can only watch")
                    args = {k: v for k, v in msg.items() if k not in ("type", "id")}
                    if kind == "move":
                        await play(gid, MoveIn(**args), token)
                    elif kind == "undo":
                        await undo(gid, token)
                    elif kind == "answer":
                        await answer_undo(gid, AnswerIn(**args), token)
                    elif kind == "resign":
                        await resign(gid, ResignIn(**args), token)
                    elif kind == "komi":
                        await pick_color(gid, KomiPickIn(**args), token)
                    elif kind == "name":
                        await set_name(gid, NameIn(**args), token)
                    await websocket.send_json({"type": "ack", "id": msg_id})
                except ApiError as exc:
                    await send_error(exc.code, exc.message, msg_id)
                except (ValidationError, TypeError):
                    await send_error("bad_request", "malformed message", msg_id)
        except WebSocketDisconnect:
            pass
        except _Close as exc:
            try:
                await websocket.close(exc.code, exc.reason)
            except Exception:  # noqa: BLE001 - already gone
                pass
        finally:
            if pusher is not None:
                pusher.cancel()
            if live is not None:
                live.holds -= 1
            if live is not None and isinstance(viewer, int):
                try:
                    viewer = hub.identify(live, token)  # its seat now (see push)
                except ApiError:
                    pass
                live.sockets[viewer] = live.sockets.get(viewer, 1) - 1
                hub.bump(live)

    @app.post("/api/games/{gid}/engine", response_model=GameState, responses=ERRORS,
              summary="Ask the computer to try again after an engine error")
    async def retry_engine(gid: str, x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> dict[str, Any]:
        live = hub.get(gid)
        hub.need_seat(live, x_seat_token)
        if live.task is not None and not live.task.done():
            return hub.state(live)  # already thinking: a retry would only throw that away
        live.engine_error = None
        hub.bump(live)
        hub.ensure_engine(live)
        return hub.state(live)

    # ------------------------------------------------------------ records
    def _players(live: Live) -> dict[str, str]:
        return {hub.color_of(live, i): s.get("name") or s.get("label") or "?"
                for i, s in enumerate(live.row.seats)}

    @app.get("/api/games/{gid}/record", responses=ERRORS,
             summary="Download the game record (format=text or json)")
    async def record(gid: str, format: Literal["text", "json"] = "text", x_seat_token: str | None = Header(None, alias="X-Seat-Token")) -> Response:
        live = hub.get(gid)
        hub.identify(live, x_seat_token)
        result = live.row.result or {}
        resigned = result.get("resigned")
        timeout = None
        if result.get("termination") == "timeout":
            resigned, timeout = None, result.get("flagged") or result.get("resigned")
        date = time.strftime("%Y.%m.%d", time.localtime(live.row.created))
        try:
            if format == "json":
                body = recordio.to_json(live.game, _players(live), resigned, date, timeout)
            else:
                body = recordio.to_text(live.game, _players(live), resigned, date, timeout)
        except boardlab.BoardlabError as exc:
            raise ApiError(409, "bad_record", str(exc)) from None
        ext, media = ("json", "application/json") if format == "json" else ("txt", "text/plain")
        filename = f"{live.row.game}-{live.row.id}.{ext}"
        return PlainTextResponse(body, media_type=f"{media}; charset=utf-8",
                                 headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @app.post("/api/records", status_code=201, response_model=GameState, responses=ERRORS,
              summary="Load a record (text or JSON) as a stored game to review (or play on, hot-seat)")
    async def load_record(body: RecordIn) -> dict[str, Any]:
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
            seats.append({"kind": "human", "label": name if name != "?" else f"Player {i + 1}"})
        meta: dict[str, Any] = {"source": "record"}
        if imp.start:
            meta["start"] = imp.start
        status = "over" if imp.result else "playing"
        row = hub.store.create(imp.game, imp.size, imp.options, seats, meta, imp.moves,
                               imp.result, status)
        live = hub.get(row.id)
        if live.game.is_over:
            hub.store.set_result(row.id, imp.result, "over")
        return hub.state(live, 0)

    # ------------------------------------------------------------ rules
    @app.get("/api/rules/{name}", responses=ERRORS, summary="A game's rules in the project's words")
    async def rules(name: str) -> dict[str, str]:
        try:
            cls = boardlab.game_class(name)
        except OptionError as exc:
            raise ApiError(404, "unknown_game", str(exc)) from None
        text = rules_markdown(cls.name)
        if text is None:
            raise ApiError(404, "no_rules", f"no rules page for {cls.name} yet")
        return {"game": cls.name, "markdown": text, "html": markdown.to_html(text)}

    @app.get("/rules/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def rules_page(name: str) -> HTMLResponse:
        data = await rules(name)
        return HTMLResponse(
            "<!doctype html><html lang=en><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>{data['game'].capitalize()} rules</title>"
            "<link rel=stylesheet href='/static/style.css'>"
            f"<body class=rules-page><main class=rules>{data['html']}"
            "<p><a href='/'>Back to boardlab</a></p></main></body></html>")

    # ------------------------------------------------------------ API reference
    @app.get("/api", response_class=HTMLResponse, include_in_schema=False)
    async def api_reference() -> HTMLResponse:
        """The endpoints, from the OpenAPI document, as a page that needs no CDN."""
        rows = []
        for path, ops in app.openapi()["paths"].items():
            for method, op in ops.items():
                rows.append(f"<tr><td><code>{method.upper()}</code></td><td><code>{html.escape(path)}"
                            f"</code></td><td>{html.escape(op.get('summary', ''))}</td></tr>")
        return HTMLResponse(
            "<!doctype html><html lang=en><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            "<title>boardlab API</title><link rel=stylesheet href='/static/style.css'>"
            "<body class=rules-page><main class=rules><h1>boardlab JSON API</h1>"
            "<p>Machine-readable: <a href='/api/openapi.json'>/api/openapi.json</a> (OpenAPI). "
            "Interactive: <a href='/api/docs'>/api/docs</a> (Swagger UI; loads its scripts from "
            "a CDN). Errors are <code>{\"error\": {\"code\", \"message\"}}</code>. "
            "See docs/web.md.</p><table><thead><tr><th>method</th><th>path</th><th>what</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
            "<p><a href='/'>Back to boardlab</a></p></main></body></html>")

    # ------------------------------------------------------------ the page
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
