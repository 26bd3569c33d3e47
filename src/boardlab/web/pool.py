"""The engine pool: computer moves and yugo's pre-game searches, off the event loop.

The same class is the server's *work pool* (``Hub.work``): the heavy work
that depends on what a client sends (records, a position's legal moves, the
list's replays) runs there with its own workers and timeout, every call
queued per client (:meth:`EnginePool.call`), so it never stalls the event
loop nor waits behind a search.

Why it is built this way:

- **Isolation.** Each call is a task of a :class:`pebble.ProcessPool` (a
  maintained pool that kills one worker for a task that times out or is
  cancelled, and reports a worker that died as that task's
  :class:`pebble.ProcessExpired`): a hung or killed engine costs only its own
  game, never the others' calls, and the pool itself is never replaced.
- **Fair share.** At most ``workers`` calls run at once, and one client's at
  most ``workers - 1`` of them (one, with one or two workers): with two
  workers or more, another client's call never waits for more than the
  calls already running. Waiting calls are queued per client and the next
  free worker goes to the client served least, so one client's eight
  level-5 games wait behind each other, not in front of everyone else. A
  client may have at most ``per_client`` calls waiting or running
  (:class:`EngineBusy`); a game has one at a time (its turn).
- **Quick replies.** An engine the registry ranks as cheap (strength 0 or
  less: the random mover) runs in a thread at once, never queued behind a
  search.
- **No orphans.** A worker asks the kernel to kill it when the server dies
  (Linux ``PR_SET_PDEATHSIG``) and also watches its parent itself, so a
  ``kill -9`` of the server leaves no worker (and so no multiprocessing
  resource tracker, which lives as long as a worker holds its pipe).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

import pebble

from boardlab import ai


class EngineTimeout(Exception):
    """An engine call (a move, a pre-game search) did not answer in time."""


class EngineDied(Exception):
    """The worker running an engine call died (killed, out of memory)."""


class EngineBusy(Exception):
    """A client already has as many engine calls waiting or running as it may."""


# ---------------------------------------------------------------- in the worker
def die_with_parent(parent: int, warm: Callable[[], None] | None = None) -> None:
    """A worker's initializer: end this process when ``parent`` (the server)
    ends, however it ends; then start ``warm()`` (loading what the first call
    would otherwise wait for) in a thread of its own."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above ran
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    if warm is not None:
        threading.Thread(target=warm, name="warm-up", daemon=True).start()


def is_cheap(engine: str) -> bool:
    """An engine that answers in milliseconds: run at once, never queued."""
    return ai.strength(engine) <= 0


# ---------------------------------------------------------------- in the server
class EnginePool:
    """Engine calls for the hub (see the module docstring)."""

    def __init__(self, workers: int = 1, timeout: float = 300.0, per_client: int = 2,
                 warm: Callable[[], None] | None = None) -> None:
        self.workers = workers
        #: run by each worker process as it starts (a module-level function)
        self.warm = warm
        self.timeout = timeout
        self.per_client = per_client
        self.processes: pebble.ProcessPool | None = None
        self.threads: concurrent.futures.ThreadPoolExecutor | None = None
        #: calls that may run at once: the workers, or two threads without them
        self.slots = workers if workers > 0 else 2
        #: calls answered, for the probes (bench/hardening.py) and tests
        self.done = 0
        self._running = 0
        #: client -> its waiting calls (futures to wake), in arrival order
        self._waiting: OrderedDict[str, deque[asyncio.Future]] = OrderedDict()
        self._per_client: dict[str, int] = {}
        #: client -> calls it was given a worker for while it had calls under way:
        #: the next free worker goes to the waiting client served least
        self._served: dict[str, int] = {}
        #: client -> its calls running now
        self._running_by: dict[str, int] = {}

    def start(self) -> None:
        self.threads = concurrent.futures.ThreadPoolExecutor(
            max(2, self.workers), thread_name_prefix="engine")
        if self.workers > 0:
            self.processes = pebble.ProcessPool(
                max_workers=self.workers, initializer=die_with_parent,
                initargs=(os.getpid(), self.warm), context=multiprocessing.get_context("spawn"))
            if self.warm is not None:
                # pebble starts its workers with the first task: start them now,
                # so they warm up before anyone asks
                for _ in range(self.workers):
                    self.processes.schedule(os.getpid)

    def stop(self) -> None:
        if self.processes is not None:
            self.processes.stop()   # terminates the workers, thinking or not
            self.processes.join(timeout=5)
            self.processes = None
        if self.threads is not None:
            self.threads.shutdown(wait=False, cancel_futures=True)
            self.threads = None

    def pids(self) -> list[int]:
        """The worker processes now (for tests and the hardening probes)."""
        if self.processes is None:
            return []
        return [p.pid for p in multiprocessing.active_children() if p.pid is not None]

    def load(self) -> dict[str, int]:
        return {"running": self._running,
                "waiting": sum(len(q) for q in self._waiting.values())}

    async def run(self, client: str, engine: str, fn: Callable, *args: Any) -> Any:
        """``fn(*args)`` for ``client``: in a thread if ``engine`` is cheap (or
        the pool has no processes), else in a worker once its turn comes.
        Raises EngineBusy, EngineTimeout or EngineDied."""
        if self.processes is None or is_cheap(engine):
            return await self._in_thread(fn, args)
        return await self.call(client, fn, *args)

    async def call(self, client: str, fn: Callable, *args: Any) -> Any:
        """``fn(*args)`` for ``client`` once its turn comes (see the module
        docstring), in a worker process, or in a thread where the pool has
        none. Raises EngineBusy, EngineTimeout or EngineDied."""
        if self._per_client.get(client, 0) >= self.per_client:
            raise EngineBusy(f"{self.per_client} calls of yours are waiting or running")
        self._per_client[client] = self._per_client.get(client, 0) + 1
        try:
            await self._turn(client)
            try:
                if self.processes is None:
                    return await self._in_thread(fn, args)
                return await self._in_process(fn, args)
            finally:
                self.done += 1
                self._release(client)
        finally:
            left = self._per_client[client] - 1
            if left:
                self._per_client[client] = left
            else:
                del self._per_client[client]
                self._served.pop(client, None)

    async def _in_thread(self, fn: Callable, args: tuple) -> Any:
        future = asyncio.get_running_loop().run_in_executor(self.threads, fn, *args)
        try:
            return await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            raise EngineTimeout(f"no answer within {self.timeout:g} s") from None

    async def _in_process(self, fn: Callable, args: tuple) -> Any:
        assert self.processes is not None
        task = self.processes.schedule(fn, args, timeout=self.timeout)
        try:
            return await asyncio.wrap_future(task)
        except asyncio.CancelledError:
            task.cancel()   # a running task's worker is stopped, not left thinking
            raise
        except concurrent.futures.TimeoutError:
            raise EngineTimeout(f"no answer within {self.timeout:g} s; its worker was "
                                "stopped") from None
        except pebble.ProcessExpired as exc:
            raise EngineDied(f"its worker process ended (exit code {exc.exitcode})") from None

    async def _turn(self, client: str) -> None:
        """Wait until a worker is free and it is ``client``'s turn."""
        if self._running < self.slots and not self._waiting and self._may_run(client):
            self._take(client)
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(waiter)
        self._wake()  # a worker may be free for this client though not for those waiting
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # given a slot, then cancelled
                self._release(client)
            else:
                queue = self._waiting.get(client)
                if queue is not None and waiter in queue:
                    queue.remove(waiter)
                    if not queue:
                        del self._waiting[client]
            raise

    def _may_run(self, client: str) -> bool:
        """A client may hold all workers but one (all of one worker): the
        others' next call never waits for more than the call running."""
        return self._running_by.get(client, 0) < max(1, self.slots - 1)

    def _take(self, client: str) -> None:
        self._running += 1
        self._running_by[client] = self._running_by.get(client, 0) + 1
        self._served[client] = self._served.get(client, 0) + 1

    def _release(self, client: str) -> None:
        self._running -= 1
        left = self._running_by[client] - 1
        if left:
            self._running_by[client] = left
        else:
            del self._running_by[client]
        self._wake()

    def _wake(self) -> None:
        """Hand free workers to waiting clients: to the one served least so far
        (the first to arrive among equals) of those under their share."""
        while self._running < self.slots:
            ready = [c for c in self._waiting if self._may_run(c)]
            if not ready:
                return
            client = min(ready, key=lambda c: self._served.get(c, 0))
            queue = self._waiting.pop(client)
            waiter = queue.popleft()
            if queue:
                self._waiting[client] = queue
            if not waiter.done():
                self._take(client)
                waiter.set_result(None)
