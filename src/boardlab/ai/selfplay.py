"""One game between engines, move by move: the loop matches and studies share.

:func:`play` plays a game to its end (or a ply cap) with one agent per seat,
a pie ``swap`` exchanging the colors the seats hold (``Game.seat_of``), and
tells ``on_ply`` about each move as it is made; what a front end keeps of
it (a match's record comments and longest moves, a study's branching and
evaluations) is its own business. :class:`GameTask` is game ``index`` of a
series between engines A and B, as plain data a worker process can take:
engine A sits in seat 0 (the first color at the start) in even games, and
each game has its own seeds (:func:`game_seeds`), so a series with iteration
budgets replays exactly.

What an engine thought of its move is read from the agent itself
(:func:`thought`: the search agent's :class:`~boardlab.ai.search.SearchInfo`),
not from the comment text it writes for the record.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import boardlab

from ..core.game import Game
from .engines import make_engine
from .search import SearchInfo

#: What a timed engine's seconds are measured on: ``wall`` (the clock on the
#: wall) or ``cpu`` (the CPU time of the thread that searches, so two engines
#: get equal computation on a machine shared with other work).
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """The seeds of engines A and B in game ``index`` of a series seeded ``seed``."""
    base = (seed * 1_000_003 + index * 7_919) % (2 ** 31)
    return base, base + 1


def seats(index: int) -> tuple[str, str]:
    """Seat -> "A" or "B" in game ``index``: seat 0 starts with the first color,
    so A starts with it when ``index`` is even (``Game.seat_of`` follows swaps)."""
    return ("A", "B") if index % 2 == 0 else ("B", "A")


@dataclass(frozen=True)
class GameTask:
    """Game ``index`` of a series of engine ``a`` against engine ``b`` (engine
    specs, :func:`boardlab.ai.engines.make_engine`) at ``game`` ``size`` with
    ``options``; ``seed``: the series' seed; ``clock``: see :data:`CLOCKS`;
    ``max_plies``: stop there, unfinished (None: play to the end)."""

    game: str
    size: int
    options: dict[str, Any]
    a: str
    b: str
    index: int
    seed: int
    clock: str = "wall"
    max_plies: int | None = None

    def new_game(self) -> Game:
        return boardlab.new_game(self.game, self.size, **self.options)

    def seats(self) -> tuple[str, str]:
        return seats(self.index)

    def agents(self) -> dict[str, Any]:
        """The two engines, ``"A"`` and ``"B"``, seeded for this game, their
        seconds measured on the task's clock."""
        seed_a, seed_b = game_seeds(self.seed, self.index)
        out = {"A": make_engine(self.a, seed_a), "B": make_engine(self.b, seed_b)}
        for agent in out.values():
            if hasattr(agent, "clock"):
                agent.clock = CLOCKS[self.clock]
        return out

    def seated_agents(self) -> list[Any]:
        """The agents by seat (seat 0 first), as :func:`play` takes them."""
        agents = self.agents()
        return [agents[who] for who in self.seats()]


@dataclass(frozen=True)
class Thought:
    """What an engine thought of the move it just chose: its expected return
    for the mover (-1..1; None: it has no value to give, as for a move played
    without a search), the root's simulations, and whether it proved a win."""

    value: float | None
    visits: int | None
    proven: bool = False


def thought(agent: Any) -> Thought | None:
    """What ``agent`` thought of its last move, from its own account (a
    search agent's ``info``); None for an agent that keeps none."""
    info = getattr(agent, "info", None)
    if not isinstance(info, SearchInfo) or info.action is None:
        return None
    if info.proven_win:
        return Thought(1.0, info.root_visits, proven=True)
    if info.action not in info.children:  # played without a search (one move, special)
        return Thought(None, None)
    return Thought(info.value, info.root_visits)


@dataclass(frozen=True)
class Ply:
    """One move as :func:`play` tells ``on_ply`` about it, just after it."""

    game: Game           # the game after the move (do not change it)
    seat: int            # the seat that moved
    color: str           # the color it moved with
    action: int
    move: str            # the move's text
    legal: int           # how many legal moves the position before it had
    seconds: float       # the engine's time for it
    agent: Any           # the engine that moved (its ``info``: :func:`thought`)


@dataclass
class Played:
    """What :func:`play` measured of a game."""

    longest: list[float] = field(default_factory=lambda: [0.0, 0.0])  # longest move per seat
    comments: dict[int, str] = field(default_factory=dict)  # ply -> the mover's comment
    engine_seconds: float = 0.0   # the engines' time, summed
    seconds: float = 0.0          # wall time of the whole game
    cpu_seconds: float = 0.0      # CPU time of this process during it


def play(game: Game, agents: Sequence[Any], on_ply: Callable[[Ply], None] | None = None,
         max_plies: int | None = None) -> Played:
    """Play ``game`` on to its end (or until it has ``max_plies`` moves) with
    ``agents[seat]`` choosing for each seat (seat 0: the one that started
    with the first color; a swap moves the seats to the other colors). Every
    action goes through the checked API, so an engine's illegal move raises
    here. Each agent's comment on its move (``move_comment``) is kept by ply."""
    played = Played()
    start = time.perf_counter()
    cpu_start = time.process_time()
    while not game.is_over and (max_plies is None or len(game) < max_plies):
        color = game.to_move
        assert color is not None  # the game is not over
        seat = game.seat_of(color)
        agent = agents[seat]
        legal = len(game.legal_actions()) if on_ply is not None else 0
        t0 = time.perf_counter()
        action = agent.choose_action(game)
        dt = time.perf_counter() - t0
        played.engine_seconds += dt
        played.longest[seat] = max(played.longest[seat], dt)
        move = game.action_to_string(action)
        game.apply_action(action)  # checked: an illegal move raises here
        comment = agent.move_comment() if hasattr(agent, "move_comment") else None
        if comment:
            played.comments[len(game)] = comment
        if on_ply is not None:
            on_ply(Ply(game, seat, color, action, move, legal, dt, agent))
    played.seconds = time.perf_counter() - start
    played.cpu_seconds = time.process_time() - cpu_start
    return played
