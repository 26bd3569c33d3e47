"""Who may see and change a game: the seat tokens of a game by link, the
owner token of the others (none on a public server), and what an answer
shows of the seats. Functions of a :class:`~boardlab.web.live.Live` game
and a request's token; they raise :class:`ApiError` and change nothing but
a seat's request limit.
"""

from __future__ import annotations

from . import online
from .db import Seat
from .live import Live
from .schemas import ApiError


def not_found(gid: str) -> ApiError:
    """The one answer for an unknown id, a missing token and a wrong one,
    so a client without the link cannot tell which ids exist."""
    return ApiError(404, "not_found", f"no game {gid[:40]!r} (or not with that link)")


def identify(live: Live, token: str | None) -> int | str | None:
    """Who holds ``token``: a seat index or "spectator" for a game by link;
    None for a game without seat tokens (its owner, when it has one, or
    anyone in a public game); "spectator" for any game's share link
    (read-only, :func:`online.matches_share`): :func:`need_seat` refuses it
    whatever a game's other seats allow. A missing or wrong token is 404, as
    for an unknown id (:func:`not_found`). Reads only the row (``live.game``
    may be None: a game that no longer replays)."""
    meta = live.row.meta
    if online.matches_share(meta.get("share_token"), token):
        return "spectator"
    if not meta.get("online"):
        owner = meta.get("owner_hash")
        if owner is not None and not (token and len(token) <= online.MAX_TOKEN
                                      and online.matches(owner, token)):
            raise not_found(live.row.id)
        return None
    if not token or len(token) > online.MAX_TOKEN:
        raise not_found(live.row.id)
    found: int | str | None = None
    for i, seat in enumerate(live.row.seats):
        if online.matches(seat.get("token_hash"), token):
            found = i
    if found is None and online.matches(meta.get("spectator_hash"), token):
        found = "spectator"
    if found is None:
        raise not_found(live.row.id)
    return found


def need_seat(live: Live, token: str | None) -> int | None:
    """The seat that may change an online game (None: not online)."""
    who = identify(live, token)
    if who == "spectator":
        raise ApiError(403, "spectator", "a spectator link can only watch")
    if isinstance(who, int):
        limit = live.limits.setdefault(who, online.RateLimit())
        if not limit.allow():
            raise ApiError(429, "rate_limited", "too many requests; slow down")
    return who  # type: ignore[return-value]


def need_online_seat(live: Live, token: str | None, refusal: str) -> int:
    """:func:`need_seat` for what only an online game has; ``refusal`` is
    the 400 message for a game that is not online."""
    me = need_seat(live, token)
    if me is None:
        raise ApiError(400, "bad_request", refusal)
    return me


def public_seats(seats: list[Seat]) -> list[dict]:
    """The seats as answers show them: without their tokens' hashes."""
    return [{k: v for k, v in s.items() if k not in ("token", "token_hash")} for s in seats]
