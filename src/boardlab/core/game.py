"""The generic game façade.

Every game is a subclass of :class:`Game` that implements a small pure core
(the ``_``-prefixed hooks below) on flat, cheap-to-copy state. This class is
the one place that handles what all games share: option checking, move
parsing and the "illegal move" / "move after the end" errors, history, undo,
copying, the string <-> integer action bridge and the position text.

Subclass contract
-----------------
State lives in instance attributes whose values are immutable or flat
containers (list, dict, set, bytearray) of immutable values, so that
:meth:`Game.copy` can copy each container one level deep.

Hooks a game implements::

    _setup()                      the initial state for self.size / self.options
    _legal_actions() -> list[int] the legal actions, ascending, each once; [] when over
                                  (may be the game's own list: never mutate it or keep
                                  it across _apply)
    _apply(action)                play a legal action (never called with an illegal one)
    _snapshot() -> object         what _restore needs to take back the next action
    _restore(snapshot)            undo exactly one _apply
    _current_player() -> int|None index into ``colors`` of the color to act, None when over
    _compute_outcome() -> Outcome only called once the game is over
    _action_string(action) -> str canonical notation, a pure function of (size, action)
    _parse_action(text) -> int|None  canonical lowercase text -> action, None if malformed
                                  (or raise IllegalMoveError with a more specific reason)
    _why_illegal(action) -> str   human reason an in-range action is illegal now
    _cell_tokens() -> list        position-text token (or None) for every point
    _state_fields() -> list[(key, value)]   game-specific position fields
    _load_position(cells, player, fields)   inverse of the two above
    _render_cells() -> list[str]  one short string per point for str(game)
    _mid_turn() -> bool           (optional) the next action continues the current turn
    _malformed_reason(text) -> str|None  (optional) a specific reason for unparseable text
    _is_legal(action) -> bool     (optional) a fast legality test for an int action
    _live_scores() -> dict|None   (optional) scores to show during play
    num_distinct_actions_for(size) (classmethod)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import GameOverError, IllegalMoveError, OptionError, PositionError, UndoError
from . import grid, numbers, pie
from .outcome import Outcome
from .pregame import PreGame

_CONTAINERS = (list, dict, set, bytearray)


@dataclass(frozen=True)
class GameInfo:
    """Static metadata of a game at one board size (OpenSpiel's GameType + Game facts)."""

    name: str
    size: int
    colors: tuple[str, str]
    num_distinct_actions: int
    max_game_length: int | None  # an upper bound on actions in one game; None: unbounded rules
    min_utility: float = -1.0
    max_utility: float = 1.0
    utility_sum: float = 0.0
    min_size: int = grid.MIN_SIZE
    max_size: int = grid.MAX_SIZE


class Game:
    """A game in progress. See the module docstring for the subclass contract."""

    name: ClassVar[str]
    colors: ClassVar[tuple[str, str]] = ("black", "white")
    default_size: ClassVar[int]
    #: option name -> default value; the default's type is the option's type.
    option_defaults: ClassVar[dict[str, Any]] = {}
    #: numeric option name -> (least, greatest) value allowed. Every int option
    #: needs one: an unbounded number reaches arithmetic (a komi of 10**309
    #: overflows ``float()`` when a yugo game is scored), so a caller who
    #: forgot to bound it would get a crash instead of an OptionError.
    option_ranges: ClassVar[dict[str, tuple[int, int]]] = {}
    #: option name -> why its value has the type it has, when that is a rule
    #: (yugo's whole-number komi): the type error says it
    option_notes: ClassVar[dict[str, str]] = {}
    #: option name -> a short name for it in texts ("pie rule": "no pie rule"
    #: for False; "komi": "komi 6"); the name itself where missing
    option_labels: ClassVar[dict[str, str]] = {}
    #: option name -> what it does, a phrase for help texts and forms
    option_help: ClassVar[dict[str, str]] = {}
    #: the options a position set up on a board editor takes unless told
    #: otherwise, where they differ from ``option_defaults`` (no pie rule:
    #: no first move to swap)
    setup_defaults: ClassVar[dict[str, Any]] = {}
    #: what the players settle before the first move (yugo's komi), or None:
    #: see :mod:`boardlab.core.pregame`
    pregame: ClassVar[PreGame | None] = None
    #: names of list attributes that grow by one entry per applied action (like
    #: the undo stack); ``copy(history=False)`` empties them.
    _per_action_stacks: ClassVar[tuple[str, ...]] = ()
    #: characters per point in ``str(game)``
    cell_width: ClassVar[int] = 2
    #: The moves written as a word, not as points (``pass``, the pie rule's
    #: ``swap``, yugo's ``button`` ...), each with the words of the button a
    #: front end offers for it. Said here once: the web draws its buttons
    #: from it and nothing outside the game lists them.
    move_words: ClassVar[dict[str, str]] = {}
    #: Words written before a point as one move (yugo's ``mark c3``): a
    #: record reads the word and the point after it as one move.
    point_words: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_legal_actions" in cls.__dict__:  # see step_actions
            cls.step_actions = cls.__dict__["_legal_actions"]  # type: ignore[method-assign]
        unbounded = [k for k, v in cls.option_defaults.items()
                     if type(v) is int and k not in cls.option_ranges]
        if unbounded:
            raise TypeError(f"{cls.__name__}: int option(s) {', '.join(unbounded)} need a "
                            "range in option_ranges")

    # ------------------------------------------------------------ creation
    def __init__(self, size: int | None = None, **options: Any) -> None:
        self.size = self._check_size(size)
        self.options = self._check_options(options)
        self.n_points = self.size * self.size
        self.num_distinct_actions = self.num_distinct_actions_for(self.size)
        self._actions: list[int] = []
        self._undo: list[object] = []
        self._legal: list[int] | None = None
        self._outcome: Outcome | None = None
        self._setup()

    @classmethod
    def _check_size(cls, size: object) -> int:
        if size is None:
            return cls.default_size
        if isinstance(size, bool) or not isinstance(size, int):
            raise OptionError(f"{cls.name}: size must be an integer, got {_short(size)}")
        if not grid.MIN_SIZE <= size <= grid.MAX_SIZE:
            shown = str(size) if abs(size) < 10 ** numbers.MAX_DIGITS else f"({_short(size)})"
            raise OptionError(
                f"{cls.name}: size {shown} is outside {grid.MIN_SIZE}..{grid.MAX_SIZE}")
        return size

    @classmethod
    def _check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        out = dict(cls.option_defaults)
        for key, value in options.items():
            if key not in cls.option_defaults:
                known = ", ".join(sorted(cls.option_defaults)) or "none"
                raise OptionError(f"{cls.name}: unknown option {key!r} (options: {known})")
            want = type(cls.option_defaults[key])
            if type(value) is not want:  # bool is an int subclass: compare exactly
                note = cls.option_notes.get(key)
                raise OptionError(f"{cls.name}: option {key!r} must be {want.__name__}, got "
                                  f"{_short(value)}" + (f" ({note})" if note else ""))
            if want is int:
                low, high = cls.option_ranges[key]
                if not low <= value <= high:
                    raise OptionError(f"{cls.name}: option {key!r} must be {low}..{high}, "
                                      f"got {_short(value)}")
            out[key] = value
        return out

    @classmethod
    def option_label(cls, key: str) -> str:
        """A short name for option ``key`` in texts (:attr:`option_labels`)."""
        return cls.option_labels.get(key, key)

    @classmethod
    def option_text(cls, key: str, value: Any) -> str:
        """An option's value in words: "pie rule", "no pie rule", "komi 6"."""
        label = cls.option_label(key)
        if isinstance(value, bool):
            return label if value else f"no {label}"
        return f"{label} {value}"

    @classmethod
    def info(cls, size: int | None = None) -> GameInfo:
        size = cls._check_size(size)
        return GameInfo(cls.name, size, cls.colors, cls.num_distinct_actions_for(size),
                        cls.max_game_length_for(size))

    @classmethod
    def num_distinct_actions_for(cls, size: int) -> int:
        raise NotImplementedError

    @classmethod
    def max_game_length_for(cls, size: int) -> int | None:
        return None

    # ------------------------------------------------------------ state queries
    @property
    def to_move(self) -> str | None:
        """The color to act, or None once the game is over."""
        p = self._current_player()
        return None if p is None else self.colors[p]

    @property
    def current_player(self) -> int | None:
        """Index of the color to act in ``colors`` (OpenSpiel style); None when over."""
        return self._current_player()

    @property
    def is_over(self) -> bool:
        return self._current_player() is None

    @property
    def is_mid_turn(self) -> bool:
        """True while the color to move is inside a multi-action turn (implo's
        resolutions after a placement, yugo's marks before ``done``): the next
        move continues the same turn. Records number turns, not moves."""
        return self._current_player() is not None and self._mid_turn()

    @property
    def outcome(self) -> Outcome | None:
        if self._current_player() is not None:
            return None
        if self._outcome is None:
            self._outcome = self._compute_outcome()
        return self._outcome

    @property
    def winner(self) -> str | None:
        out = self.outcome
        return None if out is None else out.winner

    @property
    def scores(self) -> dict[str, float] | None:
        out = self.outcome
        return None if out is None else out.scores

    def returns(self) -> list[float]:
        """Utility per color index: +1 win, -1 loss, 0 draw or unfinished."""
        out = self.outcome
        if out is None or out.winner == "draw":
            return [0.0, 0.0]
        return [1.0 if c == out.winner else -1.0 for c in self.colors]

    @property
    def history(self) -> list[str]:
        """Every move played since the start (or since the position was set up)."""
        return [self._action_string(a) for a in self._actions]

    @property
    def action_history(self) -> list[int]:
        return list(self._actions)

    def __len__(self) -> int:
        """Number of moves played."""
        return len(self._actions)

    # ------------------------------------------------------------ integer API
    def legal_actions(self) -> list[int]:
        """Legal actions, ascending; [] iff the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        return list(legal)

    def legal_action_mask(self) -> list[int]:
        mask = [0] * self.num_distinct_actions
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    def is_legal_action(self, action: int) -> bool:
        return type(action) is int and self._is_legal(action)

    def _is_legal(self, action: int) -> bool:
        """Whether an int action is legal now. Games with a constant-time test
        override this (it must agree with _legal_actions; the conformance suite
        checks that); the default looks the action up in the cached legal list."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        return action in legal

    def apply_action(self, action: int) -> None:
        """Play an integer action; raises IllegalMoveError (game untouched) if it is not legal."""
        if type(action) is not int or not self._is_legal(action):
            self._refuse(action, action)
        self._undo.append(self._snapshot())
        self._actions.append(action)
        self._apply(action)
        self._legal = None

    def action_to_string(self, action: int) -> str:
        if not self._in_range(action):
            raise IllegalMoveError(action, f"action must be an integer in 0..{self.num_distinct_actions - 1}")
        return self._action_string(action)

    def string_to_action(self, move: str) -> int:
        """The action a move string denotes (legal or not); IllegalMoveError if malformed."""
        if not isinstance(move, str):
            raise IllegalMoveError(move, "a move must be a string")
        text = move.strip().lower()
        action = self._parse_action(text)
        if action is None:
            reason = self._malformed_reason(text)
            raise IllegalMoveError(move, f"malformed: {reason}" if reason else
                                   f"malformed: not a {self.name} move on a {self.size}x{self.size} board")
        return action

    @property
    def swap_action(self) -> int | None:
        """The action ``swap`` (the pie rule) denotes at this size, legal now
        or not; None for a game without one (vimbre, yugo)."""
        try:
            return self.string_to_action(pie.SWAP)
        except IllegalMoveError:
            return None

    # ------------------------------------------------------------ seats
    @property
    def colors_swapped(self) -> bool:
        """Whether the two people hold each other's starting colors: the pie
        rule's ``swap`` was played an odd number of times in :attr:`history`
        (docs/rules.md, "The pie rule"). Always False in a game without one."""
        swap = self.swap_action
        return swap is not None and self._actions.count(swap) % 2 == 1

    def seat_of(self, color: str) -> int:
        """The seat holding ``color`` now: 0 for the person who started with
        ``colors[0]``, 1 for the other (see :mod:`boardlab.core.pie`)."""
        return pie.seat_of(self.colors, color, self.colors_swapped)

    def color_of(self, seat: int) -> str:
        """The color seat ``seat`` (0 or 1, by starting color) holds now."""
        return pie.color_of(self.colors, seat, self.colors_swapped)

    # ------------------------------------------------------------ string API
    def legal_moves(self) -> list[str]:
        """Legal moves in canonical notation, each once; [] iff the game is over."""
        s = self._action_string
        return [s(a) for a in self.legal_actions()]

    def play(self, move: str) -> None:
        """Play a move in the notation of docs/rules.md (case and surrounding blanks ignored)."""
        if self.is_over:
            raise GameOverError(move, f"the game is over ({self._over_text()})")
        action = self.string_to_action(move)
        if not self.is_legal_action(action):
            self._refuse(move, action)
        self.apply_action(action)

    def undo(self) -> str:
        """Take back the last move exactly and return it."""
        if not self._undo:
            raise UndoError("nothing to undo")
        self._restore(self._undo.pop())
        action = self._actions.pop()
        self._legal = None
        self._outcome = None
        return self._action_string(action)

    # ------------------------------------------------------------ search fast path
    # What search and playouts use instead of apply_action/undo: no legality
    # check, no history, no undo stack (pgx's "small pure core" under the
    # façade). Meant for a copy(history=False) the search owns; the caller
    # guarantees every action is legal (taken from step_actions()), and an
    # illegal one leaves the game corrupt. Tests replay what search plays
    # through the checked API.
    def step_actions(self) -> list[int]:
        """The legal actions, ascending, as the engine keeps them: no copy, so
        never change the list, and do not keep it past the next step. (Each
        game's class makes this its own ``_legal_actions``, saving a call per
        ply in playouts: see ``__init_subclass__``.)"""
        return self._legal_actions()


    def step(self, action: int) -> None:
        """Play a legal action with no check and no record (search only)."""
        self._apply(action)
        self._legal = None  # (no cached outcome to drop: the game was not over)

    def step_with_undo(self, action: int) -> object:
        """Like :meth:`step`, and return a token for :meth:`step_back`."""
        token = self._snapshot()
        self._apply(action)
        self._legal = None
        return token

    def step_back(self, token: object) -> None:
        """Take back the step that returned ``token`` (the latest one)."""
        self._restore(token)
        self._legal = None
        self._outcome = None

    def cells(self) -> list[str | None]:
        """The position-text token of every point (None: empty), point order
        a1, b1, ... as in :meth:`position` (docs/positions.md)."""
        return self._cell_tokens()

    # ------------------------------------------------------------ errors
    def _in_range(self, action: object) -> bool:
        return (isinstance(action, int) and not isinstance(action, bool)
                and 0 <= action < self.num_distinct_actions)

    def _refuse(self, move: object, action: object) -> None:
        if self.is_over:
            raise GameOverError(move, f"the game is over ({self._over_text()})")
        if not self._in_range(action):
            raise IllegalMoveError(
                move, f"action must be an integer in 0..{self.num_distinct_actions - 1}")
        raise IllegalMoveError(move, self._why_illegal(action))  # type: ignore[arg-type]

    def _over_text(self) -> str:
        out = self.outcome
        assert out is not None
        who = "draw" if out.winner == "draw" else f"{out.winner} won"
        return f"{who} by {out.termination.value}"

    # ------------------------------------------------------------ copying
    def copy(self, history: bool = True) -> Game:
        """An independent copy. With ``history=False`` the copy starts a fresh
        history (cheaper; its ``undo()`` cannot go behind the copy point), which
        is what search wants for playouts."""
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        if history:
            for key, value in d.items():
                if type(value) in _CONTAINERS:
                    d[key] = value.copy()
        else:
            stacks = ("_actions", "_undo") + self._per_action_stacks
            for key, value in d.items():
                if key in stacks:
                    d[key] = []
                elif type(value) in _CONTAINERS:
                    d[key] = value.copy()
        # update(), not assignment: a replaced __dict__ makes CPython 3.11 fall
        # back to slow attribute access on the copy (measured ~20% per ply).
        new.__dict__.update(d)
        return new

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> Game:
        return self.copy()

    # ------------------------------------------------------------ position text
    def position(self) -> str:
        """The position as one line of text; see docs/positions.md."""
        parts = [self.name, str(self.size), grid.format_board(self._cell_tokens(), self.size),
                 self.to_move or "-"]
        parts += [f"{k}={v}" for k, v in self.position_fields().items()]
        return " ".join(parts)

    def position_fields(self) -> dict[str, str]:
        """The ``key=value`` fields of :meth:`position`: the options, then the game's state."""
        fields = list(self.options.items()) + self._state_fields()
        return {k: _format_value(v) for k, v in fields}

    @classmethod
    def from_position(cls, text: str) -> Game:
        """Set up a game from :meth:`position` text. History starts empty."""
        if not isinstance(text, str):
            raise PositionError("a position must be a string")
        tokens = text.split()
        if len(tokens) < 4:
            raise PositionError(
                f"position needs at least 4 fields (game size board to-move), got {len(tokens)}")
        name, size_text, board_text, mover, *rest = tokens
        if name.lower() != cls.name:
            raise PositionError(f"position is for {name!r}, not {cls.name!r}")
        if not (size_text.isascii() and size_text.isdigit()):
            raise PositionError(f"size must be a number, got {size_text!r}")
        why = numbers.too_long(size_text)
        if why:
            raise PositionError(f"size must be {grid.MIN_SIZE}..{grid.MAX_SIZE}, got {why}")
        size = int(size_text)
        if not grid.MIN_SIZE <= size <= grid.MAX_SIZE:
            raise PositionError(f"size {size} is outside {grid.MIN_SIZE}..{grid.MAX_SIZE}")
        options: dict[str, Any] = {}
        fields: dict[str, str] = {}
        for item in rest:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise PositionError(f"field {item!r} is not key=value")
            if key in options or key in fields:
                raise PositionError(f"field {key!r} given twice")
            if key in cls.option_defaults:
                options[key] = _parse_value(key, value, cls.option_defaults[key])
            else:
                fields[key] = value
        try:
            game = cls(size, **options)
        except OptionError as exc:
            raise PositionError(str(exc)) from None
        cells = grid.parse_board(board_text, size, PositionError)
        if mover == "-":
            player = None
        elif mover in cls.colors:
            player = cls.colors.index(mover)
        else:
            raise PositionError(f"to-move must be one of {', '.join(cls.colors)} or -, got {mover!r}")
        game._load_position(cells, player, fields)
        if fields:
            raise PositionError(f"unknown field(s): {', '.join(sorted(fields))}")
        if (player is None) != game.is_over:
            state = "over" if game.is_over else "not over"
            raise PositionError(f"to-move {mover!r} contradicts the board: the game is {state}")
        return game

    # ------------------------------------------------------------ display
    def __str__(self) -> str:
        body = grid.render_grid(self._render_cells(), self.size, self.cell_width)
        if self.is_over:
            status = f"game over: {self._over_text()}"
        else:
            status = f"{self.to_move} to move"
        scores = self._live_scores()
        if scores:
            status += "  (" + ", ".join(f"{c} {_format_score(v)}" for c, v in scores.items()) + ")"
        return f"{body}\n{status}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"

    def _live_scores(self) -> dict[str, float] | None:
        """Scores to show while playing (games that have a running score override)."""
        return self.scores

    # ------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        return self.__dict__.copy()

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    # ------------------------------------------------------------ hooks
    def _setup(self) -> None:
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _snapshot(self) -> object:
        raise NotImplementedError

    def _restore(self, snapshot: Any) -> None:
        raise NotImplementedError

    def _current_player(self) -> int | None:
        raise NotImplementedError

    def _compute_outcome(self) -> Outcome:
        raise NotImplementedError

    def _action_string(self, action: int) -> str:
        raise NotImplementedError

    def _parse_action(self, text: str) -> int | None:
        raise NotImplementedError

    def _why_illegal(self, action: int) -> str:
        raise NotImplementedError

    def _cell_tokens(self) -> list[str | None]:
        raise NotImplementedError

    def _state_fields(self) -> list[tuple[str, object]]:
        return []

    def _mid_turn(self) -> bool:
        return False

    def _malformed_reason(self, text: str) -> str | None:
        """Why ``text`` (which _parse_action rejected) is malformed, when the game can say
        more than "not a move"."""
        return None

    def _load_position(self, cells: list[str | None], player: int | None,
                       fields: dict[str, str]) -> None:
        """Set state from a parsed position. Pop each field used from ``fields``."""
        raise NotImplementedError

    def _render_cells(self) -> list[str]:
        raise NotImplementedError

    def _decode_cells(self, cells: list[str | None], values: dict[str, int],
                      length: int | None = None) -> bytearray:
        """A board bytearray from position tokens (None = empty = 0), for
        _load_position; PositionError names an unknown token and its point."""
        board = bytearray(self.n_points if length is None else length)
        for i, token in enumerate(cells):
            if token is None:
                continue
            value = values.get(token)
            if value is None:
                allowed = ", ".join(sorted(values))
                raise PositionError(f"{self.name}: unknown piece {token!r} at "
                                    f"{grid.point_name(i, self.size)} (use {allowed})")
            board[i] = value
        return board


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    return str(value)


def _parse_value(key: str, text: str, default: object) -> Any:
    if isinstance(default, bool):
        if text not in ("yes", "no"):
            raise PositionError(f"field {key!r} must be yes or no, got {text!r}")
        return text == "yes"
    if isinstance(default, int):
        if not _INTEGER.fullmatch(text):
            raise PositionError(f"field {key!r} must be an integer, got {text!r}")
        why = numbers.too_long(text)
        if why:
            raise PositionError(f"field {key!r}: {why}")
        return int(text)
    return text


_INTEGER = re.compile(r"[+-]?[0-9]+")


def _short(value: object) -> str:
    """``repr(value)``, cut short: an error message repeats what the caller
    sent, but not a megabyte of it (or an int too long for ``repr``)."""
    if isinstance(value, int) and not isinstance(value, bool) \
            and abs(value) >= 10 ** numbers.MAX_DIGITS:
        return f"a number of more than {numbers.MAX_DIGITS} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _format_score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def parse_flag(fields: dict[str, str], key: str, default: bool) -> bool:
    """Pop a yes/no position field."""
    if key not in fields:
        return default
    return _parse_value(key, fields.pop(key), True)


def parse_choice(fields: dict[str, str], key: str, choices: Iterable[str], default: str) -> str:
    """Pop a position field that must be one of ``choices``."""
    if key not in fields:
        return default
    value = fields.pop(key)
    choices = tuple(choices)
    if value not in choices:
        raise PositionError(f"field {key!r} must be one of {', '.join(choices)}, got {value!r}")
    return value
