"""Robble: place a stone, push / remove / flip the four neighbours; full board ends.

Rules: src/boardlab/rules/robble.md (for players), docs/rules.md (Robble, Every
game) and docs/games/robble.md (notation, positions, engine rulings).

Actions: ``0..n²-1`` place a stone on that point; ``n²`` swap.
Board cells: 0 empty, 1 black, 2 white, in a bytearray of n²+1 cells whose
last cell holds the color to move (0/1): ``bytes(board)`` is then exactly the
repetition key "board plus color to move" in one call.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from functools import cache

from ...core import grid, pie
from ...core.game import Game
from ...core.outcome import Outcome, Termination
from ...errors import PositionError

EMPTY, BLACK, WHITE = 0, 1, 2
_CLOSED = pie.CLOSED
_TOKENS = {BLACK: "X", WHITE: "O"}
_CELLS = {"X": BLACK, "O": WHITE}


class Robble(Game):
    name = "robble"
    colors = ("black", "white")
    default_size = 7
    option_defaults = {pie.OPTION: True}
    option_labels = {pie.OPTION: pie.LABEL}
    option_help = {pie.OPTION: pie.HELP}
    setup_defaults = pie.SETUP_DEFAULTS
    move_words = {pie.SWAP: pie.SWAP_LABEL}

    @classmethod
    def num_distinct_actions_for(cls, size: int) -> int:
        return size * size + 1

    # ------------------------------------------------------------ state
    def _setup(self) -> None:
        n = self.n_points
        self._swap_action = n
        self._pushes = _push_table(self.size)
        self._board = bytearray(n + 1)
        self._player = 0
        self._empty = list(range(n))  # sorted empty points: the placements
        self._pie = pie.initial(self.options["pie"])
        self._ended: Termination | None = None
        self._seen: dict[bytes, int] = {}
        self._record_position()

    def _record_position(self) -> bytes:
        self._board[-1] = self._player
        key = self._key = bytes(self._board)
        count = self._seen.get(key, 0) + 1
        self._seen[key] = count
        if count >= 3:
            self._ended = Termination.REPETITION
        return key

    # ------------------------------------------------------------ core hooks
    def _current_player(self) -> int | None:
        return None if self._ended is not None else self._player

    def _legal_actions(self) -> list[int]:
        if self._ended is not None:
            return []
        if self._pie == pie.OPEN:
            return self._empty + [self._swap_action]
        return self._empty  # the façade copies before handing it out

    def _is_legal(self, action: int) -> bool:
        if self._ended is not None:
            return False
        if action < self.n_points:
            return action >= 0 and not self._board[action]
        return action == self._swap_action and self._pie == pie.OPEN

    def _snapshot(self) -> object:
        # Never called on a finished game, so _restore knows _ended was None.
        # _key is the current board + color to move, already built by the last move.
        return self._key, self._pie

    def _apply(self, action: int) -> None:
        # The hot path of every playout: locals only, no helper calls.
        if self._pie != _CLOSED:  # only the first two turns can involve the pie rule
            self._pie = pie.after_turn(self._pie)
            if action == self._swap_action:
                return  # a swap records no position
        board = self._board
        empty = self._empty
        player = self._player
        board[action] = player + 1
        del empty[bisect_left(empty, action)]
        for a, b in self._pushes[action]:
            stone = board[a]
            if stone:
                if b < 0:                  # edge behind: remove
                    board[a] = EMPTY
                    insort(empty, a)
                elif board[b]:             # stone behind: flip
                    board[a] = 3 - stone
                else:                      # empty behind: push
                    board[b] = stone
                    board[a] = EMPTY
                    del empty[bisect_left(empty, b)]
                    insort(empty, a)
        player ^= 1
        self._player = player
        if not empty:  # the game is over; the final position is not recorded
            self._ended = Termination.SCORE
            return
        board[-1] = player
        key = self._key = bytes(board)
        seen = self._seen
        count = seen.get(key, 0) + 1
        seen[key] = count
        if count == 3:
            self._ended = Termination.REPETITION

    def _restore(self, snapshot) -> None:
        key, self._pie = snapshot
        # The undone action recorded a position iff it changed the key: a swap
        # keeps board and mover, and a board-filling move ends the game before
        # recording (so _key still holds the previous position).
        if self._key != key:
            seen = self._seen
            count = seen[self._key] - 1
            if count:
                seen[self._key] = count
            else:
                del seen[self._key]
        self._key = key
        board = self._board
        board[:] = key
        self._player = key[-1]
        self._ended = None
        self._empty = [i for i in range(self.n_points) if not board[i]]

    def _compute_outcome(self) -> Outcome:
        if self._ended is Termination.REPETITION:
            return Outcome("draw", Termination.REPETITION, None)
        best = leftover_biggest_groups(self._board[:-1], self.size)
        scores = {"black": float(best[0]), "white": float(best[1])}
        if best[0] == best[1]:  # both 0: nothing left over
            loser = 1 - self._player  # the color that filled the board
            return Outcome(self.colors[1 - loser], Termination.LAST_MOVE, scores)
        winner = self.colors[0] if best[0] > best[1] else self.colors[1]
        return Outcome(winner, Termination.SCORE, scores)

    # ------------------------------------------------------------ repetition state
    def repetitions(self) -> tuple[int, list[int]]:
        """What the repetition rule makes of the position: how many times it
        has been recorded (1 the first time; 3: the game just ended in a draw;
        0 once a placement filled the board, which records nothing), and the
        placements that would record a position for the third time, ending
        the game in a draw at once (none once the game is over). What an
        observation needs besides the position text to fix the legal moves
        and the result of every next move (docs/research.md)."""
        if self._ended is Termination.SCORE:
            return 0, []
        count = self._seen.get(self._key, 0)
        if self._ended is not None:
            return count, []
        draws: list[int] = []
        for p in list(self._empty):  # each placement played and taken back: the rules decide
            token = self._snapshot()
            self._apply(p)
            if self._ended is Termination.REPETITION:
                draws.append(p)
            self._restore(token)
        self._legal = None  # the cached legal list may share the empty list the probes changed
        return count, draws

    # ------------------------------------------------------------ notation
    def _action_string(self, action: int) -> str:
        if action == self._swap_action:
            return "swap"
        return grid.point_names(self.size)[action]

    def _parse_action(self, text: str) -> int | None:
        if text == "swap":
            return self._swap_action
        return grid.point_index(self.size).get(text)

    def _why_illegal(self, action: int) -> str:
        if self._ended is not None:
            return "the game is over"
        if action == self._swap_action:
            return pie.why_no_swap(self._pie, self.options["pie"], self.colors[1])
        return f"{self._action_string(action)} is occupied"

    # ------------------------------------------------------------ position text
    def _cell_tokens(self) -> list[str | None]:
        return [_TOKENS.get(v) for v in self._board[:-1]]

    def _state_fields(self) -> list[tuple[str, object]]:
        fields: list[tuple[str, object]] = [("swap", self._pie == pie.OPEN)]
        if self._ended is Termination.SCORE:
            fields.append(("last", self.colors[1 - self._player]))
        return fields

    def _load_position(self, cells, player, fields) -> None:
        board = self._decode_cells(cells, _CELLS, self.n_points + 1)
        self._board = board
        self._empty = [i for i in range(self.n_points) if not board[i]]
        self._pie = pie.load(fields, self.options["pie"], len(self._empty) == self.n_points)
        if self._pie == pie.OPEN and player != 1:
            # any board with white to move may offer the swap (a study's what-if,
            # as in implo); black's turn or a finished game cannot
            raise PositionError("robble: swap=yes, but swap is white's option and "
                                f"{'the game is over' if player is None else 'black is to move'}")
        self._seen = {}
        self._ended = None
        if not self._empty:
            if player is not None:
                raise PositionError("robble: a full board ends the game; to-move must be -")
            self._ended = Termination.SCORE
            # The color that filled the board is unknown from the board alone;
            # a finished position must say who moved last: last=black|white.
            last = fields.pop("last", None)
            if last not in self.colors:
                raise PositionError("robble: a finished position needs last=black or last=white")
            self._player = 1 - self.colors.index(last)
            return
        if player is None:
            raise PositionError("robble: to-move is - but the board is not full")
        if len(self._empty) == self.n_points and player != 0:
            raise PositionError("robble: on an empty board black moves first")
        self._player = player
        self._record_position()

    def _render_cells(self) -> list[str]:
        return [_TOKENS.get(v, ".") for v in self._board[:-1]]


@cache
def _push_table(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each point p: the (a, b) pairs of its on-board neighbour a and the point
    b beyond a in the same direction (-1 when a is on the edge)."""
    steps = grid.steps(size)
    table = []
    for p in range(size * size):
        pairs = []
        for step in steps:
            a = step[p]
            if a >= 0:
                pairs.append((a, step[a]))
        table.append(tuple(pairs))
    return tuple(table)


def leftover_biggest_groups(board: bytearray, size: int) -> tuple[int, int]:
    """After removing as many black/white pairs of equal-size groups as possible,
    the biggest leftover group size of each color (0 if none)."""
    return grid.largest_majority_sizes(*grid.group_size_counts(board, (BLACK, WHITE), size))
