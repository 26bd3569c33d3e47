"""Play a friend by link in real browsers: two Playwright contexts (two people,
no shared storage) play robble 4x4 to the end through their links, over the
WebSocket, while a third context watches with the spectator link. The real
server runs as a subprocess with its access log on, so the test can check that
no token ever reaches the log.

Marked ``browser``; skipped when chromium is missing (``make test`` installs it).
"""

from __future__ import annotations

import random

import pytest

import browser_support
from browser_support import BROWSER_MARKS, Server, live

browser = browser_support.browser  # the fixture: one chromium a module

pytestmark = BROWSER_MARKS

TIMEOUT = 20_000  # ms
# Wraps the page's WebSocket constructor so a test can close its sockets.
SOCKET_SPY = """
window.__sockets = [];
const RealWebSocket = window.WebSocket;
window.WebSocket = function (...args) {
  const socket = new RealWebSocket(...args);
  window.__sockets.push(socket);
  return socket;
};
window.WebSocket.prototype = RealWebSocket.prototype;
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("online")
    # the access log is on (log level info): tokens must stay out of it
    srv = Server(tmp / "g.sqlite3", tmp / "server.log", log_level="info")
    srv.start()
    yield srv.url, srv.log
    srv.stop()


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.boardlab.live() && window.boardlab.live().ply >= {ply}")
    return live(page)


def test_two_browsers_play_a_game_by_link_and_a_third_watches(browser, server):
    url, log = server
    contexts, pages, errors = [], [], []
    for _ in range(3):
        ctx = browser.new_context(viewport={"width": 1100, "height": 800})
        pg = ctx.new_page()
        pg.set_default_timeout(TIMEOUT)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        contexts.append(ctx)
        pages.append(pg)
    ann, bob, eve = pages
    try:
        # Ann creates the game and gets the links
        ann.goto(url + "/")
        ann.wait_for_selector("#ng-game option", state="attached")
        ann.select_option("#ng-game", "robble")
        ann.select_option("#ng-size", "4")
        ann.check("input[name=opponent][value=online]")
        ann.set_checked("#ng-option-pie", False)
        ann.fill("#ng-name", "Ann")
        ann.select_option("#ng-color", "black")
        ann.click("#ng-start")
        ann.wait_for_function("() => location.hash.startsWith('#/play/')")
        ann.wait_for_selector("#board [data-point]")
        invite = ann.input_value("#invite-link")
        watch = ann.input_value("#spectate-link")
        assert invite.startswith(url + "/#/play/") and watch.startswith(url + "/#/watch/")
        own_token = ann.evaluate("location.hash").rsplit("/", 1)[1]
        tokens = [own_token, invite.rsplit("/", 1)[1], watch.rsplit("/", 1)[1]]
        # Bob opens his link; Eve watches (her page keeps a handle on its sockets so
        # the test can cut them like a network loss)
        eve.add_init_script(SOCKET_SPY)
        bob.goto(invite)
        eve.goto(watch)
        for pg in pages:
            pg.wait_for_function("() => window.boardlab.live() && document.body.dataset.live === 'socket'")
        ann.wait_for_selector('#players [data-seat="1"] .presence[data-connected="yes"]')
        assert "Player 2" in ann.inner_text("#players") and "Ann" in bob.inner_text("#players")
        assert live(bob)["you"] == {"seat": 1, "color": "white"}
        assert live(eve)["you"] == "spectator"
        # a spectator is offered nothing it cannot do
        assert eve.is_hidden("#btn-resign") and eve.is_hidden("#btn-undo")
        assert eve.is_hidden("#online-links")
        # they play to the end, each in their own browser, moves arriving by socket
        rng = random.Random(3)
        ply = 0
        reloaded = False
        while True:
            st = live(ann)
            if st["over"]:
                break
            mover, other = (ann, bob) if st["your_turn"] else (bob, ann)
            legal = [m for m in live(mover)["legal"] if m not in ("swap", "pass")]
            assert live(other)["legal"] == []
            mover.click(f'#board [data-point="{rng.choice(legal)}"]')
            ply += 1
            for pg in pages:
                wait_ply(pg, ply)
            if ply == 3 and not reloaded:  # Bob reloads mid-game: the same link resumes
                reloaded = True
                bob.reload()
                bob.wait_for_function("() => window.boardlab.live() && document.body.dataset.live === 'socket'")
                assert live(bob)["ply"] == 3
            if ply == 5:  # Eve loses her socket for good: the page falls back to polling
                eve.evaluate("() => { window.WebSocket = undefined;"
                             " window.__sockets.forEach((s) => s.close()); }")
                eve.wait_for_function("() => document.body.dataset.live === 'poll'")
        assert ply > 5, "the game ended before the socket drop was exercised"
        assert eve.evaluate("document.body.dataset.live") == "poll"  # she followed by polling
        final = [live(pg) for pg in pages]
        assert all(f["over"] and f["moves"] == final[0]["moves"] for f in final)
        for pg in pages:
            pg.wait_for_selector('#status[data-over="yes"]')
        assert eve.inner_text("#status") == ann.inner_text("#status") == bob.inner_text("#status")
        assert final[0]["result"]["winner"] in ("black", "white")
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, errors
    text = log.read_text()
    assert "GET /api/games/" in text           # the access log is really on
    for tok in tokens:
        assert tok not in text
