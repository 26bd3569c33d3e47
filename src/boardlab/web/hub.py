"""The server's live state: the store, the games in memory, the engine pool.

A stored game is its creation parameters plus its move list (``db.Store``);
:class:`Hub` keeps a live :class:`boardlab.Game` per game it has touched,
rebuilt by replaying the stored moves. The routes call it (holding a game's
lock where play by link needs it); it never answers HTTP itself beyond
raising :class:`ApiError`.

The hub is composed of explicit parts, each given what it uses: ``store``
(SQLite), ``pool`` (the engines), ``clocks`` (games by link), ``views``
(what a client is shown) and ``admission`` (the limits on new games). Who
sits where is the live game's own (:class:`Live`), who may act is
``access``. This module holds the registry of live games, the changes to
them (moves, undo) and the computer's turns.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from boardlab.errors import IllegalMoveError

from . import access, opponents, work
from .admission import Admission, Held
from .clocks import Clocks
from .db import Clock, GameMeta, Store
from .live import Live, reason, replay
from .pool import EngineBusy, EngineDied, EnginePool, EngineTimeout
from .relay import Relay
from .schemas import ApiError
from .settings import Settings
from .state import Views, result_text

__all__ = ["ENGINE_TIMEOUT", "EngineTimeout", "Hub", "Live", "result_text"]

T = TypeVar("T")

#: seconds an engine call may take before its worker is killed (level 5 takes
#: ~0.5-5 s a move on 9x9-11x11, a big board's pre-game choice ~20 s)
ENGINE_TIMEOUT = Settings.engine_timeout
PRE_GAME_REMEMBERED = 1024
#: live games kept in memory (beyond those in use: see Live.quiet)
LIVE_KEPT = 256
#: ``Hub.get`` without a request's token (the server itself loading a game)
ANYONE = object()
#: what a player is told when the computer's worker died more often than it is retried
ENGINE_DIED = ("the computer stopped while thinking (its process ended) and was restarted "
               "{n} times; press Retry to ask it again")


@contextmanager
def answered(busy: str, failed: str, who: str) -> Iterator[None]:
    """A pool call's refusals as the API's answers: 429 ``busy`` (the client
    has as many calls under way as it may), 503 ``failed`` (past the
    timeout, or its worker died); ``who`` is named in the message."""
    try:
        yield
    except EngineBusy as exc:
        raise ApiError(429, busy, f"{who} is busy with your other requests ({exc}); try "
                       "again when they are done") from None
    except (EngineTimeout, EngineDied) as exc:
        raise ApiError(503, failed, f"{who} could not answer: {exc}") from None


class Hub:
    """The server's state: the store, the live games, the engine pool."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.settings = settings = settings or Settings()
        self.store = store
        self.live: dict[str, Live] = {}
        self.boot = secrets.token_hex(3)
        self.counter = itertools.count(1)
        warm: Callable[[], None] | None = None
        if settings.engine_warm_up:
            from .analysis_worker import warm_up
            warm = warm_up
        self.pool: EnginePool = EnginePool(settings.engine_workers, settings.engine_timeout,
                                           settings.engine_per_client, warm)
        work_workers = settings.work_workers
        if work_workers is None:
            work_workers = 1 if settings.engine_workers > 0 else 0
        #: the heavy work that grows with what a client sends (``work``)
        self.work = EnginePool(work_workers, settings.work_timeout, settings.work_per_client,
                               work.warm_up if settings.engine_warm_up else None)
        #: connections each client holds open (sockets, long-polls)
        self.held = Held(settings.held_per_client)
        #: the lines of pool calls that report as they go (analyses)
        self.relay = Relay()
        self.clocks = Clocks(store, self.bump)
        self.views = Views(store, self.live, self.clocks)
        self.admission = Admission(store, settings, self.forget)
        self._engine_names: set[str] | None = None
        self._pre_game: OrderedDict[tuple, asyncio.Future] = OrderedDict()

    @property
    def engine_timeout(self) -> float:
        return self.pool.timeout

    @engine_timeout.setter
    def engine_timeout(self, seconds: float) -> None:
        self.pool.timeout = seconds

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Start the engine pool, then every computer whose turn it was when
        the server stopped (nobody need touch its game first)."""
        self.pool.start()
        self.work.start()
        for gid in self.store.waiting_for_computer():
            try:
                live = self.get(gid)
            except ApiError:
                continue  # a game that no longer replays waits for its owner to delete it
            self.ensure_engine(live)

    def stop(self) -> None:
        for live in self.live.values():
            if live.task is not None:
                live.task.cancel()
            if live.clock_task is not None:
                live.clock_task.cancel()
        self.pool.stop()
        self.work.stop()
        self.relay.close()
        self.store.close()

    def client_id(self, key: str) -> str:
        """A client (an address: ``guards.client_key``) as the limits and the
        store name it: a hash salted with the database's own salt, the same
        after a restart, which no one can turn back into an address."""
        digest = hashlib.sha256(f"{self.store.client_salt}:{key}".encode("utf-8", "replace"))
        return "c-" + digest.hexdigest()[:24]

    async def offload(self, client: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the work pool for ``client`` (see ``work``): 429
        ``busy`` while the client has too many calls there, 503
        ``work_failed`` past the work timeout."""
        with answered("busy", "work_failed", "the server"):
            return await self.work.call(client, fn, *args)

    def engine_names(self) -> set[str]:
        if self._engine_names is None:
            self._engine_names = {e["name"] for e in opponents.list_engines()}
        return self._engine_names

    # ------------------------------------------------------------ loading
    def get(self, gid: str, token: str | None | object = ANYONE) -> Live:
        """The live game ``gid``, rebuilt from the store if need be. With
        ``token`` (a request's), a game that no longer replays is 409
        corrupt_game only for a client that may see it (else 404, as an
        unknown id): its seats are checked on the stored row."""
        live = self._get(gid, token)
        if live.row.meta.get("clock"):
            self.clocks.check_flag(live)
            self.clocks.ensure(live)
        return live

    def _get(self, gid: str, token: str | None | object) -> Live:
        live = self.live.pop(gid, None)
        if live is not None:
            self.live[gid] = live  # the most recently used last
            return live
        row = self.store.load(gid)
        if row is None:
            raise access.not_found(gid)
        movers: list[str] = []
        try:
            game = replay(row, 0)
            for move in row.moves:
                movers.append(game.to_move or "")
                game.play(move)
        except Exception as exc:  # noqa: BLE001 - a stored game the library now refuses
            if token is not ANYONE:
                access.identify(Live(row=row, game=None), token)  # type: ignore[arg-type]
            raise ApiError(409, "corrupt_game", f"game {gid} cannot be replayed: "
                           f"{reason(exc)}") from None
        live = Live(row=row, game=game, movers=movers,
                    client=row.meta.get("client") or f"game:{gid}")
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

    def forget(self, gid: str) -> None:
        """Drop a game from memory (it is being deleted), stopping its tasks."""
        live = self.live.pop(gid, None)
        if live is not None and live.task is not None:
            live.task.cancel()
        if live is not None and live.clock_task is not None:
            live.clock_task.cancel()

    def _next_version(self) -> str:
        return f"{self.boot}-{next(self.counter)}"

    def bump(self, live: Live) -> None:
        live.version = self._next_version()
        live.changed.set()
        live.changed = asyncio.Event()

    # ------------------------------------------------------------ creating
    def owned_answer(self, live: Live, owner: str | None, ply: int | None = None) -> dict:
        """A new game's state, with its owner token and the link that carries it."""
        state = self.views.state(live, ply)
        if owner is None:
            return state
        return {**state, "tokens": {"owner": owner},
                "links": {"you": f"/#/play/{live.row.id}/{owner}"}}

    # ------------------------------------------------------------ changes
    def take_back(self, live: Live, n: int) -> None:
        """Undo the last ``n`` moves in the live game and in the store, or in
        neither: if the write fails the moves are played again."""
        taken = []
        live.moved()
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
        live.engine_failures = 0

    def commit_move(self, live: Live, move: str) -> None:
        """Play ``move`` (library-validated) and store it; raises IllegalMoveError."""
        game = live.game
        mover = game.to_move or ""   # "": the game is over, and play refuses the move
        mover_seat = live.seat_of(mover) if mover else 0
        live.moved()
        game.play(move)
        canonical = game.history[-1]
        stored = live.row.meta.get("clock")
        meta: GameMeta | None = None
        if stored:
            now = time.time()
            clock = Clock(**stored)
            if clock["started"] is not None and clock["kind"] == "total" \
                    and clock["remaining"] is not None:
                rem = list(clock["remaining"])
                rem[mover_seat] -= now - clock["started"]
                next_seat = None if game.is_over or game.to_move is None else \
                    game.seat_of(game.to_move)  # (the move is in the game's history)
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
            self.store.change_meta(live.row, undo_request=None)
        live.row.updated = time.time()
        live.engine_error = None
        live.engine_failures = 0
        self.bump(live)
        self.ensure_engine(live)

    # ------------------------------------------------------------ the computer
    def ensure_engine(self, live: Live) -> None:
        """If a computer is to move, start it thinking (once)."""
        if live.task is not None and not live.task.done():
            return
        seat = live.to_move_seat()
        if seat is None or live.engine_error is not None:
            return
        s = live.row.seats[seat]
        if s["kind"] != "computer" or self.pool.threads is None:
            return
        live.task = asyncio.get_running_loop().create_task(
            self._engine_turn(live, live.version, s.get("engine", "random")))

    async def pre_game_choice(self, client: str, fn, engine: str, *args):
        """A game's pre-game choices (``opponents.value_for`` / ``color_for``)
        depend only on their arguments (the engine is seeded with 0), so each
        is searched once and remembered (the last :data:`PRE_GAME_REMEMBERED`;
        the arguments are bounded: a value by the option's range): asking
        again, or many visitors asking at once, costs the engine pool
        nothing. A failed search is not remembered. A client with too many
        engine calls under way is refused 429."""
        key = (fn.__name__, engine, *args)
        future = self._pre_game.get(key)
        if future is None or (future.done() and (future.cancelled() or future.exception())):
            future = self._pre_game[key] = asyncio.ensure_future(
                self.pool.run(client, engine, fn, engine, *args))
            while len(self._pre_game) > PRE_GAME_REMEMBERED:
                self._pre_game.popitem(last=False)
        self._pre_game.move_to_end(key)
        with answered("engine_busy", "engine_failed", "the computer"):
            return await asyncio.shield(future)  # a request that goes away leaves it running

    async def _engine_turn(self, live: Live, version: str, engine: str) -> None:
        row = live.row
        seed = int.from_bytes(hashlib.sha256(f"{row.id}:{len(row.moves)}".encode()).digest()[:4],
                              "big")
        while True:
            try:
                move = await self.pool.run(live.client or f"game:{row.id}", engine,
                                           opponents.compute_move, row.game, row.size,
                                           row.options, row.meta.get("start"), list(row.moves),
                                           engine, seed)
                break
            except asyncio.CancelledError:
                raise
            except EngineDied:
                live.engine_failures += 1
                if live.engine_failures <= self.settings.engine_retries:
                    continue  # a worker killed from outside: a fresh one tries again
                error = ENGINE_DIED.format(n=self.settings.engine_retries)
            except EngineBusy:
                await asyncio.sleep(0.5)  # this client's other games first
                if live.version != version:
                    return
                continue
            except EngineTimeout as exc:
                error = f"the computer ({engine}) took too long: {exc}; press Retry to ask again"
            except Exception as exc:  # noqa: BLE001 - the engine failed: say so, let the player retry
                error = f"the computer ({engine}) failed: {exc}"
            if live.version == version:
                live.task = None
                live.engine_error = error
                self.bump(live)
            return
        if live.version != version or live.is_over():
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
