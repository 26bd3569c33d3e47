"""What an operator can set: the server's limits, its access policy and its
headers, in one place (``create_app(settings=...)``; ``boardlab serve`` maps
its command-line options onto it). docs/web.md, "Operating a server", lists
them with their defaults and why each exists.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Where games are stored unless ``--db`` says otherwise (relative to the working directory).
DEFAULT_DB = "data/boardlab.sqlite3"

#: the Content-Security-Policy of every answer: the page loads only its own
#: script and styles (style attributes are set by the script), draws with
#: data: images at most, talks only to its own origin (WebSockets included)
#: and may not be framed
DEFAULT_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


@dataclass(frozen=True)
class Settings:
    """The server's limits and policies. The defaults suit a server on a LAN;
    tests shrink them to see them act."""

    #: ``True``: games not played by link have no owner token and anyone who
    #: reaches the server may move in them, list and delete them (a kiosk, a
    #: club machine). ``False``: each has an owner token kept by the browser
    #: that made it.
    public: bool = False
    #: Host header names the server answers; None: any (a library user's
    #: choice; ``boardlab serve`` always sets a list). An IP literal is always
    #: accepted: DNS rebinding arrives with a domain name.
    allowed_hosts: tuple[str, ...] | None = None
    #: key clients on the first X-Forwarded-For address (only behind a proxy
    #: that sets it; otherwise any client could pick its own key)
    trust_proxy: bool = False
    #: HTTP requests per client: (a second, burst)
    http_rate: tuple[float, float] = (50.0, 200.0)
    #: games created per client (by POST /api/games or /api/records): (a second, burst)
    creation_rate: tuple[float, float] = (1 / 6, 30.0)
    #: stored games at most; at the cap the evictable game changed longest ago
    #: (a finished one, or one loaded from a record) is evicted, and if there
    #: is none a new game is refused (503)
    max_games: int = 20_000
    #: stored games one client may have (by ``POST /api/games`` or
    #: ``/api/records``); at it, that client's own oldest evictable game goes,
    #: else 429 ``too_many_games``: one client cannot fill the server
    games_per_client: int = 500
    #: a loaded record: main-line moves, variation moves (all lines together)
    #: and characters of a player's name at most (400 ``bad_record``)
    max_record_moves: int = 2000
    max_variation_moves: int = 4000
    max_name: int = 100
    #: a game's stored whole-game analysis (``PUT /api/games/{id}/analysis``,
    #: or a loaded record's evaluations), as JSON: bytes at most (413
    #: ``analysis_too_large``; a record's, 400 ``bad_record``). A 2000-move
    #: record's evaluations and judgements take about a third of the default.
    max_analysis_bytes: int = 1024 * 1024
    #: engine processes; 0: a thread pool (tests). Two, so that one client's
    #: searches (which may hold one worker) never hold everyone else's reply
    engine_workers: int = 2
    #: each engine process loads every game's compiled search as it starts
    #: (about 2 s, in a thread of its own), so the first analysis or
    #: computer move does not wait for it; ``boardlab serve`` turns it on
    engine_warm_up: bool = False
    #: seconds an engine call may take before its worker is killed
    engine_timeout: float = 300.0
    #: times a computer move whose worker died is tried again by itself
    engine_retries: int = 2
    #: engine calls (moves, pre-game searches) one client may have waiting or
    #: running at once; past it a pre-game search is refused 429
    engine_per_client: int = 2
    #: the work pool: processes for the heavy work the event loop must not do
    #: (rendering and reading records, drawing a position's legal moves, the
    #: list's replays). None: one, or threads when ``engine_workers`` is 0
    #: (tests). Seconds a call may take (503 ``work_failed`` past it), and
    #: calls one client may have waiting or running (429 ``busy`` past it).
    work_workers: int | None = None
    work_timeout: float = 20.0
    work_per_client: int = 2
    #: analysis (routes/analysis_api.py): seconds of search for one position when
    #: the request names none, and at most (the page streams the refinement
    #: all along, so a long default costs a user nothing: the first candidates
    #: come after 0.2 s)
    analysis_seconds: float = 5.0
    analysis_max_seconds: float = 30.0
    #: a whole game: seconds per position by default (the CLI's 0.5 s), at
    #: most, and at most in all (positions x seconds; under engine_timeout)
    analysis_game_seconds: float = 0.5
    analysis_game_max_seconds: float = 5.0
    analysis_game_budget: float = 240.0
    #: moves an analysis request may carry
    analysis_max_moves: int = 1000
    #: security headers: Content-Security-Policy (None: not sent) and X-Frame-Options
    csp: str | None = DEFAULT_CSP
    #: origins (``scheme://host[:port]``) whose pages may open the server's
    #: WebSockets besides its own; ``*``: any. A browser sends its page's
    #: origin, so a page on another site cannot use a visitor's browser to
    #: reach a LAN server (403 at the handshake); clients that send no Origin
    #: (programs) are let in.
    allowed_origins: tuple[str, ...] = ()
    #: WebSockets and long-polls one client may hold open at once: past it a
    #: socket is closed (1013) and a long-poll answers at once. Idle sockets
    #: from one client cannot use up ``max_connections``.
    held_per_client: int = 16
    #: seconds an analysis socket may stay idle (no message, no analysis
    #: running) before the server closes it (1001)
    socket_idle: float = 600.0
    #: the folder whose balance-study reports ``/studies`` lists (``boardlab study``
    #: writes under ``results`` by default)
    studies_dir: str = "results"
    frame_options: str | None = "DENY"
    #: uvicorn: seconds an idle keep-alive connection is kept, seconds a
    #: client has to send a request's headers (slowloris), connections at most
    keep_alive: float = 5.0
    header_timeout: float = 10.0
    max_connections: int = 1000
