"""Balance studies: ``boardlab study GAME`` plays self-play games over board
sizes and option values, stores every game, and measures how fair, long and
decisive the game is (docs/balance.md, docs/cli.md).

Modules: :mod:`.spec` (what to play), :mod:`.play` (one game in a worker),
:mod:`.runner` (workers, resume, throughput), :mod:`.storage` (SQLite and
records), :mod:`.metrics` and :mod:`.crossing` (the numbers),
:mod:`.summary` and :mod:`.report` (tables, the HTML report),
:mod:`.ray_backend` (optional Ray), :mod:`.cli`.
"""

from __future__ import annotations

from .runner import RunStats, run_study
from .spec import Config, StudySpec, parse_option_args, parse_values
from .storage import Store, StudyError

__all__ = ["Config", "RunStats", "Store", "StudyError", "StudySpec", "parse_option_args",
           "parse_values", "run_study"]
