"""One study game, played in a worker process: self-play with the match
machinery's seeds and seats, plus what the metrics need per position.

The loop is :func:`boardlab.ai.match.play_game`'s (same engines, same seeds
from :func:`boardlab.ai.match.game_seeds`, engine A on the first color in even
games, a pie ``swap`` exchanging the colors the engines hold), so a study game
is a match game and its record replays with ``replay_check``. On top it notes,
at each position, the number of legal moves (BranchingFactor), the mover, the
search's simulations (whether the engine could answer, :mod:`.adequacy`), and
the engine's own evaluation from its move comment (LeadChange,
DecisivenessThreshold), and it times the engine apart from everything else
(the runner's overhead).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import boardlab

from ..ai.comments import parse_comment
from ..ai.match import GameResult, _agents, _seats
from ..records.model import continues_turn


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


def play_study_game(task: tuple) -> StudyGame:
    """``task`` = (config key, game, size, options, engine, index, seed, max plies)."""
    t_task = time.perf_counter()
    key, name, size, options, engine, index, seed, max_plies = task
    game = boardlab.new_game(name, size, **options)
    agents = _agents(engine, engine, seed, index)
    first, second = game.colors
    people = _seats(index)
    a_color = game.colors[people.index("A")]
    longest = {"A": 0.0, "B": 0.0}
    comments: dict[int, str] = {}
    legal: list[int] = []
    movers: list[int] = []
    evals: list[float | None] = []
    visits: list[int | None] = []
    turns = 0
    new_turn = True
    engine_seconds = 0.0
    start = time.perf_counter()
    cpu_start = time.process_time()
    while not game.is_over and (max_plies is None or len(game) < max_plies):
        mover_color = game.to_move
        assert mover_color is not None  # the game is not over
        mover = 0 if mover_color == first else 1
        legal.append(len(game.legal_actions()))
        movers.append(mover)
        who = people[game.seat_of(mover_color)]
        agent = agents[who]
        t0 = time.perf_counter()
        action = agent.choose_action(game)
        dt = time.perf_counter() - t0
        engine_seconds += dt
        longest[who] = max(longest[who], dt)
        if new_turn:
            turns += 1
        text = game.action_to_string(action)
        game.apply_action(action)
        new_turn = not continues_turn(game, mover_color, text)
        comment = agent.move_comment()
        parsed = parse_comment(comment) if comment else None
        if comment:
            comments[len(game)] = comment
        visits.append(None if parsed is None else parsed.visits)
        # a search with fewer simulations than legal moves has seen most moves
        # once or never: its value is one playout's, not an evaluation
        evals.append(None if parsed is None or parsed.value is None
                     or (parsed.visits or 0) < legal[-1] and not parsed.proven
                     else first_color_probability(parsed.value, mover))
    out = game.outcome
    winner = None if out is None else out.winner
    if winner is None or winner == "draw":
        a_result = 0.5
    else:
        a_result = 1.0 if people[game.seat_of(winner)] == "A" else 0.0
    # the seat that moved first (seat 0) holds the first color, or the second after a swap
    first_mover_color = game.color_of(0)
    first_mover_won = (None if winner is None else 0.5 if winner == "draw"
                       else float(winner == first_mover_color))
    result = GameResult(index, a_color, game.colors_swapped, game.action_history,
                        "unfinished" if winner is None else winner, a_result,
                        "unfinished" if out is None else out.termination.value, len(game),
                        time.perf_counter() - start, longest, time.process_time() - cpu_start,
                        comments)
    first_move = game.history[0] if len(game) else None
    scores = None if out is None else out.scores
    margin = None if not scores else float(scores[first] - scores[second])
    return StudyGame(key, index, seed, result, winner, first_mover_won, turns, first_move,
                     legal, movers, evals, visits, margin, engine_seconds,
                     time.perf_counter() - t_task)


def warm(game: str, sizes: list[int], engine: str) -> None:
    """One search per size, so the compiled core is loaded: in the parent
    before local workers fork (every worker inherits it instead of loading
    its own, about a second each), in each Ray actor as it starts."""
    import boardlab

    from ..ai.engines import make_engine
    for size in sizes:
        make_engine(engine, 0).choose_action(boardlab.new_game(game, size))
