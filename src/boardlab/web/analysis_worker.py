"""Analysis in the engine pool's workers: one position (streamed) or a whole game.

An analysis runs as one call of the server's :class:`~boardlab.web.pool.EnginePool`
(a worker process, or a thread with ``--engine-workers 0``), so it shares the
pool's isolation and fair share with the computer's moves. A pool call
returns one value at its end, but a user must see the first candidates at
once and then watch them refine, and a whole game's progress; so the worker
talks back over a :mod:`~boardlab.web.relay` line: it sends a message after
every snapshot, and stops at its next check once the server asks.

Everything here takes and returns plain data (a :class:`Request` made of
strings and numbers, the line's address), as a process pool needs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import boardlab
from boardlab.ai import analysis
from boardlab.ai.limit import Limit
from boardlab.games import view as plugin

from . import view
from .relay import Address, Sender


@dataclass(frozen=True)
class Request:
    """A position to analyse: a game's start (its kind, size, options, or a
    set-up position text) and the moves played from it."""

    game: str
    size: int | None
    options: dict[str, Any]
    start: str | None
    moves: tuple[str, ...]
    seconds: float
    top: int = 5

    def build(self) -> tuple[boardlab.Game, list[int]]:
        """The start position and the moves' actions. Raises the library's
        errors (OptionError, PositionError, IllegalMoveError); the caller
        (``routes.analysis_api``) turns them into the API's answers."""
        if self.start is not None:
            game = boardlab.from_position(self.start)
        else:
            game = boardlab.new_game(self.game, self.size, **self.options)
        start = game.copy()
        actions = []
        for move in self.moves:
            a = game.string_to_action(move)
            game.apply_action(a)
            actions.append(a)
        return start, actions


def analysis_json(game: boardlab.Game, an: analysis.Analysis) -> dict[str, Any]:
    """An analysis as the page draws it: the library's JSON, each candidate's
    board points (to draw it without knowing the notation) and the score
    lead at the end of the best line where the game keeps a score."""
    out = an.to_json()
    for c in out["candidates"]:
        c["points"] = view.move_points(c["move"], game.size)
        c["pv_points"] = [view.move_points(m, game.size) for m in c["pv"]]
    out["lead"] = _lead(game, an)
    out["ownership"] = _ownership(game) if an.done else None
    return out


def _ownership(game: boardlab.Game) -> dict[str, Any] | None:
    """The ownership heat map of the position, where the game's view shows one:
    ``values`` per point (a1 first) in [-1, 1], +1 meaning ``color`` scores it.
    Computed once per finished analysis (about 10-20 ms), not per snapshot."""
    if not plugin.shows_ownership(game):
        return None
    from boardlab.fast.ownership import ownership
    values = ownership(game, seed=0)
    if values is None:
        return None
    return {"color": game.colors[0], "values": [round(float(v), 3) for v in values]}


def _lead(game: boardlab.Game, an: analysis.Analysis) -> dict[str, Any] | None:
    """The score lead of the mover if the game followed the best candidate's
    principal variation: the game's live score there (None for a game
    without one). A rough guide, and said so on the page: the search
    estimates win probabilities, not scores."""
    best = an.best
    if best is None:
        return None
    g = game.copy()
    try:
        for move in best.pv:
            g.play(move)
    except boardlab.BoardlabError:
        return None
    scores = view.live_scores(g)
    if not scores:
        return None
    mover = an.to_move
    other = next(c for c in game.colors if c != mover)
    return {"color": mover, "lead": float(scores[mover]) - float(scores[other]),
            "after": len(best.pv), "scores": {k: float(v) for k, v in scores.items()}}


def analyse_position(req: Request, line: tuple[Address, str]) -> dict[str, Any]:
    """Search the position after ``req.moves`` for ``req.seconds``, sending a
    snapshot on the line about every 0.25 s (the first after 0.2 s at
    most); the final analysis is the return value and the last message."""
    start, actions = req.build()
    game = start
    for a in actions:
        game.apply_action(a)
    sender = Sender(line)
    try:
        def update(an: analysis.Analysis) -> None:
            sender.put({"kind": "analysis", "analysis": analysis_json(game, an)})

        final = analysis.analyse(game, Limit(seconds=req.seconds), seed=0, top=req.top,
                                 on_update=update, stop=sender)
        out = {"kind": "analysis", "analysis": analysis_json(game, final)}
        sender.put(out)
        return out
    finally:
        sender.close()


def analyse_whole_game(req: Request, line: tuple[Address, str]) -> dict[str, Any]:
    """Every position of the game (before each move, and the last if the game
    goes on) for ``req.seconds`` each, one after the other, putting each on
    the line as it is done (``progress``); then every move judged. A stop
    ends it after the position being searched (the answer has
    ``stopped``)."""
    start, actions = req.build()
    sender = Sender(line)
    try:
        return _whole_game(req, start, actions, sender)
    finally:
        sender.close()


def _whole_game(req: Request, start: boardlab.Game, actions: list[int],
                sender: Sender) -> dict[str, Any]:
    games = [start]
    for a in actions:
        g = games[-1].copy()
        g.apply_action(a)
        games.append(g)
    todo = [i for i, g in enumerate(games) if not g.is_over]
    analyses: list[analysis.Analysis] = []
    plies: list[dict[str, Any]] = []
    started = time.perf_counter()
    for k, i in enumerate(todo):
        if sender.stopped():
            out = {"kind": "game", "stopped": True, "done": k, "total": len(todo)}
            sender.put(out)
            return out
        an = analysis.analyse(games[i], Limit(seconds=req.seconds), seed=i, top=req.top,
                              stop=sender)
        analyses.append(an)
        plies.append({"ply": i, **analysis_json(games[i], an)})
        sender.put({"kind": "progress", "done": k + 1, "total": len(todo), "ply": i,
                     "analysis": plies[-1],
                     "seconds": round(time.perf_counter() - started, 2)})
    judgements = [analysis.judge(games[i], analyses, i, a, games[i + 1])
                  for i, a in enumerate(actions)]
    wins = [an.wins for an in analyses]
    final = games[-1]
    if final.is_over and final.outcome is not None:
        winner = final.outcome.winner
        wins.append({c: 0.5 if winner == "draw" else float(winner == c) for c in final.colors})
    result = analysis.GameAnalysis(analyses, judgements, wins)
    out = {
        "kind": "game", "stopped": False, "total": len(todo),
        "seconds": round(time.perf_counter() - started, 2),
        "wins": [{c: round(p, 4) for c, p in w.items()} for w in wins],
        "judgements": [{"ply": j.ply, "move": j.move, "mover": j.mover,
                        "before": round(j.before, 4), "after": round(j.after, 4),
                        "drop": round(j.drop, 4), "best": j.best, "label": j.label,
                        "glyph": j.glyph} for j in judgements],
        "counts": result.counts(),
        "accuracy": result.accuracy(),
        "plies": plies,
        "thresholds": [{"drop": t, "label": name, "glyph": g}
                       for t, name, g in analysis.THRESHOLDS],
    }
    sender.put(out)
    return out


def warm_up() -> None:
    """Load every game's compiled search (numba's cached machine code) in
    this worker, so the first analysis a user asks for shows candidates
    within a second rather than after the loading. Run by a worker at its
    start (``EnginePool(warm=...)``), in a thread of its own."""
    from boardlab.fast.warm import warm_game
    for name in boardlab.GAMES:
        warm_game(name)
