"""A game's whole-game analysis, kept with the game: what is stored, how it
is checked, shown, written into the game's record and read back from one.

The analysis mode computes a whole-game analysis over the analysis socket
(``routes.analysis_api``) and hands it to ``PUT /api/games/{id}/analysis``; it
is stored in its own table (``db.Store.save_analysis``: too big for the
game's ``meta``, which every state answer carries) and a summary goes in
the meta (``analysis``: how many moves, and where it came from), so the
page knows there is one. What is stored is the socket's answer without what
the server can recompute (each candidate's board points, the ownership map):
a 200-move game stays well under the request size limit.

The stored analysis belongs to the moves it was made for. After an undo it
is cut to the moves the game still has (:func:`cut`); a game played on from
there keeps the analysis of its first moves.

In a record (docs/records.md, "Evaluations and judgements") each position's
evaluation is ``[%eval <first color> p]`` in its comment, each judged move
carries its NAG (``$2`` ...) and the engine's choice in words; loading such
a record stores an analysis again (``source: "record"``, without
candidates: the page searches a position when it is shown).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

import boardlab
from boardlab import records
from boardlab.ai import analysis as engine_analysis
from boardlab.core import pie
from boardlab.records import evaluations

from . import view
from .schemas import ApiError

LABELS = ("inaccuracy", "mistake", "blunder")
#: moves a stored analysis may cover (a game longer than this is not analysed whole)
MAX_MOVES = 2000
#: characters of a move's text (as the API's move fields)
MAX_MOVE_TEXT = 200

# no NaN or infinity (JSON answers refuse them: a stored one would break
# every later answer of the game)
_STRICT = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)
_LENIENT = ConfigDict(extra="ignore", strict=True, allow_inf_nan=False)
Probability = float


class JudgementIn(BaseModel):
    model_config = _STRICT
    ply: int = Field(ge=0)
    move: str = Field(max_length=200)
    mover: str = Field(max_length=20)
    before: Probability = Field(ge=0, le=1)
    after: Probability = Field(ge=0, le=1)
    drop: float = Field(ge=0, le=1)
    best: str | None = Field(None, max_length=200)
    label: Literal["inaccuracy", "mistake", "blunder"] | None = None
    glyph: Literal["", "?!", "?", "??"] = ""


class CandidateIn(BaseModel):
    model_config = _LENIENT  # points etc. are recomputed
    move: str = Field(max_length=200)
    visits: int = Field(ge=0)
    winrate: Probability = Field(ge=0, le=1)
    pv: list[str] = Field(max_length=12)
    proven: bool = False


class LeadIn(BaseModel):
    model_config = _STRICT
    color: str = Field(max_length=20)
    lead: float
    after: int = Field(ge=0)
    scores: dict[str, float] = Field(max_length=2)


class PlyIn(BaseModel):
    """One position's analysis (the socket's ``plies`` entry, slimmed)."""
    model_config = _LENIENT
    ply: int = Field(ge=0)
    to_move: str = Field(max_length=20)
    visits: int = Field(ge=0)
    seconds: float = Field(ge=0)
    winrate: Probability = Field(ge=0, le=1)
    wins: dict[str, Probability] = Field(max_length=2)
    candidates: list[CandidateIn] = Field(max_length=10)
    lead: LeadIn | None = None


class GameAnalysisIn(BaseModel):
    """A whole-game analysis as the analysis socket answered it (``game``
    message's ``result``), for the moves it was made for."""
    model_config = _LENIENT
    moves: list[str] = Field(max_length=MAX_MOVES,
                             description="the main line analysed: the game's moves")
    wins: list[dict[str, Probability]] = Field(
        max_length=MAX_MOVES + 1,
        description="each position's win probability per color (moves + 1 of them)")
    judgements: list[JudgementIn] = Field(max_length=MAX_MOVES, description="one per move")
    plies: list[PlyIn] = Field(default_factory=list, max_length=MAX_MOVES + 1,
                               description="each position's analysis, at most one per "
                               "position: candidates, visits (points are recomputed)")


def check(body: GameAnalysisIn, start: boardlab.Game, moves: list[str]) -> dict[str, Any]:
    """The analysis to store for a game that began at ``start`` and whose
    moves are ``moves``, or 400 ``bad_analysis`` saying what does not fit.
    Each judgement's ``best`` must be a legal move where it was judged: it
    is written into the game's record, which must stay readable."""
    colors = list(start.colors)
    n = len(body.moves)
    if body.moves != moves[:n] or n > len(moves):
        raise ApiError(400, "bad_analysis", "moves: the analysis is not of this game's "
                       "moves (it changed meanwhile?)")
    if len(body.wins) != n + 1:
        raise ApiError(400, "bad_analysis", f"wins: one per position, {n + 1}, got "
                       f"{len(body.wins)}")
    for k, w in enumerate(body.wins):
        if sorted(w) != sorted(colors) or not all(0 <= p <= 1 for p in w.values()):
            raise ApiError(400, "bad_analysis", f"wins[{k}]: a probability 0..1 for each of "
                           f"{' and '.join(colors)}")
    if len(body.judgements) != n:
        raise ApiError(400, "bad_analysis", f"judgements: one per move, {n}, got "
                       f"{len(body.judgements)}")
    game = start.copy()
    judgements = []
    for k, j in enumerate(body.judgements):
        if j.ply != k or j.move != body.moves[k] or j.mover not in colors:
            raise ApiError(400, "bad_analysis", f"judgements[{k}]: not move {k + 1} "
                           f"({body.moves[k]}) of this game")
        best = None if j.best is None else _canonical(game, j.best)
        if j.best is not None and best is None:
            raise ApiError(400, "bad_analysis", f"judgements[{k}].best: {j.best[:40]!r} is not "
                           f"a legal move before move {k + 1}")
        judgements.append({**j.model_dump(), "best": best})
        game.play(j.move)
        if (j.glyph or None) != (None if j.label is None else _glyph(j.label)):
            raise ApiError(400, "bad_analysis", f"judgements[{k}]: glyph {j.glyph!r} is not "
                           f"the glyph of {j.label!r}")
    plies = []
    seen: set[int] = set()
    for k, p in enumerate(body.plies):
        if p.ply > n or p.to_move not in colors or sorted(p.wins) != sorted(colors):
            raise ApiError(400, "bad_analysis", f"plies[{k}]: not a position of this game")
        if p.ply in seen:  # one per position: the analysis is bounded by the game
            raise ApiError(400, "bad_analysis", f"plies[{k}]: position {p.ply} twice")
        seen.add(p.ply)
        plies.append(p.model_dump())
    return finish({"moves": list(body.moves), "wins": [dict(w) for w in body.wins],
                   "judgements": judgements,
                   "plies": plies, "source": "engine"}, colors)


def _canonical(game: boardlab.Game, move: str) -> str | None:
    """``move`` as the game writes it, if it is legal in ``game``; else None."""
    try:
        action = game.string_to_action(move)
    except boardlab.BoardlabError:
        return None
    return game.action_to_string(action) if game.is_legal_action(action) else None


def check_size(data: dict[str, Any], max_bytes: int) -> None:
    """413 ``analysis_too_large`` for an analysis over ``max_bytes`` as stored
    (JSON): what a game keeps beside its moves stays bounded."""
    size = len(json.dumps(data))
    if size > max_bytes:
        raise ApiError(413, "analysis_too_large", f"the analysis is {size} bytes as stored; "
                       f"a game keeps one of at most {max_bytes} (fewer candidates or "
                       "positions fit)")


def _glyph(label: str) -> str:
    return next(g for _, name, g in engine_analysis.THRESHOLDS if name == label)


def finish(data: dict[str, Any], colors: list[str]) -> dict[str, Any]:
    """``data`` with what follows from it: the counts per player and their
    accuracy."""
    counts = {c: dict.fromkeys(LABELS, 0) for c in colors}
    for j in data["judgements"]:
        if j["label"]:
            counts[j["mover"]][j["label"]] += 1
    first = colors[0]
    acc = engine_analysis.accuracy([(j["mover"], j["before"], j["after"])
                                    for j in data["judgements"]],
                                   [w[first] for w in data["wins"]])
    return {**data, "counts": counts, "accuracy": acc}


def cut(data: dict[str, Any], moves: list[str], colors: list[str]) -> dict[str, Any] | None:
    """The stored analysis for the game as it is now: cut to the moves the
    game still shares with it (None if none: nothing of it applies)."""
    old = data["moves"]
    k = 0
    while k < len(old) and k < len(moves) and old[k] == moves[k]:
        k += 1
    if k == len(old):
        return data
    if k == 0 and old:
        return None
    return finish({**data, "moves": old[:k], "wins": data["wins"][:k + 1],
                   "judgements": data["judgements"][:k],
                   "plies": [p for p in data["plies"] if p["ply"] <= k]}, colors)


def shown(data: dict[str, Any], size: int) -> dict[str, Any]:
    """The stored analysis as the page draws it: each candidate's board
    points again, the thresholds, and the summary of the meta."""
    plies = []
    for p in data["plies"]:
        cands = [{**c, "points": view.move_points(c["move"], size),
                  "pv_points": [view.move_points(m, size) for m in c["pv"]]}
                 for c in p["candidates"]]
        plies.append({**p, "candidates": cands, "ownership": None, "done": True})
    return {**data, "plies": plies,
            "thresholds": [{"drop": t, "label": name, "glyph": g}
                           for t, name, g in engine_analysis.THRESHOLDS]}


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """What the game's meta says of its analysis (every state answer shows it)."""
    return {"moves": len(data["moves"]), "source": data["source"]}


# ---------------------------------------------------------------- records
def annotations_of(data: dict[str, Any], colors: list[str]
                   ) -> tuple[dict[int, str], dict[int, tuple[int, ...]]]:
    """The record's comments and NAGs for ``data``: each position's
    ``[%eval <first color> p]`` (comment k: after k moves), and each judged
    move's NAG with its judgement in words ("blunder; best c3")."""
    first = colors[0]
    comments = {k: evaluations.eval_command(first, w[first]) for k, w in enumerate(data["wins"])}
    nags: dict[int, tuple[int, ...]] = {}
    for j in data["judgements"]:
        k = j["ply"] + 1
        if j["label"]:
            nags[k] = (evaluations.LABEL_NAGS[j["label"]],)
            words = j["label"] + (f"; best {j['best']}" if j["best"] and j["best"] != j["move"]
                                  else "")
            comments[k] = f"{comments[k]} {words}"
    return comments, nags


def from_record(rec: records.Record) -> dict[str, Any] | None:
    """The analysis a record carries (an ``[%eval]`` at every position, NAGs
    on the judged moves), or None when it carries none or not at every
    position (the last may be left out when the rules ended the game). The
    positions are replayed only for a record that carries one."""
    colors = list(rec.game.colors)
    n = len(rec.moves)
    wins: list[dict[str, float]] = []
    for k in range(n + 1):
        found = evaluations.read_eval(rec.comments.get(k, ""))
        if found is None or found[0] not in colors:
            out = rec.game.outcome
            if k == n and out is not None:
                wins.append({c: 0.5 if out.winner == "draw" else float(out.winner == c)
                             for c in colors})
                continue
            return None
        color, p = found
        other = colors[1 - colors.index(color)]
        wins.append({color: p, other: round(1.0 - p, 6)})
    judgements = []
    g = rec.start_game()
    for i, a in enumerate(rec.game.action_history):
        mover = g.to_move or colors[0]
        owned = colors[pie.played_for(colors.index(mover), a, g.swap_action)]
        before, after = wins[i][mover], wins[i + 1][owned]
        label = next((evaluations.NAG_LABELS[nag] for nag in rec.nags.get(i + 1, ())
                      if nag in evaluations.NAG_LABELS), None)
        judgements.append({"ply": i, "move": rec.moves[i], "mover": mover,
                           "before": before, "after": after,
                           "drop": round(max(0.0, before - after), 6),
                           "best": _best(rec.comments.get(i + 1, "")), "label": label,
                           "glyph": _glyph(label) if label else ""})
        g.apply_action(a)
    return finish({"moves": list(rec.moves), "wins": [{c: w[c] for c in colors} for w in wins],
                   "judgements": judgements, "plies": [], "source": "record"}, colors)


def _best(comment: str) -> str | None:
    """The engine's choice a judged move's comment names ("...; best c3"):
    a move's text (at most as long as a move may be), else None."""
    text = evaluations.without_commands(comment)
    _, found, best = text.rpartition("best ")
    best = best.strip()
    return best if found and best and len(best) <= MAX_MOVE_TEXT else None
