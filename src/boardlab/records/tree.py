"""Variations: a tree of moves beside a record's main line (python-chess style).

A :class:`Node` is one move with the comment written after it and its
``variations``: the moves that may follow it, the first of which continues
its line (``variations[0]``, "the main variation") while the others are
alternatives to that first one. A record keeps its main line as before
(``moves``, ``comments``) and adds ``Record.variations``: ply count ``k`` ->
the lines played from the position after ``k`` moves *instead of* main-line
move ``k`` (``moves[k]``). :meth:`Record.tree <boardlab.records.Record.tree>`
shows the whole game as one tree whose root has no move.

Why a separate main line and not only a tree: the main line is what every
existing user of a record (replay, match, analysis) reads, so it stays a plain
list; variations are extra. Long lines are walked iteratively here (equality,
checking, copying), never by recursion, so a 400-move variation is as safe as
a 400-move game.

>>> import boardlab
>>> from boardlab import records
>>> game = boardlab.new_game("robble", size=5)
>>> for move in ["c3", "swap"]:
...     game.play(move)
>>> line = records.Node.line(["c2", "b2"], {1: "idea"})   # instead of 1. c3
>>> rec = records.Record.from_game(game, variations={0: [line]})
>>> print(records.format(rec).splitlines()[-1])
1. c3 (1. c2 {idea} 2. b2) 2. swap *
>>> records.parse(records.format(rec)) == rec
True
>>> [node.move for node in rec.tree().variations]        # main line first
['c3', 'c2']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..core.game import Game
from ..errors import GameOverError, IllegalMoveError
from .errors import RecordError
from .results import describe

#: How deeply variations may nest (a variation inside a variation ... ): far
#: beyond any real annotation, low enough that writing (which recurses once
#: per level) and JSON (a few levels per variation) stay inside Python's limits.
MAX_NESTING = 100
#: The largest Numeric Annotation Glyph (PGN's ``$0`` .. ``$255``).
MAX_NAG = 255


def check_nags(value: object, where: str) -> tuple[int, ...]:
    """A move's NAGs as a tuple of whole numbers 0..255 (PGN's ``$n``, see
    :mod:`boardlab.records.evaluations`); RecordError naming ``where``."""
    if not isinstance(value, (list, tuple)):
        raise RecordError(f"NAGs are a list of numbers, got {value!r}", where=where)
    for n in value:
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_NAG:
            raise RecordError(f"a NAG is a whole number 0..{MAX_NAG}, got {n!r}", where=where)
    return tuple(value)


class Node:
    """One move of a variation tree.

    ``move`` is the move in canonical notation (None only for the root of
    :meth:`Record.tree`); ``comment`` the comment written after it;
    ``starting_comment`` a comment written before it, which only the first
    move of a variation can have (``( {idea} 5. d3 ...)``); ``nags`` the
    move's Numeric Annotation Glyphs (``$2`` a mistake, ...); ``variations``
    the moves that may follow, ``variations[0]`` continuing this line.
    Equality compares moves, comments, NAGs and the whole subtree.
    """

    __slots__ = ("move", "comment", "starting_comment", "variations", "nags")

    def __init__(self, move: str | None = None, comment: str = "", starting_comment: str = "",
                 variations: Iterable[Node] | None = None, nags: Iterable[int] = ()) -> None:
        self.move = move
        self.comment = comment
        self.starting_comment = starting_comment
        self.variations: list[Node] = list(variations or [])
        self.nags: tuple[int, ...] = tuple(nags)

    # ------------------------------------------------------------ building
    @classmethod
    def line(cls, moves: Iterable[str], comments: Mapping[int, str] | None = None) -> Node:
        """The first node of a line of ``moves`` (each the next one's parent);
        ``comments`` maps 1 .. len(moves) to the comment after that many moves,
        and 0 to the starting comment. ValueError for no moves."""
        moves = list(moves)
        if not moves:
            raise ValueError("a line needs at least one move")
        notes = dict(comments or {})
        first = cls(moves[0], notes.get(1, ""), notes.get(0, ""))
        node = first
        for i, move in enumerate(moves[1:], start=2):
            node = node.add_variation(move, notes.get(i, ""))
        return first

    def add_variation(self, move: str, comment: str = "", starting_comment: str = "") -> Node:
        """Append a move that may follow this one (the first added continues
        the line) and return its node."""
        node = Node(move, comment, starting_comment)
        self.variations.append(node)
        return node

    def add_line(self, moves: Iterable[str]) -> Node:
        """Append ``moves`` as a line after this node; the last node of the line."""
        node = self
        for move in moves:
            node = node.add_variation(move)
        return node

    def variation(self, move: str) -> Node:
        """The child whose move is ``move`` (canonical notation); KeyError if none."""
        for child in self.variations:
            if child.move == move:
                return child
        raise KeyError(f"no variation {move!r} after {self.move!r} "
                       f"(moves: {', '.join(str(c.move) for c in self.variations) or 'none'})")

    def promote_to_main(self, child: Node) -> None:
        """Make ``child`` the line's continuation (``variations[0]``); the old
        one becomes its first alternative. ValueError if it is not a child."""
        index = self._index(child)
        self.variations.insert(0, self.variations.pop(index))

    def remove_variation(self, child: Node) -> None:
        """Drop ``child`` and everything below it. ValueError if it is not a child."""
        del self.variations[self._index(child)]

    def _index(self, child: Node) -> int:
        for i, node in enumerate(self.variations):
            if node is child:
                return i
        raise ValueError(f"{child!r} is not a variation of {self!r}")

    # ------------------------------------------------------------ views
    def mainline(self) -> list[Node]:
        """The nodes that follow this one along ``variations[0]`` (not itself)."""
        nodes: list[Node] = []
        node = self
        while node.variations:
            node = node.variations[0]
            nodes.append(node)
        return nodes

    def line_moves(self) -> list[str]:
        """This node's move and those of its line (``variations[0]`` onward)."""
        head = [self.move] if self.move is not None else []
        return head + [n.move for n in self.mainline() if n.move is not None]

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first, main variation first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    def copy(self) -> Node:
        """A deep copy (iterative)."""
        root = Node(self.move, self.comment, self.starting_comment, nags=self.nags)
        stack = [(self, root)]
        while stack:
            src, dst = stack.pop()
            for child in src.variations:
                new = Node(child.move, child.comment, child.starting_comment, nags=child.nags)
                dst.variations.append(new)
                stack.append((child, new))
        return root

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        stack = [(self, other)]
        while stack:
            a, b = stack.pop()
            if (a.move, a.comment, a.starting_comment, a.nags, len(a.variations)) != \
                    (b.move, b.comment, b.starting_comment, b.nags, len(b.variations)):
                return False
            stack.extend(zip(a.variations, b.variations, strict=True))
        return True

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        size = sum(1 for _ in self.walk())
        return f"Node({self.move!r}, comment={self.comment!r}, nodes={size})"


# ---------------------------------------------------------------- checking
def _ordinal(i: int) -> str:
    return f"line {i + 1}"


def check_variations(start: Game, actions: Sequence[int],
                     variations: Mapping[int, Sequence[Node]],
                     clean: Callable[[str], str]) -> dict[int, list[Node]]:
    """Replay every variation from its branch point; canonical copies.

    ``start`` is the record's starting position and ``actions`` its main
    line; ``variations`` maps a ply count 0 .. len(actions) - 1 to the lines
    played there instead of the main move. ``clean`` normalises a comment
    (``clean_comment``). Raises RecordError(where="variations") naming the
    ply, line and move at fault: ``variations: at ply 4, line 1, move 2:
    illegal move 'c3': c3 is occupied``.
    """
    n = len(actions)
    for ply, lines in variations.items():
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply < n:
            raise RecordError(f"at ply {ply!r}: must be 0..{n - 1} (a variation "
                              "replaces a main-line move)", where="variations")
        if not isinstance(lines, Sequence) or isinstance(lines, str):
            raise RecordError(f"at ply {ply}: must be a list of nodes",
                              where="variations")
    out: dict[int, list[Node]] = {}
    if not any(variations.values()):
        return out
    game = start.copy()
    for ply, action in enumerate(actions):
        if variations.get(ply):
            out[ply] = _check_lines(game, variations[ply], f"at ply {ply}", clean)
        game.apply_action(action)
    return out


def _check_lines(at: Game, lines: Sequence[Node], where: str,
                 clean: Callable[[str], str]) -> list[Node]:
    """Canonical copies of alternative ``lines`` played from ``at``."""
    result: list[Node | None] = [None] * len(lines)
    # (position before the node, node, list to fill, index there, path,
    # whether it starts a variation, nesting depth)
    stack: list[tuple[Game, Any, list, int, str, bool, int]] = [
        (at.copy(), node, result, i, f"{where}, {_ordinal(i)}, move 1", True, 1)
        for i, node in enumerate(lines)]
    while stack:
        game, node, into, index, path, first, depth = stack.pop()
        if depth > MAX_NESTING:
            raise RecordError(f"{path}: variations nest more than {MAX_NESTING} deep",
                              where="variations")
        if not isinstance(node, Node):
            raise RecordError(f"{path}: must be a Node, got {type(node).__name__}",
                              where="variations")
        move = node.move
        if not isinstance(move, str):
            raise RecordError(f"{path}: a move must be a string, got {move!r}",
                              where="variations")
        if game.outcome is not None:
            raise RecordError(f"{path}: move {move!r} after the end of the game "
                              f"({describe(game.outcome)})", where="variations")
        try:
            action = game.string_to_action(move)
            game.apply_action(action)
        except (GameOverError, IllegalMoveError) as exc:
            raise RecordError(f"{path}: illegal move {move!r}: {exc.reason}",
                              where="variations") from None
        if node.starting_comment and not first:
            raise RecordError(f"{path}: only the first move of a variation has a starting "
                              "comment (write it as the comment after the move before)",
                              where="variations")
        try:
            new = Node(game.action_to_string(action), clean(node.comment or ""),
                       clean(node.starting_comment or "") if first else "",
                       nags=check_nags(node.nags, "variations"))
        except RecordError as exc:
            raise RecordError(f"{path}: {exc.reason}", where="variations") from None
        into[index] = new
        new.variations = [None] * len(node.variations)  # type: ignore[list-item]
        step = path.rsplit(" ", 1)
        for j, child in enumerate(node.variations):
            if j == 0:
                child_path = f"{step[0]} {int(step[1]) + 1}"
            else:
                child_path = f"{path}, {_ordinal(j)}, move 1"
            stack.append((game if j == 0 else game.copy(), child, new.variations, j,
                          child_path, j > 0, depth + (j > 0)))
    return result  # type: ignore[return-value]


# ---------------------------------------------------------------- whole-game trees
def build_tree(moves: Sequence[str], comments: Mapping[int, str],
               variations: Mapping[int, Sequence[Node]],
               nags: Mapping[int, Sequence[int]] | None = None) -> Node:
    """The whole game as one tree: a root without a move whose comment is
    the one before the first move; main-line nodes come first in each list."""
    root = Node(None, comments.get(0, ""))
    node = root
    nags = nags or {}
    for ply, move in enumerate(moves):
        child = node.add_variation(move, comments.get(ply + 1, ""))
        child.nags = tuple(nags.get(ply + 1, ()))
        node.variations.extend(line.copy() for line in variations.get(ply, ()))
        node = child
    return root


def split_tree(root: Node) -> tuple[list[str], dict[int, str], dict[int, list[Node]],
                                    dict[int, tuple[int, ...]]]:
    """The inverse of :func:`build_tree`: the main line's moves, its comments,
    the variations (copies) and the main line's NAGs. RecordError if the root
    has a move."""
    if root.move is not None:
        raise RecordError(f"the root of a game tree has no move, got {root.move!r}",
                          where="variations")
    moves: list[str] = []
    comments: dict[int, str] = {}
    variations: dict[int, list[Node]] = {}
    nags: dict[int, tuple[int, ...]] = {}
    if root.comment:
        comments[0] = root.comment
    node = root
    while node.variations:
        main, *alternatives = node.variations
        if alternatives:
            variations[len(moves)] = [line.copy() for line in alternatives]
        if main.move is None:
            raise RecordError(f"the move after ply {len(moves)} of the main line is None",
                              where="variations")
        if main.starting_comment:
            raise RecordError(f"main-line move {len(moves) + 1} has a starting comment: "
                              "put it in the comment of the move before (or the root's)",
                              where="variations")
        moves.append(main.move)
        if main.comment:
            comments[len(moves)] = main.comment
        if main.nags:
            nags[len(moves)] = tuple(main.nags)
        node = main
    return moves, comments, variations, nags
