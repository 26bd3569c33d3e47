"""Where a study keeps its games: ``DIR/results.sqlite`` and ``DIR/records/``.

``results.sqlite`` (stdlib :mod:`sqlite3`) holds one row per game in ``games``
and one per position in ``positions``; its primary key (engine, size,
options, game index) is what ``--resume`` skips. The ``meta`` table records,
per engine string, the engine's full settings (:meth:`BaseAgent.settings
<boardlab.ai.agent.BaseAgent.settings>`), the boardlab version and the ply
cap the games were played with, and a resume with any of them different is
refused (:meth:`Store.agree`): the same engine string can mean another engine
after an upgrade, and one table must not mix the two. Each configuration's games
are also appended, one gzip member per game, to
``records/GAME-SIZE-OPTIONS-ENGINE.rec.gz`` (boardlab's record format, match
tags), so any game can be replayed, checked or analysed.

A game is written to its records file first and then committed to the
database in one transaction, so a kill leaves at worst a record with no row
(dropped on resume and played again) and never a row without its record.
Nothing here deletes a file it cannot read: a damaged results file is an
error that names it.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sqlite3
from typing import Any

from .. import records
from ..ai.match import MatchSpec, result_record
from ..errors import BoardlabError
from .adequacy import search_sizes
from .spec import Config, options_key
from .study_game import StudyGame

DB_NAME = "results.sqlite"
RECORDS_DIR = "records"
FORMAT = "1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    engine TEXT NOT NULL, size INTEGER NOT NULL, options TEXT NOT NULL,
    game_index INTEGER NOT NULL, seed INTEGER NOT NULL,
    winner TEXT, first_color_won REAL, first_mover_won REAL,
    plies INTEGER NOT NULL, turns INTEGER NOT NULL, swapped INTEGER NOT NULL,
    first_move TEXT, termination TEXT NOT NULL,
    branching_mean REAL, branching_max INTEGER,
    evaluated INTEGER NOT NULL, lead_changes INTEGER, loser_max REAL,
    seconds REAL NOT NULL, engine_seconds REAL NOT NULL, cpu_seconds REAL NOT NULL,
    margin REAL,
    PRIMARY KEY (engine, size, options, game_index));
CREATE TABLE IF NOT EXISTS positions (
    engine TEXT NOT NULL, size INTEGER NOT NULL, options TEXT NOT NULL,
    game_index INTEGER NOT NULL, ply INTEGER NOT NULL,
    mover INTEGER NOT NULL, legal INTEGER NOT NULL, action INTEGER NOT NULL, eval REAL,
    visits INTEGER,
    PRIMARY KEY (engine, size, options, game_index, ply)) WITHOUT ROWID;
"""

GAME_COLUMNS = ("engine", "size", "options", "game_index", "seed", "winner",
                "first_color_won", "first_mover_won", "plies", "turns", "swapped",
                "first_move", "termination", "branching_mean", "branching_max", "evaluated",
                "lead_changes", "loser_max", "seconds", "engine_seconds", "cpu_seconds",
                "margin")


class StudyError(BoardlabError):
    """A study cannot start or continue (the message names the file and the problem)."""


#: the meta key of an engine string's recorded settings (``settings:mcts:200``)
SETTINGS_KEY = "settings:"


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flat(v, f"{prefix}{k}."))
        return out
    return {prefix.rstrip("."): value}


def differences(before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """``["engine.solver: recorded true, now false", ...]``: every setting
    that differs (or is only in one), by its dotted path."""
    a, b = _flat(before), _flat(now)
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key, MISSING) != b.get(key, MISSING):
            out.append(f"{key}: recorded {_text(a.get(key, MISSING))}, now "
                       f"{_text(b.get(key, MISSING))}")
    return out


MISSING = object()


def _text(v: Any) -> str:
    return "(none)" if v is MISSING else json.dumps(v)


#: A side leads only while the engine gives it at least 1/2 + LEAD_MARGIN: the
#: value a search reports for its own chosen move leans towards the mover, so
#: without a margin the "leader" would flip on almost every ply of an even game.
LEAD_MARGIN = 0.1


def lead_changes(evals: list[float | None], margin: float = LEAD_MARGIN) -> int:
    """How often the side the engine thinks ahead (P(first) above 1/2 + margin,
    or below 1/2 - margin) changes between evaluated positions; positions in
    between and unevaluated ones keep the last leader."""
    leader = None
    changes = 0
    for p in evals:
        if p is None or abs(p - 0.5) < margin:
            continue
        now = p > 0.5
        if leader is not None and now != leader:
            changes += 1
        leader = now
    return changes


def loser_max(evals: list[float | None], first_color_won: float | None) -> float | None:
    """The highest win probability the engine ever gave the eventual loser
    (None: a draw, an unfinished game, or no evaluation)."""
    known = [p for p in evals if p is not None]
    if not known or first_color_won is None or first_color_won == 0.5:
        return None
    return max(1 - p for p in known) if first_color_won == 1 else max(known)


def game_row(engine: str, config: Config, g: StudyGame, colors: tuple[str, str]) -> dict:
    """The ``games`` row of a played game."""
    w = g.winner
    fcw = None if w is None else 0.5 if w == "draw" else float(w == colors[0])
    evaluated = sum(p is not None for p in g.evals)
    return {
        "engine": engine, "size": config.size, "options": options_key(config.options),
        "game_index": g.index, "seed": g.seed, "winner": w, "first_color_won": fcw,
        "first_mover_won": g.first_mover_won, "plies": g.result.plies, "turns": g.turns,
        "swapped": int(g.swapped), "first_move": g.first_move,
        "termination": g.result.termination,
        "branching_mean": sum(g.legal) / len(g.legal) if g.legal else None,
        "branching_max": max(g.legal) if g.legal else None, "evaluated": evaluated,
        "lead_changes": lead_changes(g.evals) if evaluated else None,
        "loser_max": loser_max(g.evals, fcw), "seconds": g.result.seconds,
        "engine_seconds": g.engine_seconds, "cpu_seconds": g.result.cpu_seconds,
        "margin": g.margin}


def records_name(game: str, engine: str, config: Config) -> str:
    opts = "-".join(f"{k}{'yes' if v is True else 'no' if v is False else v}"
                    for k, v in sorted(config.options.items()))
    raw = f"{game}-{config.size}" + (f"-{opts}" if opts else "") + f"-{engine}"
    return re.sub(r"[^A-Za-z0-9.]+", "-", raw).strip("-") + ".rec.gz"


class Store:
    """The results database and records files of one study directory."""

    def __init__(self, directory: str, game: str, *, resume: bool) -> None:
        self.dir = directory
        self.game = game
        self.path = os.path.join(directory, DB_NAME)
        existed = os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if existed and not resume:
            raise StudyError(f"{self.path} already holds a study: --resume continues it, "
                             "or name another --out")
        os.makedirs(os.path.join(directory, RECORDS_DIR), exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path)
            if existed:
                self._check()
            self.db.executescript(SCHEMA)
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(games)")}
            if "margin" not in columns:  # a study stored before scores were kept
                self.db.execute("ALTER TABLE games ADD COLUMN margin REAL")
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(positions)")}
            if "visits" not in columns:  # ... and before the searches' sizes were
                self.db.execute("ALTER TABLE positions ADD COLUMN visits INTEGER")
            self._meta()
        except sqlite3.DatabaseError as exc:
            raise StudyError(f"{self.path} is not a readable study results file ({exc}); "
                             "it was left as it is: move it away, or name another --out"
                             ) from None

    def _check(self) -> None:
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master")}
        missing = {"meta", "games", "positions"} - names
        if missing:
            raise StudyError(f"{self.path} is not a study results file: it has no "
                             f"{', '.join(sorted(missing))} table; it was left as it is")
        bad = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if bad != "ok":
            raise StudyError(f"{self.path} is damaged (sqlite quick_check: {bad}); it was "
                             "left as it is")

    def _meta(self) -> None:
        meta = dict(self.db.execute("SELECT key, value FROM meta"))
        if meta.get("game", self.game) != self.game:
            raise StudyError(f"{self.path} is a study of {meta['game']}, not {self.game}")
        if meta.get("format", FORMAT) != FORMAT:
            raise StudyError(f"{self.path} has format {meta['format']}, this boardlab "
                             f"reads format {FORMAT}")
        with self.db:
            self.db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)",
                                [("game", self.game), ("format", FORMAT)])

    # ------------------------------------------------------------ settings
    def recorded(self, engine: str) -> dict[str, Any] | None:
        """What the games of ``engine`` were played with (None: not recorded)."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?",
                              (SETTINGS_KEY + engine,)).fetchone()
        return None if row is None else json.loads(row[0])

    def agree(self, engine: str, settings: dict[str, Any]) -> None:
        """Record ``settings`` (``{"engine": ..., "boardlab": ..., "max_plies":
        ...}``) for ``engine``'s games, or refuse, naming every difference,
        when games of that engine string were played with other ones."""
        before = self.recorded(engine)
        stored = self.db.execute("SELECT count(*) FROM games WHERE engine=?",
                                 (engine,)).fetchone()[0]
        if before is None and stored:
            raise StudyError(f"{self.path} holds {stored} games of {engine!r} played before "
                             "studies recorded their engine's settings: they cannot be "
                             "matched to this engine. Run the study in a new --out")
        if before is not None and before != settings:
            diffs = "; ".join(differences(before, settings))
            raise StudyError(f"{self.path}: its games of {engine!r} were played with other "
                             f"settings than this run's ({diffs}). Resuming would mix games "
                             "played two ways: run the study in a new --out, or restore the "
                             "recorded settings (meta table)")
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                            (SETTINGS_KEY + engine, json.dumps(settings, sort_keys=True)))

    def set_spec(self, spec: dict[str, Any]) -> None:
        """Record the latest command's study (sizes, option grid, games...),
        which a published study is checked against."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('spec', ?)",
                            (json.dumps(spec, sort_keys=True),))

    def meta(self) -> dict[str, Any]:
        """The meta table, JSON values decoded."""
        out: dict[str, Any] = {}
        for key, value in self.db.execute("SELECT key, value FROM meta ORDER BY key"):
            try:
                out[key] = json.loads(value) if key == "spec" or key.startswith(
                    SETTINGS_KEY) else value
            except ValueError:
                out[key] = value
        return out

    # ------------------------------------------------------------ reading
    def done(self, engine: str, config: Config) -> set[int]:
        rows = self.db.execute("SELECT game_index FROM games WHERE engine=? AND size=? "
                               "AND options=?", (engine, config.size, options_key(config.options)))
        return {r[0] for r in rows}

    def records_path(self, engine: str, config: Config) -> str:
        return os.path.join(self.dir, RECORDS_DIR, records_name(self.game, engine, config))

    def reconcile(self, engine: str, config: Config, spec: MatchSpec) -> set[int]:
        """The games of ``config`` already stored. Its records file is cut back
        to exactly those games (a record a kill left without its row goes, to be
        played again); a file that cannot be read is an error naming it."""
        done = self.done(engine, config)
        path = self.records_path(engine, config)
        if not os.path.exists(path):
            if done:
                raise StudyError(f"{path} is missing, but {self.path} holds "
                                 f"{len(done)} of its games")
            return done
        try:
            text = records.read_text(path, drop_cut_off=True)
            recs = records.parse_all(text)
        except (records.RecordError, OSError, EOFError, gzip.BadGzipFile) as exc:
            raise StudyError(f"{path}: {exc} (it was left as it is; move it away to "
                             "continue without these games' records)") from None
        keep: dict[int, records.Record] = {}
        for k, rec in enumerate(recs, 1):
            tags = rec.tags
            if tags.get("EngineA") != spec.a or tags.get("MatchSeed") != str(spec.seed):
                raise StudyError(f"{path}: game {k} is from another study (engine "
                                 f"{tags.get('EngineA')!r}, seed {tags.get('MatchSeed')!r})")
            try:
                index = int(tags.get("Round", "")) - 1
            except ValueError:
                raise StudyError(f"{path}: game {k} has no round number") from None
            if index in done:
                keep[index] = rec
        lost = done - set(keep)
        if lost:
            raise StudyError(f"{path} lacks game(s) {sorted(i + 1 for i in lost)[:5]} "
                             f"that {self.path} holds")
        # always rewritten: a cut-off tail a kill left is gone before new games
        # are appended after it
        tmp = path + ".tmp"
        with gzip.open(tmp, "wt", encoding="utf-8") as fh:
            fh.write("".join(records.format(keep[i]) + "\n" for i in sorted(keep)))
        os.replace(tmp, path)
        return done

    def games(self) -> list[dict[str, Any]]:
        """Every game row; LeadChange and the loser's best evaluation are
        recomputed from the positions table, so a change of their definition
        applies to studies already stored."""
        evals: dict[tuple, list[float | None]] = {}
        searches: dict[tuple, list[tuple[int, int | None]]] = {}
        for e, s, o, i, v, n, visits in self.db.execute(
                "SELECT engine, size, options, game_index, eval, legal, visits FROM positions "
                "ORDER BY engine, size, options, game_index, ply"):
            evals.setdefault((e, s, o, i), []).append(v)
            searches.setdefault((e, s, o, i), []).append((n, visits))
        cur = self.db.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games "
                              "ORDER BY engine, size, options, game_index")
        out = []
        for row in cur:
            d = dict(zip(GAME_COLUMNS, row, strict=True))
            ev = evals.get((d["engine"], d["size"], d["options"], d["game_index"]), [])
            if d["evaluated"]:
                d["lead_changes"] = lead_changes(ev)
                d["loser_max"] = loser_max(ev, d["first_color_won"])
            d.update(search_sizes(searches.get((d["engine"], d["size"], d["options"],
                                                d["game_index"]), [])))
            d["options"] = json.loads(d["options"])
            out.append(d)
        return out

    # ------------------------------------------------------------ writing
    def add(self, engine: str, config: Config, spec: MatchSpec, g: StudyGame,
            colors: tuple[str, str]) -> None:
        """Store one game: its record first, then its rows in one transaction."""
        text = records.format(result_record(spec, g.result))
        path = self.records_path(engine, config)
        with gzip.open(path, "at", encoding="utf-8") as fh:
            fh.write(text + "\n")
        row = game_row(engine, config, g, colors)
        opts = row["options"]
        positions = [(engine, config.size, opts, g.index, ply, m, n, a, e, v)
                     for ply, (m, n, a, e, v) in enumerate(
                         zip(g.movers, g.legal, g.result.actions, g.evals, g.visits,
                             strict=True))]
        with self.db:
            self.db.execute(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES "
                            f"({', '.join('?' * len(GAME_COLUMNS))})",
                            [row[c] for c in GAME_COLUMNS])
            self.db.executemany("INSERT INTO positions (engine, size, options, game_index, ply, "
                                "mover, legal, action, eval, visits) VALUES "
                                "(?,?,?,?,?,?,?,?,?,?)", positions)

    def close(self) -> None:
        self.db.close()
