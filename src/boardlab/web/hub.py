"""The server's live state: games being played, their clocks and the engine pool.

A stored game is its creation parameters plus its move list (``db.Store``);
:class:`Hub` keeps a live :class:`boardlab.Game` per game it has touched,
rebuilt by replaying the stored moves. The routes in ``app`` call it holding a
game's lock; it never answers HTTP itself beyond raising :class:`ApiError`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import itertools
import multiprocessing
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import boardlab
from boardlab.errors import IllegalMoveError

from . import engines, online, view
from .db import GameRow, Store
from .schemas import ApiError


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

    def quiet(self) -> bool:
        """Nothing refers to this live game but the hub: it can be dropped and
        rebuilt from the store later (no one following it, no change under
        way, no engine or clock running)."""
        return (self.holds == 0 and not self.lock.locked()
                and (self.task is None or self.task.done())
                and (self.clock_task is None or self.clock_task.done()))


#: seconds an engine call may take before its worker is killed (level 5 takes
#: ~0.5-5 s a move on 9x9-11x11, a big board's komi choice ~20 s)
ENGINE_TIMEOUT = 300.0
PRE_GAME_REMEMBERED = 1024
#: live games kept in memory (beyond those in use: see Live.quiet)
LIVE_KEPT = 256


class EngineTimeout(Exception):
    """An engine call (a move, a komi search) did not answer in time."""


def _discard(pool: concurrent.futures.Executor) -> None:
    """Shut a pool down at once: an engine deep in thought (or hung) must not
    hold anything up, so its worker processes are terminated."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()


def _new_library_game(name: str, size: int, options: dict, start: str | None) -> boardlab.Game:
    if start:
        return boardlab.from_position(start)
    return boardlab.new_game(name, size, **options)


def _replay(row: GameRow, upto: int | None = None) -> boardlab.Game:
    game = _new_library_game(row.game, row.size, row.options, row.meta.get("start"))
    for move in row.moves[:upto]:
        game.play(move)
    return game


class Hub:
    """The server's state: the store, the live games, the engine pool."""

    def __init__(self, store: Store, engine_workers: int = 1,
                 engine_timeout: float = ENGINE_TIMEOUT) -> None:
        self.store = store
        self.live: dict[str, Live] = {}
        self.boot = secrets.token_hex(3)
        self.counter = itertools.count(1)
        self.engine_workers = engine_workers
        self.engine_timeout = engine_timeout
        self.pool: concurrent.futures.Executor | None = None
        self._engine_names: set[str] | None = None
        self._pre_game: OrderedDict[tuple, asyncio.Future] = OrderedDict()

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        self.pool = self._new_pool()

    def _new_pool(self) -> concurrent.futures.Executor:
        if self.engine_workers > 0:
            ctx = multiprocessing.get_context("spawn")
            return concurrent.futures.ProcessPoolExecutor(self.engine_workers, mp_context=ctx)
        return concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="engine")

    def stop(self) -> None:
        for live in self.live.values():
            if live.task is not None:
                live.task.cancel()
            if live.clock_task is not None:
                live.clock_task.cancel()
        pool = self.pool
        self.pool = None
        if pool is not None:
            _discard(pool)
        self.store.close()

    def engine_names(self) -> set[str]:
        if self._engine_names is None:
            self._engine_names = {e["name"] for e in engines.list_engines()}
        return self._engine_names

    # ------------------------------------------------------------ loading
    def get(self, gid: str) -> Live:
        live = self._get(gid)
        if live.row.meta.get("clock"):
            self.check_flag(live)
            self.ensure_clock(live)
        return live

    def _get(self, gid: str) -> Live:
        live = self.live.pop(gid, None)
        if live is not None:
            self.live[gid] = live  # the most recently used last
            return live
        row = self.store.load(gid)
        if row is None:
            raise ApiError(404, "not_found", f"no game {gid!r}")
        movers = []
        try:
            game = _replay(row, 0)
            for move in row.moves:
                movers.append(game.to_move)
                game.play(move)
        except boardlab.BoardlabError as exc:  # a stored game the library now refuses
            raise ApiError(409, "corrupt_game", f"game {gid} cannot be replayed: {exc}") from None
        live = Live(row=row, game=game, movers=movers)
        live.version = self._next_version()
        self._evict_quiet(LIVE_KEPT - 1)
        self.live[gid] = live
        return live

    def _evict_quiet(self, keep: int) -> None:
        """Drop the least recently used quiet live games beyond ``keep``: every
        game is in the store, so memory holds only those in use (and a few
        hundred recent ones), however many games the server has seen."""
        excess = len(self.live) - keep
        if excess <= 0:
            return
        for gid in [g for g, live in self.live.items() if live.quiet()][:excess]:
            del self.live[gid]

    def _next_version(self) -> str:
        return f"{self.boot}-{next(self.counter)}"

    def bump(self, live: Live) -> None:
        live.version = self._next_version()
        live.changed.set()
        live.changed = asyncio.Event()

    # ------------------------------------------------------------ seats
    @staticmethod
    def swapped(live: Live) -> int:
        return live.row.moves.count("swap") % 2

    def seat_of(self, live: Live, color: str) -> int:
        return live.game.colors.index(color) ^ self.swapped(live)

    def color_of(self, live: Live, seat: int) -> str:
        return live.game.colors[seat ^ self.swapped(live)]

    def to_move_seat(self, live: Live) -> int | None:
        if self.is_over(live):
            return None
        return self.seat_of(live, live.game.to_move)

    @staticmethod
    def is_over(live: Live) -> bool:
        return live.row.result is not None or live.game.is_over

    @staticmethod
    def vs_computer(live: Live) -> bool:
        return any(s["kind"] == "computer" for s in live.row.seats)

    def undo_count(self, live: Live) -> int | None:
        """How many moves an undo takes back now, or None if it cannot."""
        if live.row.result is not None or not live.row.moves:
            return None
        if not self.vs_computer(live):
            return 1
        game = live.game.copy()
        moves = list(live.row.moves)
        n = 0
        while moves:
            game.undo()
            moves.pop()
            n += 1
            swapped = moves.count("swap") % 2
            seat = game.colors.index(game.to_move) ^ swapped
            if live.row.seats[seat]["kind"] == "human" and not view.mid_turn(game, game.legal_moves()):
                return n
        return None

    # ------------------------------------------------------------ online seats
    @staticmethod
    def is_online(live: Live) -> bool:
        return bool(live.row.meta.get("online"))

    def identify(self, live: Live, token: str | None) -> int | str | None:
        """Who holds ``token``: a seat index, "spectator", or None for a game that is not
        online (no tokens). Raises 401 missing_token / 403 wrong_token."""
        if not self.is_online(live):
            return None
        if not token:
            raise ApiError(401, "missing_token", "this game is played by link: send the token "
                           "from your link in the X-Seat-Token header")
        if len(token) > online.MAX_TOKEN:
            raise ApiError(403, "wrong_token", "that token does not belong to this game")
        found: int | str | None = None
        for i, seat in enumerate(live.row.seats):
            if online.matches(seat.get("token_hash"), token):
                found = i
        if found is None and online.matches(live.row.meta.get("spectator_hash"), token):
            found = "spectator"
        if found is None:
            raise ApiError(403, "wrong_token", "that token does not belong to this game")
        return found

    def need_seat(self, live: Live, token: str | None) -> int | None:
        """The seat that may change an online game (None: not online)."""
        who = self.identify(live, token)
        if who == "spectator":
            raise ApiError(403, "spectator", "a spectator link can only watch")
        if who is not None:
            limit = live.limits.setdefault(who, online.RateLimit())
            if not limit.allow():
                raise ApiError(429, "rate_limited", "too many requests; slow down")
        return who  # type: ignore[return-value]

    def need_online_seat(self, live: Live, token: str | None, refusal: str) -> int:
        """:meth:`need_seat` for what only an online game has; ``refusal``
        is the 400 message for a game that is not online."""
        me = self.need_seat(live, token)
        if me is None:
            raise ApiError(400, "bad_request", refusal)
        return me

    def mover_seats(self, live: Live) -> list[int]:
        """The seat that made each move."""
        out, swaps = [], 0
        for color, move in zip(live.movers, live.row.moves, strict=True):
            out.append(live.game.colors.index(color) ^ swaps)
            if move == "swap":
                swaps ^= 1
        return out

    def online_undo_count(self, live: Live, seat: int) -> int | None:
        """Online: how many moves taking back ``seat``'s last turn removes."""
        if live.row.result is not None or not live.row.moves:
            return None
        seats = self.mover_seats(live)
        j = len(seats) - 1
        while j >= 0 and seats[j] != seat:
            j -= 1
        if j < 0:
            return None
        while j > 0 and seats[j - 1] == seat:
            j -= 1
        return len(seats) - j

    def set_meta(self, live: Live, **changes: Any) -> None:
        meta = dict(live.row.meta)
        for key, value in changes.items():
            if value is None:
                meta.pop(key, None)
            else:
                meta[key] = value
        self.store.update(live.row.id, meta=meta)
        live.row.meta = meta

    def take_back(self, live: Live, n: int) -> None:
        """Undo the last ``n`` moves in the live game and in the store, or in
        neither: if the write fails the moves are played again."""
        taken = []
        for _ in range(n):
            live.game.undo()
            taken.append((live.row.moves.pop(), live.movers.pop()))
        try:
            self.store.truncate(live.row.id, len(live.row.moves),
                                "over" if live.game.is_over else "playing")
        except Exception:
            for move, mover in reversed(taken):
                live.game.play(move)
                live.row.moves.append(move)
                live.movers.append(mover)
            raise
        if live.task is not None:
            live.task.cancel()
            live.task = None
        live.engine_error = None

    # ------------------------------------------------------------ clocks
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

    @staticmethod
    def connected(live: Live, seat: int) -> bool:
        """A seat is connected while it holds a WebSocket or has polled lately."""
        if live.sockets.get(seat):
            return True
        seen = live.polled.get(seat)
        return seen is not None and time.monotonic() - seen < online.POLL_PRESENCE

    @staticmethod
    def public_seats(seats: list[dict]) -> list[dict]:
        return [{k: v for k, v in s.items() if k not in ("token", "token_hash")} for s in seats]

    # ------------------------------------------------------------ state
    def state(self, live: Live, ply: int | None = None,
              viewer: int | str | None = None) -> dict[str, Any]:
        row = live.row
        n = len(row.moves)
        if ply is None or ply >= n:
            view_ply = n
            game = live.game
        else:
            view_ply = max(0, ply)
            game = live.game.copy()
            for _ in range(n - view_ply):
                game.undo()
        v = view.game_view(game)
        over = self.is_over(live)
        seat = self.to_move_seat(live)
        your_turn = (not over and seat is not None and row.seats[seat]["kind"] == "human")
        is_online = self.is_online(live)
        komi_pending = bool(is_online and (row.meta.get("komi") or {}).get("pending"))
        if is_online:
            your_turn = your_turn and seat == viewer and not komi_pending
        if view_ply != n or not your_turn:
            v["legal"] = []
        result = row.result if row.result is not None else (
            None if live.game.outcome is None else view.game_view(live.game)["outcome"])
        seats = []
        for i, s in enumerate(row.seats):
            seats.append({**self.public_seats([s])[0], "color": self.color_of(live, i)})
        return {
            "id": row.id, "game": row.game, "size": row.size, "options": row.options,
            "colors": list(live.game.colors), "board": view.BOARD_KIND[row.game],
            "meta": {k: v for k, v in row.meta.items() if k != "spectator_hash"}, "created": row.created, "updated": row.updated,
            "version": live.version, "seats": seats,
            "ply": n, "view_ply": view_ply, "viewing": view_ply != n,
            "moves": list(row.moves),
            "movers": list(live.movers),
            **v,
            "to_move": None if over else live.game.to_move if view_ply == n else v["to_move"],
            "to_move_seat": seat,
            "your_turn": your_turn,
            "over": over,
            "result": result,
            "result_text": result_text(result, row, live, self),
            "thinking": live.task is not None and not live.task.done(),
            "engine_error": live.engine_error,
            "can_undo": self.undo_count(live) is not None,
            "swapped": bool(self.swapped(live)),
            "online": is_online,
            **({"you": ("spectator" if viewer == "spectator" else None if viewer is None else
                        {"seat": viewer, "color": self.color_of(live, viewer)}),
                "undo_request": row.meta.get("undo_request"),
                "komi_pending": komi_pending,
                "connected": [self.connected(live, i) for i in range(len(row.seats))],
                "clock": self.clock_view(live),
                "can_undo": (viewer not in (None, "spectator") and not over
                             and self.online_undo_count(live, viewer) is not None)}
               if is_online else {}),
        }

    def summary(self, row: GameRow, n_moves: int) -> dict[str, Any]:
        return {"id": row.id, "game": row.game, "size": row.size, "options": row.options,
                "seats": self.public_seats(row.seats), "moves": n_moves, "status": row.status,
                "result": row.result,
                "meta": {k: v for k, v in row.meta.items() if k != "spectator_hash"},
                "created": row.created, "updated": row.updated}

    # ------------------------------------------------------------ changes
    def commit_move(self, live: Live, move: str) -> None:
        """Play ``move`` (library-validated) and store it; raises IllegalMoveError."""
        game = live.game
        mover = game.to_move
        mover_seat = self.seat_of(live, mover)
        game.play(move)
        canonical = game.history[-1]
        clock = live.row.meta.get("clock")
        meta = None
        if clock:
            now = time.time()
            clock = dict(clock)
            if clock["started"] is not None and clock["kind"] == "total":
                rem = list(clock["remaining"])
                rem[mover_seat] -= now - clock["started"]
                swaps = live.row.moves.count("swap") + (canonical == "swap")
                next_seat = None if game.is_over else game.colors.index(game.to_move) ^ (swaps % 2)
                if next_seat != mover_seat:
                    rem[mover_seat] += clock["increment"]
                clock["remaining"] = rem
            clock["started"] = now
            meta = {**live.row.meta, "clock": clock}
        try:
            self.store.append_move(live.row.id, len(live.row.moves), canonical,
                                   "over" if game.is_over else "playing", meta)
        except Exception:
            game.undo()
            raise
        if meta is not None:
            live.row.meta = meta
        live.row.moves.append(canonical)
        live.movers.append(mover)
        if "undo_request" in live.row.meta:  # a move answers an undo request: no
            self.set_meta(live, undo_request=None)
        live.row.updated = time.time()
        live.engine_error = None
        self.bump(live)
        self.ensure_engine(live)

    def ensure_engine(self, live: Live) -> None:
        """If a computer is to move, start it thinking (once)."""
        if live.task is not None and not live.task.done():
            return
        seat = self.to_move_seat(live)
        if seat is None or live.engine_error is not None:
            return
        s = live.row.seats[seat]
        if s["kind"] != "computer" or self.pool is None:
            return
        live.task = asyncio.get_running_loop().create_task(
            self._engine_turn(live, live.version, s.get("engine", "random")))

    async def in_worker(self, fn, *args):
        """``fn(*args)`` in the engine pool: engine work (a move, yugo's komi
        search) must never stall the event loop that serves everyone else.

        A pool whose worker died (killed for memory, say) is useless for good,
        so it is replaced and the call tried once more. A call that has not
        answered within ``engine_timeout`` seconds (a hung engine) raises
        :class:`EngineTimeout`, and its pool is killed and replaced; other
        calls that were running there are tried again in the new pool."""
        pool = self.pool
        try:
            return await self._run(pool, fn, args)
        except concurrent.futures.BrokenExecutor:
            self._replace_pool(pool)
            return await self._run(self.pool, fn, args)

    async def _run(self, pool, fn, args):
        future = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        try:
            return await asyncio.wait_for(future, self.engine_timeout)
        except TimeoutError:
            self._replace_pool(pool)
            raise EngineTimeout(f"no answer within {self.engine_timeout:g} s; the engine "
                                "worker was restarted") from None

    def _replace_pool(self, pool) -> None:
        if self.pool is pool:  # the first call to notice replaces it
            self.pool = self._new_pool()
            if pool is not None:
                _discard(pool)

    async def pre_game_choice(self, fn, *args):
        """Yugo's pre-game choices (``engines.komi_for`` / ``color_for``) depend
        only on their arguments (the engine is seeded with 0), so each is
        searched once and remembered (the last :data:`PRE_GAME_REMEMBERED`):
        asking again, or many visitors asking at once, costs the engine pool
        nothing. A failed search is not remembered."""
        key = (fn.__name__, *args)
        future = self._pre_game.get(key)
        if future is None or (future.done() and (future.cancelled() or future.exception())):
            future = self._pre_game[key] = asyncio.ensure_future(self.in_worker(fn, *args))
            while len(self._pre_game) > PRE_GAME_REMEMBERED:
                self._pre_game.popitem(last=False)
        self._pre_game.move_to_end(key)
        return await asyncio.shield(future)  # a request that goes away leaves it running

    async def _engine_turn(self, live: Live, version: str, engine: str) -> None:
        row = live.row
        seed = int.from_bytes(hashlib.sha256(f"{row.id}:{len(row.moves)}".encode()).digest()[:4],
                              "big")
        try:
            move = await self.in_worker(engines.compute_move, row.game, row.size, row.options,
                                        row.meta.get("start"), list(row.moves), engine, seed)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the engine failed: say so, let the player retry
            if live.version == version:
                live.task = None
                live.engine_error = f"the computer ({engine}) failed: {exc}"
                self.bump(live)
            return
        if live.version != version or self.is_over(live):
            return  # undone or resigned meanwhile: the answer is stale
        live.task = None
        try:
            self.commit_move(live, move)
        except IllegalMoveError as exc:
            live.engine_error = f"the computer ({engine}) chose an illegal move: {exc}"
            self.bump(live)

    async def wait_change(self, live: Live, after: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        live.holds += 1
        try:
            while live.version == after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                try:
                    await asyncio.wait_for(live.changed.wait(), left)
                except TimeoutError:
                    return
        finally:
            live.holds -= 1


def result_text(result, row: GameRow, live: Live, hub: Hub) -> str | None:
    if result is None:
        return None
    term = result["termination"]
    if result["winner"] == "draw":
        text = f"Draw by {term}"
    else:
        winner = result["winner"]
        seat = hub.seat_of(live, winner)
        who = row.seats[seat].get("label") or winner
        if term == "resignation":
            text = f"{winner.capitalize()} ({who}) wins: {result.get('resigned', 'the other side')} resigned"
        elif term == "timeout" and result.get("flagged"):
            text = f"{winner.capitalize()} ({who}) wins on time: {result['flagged']} ran out of time"
        else:
            text = f"{winner.capitalize()} ({who}) wins by {term}"
    scores = result.get("scores")
    if scores:
        text += " — " + ", ".join(f"{c} {_num(v)}" for c, v in scores.items())
    return text


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
