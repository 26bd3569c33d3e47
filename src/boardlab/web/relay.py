"""A line between a pool call that reports as it goes (an analysis) and the
server: the worker's messages stream to the server as they are made, and
the server can ask the worker to stop.

An engine-pool call returns one value at its end, but a user must see an
analysis's first candidates at once and then watch them refine. So the
server keeps a :class:`Relay`, a socket server on its event loop: on Linux a
Unix socket in the abstract namespace (no file: nothing is left on disk
however the server ends, ``kill -9`` included), elsewhere TCP on 127.0.0.1.
Each call gets a :class:`Line` with a random key; the worker connects with
that key (:class:`Sender`, plain data in: the address and the key, as a
process pool needs), sends length-prefixed JSON messages, and watches the
socket for the server's stop byte. Messages arrive as they are sent (no
polling); a worker that dies, or a server that goes away, closes the line.

A stop is asked for this way rather than by killing the worker, because a
fresh worker spends a second or more loading the compiled kernels, which
the next user would wait for.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import select
import socket
import sys
from collections.abc import AsyncIterator, Awaitable
from typing import Any

#: bytes of a line's key (hex), sent first by the worker
KEY_CHARS = 32
#: the largest message a worker may send (an analysis snapshot is a few KiB)
MAX_FRAME = 8 * 1024 * 1024
#: seconds a connection has to name its line
HELLO_TIMEOUT = 10.0
_END = object()

Address = str | tuple[str, int]


class Line:
    """One call's line, server side: :meth:`messages` yields what the
    worker sends; :meth:`stop` asks it to stop."""

    def __init__(self, relay: Relay, key: str) -> None:
        self.relay = relay
        self.key = key
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._writer: asyncio.StreamWriter | None = None
        self._stop_asked = False

    @property
    def address(self) -> tuple[Address, str]:
        """What the worker needs to connect (plain data)."""
        assert self.relay.address is not None
        return self.relay.address, self.key

    async def messages(self, call: Awaitable[Any]) -> AsyncIterator[dict[str, Any]]:
        """The worker's messages as they arrive, until ``call`` (the pool
        call) is done or the worker's end closes."""
        done = asyncio.ensure_future(call)
        while not done.done():
            get = asyncio.ensure_future(self._queue.get())
            finished, _ = await asyncio.wait({done, get}, return_when=asyncio.FIRST_COMPLETED)
            if get not in finished:
                get.cancel()
                return
            msg = get.result()
            if msg is _END:
                return
            yield msg

    def stop(self) -> None:
        """Ask the worker to stop (at its next check)."""
        self._stop_asked = True
        if self._writer is not None and not self._writer.is_closing():
            self._writer.write(b"s")

    def close(self) -> None:
        self.relay._lines.pop(self.key, None)
        if self._writer is not None:
            self._writer.close()

    # ---------------------------------------------------------- the relay's side
    def _attach(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        if self._stop_asked:
            writer.write(b"s")

    def _put(self, msg: Any) -> None:
        self._queue.put_nowait(msg)


class Relay:
    """The server's end of every line (see the module docstring)."""

    def __init__(self) -> None:
        self.address: Address | None = None
        self._server: asyncio.AbstractServer | None = None
        self._lines: dict[str, Line] = {}
        self._starting: asyncio.Lock | None = None

    async def open(self) -> Line:
        """A new line (the relay starts listening with the first)."""
        if self._server is None:
            if self._starting is None:
                self._starting = asyncio.Lock()
            async with self._starting:
                if self._server is None:
                    await self._listen()
        key = secrets.token_hex(KEY_CHARS // 2)
        line = self._lines[key] = Line(self, key)
        return line

    async def _listen(self) -> None:
        if sys.platform.startswith("linux"):
            address = f"\0boardlab-relay-{secrets.token_hex(8)}"
            self._server = await asyncio.start_unix_server(self._serve, path=address)
            self.address = address
        else:
            self._server = await asyncio.start_server(self._serve, host="127.0.0.1", port=0)
            host, port = self._server.sockets[0].getsockname()[:2]
            self.address = (host, port)

    def close(self) -> None:
        for line in list(self._lines.values()):
            line.close()
        if self._server is not None:
            self._server.close()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        line = None
        try:
            key = await asyncio.wait_for(reader.readexactly(KEY_CHARS), HELLO_TIMEOUT)
            line = self._lines.get(key.decode("ascii", "replace"))
            if line is None or line._writer is not None:
                line = None
                return  # not a line of ours, or one already taken
            line._attach(writer)
            while True:
                size = int.from_bytes(await reader.readexactly(4), "big")
                if size > MAX_FRAME:
                    return
                line._put(json.loads(await reader.readexactly(size)))
        except (asyncio.IncompleteReadError, TimeoutError, ConnectionError, ValueError):
            pass
        finally:
            if line is not None:
                line._put(_END)
            writer.close()


class Sender:
    """A worker's end of a line: :meth:`put` a message, :meth:`stopped` to
    look for the server's stop (or its going away). Built from
    :attr:`Line.address`."""

    def __init__(self, address: tuple[Address, str]) -> None:
        where, key = address
        family = socket.AF_UNIX if isinstance(where, str) else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self._stopped = False
        try:
            self.sock.connect(where)
            self.sock.sendall(key.encode("ascii"))
        except OSError:  # the server is gone: nobody is listening
            self._stopped = True

    def put(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode()
        try:
            self.sock.sendall(len(data).to_bytes(4, "big") + data)
        except OSError:
            self._stopped = True

    def stopped(self) -> bool:
        """True once the server asked this call to stop or went away."""
        if not self._stopped:
            try:
                readable, _, _ = select.select([self.sock], [], [], 0)
            except (OSError, ValueError):
                readable = [self.sock]
            self._stopped = bool(readable)  # a stop byte, or the end of the line
        return self._stopped

    def is_set(self) -> bool:
        """``threading.Event``'s name, so ``analysis.analyse(stop=sender)`` works."""
        return self.stopped()

    def close(self) -> None:
        self.sock.close()
