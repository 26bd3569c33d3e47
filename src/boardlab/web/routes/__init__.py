"""The web API's routes, one router per concern: ``games`` (the catalogue,
creating, reading, playing and deleting games), ``online`` (what only a game
by link has: undo requests, the color pick, display names), ``records``
(download and load), ``review`` (the share link, the whole-game analysis
kept with a game), ``analysis`` (any position's drawing and analysis, the
board editor's set-up), ``sockets`` (the live WebSocket), ``studies`` and
``pages`` (rules, the API reference, the page itself).

A route is a plain async function of its inputs and the :class:`Hub`
(``Depends(hub_of)``), so it can be read alone, called from another (the
WebSocket calls the HTTP actions) and tested with a hub of its own.
"""

from __future__ import annotations

from fastapi import Depends, Header, Request
from starlette.requests import HTTPConnection

from ..hub import Hub


def hub_of(request: Request) -> Hub:
    """The app's hub (``app.state.hub``, set by ``create_app``)."""
    return request.app.state.hub


#: a route's ``hub`` parameter: ``hub: Hub = HubDep``
HubDep = Depends(hub_of)


def client_of(connection: HTTPConnection) -> str:
    """Who is asking (a request or a WebSocket), as the limits count clients
    and the store names them: the peer's address (without its port: a
    client opens many connections), or the first ``X-Forwarded-For``
    address when the server trusts a proxy in front, as ``Hub.client_id``."""
    return connection.app.state.client_key(connection.scope)


#: the seat token of a game by link (see ``online``); None for other games
SeatToken = Header(None, alias="X-Seat-Token",
                   description="the token from your link (games by link, and games "
                               "with an owner)")
