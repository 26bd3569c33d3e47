"""Balance studies: ``boardlab study GAME`` plays self-play games over board
sizes and option values, stores every game, and measures how fair, long and
decisive the game is (docs/balance.md, docs/cli.md).

Modules: :mod:`.spec` (what to play), :mod:`.play` (one game in a worker),
:mod:`.runner` (workers, resume, throughput; the engine's settings recorded),
:mod:`.storage` (SQLite and records), :mod:`.metrics` and :mod:`.crossing`
(the numbers), :mod:`.adequacy` (whether the engine was strong enough to
answer), :mod:`.summary` (tables), :mod:`.verdict` (the answers in words),
:mod:`.figures`, :mod:`.view` and :mod:`.report` (SVG figures, the HTML of
the web page and of ``report.html``), :mod:`.published` (the studies
docs/balance.md publishes, shipped), :mod:`.ray_backend` (optional Ray),
:mod:`.cli`.
"""

from __future__ import annotations

from .runner import RunStats, run_study
from .spec import Config, StudySpec, parse_option_args, parse_values
from .storage import Store, StudyError

__all__ = ["Config", "RunStats", "Store", "StudyError", "StudySpec", "parse_option_args",
           "parse_values", "run_study"]
