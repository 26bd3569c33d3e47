"""``boardlab play``: a game in the terminal, humans and engines in any mix.

Everything the players type goes through :meth:`Session.handle`; bad input
gets a reason and a new prompt, never a traceback. See docs/cli.md.
"""

from __future__ import annotations

import datetime as _dt
import os
import random
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from .. import ai, new_game
from ..core.game import Game
from ..errors import BoardlabError, IllegalMoveError
from ..games import view as plugin
from ..records import Record, describe, format_record
from ..records.model import continues_turn, turn_state
from .render import last_turn, move_points, render_board

HELP = """\
commands:
  <move>       play a move in the game's notation (see below)
  moves        list the legal moves (moves all: every one, even when many)
  undo         take back your last move (and the engine's reply)
  hint         ask the strongest engine for a move
  save FILE    write the game so far as a record (boardlab replay FILE)
  resign       resign the game (the color to move resigns)
  board        show the board again
  help         this text
  quit         leave (the game is not saved)"""

_MANY_MOVES = 200


@dataclass
class Player:
    """Who sits at one side of the board: ``human`` or an engine name."""

    spec: str
    agent: ai.Agent | None

    @property
    def is_human(self) -> bool:
        return self.agent is None


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def wrap_items(items: list[str], width: int = 78, indent: str = "  ") -> list[str]:
    """Items separated by two blanks (moves such as ``mark c3`` contain one)."""
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(indent) + len(line) + 2 + len(item) > width:
            lines.append(indent + line)
            line = item
        else:
            line = f"{line}  {item}" if line else item
    if line:
        lines.append(indent + line)
    return lines


class Session:
    """One game at the terminal."""

    def __init__(self, name: str, size: int | None, options: dict, players: tuple[str, str],
                 *, color: bool, seed: int | None = None,
                 write: Callable[[str], None] | None = None,
                 read: Callable[[str], str] | None = None) -> None:
        self.name = name
        self.size = size
        self.options = dict(options)
        self.color = color
        self.rng = random.Random(seed)
        self._write = write or self._stdout
        self._read = read or input
        self.people = [self._player(spec) for spec in players]
        self.game: Game = new_game(name, size, **self.options)
        self.resigned: str | None = None
        self.shown_for: tuple | None = None

    # ------------------------------------------------------------ io
    @staticmethod
    def _stdout(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def say(self, text: str = "") -> None:
        self._write(text)

    def ask(self, prompt: str) -> str | None:
        """A line of input; None at end of input (Ctrl-D) or on Ctrl-C."""
        try:
            return self._read(prompt)
        except (EOFError, KeyboardInterrupt):
            self.say()
            return None

    def _player(self, spec: str) -> Player:
        spec = spec.strip().lower()
        if spec == "human":
            return Player("human", None)
        return Player(spec, ai.make_agent(spec, seed=self.rng.randrange(2**32)))

    # ------------------------------------------------------------ seats
    def holder(self, color: str) -> Player:
        """Who plays ``color`` now: each pie swap exchanges the seats."""
        return self.people[self.game.seat_of(color)]

    def label(self, color: str) -> str:
        return f"{color} ({self.holder(color).spec})"

    @property
    def mover(self) -> str:
        """The color to move; asked only while the game is on (an undo reopens it)."""
        color = self.game.to_move
        if color is None:
            raise RuntimeError("the game is over: nobody is to move")
        return color

    @property
    def over(self) -> bool:
        return self.game.is_over or self.resigned is not None

    def turn(self) -> tuple[int, bool]:
        """The number of the turn in progress (or about to start) and whether it has begun."""
        start = self.game.copy()
        while len(start):
            start.undo()
        starts, new_turn = turn_state(start, self.game.action_history)
        return (len(starts) + 1, False) if new_turn else (len(starts), True)

    # ------------------------------------------------------------ the pre-game
    def pregame(self) -> bool:
        """A game with a pre-game whose option was not given (yugo without
        --komi): the first player names the value, the second picks a color
        (:mod:`boardlab.core.pregame`, docs/rules.md). An engine answers
        through its ``name_value`` / ``choose_color`` hooks; one without them
        names the option's default and keeps its color.

        Returns False if the input ended."""
        pg = self.game.pregame
        assert pg is not None
        first, second = self.people
        one, two = self.game.colors
        option = pg.option
        start = self.game
        if first.is_human:
            default = start.options[option]
            while True:
                line = self.ask(f"{one} (human), name the {option} ({pg.about}) [{default}]: ")
                if line is None:
                    return False
                line = line.strip()
                try:
                    value = int(line) if line else default
                    break
                except ValueError:
                    self.say(f"{option} must be a whole number, not {line!r}")
        else:
            hook = getattr(first.agent, "name_value", None)
            value = int(hook(start)) if hook else start.options[option]
            self.say(f"{one} ({first.spec}) names {option} {value}")
        self.options[option] = value
        self.game = new_game(self.name, self.size, **self.options)
        if second.is_human:
            while True:
                line = self.ask(f"{two} (human), {option} is {value}: play {one} or {two}? "
                                f"[{two}]: ")
                if line is None:
                    return False
                pick = line.strip().lower() or two
                if pick in (one, two, one[0], two[0]):
                    pick = one if pick[0] == one[0] else two
                    break
                self.say(f"answer {one} or {two}")
        else:
            hook = getattr(second.agent, "choose_color", None)
            pick = hook(self.game.copy()) if hook else two
            self.say(f"{two} ({second.spec}) {'keeps ' + two if pick == two else 'takes ' + one}")
        if pick == one:
            self.people.reverse()
            self.say("the players exchange seats: "
                     f"{one} is now {self.people[0].spec}, {two} {self.people[1].spec}")
        return True

    # ------------------------------------------------------------ display
    def header(self) -> str:
        g = self.game
        opts = [g.option_text(k, v) for k, v in g.options.items()]
        who = "  ".join(f"{c}: {self.holder(c).spec}" for c in g.colors)
        return " · ".join([f"{g.name} {g.size}x{g.size}", *opts, who])

    def status(self) -> list[str]:
        g = self.game
        lines = [self.header()]
        moves = last_turn(g)
        if moves:
            number, begun = self.turn()
            shown = number if begun else number - 1
            lines.append(f"last: {shown}. {' '.join(moves)}")
        scores = g._live_scores()
        if scores:
            lines.append("scores: " + ", ".join(f"{c} {_num(v)}" for c, v in scores.items()))
        if self.over:
            return lines
        fields = g.position_fields()
        mover = g.to_move
        legal = g.legal_moves()
        game_status = plugin.hook(g, "status")
        if game_status:
            lines += game_status(g, fields, legal)
        swap = g.swap_action
        if swap is not None and g.is_legal_action(swap):
            lines.append(f"{mover} may play {g.action_to_string(swap)} (pie rule): take over "
                         "the other color's position")
        if len(legal) == 1 and legal[0] in g.move_words:
            lines.append(f"{mover} has no other move: {legal[0]}")
        return lines

    def show(self) -> None:
        marked: set[int] = set()
        for move in last_turn(self.game):
            marked.update(move_points(move, self.game.size))
        self.say(render_board(self.game, color=self.color, marked=marked))
        for line in self.status():
            for part in textwrap.wrap(line, 78, subsequent_indent="  ") or [""]:
                self.say(part)
        self.shown_for = (len(self.game), self.resigned)

    def prompt(self) -> str:
        number, _ = self.turn()
        return f"{number}. {self.label(self.mover)}> "

    def announce(self) -> None:
        g = self.game
        if self.resigned is not None:
            winner = g.colors[1 - g.colors.index(self.resigned)]
            text = f"{self.label(self.resigned)} resigns: {self.label(winner)} wins"
        else:
            out = g.outcome
            assert out is not None
            text = describe(out)
            if out.winner in g.colors:
                text += f": {self.label(out.winner)} wins"
        self.say(f"game over: {text}")
        self.say("type save FILE to keep the record, undo to take back, quit to leave")

    # ------------------------------------------------------------ playing
    def engine_turn(self, player: Player) -> None:
        g = self.game
        number, _ = self.turn()
        mover = g.to_move
        played: list[str] = []
        while True:
            color = g.to_move
            move = player.agent.choose(g.copy())  # type: ignore[union-attr]
            g.play(move)
            played.append(move)
            if not continues_turn(g, color, move):
                break
        self.say(f"{number}. {mover} ({player.spec}): {' '.join(played)}")

    def run(self) -> int:
        pg = self.game.pregame  # the rules: settled before play, unless given
        if pg is not None and pg.option not in self.options and not self.pregame():
            return 0
        self.say("type a move, or help for the commands")
        announced = False
        while True:
            if self.over:
                if not announced:
                    self.show()
                    self.announce()
                    announced = True
                line = self.ask("game over> ")
            else:
                announced = False
                player = self.holder(self.mover)
                if not player.is_human:
                    self.engine_turn(player)
                    continue
                if self.shown_for != (len(self.game), self.resigned):
                    self.show()
                line = self.ask(self.prompt())
            if line is None:
                return 0
            if self.handle(line) == "quit":
                return 0

    # ------------------------------------------------------------ commands
    def handle(self, line: str) -> str | None:
        """Act on one line of input; returns "quit" to leave."""
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("quit", "exit"):
            return "quit"
        if word in ("help", "?"):
            self.say(HELP)
            self.say(f"{self.game.name} moves: {plugin.view_module(self.game).NOTATION}")
            return None
        if word == "board":
            self.show()
            return None
        if word == "moves":
            self.list_moves(everything=rest.lower() == "all")
            return None
        if word == "undo":
            self.undo()
            return None
        if word == "hint":
            self.hint()
            return None
        if word == "save":
            self.save(rest)
            return None
        if word == "resign":
            self.resign()
            return None
        self.move(text)
        return None

    def move(self, text: str) -> None:
        if self.over:
            self.say("the game is over: undo to take back, save FILE, or quit")
            return
        try:
            self.game.play(text)
        except IllegalMoveError as exc:
            message = f"illegal move {text!r}: {exc.reason}"
            if "malformed" in exc.reason:
                message += " (type help for the commands)"
            self.say(message)

    def list_moves(self, everything: bool = False) -> None:
        legal = self.game.legal_moves() if not self.over else []
        if not legal:
            self.say("no legal moves: the game is over")
            return
        shown = legal
        pairs = [m for m in legal if "," in m]
        if pairs and len(legal) > _MANY_MOVES and not everything:
            shown = [m for m in legal if "," not in m]
        self.say(f"legal moves ({len(legal)}):")
        for line in wrap_items(shown):
            self.say(line)
        if shown is not legal:
            self.say(f"  ... and {len(pairs)} two-stone moves such as {pairs[0]} "
                     "(moves all lists them)")

    def undo(self) -> None:
        if self.resigned is not None:
            self.say(f"{self.resigned}'s resignation is taken back")
            self.resigned = None
            return
        g = self.game
        if not len(g):
            self.say("nothing to undo")
            return
        taken = [g.undo()]
        humans = any(p.is_human for p in self.people)
        while len(g) and humans and not self.holder(self.mover).is_human:
            taken.insert(0, g.undo())
        self.say("took back: " + " ".join(taken))

    def hint(self) -> None:
        if self.over:
            self.say("the game is over")
            return
        name = ai.strongest()
        agent = ai.make_agent(name, seed=self.rng.randrange(2**32))
        move = agent.choose(self.game.copy())
        self.say(f"hint from the {name} engine (the strongest available): {move}")

    def resign(self) -> None:
        if self.over:
            self.say("the game is over")
            return
        self.resigned = self.game.to_move

    def record(self) -> Record:
        g = self.game
        players = {c: self.holder(c).spec for c in g.colors}
        date = _dt.date.today().strftime("%Y.%m.%d")
        return Record.from_game(g, players, date=date, resigned=self.resigned)

    def save(self, path: str) -> None:
        if not path:
            self.say("usage: save FILE")
            return
        try:
            text = format_record(self.record())
            with open(os.path.expanduser(path), "w", encoding="utf-8") as handle:
                handle.write(text)
        except (OSError, BoardlabError) as exc:
            self.say(f"cannot save to {path}: {exc}")
            return
        self.say(f"saved {len(self.game)} moves to {path}")
