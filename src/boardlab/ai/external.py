"""An outside engine, run as a subprocess speaking UGI (``boardlab engine``'s protocol).

``cmd:COMMAND`` names one in a match (``boardlab match robble --a level3 --b
"cmd:/path/to/engine --flag"``); ``cmd@BUDGET:COMMAND`` sets its budget per
move (``cmd@500:...`` sends ``go nodes 500``, ``cmd@0.5s:...`` ``go movetime
500``; default 1 s). Every move sends the whole game (``position startpos moves
...`` or ``position fen START moves ...``), so the engine also sees history
that a position text cannot hold (robble's repetitions). A move the engine
answers that is not legal, or an engine that dies or stays silent, is an
error naming the engine and what it said.
"""

from __future__ import annotations

import shlex
import subprocess
import threading
import weakref
from queue import Empty, Queue

from ..core.game import Game
from ..errors import IllegalMoveError, OptionError
from .agent import BaseAgent
from .limit import Limit

#: Seconds an engine may take beyond its budget before it counts as hung.
GRACE_SECONDS = 10.0


class EngineError(OptionError):
    """An outside engine that failed: it died, hung, or answered nonsense."""


def parse_spec(spec: str) -> tuple[Limit, list[str]]:
    """``cmd:COMMAND`` or ``cmd@BUDGET:COMMAND`` -> (budget, argv)."""
    head, sep, command = spec.partition(":")
    if not sep or not head.lower().startswith("cmd"):
        raise OptionError(f"engine {spec!r}: expected cmd:COMMAND or cmd@BUDGET:COMMAND")
    budget = head[3:]
    if budget and not budget.startswith("@"):
        raise OptionError(f"engine {spec!r}: expected cmd:COMMAND or cmd@BUDGET:COMMAND")
    limit = Limit.parse(budget[1:]) if budget else Limit(seconds=1.0)
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise OptionError(f"engine {spec!r}: {exc}") from None
    if not argv:
        raise OptionError(f"engine {spec!r}: no command")
    return limit, argv


class UGIAgent(BaseAgent):
    """Plays the moves an outside UGI engine chooses (its settings, beyond
    the command and budget in ``spec``, are the engine's own: unknown here)."""

    setting_attributes = {"spec": "name"}

    def __init__(self, spec: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.limit, self.argv = parse_spec(spec)
        self.name = spec
        self._proc: subprocess.Popen[str] | None = None
        self._lines: Queue[str | None] = Queue()

    # ------------------------------------------------------------ process
    def _start(self) -> subprocess.Popen[str]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    text=True, bufsize=1)
        except OSError as exc:
            raise EngineError(f"engine {self.name!r}: cannot start {self.argv[0]!r}: "
                              f"{exc.strerror or exc}") from None
        self._proc = proc
        self._lines = Queue()
        threading.Thread(target=self._pump, args=(proc, self._lines), daemon=True).start()
        weakref.finalize(self, _close, proc)
        self._send("ugi")
        self._wait_for("ugiok", GRACE_SECONDS)
        return proc

    @staticmethod
    def _pump(proc: subprocess.Popen[str], lines: Queue[str | None]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def _send(self, line: str) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except OSError:
            raise EngineError(f"engine {self.name!r} exited (sending {line!r})") from None

    def _wait_for(self, word: str, timeout: float) -> str:
        """The first line starting with ``word``; errors the engine reports are raised."""
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except Empty:
                raise EngineError(f"engine {self.name!r}: no {word!r} within {timeout:g} s") from None
            if line is None:
                raise EngineError(f"engine {self.name!r} exited before answering {word!r}")
            if line.startswith("info string error"):
                raise EngineError(f"engine {self.name!r}: {line[len('info string '):]}")
            if line.split()[:1] == [word]:
                return line

    def close(self) -> None:
        if self._proc is not None:
            _close(self._proc)
            self._proc = None

    def reset(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._send("uginewgame")

    # ------------------------------------------------------------ moves
    def choose_action(self, game: Game) -> int:
        self._start()
        start = game.copy()
        while len(start):
            start.undo()
        fresh = type(game)(game.size, **game.options)
        where = "startpos" if start.position() == fresh.position() else f"fen {start.position()}"
        moves = " ".join(game.history)
        self._send(f"position {where}" + (f" moves {moves}" if moves else ""))
        lim = self.limit
        go = "go" + (f" nodes {lim.simulations}" if lim.simulations else "") + \
            (f" movetime {round(lim.seconds * 1000)}" if lim.seconds else "")
        self._send(go)
        wait = (lim.seconds or 0) + GRACE_SECONDS + (lim.simulations or 0) / 200
        answer = self._wait_for("bestmove", wait).split()
        if len(answer) < 2:
            raise EngineError(f"engine {self.name!r}: 'bestmove' without a move")
        try:
            action = game.string_to_action(answer[1])
        except IllegalMoveError as exc:
            raise EngineError(f"engine {self.name!r} answered {answer[1]!r}: {exc.reason}") from None
        if not game.is_legal_action(action):
            raise EngineError(f"engine {self.name!r} answered the illegal move {answer[1]!r}")
        return action


def _close(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        try:
            assert proc.stdin is not None
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
