"""The :class:`Record`: a replayed game plus what its record says about it.

A record is built either by reading text or JSON (which replays and checks
every move) or from a :class:`~boardlab.Game` in memory with
:meth:`Record.from_game`. Both paths end in :func:`assemble`, which checks the
result against the replayed game and puts the tags in their canonical order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..core import numbers, pie
from ..core.game import Game
from ..core.outcome import Outcome, Termination
from ..errors import GameOverError, IllegalMoveError
from .errors import RecordError
from .results import DRAW, UNFINISHED, Problem, settle_result
from .tree import Node, build_tree, check_nags, check_variations, split_tree

UNKNOWN_DATE = "????.??.??"
UNKNOWN_PLAYER = "?"
_DATE_RE = re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}\Z")
TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


# ---------------------------------------------------------------- tags
def option_tag(option: str) -> str:
    """The tag that carries a game option: ``pie`` -> ``Pie``, ``komi`` -> ``Komi``."""
    return option.capitalize()


def player_tag(color: str) -> str:
    """The tag naming who plays a color: ``black`` -> ``Black``."""
    return color.capitalize()


def format_option(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def parse_option(text: str, default: object) -> Any:
    """The value of an option tag; ValueError with a reason if it is malformed."""
    if isinstance(default, bool):
        if text not in ("yes", "no"):
            raise ValueError(f"must be \"yes\" or \"no\", got {text!r}")
        return text == "yes"
    if isinstance(default, int):
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            shown = repr(text) if len(text) <= 40 else repr(text[:37] + "...")
            raise ValueError(f"must be a whole number, got {shown}")
        why = numbers.too_long(text)
        if why:
            raise ValueError(why)
        return int(text)
    return text


def check_date(text: str) -> None:
    if not _DATE_RE.match(text):
        raise ValueError(f"must be YYYY.MM.DD (use ? for unknown digits), got {text!r}")


def result_words(game_cls: type[Game]) -> tuple[str, ...]:
    """The result tokens of a game: its two colors, ``draw`` and ``*``."""
    return (*game_cls.colors, DRAW, UNFINISHED)


def standard_tag_names(game_cls: type[Game]) -> tuple[str, ...]:
    return ("Game", "Size", *(option_tag(k) for k in game_cls.option_defaults),
            *(player_tag(c) for c in game_cls.colors), "Date", "Result", "Termination",
            "Position")


# ---------------------------------------------------------------- turns
def continues_turn(game: Game, mover: str | None, move: str) -> bool:
    """After ``move`` (played by ``mover``), does the next move belong to the same turn?

    This is ``game.is_mid_turn`` for every engine that implements the
    ``_mid_turn`` hook. For an engine that does not (yet), the same answer is
    derived from the colors: the turn goes on while the mover is still to act,
    except after a pie ``swap`` (a turn of its own).
    """
    if type(game)._mid_turn is not Game._mid_turn:
        return game.is_mid_turn and game.to_move == mover  # a turn is one color's
    return not game.is_over and move != pie.SWAP and game.to_move == mover


def turn_state(start: Game, actions: list[int]) -> tuple[list[int], bool]:
    """Replay ``actions`` on a copy of ``start``: the index of each turn's first
    move, and whether the next move would start a new turn."""
    game = start.copy()
    starts: list[int] = []
    new_turn = True
    for i, action in enumerate(actions):
        if new_turn:
            starts.append(i)
        mover = game.to_move
        game.apply_action(action)
        new_turn = not continues_turn(game, mover, game.action_to_string(action))
    return starts, new_turn


def find_turn_starts(start: Game, actions: list[int]) -> list[int]:
    """The index of each turn's first move when ``actions`` are played from ``start``."""
    return turn_state(start, actions)[0]


# ---------------------------------------------------------------- the record
@dataclass(eq=True)
class Record:
    """One recorded game.

    ``game`` is the game after replaying every move (its ``history`` equals
    ``moves``); ``tags`` holds every tag in canonical order (docs/records.md);
    ``comments`` maps a ply count to the comment written after that many
    moves (0: before the first move); ``result`` is a color, ``"draw"`` or
    ``"*"``; ``termination`` is None exactly when the result is ``"*"``;
    ``players`` maps each color to a name (``"?"`` when unknown) and names
    who holds the color *after* any pie swap, so ``players[result]`` is the
    winner. ``start`` is the set-up position text (the Position tag) or None
    for the game's usual start; ``turn_starts`` the index of each turn's first
    move. ``variations`` maps a ply count ``k`` to the alternative lines
    played from the position after ``k`` moves instead of ``moves[k]``
    (:class:`~boardlab.records.tree.Node` trees, checked and canonical);
    ``nags`` maps a ply count ``k`` (1 .. len(moves)) to the Numeric
    Annotation Glyphs of the k-th move (PGN's ``$2``: a mistake; see
    :mod:`boardlab.records.evaluations`). :meth:`tree` shows everything as
    one tree. Two records are equal when all of this but the game object is.
    """

    game: Game = field(compare=False, repr=False)
    tags: dict[str, str]
    moves: list[str]
    comments: dict[int, str]
    result: str
    termination: Termination | None
    players: dict[str, str]
    start: str | None = None
    turn_starts: list[int] = field(default_factory=list)
    variations: dict[int, list[Node]] = field(default_factory=dict)
    nags: dict[int, tuple[int, ...]] = field(default_factory=dict)

    # ------------------------------------------------------------ views
    @property
    def name(self) -> str:
        return self.game.name

    @property
    def size(self) -> int:
        return self.game.size

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.game.options)

    @property
    def date(self) -> str:
        return self.tags.get("Date", UNKNOWN_DATE)

    @property
    def outcome(self) -> Outcome | None:
        """The game's outcome; for a resignation or timeout, the declared one; None if unfinished."""
        if self.game.is_over:
            return self.game.outcome
        if self.termination is None:
            return None
        return Outcome(self.result, self.termination, None)

    @property
    def extra_tags(self) -> dict[str, str]:
        standard = set(standard_tag_names(type(self.game)))
        return {k: v for k, v in self.tags.items() if k not in standard}

    def turns(self) -> list[list[str]]:
        """The moves grouped by turn (turn ``k`` is ``turns()[k - 1]``)."""
        bounds = [*self.turn_starts, len(self.moves)]
        return [self.moves[a:b] for a, b in pairwise(bounds)]

    def start_game(self) -> Game:
        """A fresh game at the record's starting position."""
        game = self.game.copy()
        while len(game):
            game.undo()
        return game

    def game_at(self, ply: int) -> Game:
        """The game after the first ``ply`` moves (0 .. len(moves))."""
        if not 0 <= ply <= len(self.moves):
            raise RecordError(f"ply {ply} is outside 0..{len(self.moves)}")
        game = self.game.copy()
        for _ in range(len(self.moves) - ply):
            game.undo()
        return game

    def tree(self) -> Node:
        """The whole game as one tree (python-chess's GameNode): the root has no
        move and the comment before the first move; in every node's
        ``variations`` the main line comes first. A copy: changing it does not
        change the record (build a new one with :meth:`from_tree`)."""
        return build_tree(self.moves, self.comments, self.variations, self.nags)

    # ------------------------------------------------------------ building
    @classmethod
    def from_tree(cls, start: Game, root: Node, players: Mapping[str, str] | None = None, *,
                  date: str | None = None, tags: Mapping[str, str] | None = None,
                  resigned: str | None = None, timeout: str | None = None) -> Record:
        """Record the tree ``root`` (as :meth:`tree` gives) played from ``start``
        (a game at the starting position, e.g. :meth:`start_game`): its main
        line is the record's moves, the rest its variations. The other
        arguments are :meth:`from_game`'s. RecordError(where="moves") for an
        illegal main-line move, where="variations" for a bad variation."""
        moves, comments, variations, nags = split_tree(root)
        game = start.copy()
        for i, move in enumerate(moves):
            try:
                game.play(move)
            except (IllegalMoveError, GameOverError) as exc:
                raise RecordError(f"main-line move {i + 1}: illegal move {move!r}: "
                                  f"{exc.reason}", where="moves") from None
        return cls.from_game(game, players, date=date, tags=tags, comments=comments,
                             resigned=resigned, timeout=timeout, variations=variations,
                             nags=nags)

    @classmethod
    def from_game(cls, game: Game, players: Mapping[str, str] | None = None, *,
                  date: str | None = None, tags: Mapping[str, str] | None = None,
                  comments: Mapping[int, str] | None = None, resigned: str | None = None,
                  timeout: str | None = None,
                  variations: Mapping[int, Sequence[Node]] | None = None,
                  nags: Mapping[int, Sequence[int]] | None = None) -> Record:
        """Record a finished or unfinished game.

        ``players`` maps colors to names (after any swap); ``resigned`` or
        ``timeout`` names the color that resigned or ran out of time (the
        game must then not be over; the other color wins). ``tags`` adds
        other tags (and may carry ``Date``); ``comments`` maps ply counts to
        comments; ``variations`` maps ply counts to alternative lines
        (:class:`Node`), replayed and checked; ``nags`` maps ply counts
        (1 .. moves) to NAGs. The game is copied; its moves
        since the start (or since it was set up from a position) are the
        record's moves.
        """
        game = game.copy()
        start_game = game.copy()
        while len(start_game):
            start_game.undo()
        fresh = type(game)(game.size, **game.options)
        start = None if start_game.position() == fresh.position() else start_game.position()
        extra = dict(tags or {})
        if date is None:
            date = extra.pop("Date", UNKNOWN_DATE)
        else:
            extra.pop("Date", None)
        if resigned is not None and timeout is not None:
            raise RecordError("give either resigned or timeout, not both")
        loser, termination = (resigned, Termination.RESIGNATION) if resigned is not None \
            else (timeout, Termination.TIMEOUT) if timeout is not None else (None, None)
        if loser is not None:
            if loser not in game.colors:
                raise RecordError(f"{loser!r} is not a {game.name} color "
                                  f"({' or '.join(game.colors)})")
            result = game.colors[1 - game.colors.index(loser)]
        else:
            outcome = game.outcome
            result = outcome.winner if outcome else UNFINISHED
        try:
            result, termination = settle_result(game, result, termination)
        except Problem as exc:
            raise RecordError(exc.reason) from None
        return assemble(game, start=start,
                        turn_starts=find_turn_starts(start_game, game.action_history),
                        players=players or {}, date=date, result=result,
                        termination=termination, extra=extra, comments=comments or {},
                        variations=variations or {}, start_game=start_game, nags=nags)


def clean_comment(text: str) -> str:
    """A comment as stored: blanks collapsed; braces are not allowed."""
    if "{" in text or "}" in text:
        raise RecordError(f"a comment cannot contain braces: {text!r}")
    return " ".join(text.split())


def assemble(game: Game, *, start: str | None, turn_starts: list[int],
             players: Mapping[str, str], date: str, result: str,
             termination: Termination | None, extra: Mapping[str, str],
             comments: Mapping[int, str],
             variations: Mapping[int, Sequence[Node]] | None = None,
             start_game: Game | None = None, checked: bool = False,
             nags: Mapping[int, Sequence[int]] | None = None) -> Record:
    """Build a Record whose result has already been settled; checks names and text.

    Each error's ``where`` names the argument at fault (``players``, ``date``,
    ``tags``, ``comments``, ``variations``, ``nags``), so that JSON input can point at
    its field. Variations are replayed from ``start_game`` (the game's start,
    computed when not given) unless ``checked`` says the caller did it.
    """
    cls = type(game)
    for color in players:
        if color not in cls.colors:
            raise RecordError(f"{color!r} is not a {game.name} color "
                              f"({' or '.join(cls.colors)})", where="players")
    names = {c: str(players.get(c) or UNKNOWN_PLAYER) for c in cls.colors}
    try:
        check_date(date)
    except ValueError as exc:
        raise RecordError(f"Date {exc}", where="date") from None
    tags: dict[str, str] = {"Game": game.name, "Size": str(game.size)}
    for key, value in game.options.items():
        tags[option_tag(key)] = format_option(value)
    for color in cls.colors:
        tags[player_tag(color)] = names[color]
    tags["Date"] = date
    tags["Result"] = result
    if termination is not None:
        tags["Termination"] = termination.value
    if start is not None:
        tags["Position"] = start
    standard = set(standard_tag_names(cls))
    for key, value in extra.items():
        if key in standard:
            raise RecordError(f"tag {key!r} is set from the game, not given as an extra tag",
                              where="tags")
        if not TAG_NAME_RE.match(key):
            raise RecordError(f"bad tag name {key!r}: letters, digits and _, "
                              "starting with a letter", where="tags")
        tags[key] = str(value)
    player_tags = {player_tag(c) for c in cls.colors}
    for key, value in tags.items():
        if "\n" in value or "\r" in value:
            raise RecordError(f"tag {key!r}: a value must fit on one line",
                              where="players" if key in player_tags else "tags")
    n = len(game)
    kept: dict[int, str] = {}
    for ply, text in sorted(comments.items()):
        if not isinstance(ply, int) or not 0 <= ply <= n:
            raise RecordError(f"comment at ply {ply!r}: must be 0..{n}", where="comments")
        try:
            text = clean_comment(text)
        except RecordError as exc:
            raise RecordError(exc.reason, where="comments") from None
        if text:
            kept[ply] = text
    glyphs: dict[int, tuple[int, ...]] = {}
    for ply, value in sorted((nags or {}).items()):
        if isinstance(ply, bool) or not isinstance(ply, int) or not 1 <= ply <= n:
            raise RecordError(f"NAGs at ply {ply!r}: a NAG belongs to a move, 1..{n}",
                              where="nags")
        found = check_nags(value, "nags")
        if found:
            glyphs[ply] = found
    lines: dict[int, list[Node]] = {}
    if variations and checked:
        lines = {k: list(v) for k, v in sorted(variations.items()) if v}
    elif variations:
        if start_game is None:
            start_game = game.copy()
            while len(start_game):
                start_game.undo()
        lines = check_variations(start_game, game.action_history, variations, clean_comment)
    return Record(game=game, tags=tags, moves=game.history, comments=kept, result=result,
                  termination=termination, players=names, start=start,
                  turn_starts=list(turn_starts), variations=lines, nags=glyphs)
