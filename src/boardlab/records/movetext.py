"""Move text with variations: read it (replaying every line) and write it.

The move text is the main line, with comments and parenthesised variations
(docs/records.md, "Variations"): ``5. d4 {main} (5. d3 {idea} 6. e5) 6. c4``.
A variation right after a move is an alternative to that move, played from
the position before it; variations nest. Reading keeps one :class:`_Line` per
open parenthesis (a stack, not recursion), so deep nesting cannot overflow.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from ..core import numbers
from ..core.game import Game
from ..errors import GameOverError, IllegalMoveError
from .errors import RecordError
from .model import Record, continues_turn
from .results import describe
from .source import Source
from .tree import MAX_NAG, MAX_NESTING, Node

TURN_NUMBER = re.compile(r"([0-9]+)\.")
#: a Numeric Annotation Glyph, ``$2`` (PGN); and the suffixes read as one
#: (``d4?`` is ``d4 $2``), as PGN's import format allows
NAG_WORD = re.compile(r"\$([0-9]{1,3})\Z")
_SUFFIX = re.compile(r"(.+?)(!!|\?\?|!\?|\?!|!|\?)\Z")
SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
ALL_RESULTS = ("black", "white", "blue", "orange", "draw", "*")
_WORD_ENDS = "{}[()"


def read_word(src: Source) -> tuple[str, int]:
    """The word at src.pos (up to a blank, a brace, '[' or a parenthesis)."""
    text, start = src.text, src.pos
    pos = start
    while pos < len(text) and not text[pos].isspace() and text[pos] not in _WORD_ENDS:
        pos += 1
    src.pos = pos
    return text[start:pos], start


def read_comment(src: Source) -> str:
    """The comment at src.pos (a '{'), blanks collapsed."""
    text, start = src.text, src.pos
    pos = start + 1
    while True:
        if pos >= len(text):
            raise src.error(start, "unterminated comment: '{' without a closing '}'")
        ch = text[pos]
        if ch == "}":
            break
        if ch == "{":
            raise src.error(pos, "'{' inside a comment: comments cannot nest")
        pos += 1
    src.pos = pos + 1
    return " ".join(text[start + 1:pos].split())


def _join(old: str, note: str) -> str:
    return f"{old} {note}" if old else note


@dataclass
class _Line:
    """A line being read: the main line (``opened_at`` None) or a variation."""

    game: Game
    turn: int
    turn_open: bool                       # inside a turn (after its first move)
    opened_at: int | None = None          # offset of the variation's '('
    into: list[Node] = field(default_factory=list)  # where its first node goes
    numbered_at: int | None = None        # offset of this turn's number, if given
    before: tuple[int, bool] = (1, False)  # turn state before the last move
    moves: int = 0                        # moves read in this line
    last: Node | None = None              # a variation's last node
    siblings: list[Node] | None = None    # the list holding ``last``
    starting: str = ""                    # comment before a variation's first move


@dataclass
class MoveText:
    """What :func:`read_moves` found: the main line's turn starts, comments
    and variations, and the result token with its offset."""

    turn_starts: list[int]
    comments: dict[int, str]
    variations: dict[int, list[Node]]
    result: str
    result_at: int
    nags: dict[int, tuple[int, ...]] = field(default_factory=dict)


def read_moves(src: Source, game: Game, words: tuple[str, ...]) -> MoveText:
    """Read the move text at src.pos, playing the main line on ``game`` (in
    place) and every variation on copies, up to the result token."""
    main = _Line(game, 1, False)
    stack = [main]
    comments: dict[int, str] = {}
    turn_starts: list[int] = []
    variations: dict[int, list[Node]] = {}
    nags: dict[int, tuple[int, ...]] = {}
    while True:
        line = stack[-1]
        src.skip_blanks()
        ch = src.peek()
        if src.at_end() or ch == "[":
            if len(stack) > 1:
                raise src.error(stack[-1].opened_at or 0,
                                "unclosed variation: '(' without a matching ')'")
            if ch == "[":
                raise src.error(src.pos, "missing result before the next tag: the moves "
                                         f"must end with {', '.join(words[:-1])} or *")
            raise src.error(src.pos, "missing result: the moves must end with "
                                     f"{', '.join(words[:-1])} or *")
        if ch == "{":
            note = read_comment(src)
            if not note:
                continue
            if line is main:
                ply = len(game)
                comments[ply] = _join(comments.get(ply, ""), note)
            elif line.last is None:
                line.starting = _join(line.starting, note)
            else:
                line.last.comment = _join(line.last.comment, note)
            continue
        if ch == "}":
            raise src.error(src.pos, "'}' without a matching '{'")
        if ch in "()":
            if line.numbered_at is not None:
                raise src.error(line.numbered_at, f"turn number '{line.turn}.' has no move "
                                                  "after it")
            if ch == ")":
                if line is main:
                    raise src.error(src.pos, "')' without a matching '('")
                if line.last is None:
                    raise src.error(line.opened_at or 0, "empty variation: '()' needs at "
                                                         "least one move")
                stack.pop()
            elif len(stack) > MAX_NESTING:
                raise src.error(src.pos, f"variations nest more than {MAX_NESTING} deep")
            else:
                stack.append(_branch(src, line, main, variations))
            src.pos += 1
            continue
        word, at = read_word(src)
        m = TURN_NUMBER.match(word)
        if m is not None:
            if numbers.too_long(m.group(1)):
                raise src.error(at, f"bad turn number: {numbers.too_long(m.group(1))}")
            number = int(m.group(1))
            if line.turn_open:
                raise src.error(at, f"turn number '{word[:m.end()]}' in the middle of turn "
                                    f"{line.turn}: {line.game.to_move} has not finished it")
            if line.numbered_at is not None:
                if number != line.turn:  # "2. 3. c2": the fault is the empty turn 2
                    raise src.error(line.numbered_at, f"turn number '{line.turn}.' has no "
                                                      "move after it")
                raise src.error(at, f"turn number '{word[:m.end()]}' given twice")
            if number != line.turn:
                raise src.error(at, f"turn number '{word[:m.end()]}' should be '{line.turn}.'")
            line.numbered_at = at
            if m.end() == len(word):
                continue
            word, at = word[m.end():], at + m.end()
        if word in ALL_RESULTS:
            if line.numbered_at is not None:
                raise src.error(line.numbered_at, f"turn number '{line.turn}.' has no move "
                                                  "after it")
            if line is not main:
                where = "line {}, column {}".format(*src.where(at))
                raise src.error(line.opened_at or 0, "unclosed variation: '(' without a "
                                f"matching ')' before the result {word!r} ({where})")
            return MoveText(turn_starts, comments, variations, word, at, nags)
        nag = NAG_WORD.match(word)
        if nag is not None:
            _annotate(src, line, main, nags, int(nag.group(1)), at)
            continue
        move = _point_word(src, word, type(game).point_words)
        suffix = _SUFFIX.match(move)
        if suffix is not None:
            move = suffix.group(1)
        played = _play(src, line, move, at)
        if line is main:
            if not line.before[1]:
                turn_starts.append(len(game) - 1)
        else:
            _attach(line, played)
        if suffix is not None:
            _annotate(src, line, main, nags, SUFFIX_NAGS[suffix.group(2)], at)


def _annotate(src: Source, line: _Line, main: _Line, nags: dict[int, tuple[int, ...]],
              nag: int, at: int) -> None:
    """Give the move just read (of the main line or of ``line``) the NAG ``nag``."""
    if line.numbered_at is not None:
        raise src.error(line.numbered_at, f"turn number '{line.turn}.' has no move after it")
    if nag > MAX_NAG:
        raise src.error(at, f"NAG ${nag}: a NAG is $0..${MAX_NAG}")
    if line.moves == 0:
        raise src.error(at, f"NAG ${nag} before any move: a NAG follows the move it judges")
    if line is main:
        ply = len(line.game)
        nags[ply] = (*nags.get(ply, ()), nag)
    else:
        assert line.last is not None
        line.last.nags = (*line.last.nags, nag)


def _point_word(src: Source, word: str, point_words: tuple[str, ...]) -> str:
    """A word of the game's ``point_words`` and the point after it are one
    move written as two words (yugo's ``mark c3``): the whole move."""
    if word.lower() not in point_words:
        return word
    save = src.pos
    src.skip_blanks()
    nxt = src.peek()
    if nxt and nxt not in _WORD_ENDS:
        follow, _ = read_word(src)
        if follow not in ALL_RESULTS and not TURN_NUMBER.match(follow):
            return f"{word} {follow}"
    src.pos = save
    return word


def _play(src: Source, line: _Line, move: str, at: int) -> str:
    """Play ``move`` on the line's game, keeping the turn count; the move in
    canonical notation."""
    game = line.game
    if game.outcome is not None:
        raise src.error(at, f"move {move!r} after the end of the game "
                            f"({describe(game.outcome)})")
    mover = game.to_move
    try:
        action = game.string_to_action(move)
        game.apply_action(action)
    except (GameOverError, IllegalMoveError) as exc:
        raise src.error(at, f"illegal move {move!r}: {exc.reason}") from None
    line.before = (line.turn, line.turn_open)
    line.numbered_at = None
    line.moves += 1
    played = game.action_to_string(action)
    line.turn_open = continues_turn(game, mover, played)
    if not line.turn_open:
        line.turn += 1
    return played


def _attach(line: _Line, move: str) -> None:
    """Add ``move``, just played on a variation's line, to the tree."""
    node = Node(move)
    if line.last is None:
        node.starting_comment = line.starting
        line.into.append(node)
        line.siblings = line.into
    else:
        line.last.variations.append(node)  # its first child: it continues the line
        line.siblings = line.last.variations
    line.last = node


def _branch(src: Source, line: _Line, main: _Line,
            variations: dict[int, list[Node]]) -> _Line:
    """The line a '(' at src.pos opens: an alternative to ``line``'s last move."""
    if line.moves == 0:
        raise src.error(src.pos, "a variation must follow the move it replaces: '(' "
                                 "before any move")
    game = line.game.copy()
    game.undo()
    if line is main:
        into = variations.setdefault(len(line.game) - 1, [])
    else:
        assert line.siblings is not None
        into = line.siblings
    turn, turn_open = line.before
    return _Line(game, turn, turn_open, opened_at=src.pos, into=into, before=(turn, turn_open))


# ---------------------------------------------------------------- writing
def _comment_units(note: str, units: list[str]) -> None:
    if note:
        words = note.split()
        words[0] = "{" + words[0]
        words[-1] += "}"
        units.extend(words)


def move_units(record: Record) -> list[str]:
    """The move text as unbreakable units (a turn number sticks to its first
    move, a parenthesis to the move or comment beside it)."""
    units: list[str] = []
    _comment_units(record.comments.get(0, ""), units)
    starts = set(record.turn_starts)
    game = record.start_game() if record.variations else None
    actions = record.game.action_history
    turn = 0
    for i, move in enumerate(record.moves):
        if i in starts:
            turn += 1
            units.append(f"{turn}. {move}")
        else:
            units.append(move)
        units.extend(f"${n}" for n in record.nags.get(i + 1, ()))
        _comment_units(record.comments.get(i + 1, ""), units)
        if game is not None:
            for node in record.variations.get(i, ()):
                number = bisect_right(record.turn_starts, i)
                _variation_units(game, number, i not in starts, node, units)
            game.apply_action(actions[i])
    units.append(record.result)
    return units


def variation_texts(record: Record, ply: int, at: Game) -> list[str]:
    """Each variation at ``ply`` (instead of ``moves[ply]``) as its text,
    ``(5. d3 {idea} 6. e5)``; ``at`` is the game after ``ply`` moves (so a
    caller stepping through a game need not rebuild it)."""
    out = []
    for node in record.variations.get(ply, ()):
        units: list[str] = []
        _variation_units(at, bisect_right(record.turn_starts, ply),
                         ply not in record.turn_starts, node, units)
        out.append(" ".join(units))
    return out


def _variation_units(at: Game, turn: int, turn_open: bool, first: Node,
                     units: list[str]) -> None:
    """``(...)`` for the variation starting with ``first``, played from ``at``
    (untouched), its own alternatives nested inside."""
    sub: list[str] = []
    _comment_units(first.starting_comment, sub)
    game = at.copy()
    node = first
    alternatives: list[Node] = []
    while True:
        # the alternatives to ``node`` (its siblings) start where it does
        before = game.copy() if alternatives else None
        before_turn = (turn, turn_open)
        mover = game.to_move
        move = str(node.move)
        try:
            action = game.string_to_action(move)
            game.apply_action(action)
        except (IllegalMoveError, GameOverError) as exc:
            # only a tree changed after the record was built gets here
            raise RecordError(f"cannot write the variation move {move!r}: {exc.reason} "
                              "(a record's variations are checked when it is built: "
                              "use Record.from_game or Record.from_tree after editing)",
                              where="variations") from None
        sub.append(move if turn_open else f"{turn}. {move}")
        sub.extend(f"${n}" for n in node.nags)
        _comment_units(node.comment, sub)
        if before is not None:
            for alt in alternatives:
                _variation_units(before, *before_turn, alt, sub)
        turn_open = continues_turn(game, mover, game.action_to_string(action))
        if not turn_open:
            turn += 1
        if not node.variations:
            break
        node, *alternatives = node.variations
    sub[0] = "(" + sub[0]
    sub[-1] += ")"
    units.extend(sub)
