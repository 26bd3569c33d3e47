"""Games on disk: an embedded SQLite database (stdlib ``sqlite3``).

One row per game (``games``) and one row per move (``moves``). Every change is
committed before the web request that made it is answered, so stopping the
server — even killing it — loses no game and no move. The server's state is
rebuilt by replaying a game's moves through the library.

The schema keeps room for play by link: a game has ``seats`` (a JSON list, one
entry per seat, in the order of the game's colors at the start), and each seat
may later carry a token.
"""

from __future__ import annotations

import builtins
import json
import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

from boardlab.errors import BoardlabError

#: the schema this code reads and writes, kept in ``PRAGMA user_version``.
#: 1: the tables below. (A database written before the version was read has
#: user_version 0 and a ``schema_info`` row saying 1: it is stamped on open.)
SCHEMA_VERSION = 1


#: the stored form of a pre-game before ``meta.pregame`` (see Store._move_legacy_pregame)
_LEGACY_PREGAME = """
UPDATE games SET meta = json_set(json_remove(meta, '$.komi'), '$.pregame',
    json_set(json_remove(json_extract(meta, '$.komi'), '$.komi'),
             '$.option', 'komi', '$.value', json_extract(meta, '$.komi.komi')))
WHERE json_type(meta, '$.komi') = 'object'
"""


class DatabaseVersionError(BoardlabError):
    """A database this code cannot use: written by a newer boardlab, or not
    boardlab's at all. Nothing is changed in it."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    size     INTEGER NOT NULL,
    options  TEXT NOT NULL,            -- JSON object: the library's game options
    seats    TEXT NOT NULL,            -- JSON list of 2 seats, by starting color
    meta     TEXT NOT NULL DEFAULT '{}', -- JSON: the pre-game, source record, ...
    result   TEXT,                     -- JSON: a result the rules don't make (resignation)
    status   TEXT NOT NULL DEFAULT 'playing',  -- playing | over
    created  REAL NOT NULL,
    updated  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,         -- 0-based index in the game's move list
    move     TEXT NOT NULL,            -- canonical notation (RULES.md)
    created  REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS schema_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_by_client ON games (json_extract(meta, '$.client'));
-- a game's whole-game analysis (web/review.py); added without a version
-- change: an older boardlab ignores the table, and deleting a game deletes it
CREATE TABLE IF NOT EXISTS analyses (
    game_id  TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    data     TEXT NOT NULL,            -- JSON: moves, wins, judgements, plies, ...
    created  REAL NOT NULL
);
"""


class Seat(TypedDict, total=False):
    """One seat of a game (``games.seats``, by starting color)."""

    kind: Literal["human", "computer"]
    label: str
    #: a computer seat's engine (``GET /api/engines``)
    engine: str
    #: a seat of a game by link, and the SHA-256 of its token
    online: bool
    token_hash: str
    #: the player's name a loaded record gave (downloads use it)
    name: str


class Clock(TypedDict):
    """A game by link's clock (``meta.clock``): ``started`` is the wall time
    the running clock started (None before the first move)."""

    kind: Literal["move", "total"]
    seconds: float
    increment: float
    remaining: list[float] | None
    started: float | None


class PreGameDeal(TypedDict, total=False):
    """A game's pre-game (:mod:`boardlab.core.pregame`: yugo's komi) as it
    was settled (``meta.pregame``): the option, the value named, who named
    it and who picked a color."""

    option: str
    value: int
    named_by: str
    picked_by: str
    computer_color: str
    human_color: str
    friend_color: str
    #: a game by link waits for the friend's color pick
    pending: bool


class UndoRequest(TypedDict):
    by: int
    ply: int


class UndoAnswer(TypedDict):
    by: int
    accepted: bool
    ply: int
    #: the game's ply after the answer: the asker is told while the game
    #: stands there (absent in answers stored before it was kept)
    at: NotRequired[int]


class Rematch(TypedDict):
    """A finished game by link's rematch (``meta.rematch``): the new game and
    the seat that asked for it."""

    id: str
    by: int


class AnalysisSummary(TypedDict):
    """What the meta says of the game's stored whole-game analysis
    (``review.summary``; the analysis itself is in the ``analyses`` table)."""

    moves: int
    source: Literal["engine", "record"]


class GameMeta(TypedDict, total=False):
    """What a game keeps beside its moves (``games.meta``, JSON). Every key
    is optional; answers show it without the secret ones (``SECRET_META``)."""

    #: a game by link: the creator's seat and the spectator token's hash
    online: bool
    creator_seat: int
    spectator_hash: str
    #: the owner token's hash of a game not played by link (none: public)
    owner_hash: str
    clock: Clock
    pregame: PreGameDeal
    undo_request: UndoRequest
    undo_answer: UndoAnswer
    #: "record": loaded from a record
    source: str
    #: a set-up position text the game starts from
    start: str
    #: the page's variations (``recordio.variation_nodes``)
    variations: list[dict[str, Any]]
    #: who created the game (``Hub.client_id``: a salted hash, not an address):
    #: its computer's moves keep their fair share after a restart, and its
    #: games count against its ``games_per_client``
    client: str
    #: the read-only share link's token (``POST /api/games/{id}/share``): kept
    #: as it is, not hashed, so its holders can be given the same link again
    share_token: str
    #: the stored whole-game analysis (``analyses`` table), summed up
    analysis: AnalysisSummary
    #: a finished game by link: its rematch
    rematch: Rematch


#: the meta keys no answer shows: the hashes of tokens, the share token, the creator's id
SECRET_META = ("spectator_hash", "owner_hash", "client", "share_token")


@dataclass
class GameRow:
    id: str
    game: str
    size: int
    options: dict[str, Any]
    seats: list[Seat]
    meta: GameMeta = field(default_factory=lambda: GameMeta())
    result: dict[str, Any] | None = None
    status: str = "playing"
    created: float = 0.0
    updated: float = 0.0
    moves: list[str] = field(default_factory=list)


class Store:
    """A thin, synchronous wrapper over one SQLite connection.

    The web app calls it from its event loop only; each call is a few
    milliseconds, and each write is one committed transaction."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        try:
            self._open_schema()
        except BaseException:
            self.conn.close()
            raise

    def _open_schema(self) -> None:
        """Check the schema version before touching anything: create a new
        database, stamp a version-1 one written before the version was read,
        and refuse one from a newer boardlab (or another program)."""
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if version == 0 and tables:
            info = None
            if "schema_info" in tables:
                info = self.conn.execute(
                    "SELECT value FROM schema_info WHERE key='version'").fetchone()
            if info is None or info[0] != "1" or not {"games", "moves"} <= tables:
                raise DatabaseVersionError(
                    f"{self.path} is not a boardlab database (tables: "
                    f"{', '.join(sorted(tables))}); pass another --db")
            version = 1
            self.conn.execute(f"PRAGMA user_version = {version}")
        if version > SCHEMA_VERSION:
            raise DatabaseVersionError(
                f"{self.path} has schema version {version}, newer than this boardlab's "
                f"{SCHEMA_VERSION}: upgrade boardlab, or pass another --db")
        self.conn.executescript(_SCHEMA)
        self._move_legacy_pregame()
        self.conn.execute("INSERT OR IGNORE INTO schema_info VALUES ('version', ?)",
                          (str(SCHEMA_VERSION),))
        self.conn.execute("INSERT OR IGNORE INTO schema_info VALUES ('client_salt', ?)",
                          (secrets.token_hex(16),))
        self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        #: what client ids are hashed with (``Hub.client_id``): this database's own,
        #: so a stored id names the same client after a restart and no address
        self.client_salt: str = self.conn.execute(
            "SELECT value FROM schema_info WHERE key='client_salt'").fetchone()[0]

    def _move_legacy_pregame(self) -> None:
        """Games stored before pre-games were a game's declaration kept yugo's
        settled komi as ``meta.komi`` ``{named_by, komi, picked_by, ...}``: it
        becomes ``meta.pregame`` ``{option: "komi", value, ...}`` (the same
        schema version: an older boardlab reads a moved game as one without a
        negotiation). Idempotent; the one place the old key is named."""
        with self.conn:
            self.conn.execute(_LEGACY_PREGAME)

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------ writes
    def create(self, game: str, size: int, options: dict, seats: list[Seat],
               meta: GameMeta | None = None, moves: Sequence[str] = (), result: dict | None = None,
               status: str = "playing") -> GameRow:
        now = time.time()
        with self._tx():
            while True:
                gid = secrets.token_hex(4)
                if not self.conn.execute("SELECT 1 FROM games WHERE id=?", (gid,)).fetchone():
                    break
            self.conn.execute(
                "INSERT INTO games (id, game, size, options, seats, meta, result, status, created, updated)"
                " VALUES (?,?,?,?,?,?,?,?,?,?)",
                (gid, game, size, json.dumps(options), json.dumps(seats), json.dumps(meta or {}),
                 None if result is None else json.dumps(result), status, now, now))
            self.conn.executemany(
                "INSERT INTO moves (game_id, ply, move, created) VALUES (?,?,?,?)",
                [(gid, i, m, now) for i, m in enumerate(moves)])
        return self.load(gid)  # type: ignore[return-value]

    def append_move(self, gid: str, ply: int, move: str, status: str,
                    meta: GameMeta | None = None) -> None:
        """Store a move (and, with ``meta``, the game's new meta: a clock) in one transaction."""
        now = time.time()
        with self._tx():
            self.conn.execute("INSERT INTO moves (game_id, ply, move, created) VALUES (?,?,?,?)",
                              (gid, ply, move, now))
            if meta is not None:
                self.conn.execute("UPDATE games SET meta=? WHERE id=?", (json.dumps(meta), gid))
            self.conn.execute("UPDATE games SET updated=?, status=? WHERE id=?", (now, status, gid))

    def truncate(self, gid: str, ply: int, status: str) -> None:
        """Delete the moves from ``ply`` on (undo)."""
        with self._tx():
            self.conn.execute("DELETE FROM moves WHERE game_id=? AND ply>=?", (gid, ply))
            self.conn.execute("UPDATE games SET updated=?, status=?, result=NULL WHERE id=?",
                              (time.time(), status, gid))

    def set_result(self, gid: str, result: dict | None, status: str) -> None:
        with self._tx():
            self.conn.execute("UPDATE games SET updated=?, status=?, result=? WHERE id=?",
                              (time.time(), status, None if result is None else json.dumps(result),
                               gid))

    def update(self, gid: str, seats: list[Seat] | None = None,
               meta: GameMeta | None = None) -> None:
        """Rewrite a game's seats and/or meta (online play: names, color pick, undo requests)."""
        with self._tx():
            if seats is not None:
                self.conn.execute("UPDATE games SET seats=? WHERE id=?", (json.dumps(seats), gid))
            if meta is not None:
                self.conn.execute("UPDATE games SET meta=? WHERE id=?", (json.dumps(meta), gid))

    def change_meta(self, row: GameRow, **changes: Any) -> None:
        """Set (None: remove) keys of ``row``'s meta, on disk, then in ``row``."""
        meta: dict[str, Any] = dict(row.meta)
        for key, value in changes.items():
            if value is None:
                meta.pop(key, None)
            else:
                meta[key] = value
        self.update(row.id, meta=meta)  # type: ignore[arg-type]  # keys are GameMeta's
        row.meta = meta  # type: ignore[assignment]
    def save_analysis(self, row: GameRow, data: dict[str, Any],
                      summary: dict[str, Any]) -> None:
        """Keep a game's whole-game analysis (replacing one) and its summary
        in the meta (``meta.analysis``), in one transaction; then in ``row``."""
        meta: dict[str, Any] = {**row.meta, "analysis": summary}
        with self._tx():
            self.conn.execute("INSERT OR REPLACE INTO analyses (game_id, data, created) "
                              "VALUES (?,?,?)", (row.id, json.dumps(data), time.time()))
            self.conn.execute("UPDATE games SET meta=? WHERE id=?", (json.dumps(meta), row.id))
        row.meta = meta  # type: ignore[assignment]  # keys are GameMeta's

    def load_analysis(self, gid: str) -> dict[str, Any] | None:
        """A game's stored whole-game analysis (web/review.py), or None."""
        found = self.conn.execute("SELECT data FROM analyses WHERE game_id=?",
                                  (gid,)).fetchone()
        return None if found is None else json.loads(found[0])

    def delete(self, gid: str) -> bool:
        with self._tx():
            self.conn.execute("DELETE FROM moves WHERE game_id=?", (gid,))
            self.conn.execute("DELETE FROM analyses WHERE game_id=?", (gid,))
            cur = self.conn.execute("DELETE FROM games WHERE id=?", (gid,))
        return cur.rowcount > 0

    # ------------------------------------------------------------ reads
    def load(self, gid: str) -> GameRow | None:
        row = self.conn.execute("SELECT * FROM games WHERE id=?", (gid,)).fetchone()
        if row is None:
            return None
        moves = [r[0] for r in self.conn.execute(
            "SELECT move FROM moves WHERE game_id=? ORDER BY ply", (gid,))]
        return self._row(row, moves)

    def list(self, limit: int = 200, online: bool = True,
             owners: Sequence[str] | None = None) -> list[tuple[GameRow, int]]:
        """Saved games, most recently changed first, with their move counts;
        ``online=False`` leaves out games played by link, and ``owners`` (token
        hashes) keeps only the games without an owner and those of these
        owners (both filtered before the limit, so other people's games cannot
        crowd out yours)."""
        where, params = [], []
        if not online:
            where.append("NOT coalesce(json_extract(g.meta, '$.online'), 0)")
        if owners is not None:
            owners = list(owners)[:500]
            marks = ",".join("?" * len(owners))
            where.append("(json_extract(g.meta, '$.owner_hash') IS NULL"
                         + (f" OR json_extract(g.meta, '$.owner_hash') IN ({marks}))"
                            if owners else ")"))
            params += owners
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = self.conn.execute(
            "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS n"
            f" FROM games g{clause} ORDER BY g.updated DESC LIMIT ?",
            (*params, limit)).fetchall()
        return [(self._row(r, []), r["n"]) for r in rows]

    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def count_by(self, client: str) -> int:
        """The stored games ``client`` (a ``meta.client`` id) created."""
        return self.conn.execute("SELECT COUNT(*) FROM games WHERE json_extract(meta, "
                                 "'$.client') = ?", (client,)).fetchone()[0]

    def evictable(self, n: int, client: str | None = None) -> builtins.list[str]:
        """The ids of the ``n`` evictable games changed longest ago (of
        ``client`` only, if given): finished ones, and those loaded from a
        record (a review copy: its owner has the record)."""
        mine = " AND json_extract(meta, '$.client') = ?" if client is not None else ""
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM games WHERE (status='over' OR result IS NOT NULL "
            f"OR json_extract(meta, '$.source') = 'record'){mine} ORDER BY updated LIMIT ?",
            (*(() if client is None else (client,)), n))]

    def waiting_for_computer(self, limit: int = 64) -> builtins.list[str]:
        """Unfinished games with a computer seat, most recent first: those the
        server resumes at start-up (it checks whose turn it is)."""
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM games WHERE status='playing' AND result IS NULL "
            "AND EXISTS (SELECT 1 FROM json_each(games.seats) "
            "WHERE json_extract(value, '$.kind') = 'computer') "
            "ORDER BY updated DESC LIMIT ?", (limit,))]

    # ------------------------------------------------------------ helpers
    @staticmethod
    def _row(row: sqlite3.Row, moves: builtins.list[str]) -> GameRow:
        return GameRow(id=row["id"], game=row["game"], size=row["size"],
                       options=json.loads(row["options"]), seats=json.loads(row["seats"]),
                       meta=json.loads(row["meta"] or "{}"),
                       result=None if row["result"] is None else json.loads(row["result"]),
                       status=row["status"], created=row["created"], updated=row["updated"],
                       moves=moves)

    def _tx(self):
        return _Transaction(self.conn)


class _Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        self.conn.execute("COMMIT" if exc_type is None else "ROLLBACK")
