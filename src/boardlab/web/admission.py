"""Who may add a game, and room for it: a creation rate per client, the
stored-games caps (the server's, each client's) with their evictions, the
owner token of a new game; and the connections a client may hold open.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from . import online
from .db import GameMeta, Store
from .schemas import ApiError
from .settings import Settings


class Admission:
    """The limits on creating games. ``forget`` drops an evicted game from
    memory (the hub's)."""

    def __init__(self, store: Store, settings: Settings, forget: Callable[[str], None]) -> None:
        self.store = store
        self.settings = settings
        self.forget = forget
        #: client -> its bucket for creating games
        self._creations: dict[str, online.RateLimit] = {}

    def allow_creation(self, client: str) -> None:
        """Refuse (429) a client that creates games faster than the server's
        ``creation_rate``: a game costs a row for good, so a loop could fill
        the disk."""
        bucket = self._creations.get(client)
        if bucket is None:
            if len(self._creations) > 10_000:  # forget the idle ones
                now = time.monotonic()
                for key in [k for k, b in self._creations.items() if now - b.last > 600]:
                    del self._creations[key]
            rate, burst = self.settings.creation_rate
            bucket = self._creations[client] = online.RateLimit(rate, burst)
        if not bucket.allow():
            raise ApiError(429, "rate_limited", "too many new games from you; wait a minute")

    def make_room(self, client: str) -> None:
        """Room for a new game of ``client``: under its ``games_per_client``
        (else its own oldest evictable game goes, or 429), then under
        ``max_games`` (else the server's oldest evictable game goes, or 503).
        Evictable: finished, or loaded from a record (see ``Store.evictable``);
        an unfinished game someone plays is never evicted."""
        quota = self.settings.games_per_client
        mine = self.store.count_by(client)
        if mine >= quota:
            self._evict(self.store.evictable(mine - quota + 1, client))
            if self.store.count_by(client) >= quota:
                raise ApiError(429, "too_many_games", f"you have {quota} stored games, the "
                               "most this server keeps for one client, and none is finished "
                               "or loaded from a record; delete some first")
        excess = self.store.count() - self.settings.max_games + 1
        if excess > 0:
            self._evict(self.store.evictable(excess))
        if self.store.count() >= self.settings.max_games:
            raise ApiError(503, "server_full", "this server holds as many games as it may "
                           "and none is finished or loaded from a record; try again later")

    def _evict(self, ids: list[str]) -> None:
        for gid in ids:
            self.forget(gid)
            self.store.delete(gid)

    def new_owner(self, meta: GameMeta) -> str | None:
        """An owner token for a new game not played by link (its hash goes in
        ``meta``), or None on a ``public`` server."""
        if self.settings.public:
            return None
        token = online.new_token()
        meta["owner_hash"] = online.token_hash(token)
        return token


class Held:
    """The connections each client holds open and waiting (WebSockets,
    long-polls), at most ``limit`` a client: one client's idle sockets once
    used up the server's connections (1,010 of them: every other client got
    503)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.by_client: dict[str, int] = {}

    def enter(self, client: str) -> bool:
        """Count one more for ``client``, if under its limit."""
        n = self.by_client.get(client, 0)
        if n >= self.limit:
            return False
        self.by_client[client] = n + 1
        return True

    def leave(self, client: str) -> None:
        n = self.by_client.get(client, 0) - 1
        if n > 0:
            self.by_client[client] = n
        else:
            self.by_client.pop(client, None)
