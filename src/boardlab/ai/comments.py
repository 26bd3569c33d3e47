"""The engine comment written after each move of a match record, and its reader.

``{+0.62/640 0.41s}``: the chosen move's expected return for the mover
(-1 .. +1), the root's simulations (reused ones included) and the move's wall
time; ``+1.00!`` marks a proven win; a move that needed no search (one legal
move, a yugo marking plan) carries only its time, ``{0.02s}``. The MCTS engine
writes it (:meth:`boardlab.ai.search.SearchAgent.move_comment`), the adjudication
study reads it back (:mod:`boardlab.ai.adjudication`): one format, one parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERN = re.compile(
    r"(?:(?P<value>[+-]\d\.\d\d)(?P<proven>!?)/(?P<visits>\d+) )?(?P<seconds>\d+\.\d\d)s")


@dataclass(frozen=True)
class SearchComment:
    """What an engine says about the move it just chose."""

    seconds: float
    value: float | None = None   # expected return for the mover; None: nothing searched
    visits: int | None = None    # simulations at the root (with a value)
    proven: bool = False         # a proven win (value +1)

    def __post_init__(self) -> None:
        if (self.value is None) != (self.visits is None):
            raise ValueError("a search comment has both a value and a visit count, or neither")
        if self.proven and self.value != 1.0:
            raise ValueError("only a win (+1) can be proven")

    def __str__(self) -> str:
        if self.value is None:
            return f"{self.seconds:.2f}s"
        mark = "!" if self.proven else ""
        return f"{self.value:+.2f}{mark}/{self.visits} {self.seconds:.2f}s"


def parse_comment(text: str) -> SearchComment | None:
    """The search comment ``text`` states, or None when it is not one (a
    record may carry any other comment)."""
    m = _PATTERN.fullmatch(text)
    if m is None:
        return None
    if m["value"] is None:
        return SearchComment(float(m["seconds"]))
    value = float(m["value"])
    proven = bool(m["proven"])
    if proven and value != 1.0:
        return None
    return SearchComment(float(m["seconds"]), value, int(m["visits"]), proven)


def move_seconds(rec) -> dict[str, list[float]]:
    """Each engine's seconds a move in one match record (a
    :class:`boardlab.records.Record`), from its comments. The engine that
    makes a move is the one in the mover's seat; the player tags name who
    holds each color at the end, after any pie swap (docs/records.md)."""
    from collections import defaultdict

    from ..core import pie
    from ..records.model import player_tag
    game = rec.start_game()
    final = pie.swapped(rec.moves)
    engine_of = [rec.tags.get(player_tag(pie.color_of(game.colors, seat, final)))
                 for seat in (0, 1)]
    out: dict[str, list[float]] = defaultdict(list)
    for ply, move in enumerate(rec.moves):
        comment = rec.comments.get(ply + 1)
        found = parse_comment(comment) if comment else None
        if found is not None:
            out[engine_of[game.seat_of(game.to_move)]].append(found.seconds)
        game.play(move)
    return dict(out)
