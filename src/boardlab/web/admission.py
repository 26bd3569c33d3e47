"""Who may add a game, and room for it: a creation rate per client, the
stored-games cap with its evictions, and the owner token of a new game.
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

    def make_room(self) -> None:
        """Keep the store under ``max_games``: evict the oldest finished game
        not played by link (nobody can be in the middle of it), or refuse."""
        excess = self.store.count() - self.settings.max_games + 1
        if excess <= 0:
            return
        for gid in self.store.oldest_finished(excess):
            self.forget(gid)
            self.store.delete(gid)
        if self.store.count() >= self.settings.max_games:
            raise ApiError(503, "server_full", "this server holds as many games as it may "
                           "and none is finished; try again later")

    def new_owner(self, meta: GameMeta) -> str | None:
        """An owner token for a new game not played by link (its hash goes in
        ``meta``), or None on a ``public`` server."""
        if self.settings.public:
            return None
        token = online.new_token()
        meta["owner_hash"] = online.token_hash(token)
        return token
