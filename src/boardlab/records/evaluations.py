"""An engine's review written into a record, the way PGN carries one.

Two conventions, both readable by anyone who knows PGN (docs/records.md,
"Evaluations and judgements"):

- ``[%eval black 0.62]`` in the comment after a move (``comments[k]``; the
  one before the first move for the start) is the win probability of the
  named color in the position after that move, 0..1. PGN's ``[%eval 0.17]``
  is a chess engine's score in pawns for White; these games have no pawn
  unit, and "whose" must never be guessed, so the color is written out.
- A judged move carries a Numeric Annotation Glyph: ``$6`` (``?!``) an
  inaccuracy, ``$2`` (``?``) a mistake, ``$4`` (``??``) a blunder, as
  lichess writes them. ``Record.nags`` holds them; reading also takes the
  suffixes (``d4??``).

A comment may hold other text beside the command; :func:`read_eval` finds
the command, :func:`without_commands` gives the rest.
"""

from __future__ import annotations

import re

#: the NAG of each glyph (PGN's standard numbering)
GLYPH_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
NAG_GLYPHS = {n: g for g, n in GLYPH_NAGS.items()}
#: the NAG of each judgement of boardlab.ai.analysis
LABEL_NAGS = {"inaccuracy": 6, "mistake": 2, "blunder": 4}
NAG_LABELS = {n: label for label, n in LABEL_NAGS.items()}

_EVAL = re.compile(r"\[%eval\s+([a-z]+)\s+([01](?:\.[0-9]{1,6})?)\s*\]")
_COMMAND = re.compile(r"\[%[^\]]*\]")


def eval_command(color: str, probability: float) -> str:
    """``[%eval black 0.62]``: ``color`` wins with ``probability``."""
    return f"[%eval {color} {min(1.0, max(0.0, float(probability))):.3f}]"


def read_eval(comment: str) -> tuple[str, float] | None:
    """The color and win probability of the comment's ``[%eval ...]``, or None
    (also for a probability outside 0..1)."""
    m = _EVAL.search(comment or "")
    if m is None:
        return None
    p = float(m.group(2))
    return (m.group(1), p) if 0.0 <= p <= 1.0 else None


def without_commands(comment: str) -> str:
    """The comment with its ``[%...]`` commands taken out."""
    return " ".join(_COMMAND.sub(" ", comment or "").split())


__all__ = ["GLYPH_NAGS", "LABEL_NAGS", "NAG_GLYPHS", "NAG_LABELS", "eval_command", "read_eval",
           "without_commands"]
