"""One study game, played in a worker process: a match game (the one
self-play loop, :func:`boardlab.ai.selfplay.play`, with a match's seeds and
seats) plus what the metrics need per position.

A study game is game ``index`` between the study's engine and itself
(:class:`~boardlab.ai.selfplay.GameTask`: engine A on the first color in even
games, a pie ``swap`` exchanging the colors the engines hold), so its record
replays with ``replay_check``. On top it notes, at each position, the number
of legal moves (BranchingFactor), the mover, the search's simulations
(whether the engine could answer, :mod:`.adequacy`) and the engine's own
evaluation (LeadChange, DecisivenessThreshold), read from the engine's own
account of its move (:func:`boardlab.ai.selfplay.thought`), and it times the
engine apart from everything else (the runner's overhead).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import boardlab

from ..ai.engines import make_engine
from ..ai.match import GameResult, game_result
from ..ai.selfplay import GameTask, Ply, play, thought
from ..records.model import continues_turn


@dataclass(frozen=True)
class StudyTask:
    """One game of a study: the configuration it belongs to and the game."""

    config_key: str
    game: GameTask


@dataclass
class StudyGame:
    """A finished (or ply-capped) study game and its per-position data."""

    config_key: str
    index: int
    seed: int
    result: GameResult
    winner: str | None            # a color, "draw", or None: stopped at --max-plies
    first_mover_won: float | None  # 1/0.5/0 for the seat that moved first; None unfinished
    turns: int
    first_move: str | None
    legal: list[int] = field(default_factory=list)      # legal moves before each ply
    movers: list[int] = field(default_factory=list)     # 0: first color, 1: second
    evals: list[float | None] = field(default_factory=list)  # P(first color wins) after each ply
    visits: list[int | None] = field(default_factory=list)  # the search's root simulations
    margin: float | None = None   # first color's score minus the second's (scored games)
    engine_seconds: float = 0.0
    worker_seconds: float = 0.0   # wall time of the whole task in the worker

    @property
    def swapped(self) -> bool:
        return self.result.swapped


def first_color_probability(value: float, mover: int) -> float:
    """The mover's expected return (-1..1) as the first color's win probability."""
    p = (value + 1.0) / 2.0
    return p if mover == 0 else 1.0 - p


def warm(game: str, sizes: list[int], engine: str) -> None:
    """One search per size, so the compiled core is loaded: in the parent
    before local workers fork (every worker inherits it instead of loading
    its own, about a second each), in each Ray actor as it starts."""
    for size in sizes:
        make_engine(engine, 0).choose_action(boardlab.new_game(game, size))


class _Notes:
    """What a study keeps of each ply (``on_ply`` of the self-play loop)."""

    def __init__(self, first: str) -> None:
        self.first = first
        self.legal: list[int] = []
        self.movers: list[int] = []
        self.evals: list[float | None] = []
        self.visits: list[int | None] = []
        self.turns = 0
        self.new_turn = True

    def __call__(self, ply: Ply) -> None:
        mover = 0 if ply.color == self.first else 1
        self.legal.append(ply.legal)
        self.movers.append(mover)
        if self.new_turn:
            self.turns += 1
        self.new_turn = not continues_turn(ply.game, ply.color, ply.move)
        said = thought(ply.agent)
        self.visits.append(None if said is None else said.visits)
        # a search with fewer simulations than legal moves has seen most moves
        # once or never: its value is one playout's, not an evaluation
        self.evals.append(None if said is None or said.value is None
                          or (said.visits or 0) < ply.legal and not said.proven
                          else first_color_probability(said.value, mover))


def play_study_game(task: StudyTask) -> StudyGame:
    """Play one study game and note what the metrics need."""
    t_task = time.perf_counter()
    spec = task.game
    game = spec.new_game()
    first, second = game.colors
    notes = _Notes(first)
    played = play(game, spec.seated_agents(), notes, spec.max_plies)
    result = game_result(spec, game, played)
    out = game.outcome
    winner = None if out is None else out.winner
    # the seat that moved first (seat 0) holds the first color, or the second after a swap
    first_mover_color = game.color_of(0)
    first_mover_won = (None if winner is None else 0.5 if winner == "draw"
                       else float(winner == first_mover_color))
    first_move = game.history[0] if len(game) else None
    scores = None if out is None else out.scores
    margin = None if not scores else float(scores[first] - scores[second])
    return StudyGame(task.config_key, spec.index, spec.seed, result, winner, first_mover_won,
                     notes.turns, first_move, notes.legal, notes.movers, notes.evals,
                     notes.visits, margin, played.engine_seconds, time.perf_counter() - t_task)
