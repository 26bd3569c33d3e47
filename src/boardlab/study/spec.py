"""What a study plays: the game, the board sizes, the grid of option values,
the engine, the games per configuration and the seed.

A *configuration* is one board size with one value for every option the study
varies (``--option komi=0..12`` gives 13 per size); each configuration gets
``games`` self-play games with alternating seats. Option values are parsed and
checked against the game's own ``option_defaults`` / ``option_ranges`` here,
before any game runs, so a typo fails at once and names the option.
"""

from __future__ import annotations

import itertools
import json
import zlib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import boardlab

from ..ai.engines import make_engine
from ..errors import OptionError
from ..records.model import format_option

#: A sweep over more configurations than this is almost surely a typo
#: (``komi=0..1000:0.001``); it is refused instead of running for days.
MAX_CONFIGURATIONS = 10_000


def _number(text: str, where: str) -> Decimal:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise OptionError(f"{where}: {text!r} is not a number") from None
    if not value.is_finite():
        raise OptionError(f"{where}: {text!r} is not a finite number")
    return value


def parse_values(key: str, text: str, default: Any) -> list[Any]:
    """The values ``--option KEY=TEXT`` names, typed like the option's default.

    ``TEXT`` is ``LOW..HIGH`` (every integer in between, both included),
    ``LOW..HIGH:STEP``, a comma list (``yes,no``; ``0,4,8``) or one value.
    """
    where = f"--option {key}={text}"
    if isinstance(default, bool):
        out = []
        for word in text.split(","):
            w = word.strip().lower()
            if w not in ("yes", "no", "true", "false", "on", "off"):
                raise OptionError(f"{where}: {key} is yes or no, got {word!r}")
            out.append(w in ("yes", "true", "on"))
        return _unique(out, where)
    if not isinstance(default, int):
        return _unique([w.strip() for w in text.split(",")], where)
    if ".." in text:
        low_text, _, rest = text.partition("..")
        high_text, _, step_text = rest.partition(":")
        low, high = _number(low_text, where), _number(high_text, where)
        step = _number(step_text, where) if step_text else Decimal(1)
        if step <= 0:
            raise OptionError(f"{where}: the step must be above 0, got {step_text!r}")
        if high < low:
            raise OptionError(f"{where}: the range is empty ({low} is above {high})")
        count = int((high - low) / step) + 1
        if count > MAX_CONFIGURATIONS:
            raise OptionError(f"{where}: {count} values, more than {MAX_CONFIGURATIONS}")
        values = [low + k * step for k in range(count)]
    else:
        values = [_number(w, where) for w in text.split(",")]
    if any(v != v.to_integral_value() for v in values):
        bad = next(v for v in values if v != v.to_integral_value())
        raise OptionError(f"{where}: {key} takes whole numbers, and {bad} is not one "
                          "(a step such as :0.5 needs an option with half values)")
    return _unique([int(v) for v in values], where)


def _unique(values: list[Any], where: str) -> list[Any]:
    if len(set(values)) != len(values):
        raise OptionError(f"{where}: a value appears twice")
    return values


def parse_sizes(text: str, game: str) -> list[int]:
    """``5,7,9`` -> [5, 7, 9]; each size checked by the game."""
    cls = boardlab.game_class(game)
    sizes = []
    for word in text.split(","):
        try:
            size = int(word)
        except ValueError:
            raise OptionError(f"--sizes {text}: {word!r} is not a board size") from None
        try:
            cls._check_size(size)
        except OptionError as exc:
            raise OptionError(f"--sizes {text}: {exc}") from None
        sizes.append(size)
    return _unique(sizes, f"--sizes {text}")


def options_key(options: dict[str, Any]) -> str:
    """A configuration's options as canonical JSON (the storage key)."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Config:
    """One board size with one value for each option: ``games`` games are played."""

    game: str
    size: int
    options: dict[str, Any]

    @property
    def key(self) -> str:
        return f"{self.size}|{options_key(self.options)}"

    def label(self) -> str:
        opts = " ".join(f"{k}={format_option(v)}" for k, v in sorted(self.options.items()))
        return f"{self.game} {self.size}x{self.size}" + (f" {opts}" if opts else "")

    def seed(self, study_seed: int) -> int:
        """The match seed of this configuration's games: the study seed mixed
        with the configuration, so no two configurations share engine seeds."""
        return zlib.crc32(f"{study_seed}|{self.key}".encode()) % (2 ** 31)


@dataclass
class StudySpec:
    """A whole study: every configuration of ``sizes`` x the option grid."""

    game: str
    sizes: list[int]
    grid: dict[str, list[Any]] = field(default_factory=dict)
    engine: str = "level2"
    games: int = 20
    seed: int = 1
    max_plies: int | None = None

    def __post_init__(self) -> None:
        cls = boardlab.game_class(self.game)
        self.game = cls.name
        for key, values in self.grid.items():
            if key not in cls.option_defaults:
                known = ", ".join(sorted(cls.option_defaults)) or "none"
                raise OptionError(f"--option {key}: {cls.name} has no option {key!r} "
                                  f"(options: {known})")
            for v in values:
                try:
                    cls._check_options({key: v})  # the game's own range check
                except OptionError as exc:
                    raise OptionError(f"--option {key}: {exc}") from None
        for size in self.sizes:
            try:
                cls._check_size(size)
            except OptionError as exc:
                raise OptionError(f"--sizes: {exc}") from None
        if self.games < 1:
            raise OptionError(f"--games {self.games}: a study needs at least one game "
                              "per configuration")
        if self.max_plies is not None and self.max_plies < 1:
            raise OptionError(f"--max-plies {self.max_plies}: must be at least 1")
        make_engine(self.engine)  # an unknown engine fails before any game
        if len(self.configs()) > MAX_CONFIGURATIONS:
            raise OptionError(f"{len(self.configs())} configurations, more than "
                              f"{MAX_CONFIGURATIONS}")

    def as_dict(self) -> dict[str, Any]:
        """The study as the command gave it (stored with its results)."""
        return {"game": self.game, "sizes": list(self.sizes), "grid": dict(self.grid),
                "engine": self.engine, "games": self.games, "seed": self.seed,
                "max_plies": self.max_plies}

    def configs(self) -> list[Config]:
        keys = sorted(self.grid)
        combos = itertools.product(*(self.grid[k] for k in keys))
        rows = [dict(zip(keys, combo, strict=True)) for combo in combos]
        return [Config(self.game, size, opts) for size in self.sizes for opts in rows]


def parse_option_args(game: str, items: list[str]) -> dict[str, list[Any]]:
    """``["komi=0..12", "pie=yes,no"]`` -> the grid, each value checked."""
    cls = boardlab.game_class(game)
    grid: dict[str, list[Any]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key or not text.strip():
            raise OptionError(f"--option {item!r}: write KEY=VALUES, e.g. komi=0..12 or "
                              "pie=yes,no")
        if key not in cls.option_defaults:
            known = ", ".join(sorted(cls.option_defaults)) or "none"
            raise OptionError(f"--option {key}: {cls.name} has no option {key!r} "
                              f"(options: {known})")
        if key in grid:
            raise OptionError(f"--option {key}: given twice")
        grid[key] = parse_values(key, text, cls.option_defaults[key])
    return grid
