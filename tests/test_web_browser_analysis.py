"""Real-browser tests of the analysis mode (static/analysis/): Playwright on chromium.

A hot-seat robble game is played by clicks, then analysed: the panel shows
candidates (drawn on the board, a line previewed on hover; how soon they
come is bench/web_analysis.py's to measure), the whole game is analysed
with a progress bar into a win-rate graph whose points jump to their ply,
and a variation played on the analysis board is kept in the downloaded
record. The real server runs as a
subprocess (its engine workers warm their kernels at start).
"""

from __future__ import annotations

import random
import time

import pytest

import boardlab
import browser_support
from browser_support import BROWSER_MARKS, ROOT, Pages, Server, live

browser = browser_support.browser  # the fixture: one chromium a module

pytestmark = BROWSER_MARKS
TIMEOUT = 30_000  # ms


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("web")
    srv = Server(tmp / "games.sqlite3", tmp / "server.log")
    srv.start()
    time.sleep(3)  # the workers' warm-up, as on a server that has been up a while
    yield srv
    srv.stop()


@pytest.fixture
def page(browser, server):
    pages = Pages(browser, server.url, TIMEOUT, viewport={"width": 1280, "height": 900},
                  accept_downloads=True)
    yield pages.open()
    pages.close()


def hot_seat(page, game: str) -> None:
    """Start a 5x5 hot-seat game of ``game`` without the pie rule."""
    page.click("#nav-new")
    page.select_option("#ng-game", game)
    page.select_option("#ng-size", "5")
    page.check("input[name=opponent][value=human]")
    if page.is_visible("#ng-option-pie"):
        page.set_checked("#ng-option-pie", False)
    page.click("#ng-start")
    page.wait_for_function("() => window.boardlab.live() !== null")


def hot_seat_robble(page, plies: int) -> list[str]:
    """A 5x5 robble game without the pie rule, ``plies`` random moves by clicks."""
    hot_seat(page, "robble")
    rng = random.Random(11)
    for k in range(plies):
        st = live(page)
        if st["over"]:
            break
        page.click(f'#board [data-point="{rng.choice(st["legal"])}"]')
        page.wait_for_function(f"() => window.boardlab.live().ply === {k + 1}")
    return live(page)["moves"]


def analysis(page) -> dict:
    return page.evaluate("window.boardlab.analysis()")


def test_panel_shows_candidates_on_the_board_and_previews_a_line(page):
    moves = hot_seat_robble(page, 4)
    page.click("#btn-analyse")
    # how soon they come is bench/web_analysis.py's figure, not a test's bound
    page.wait_for_selector("#an-cands [data-candidate]")
    page.wait_for_function("() => window.boardlab.analysis().analysis.done", timeout=TIMEOUT)
    page.mouse.move(5, 5)                         # not over a candidate: no preview
    page.wait_for_function("() => document.querySelector('#an-board').dataset.preview === 'no'")
    a = analysis(page)
    assert a["path"] == moves and a["main"]
    g = boardlab.new_game("robble", 5, pie=False)
    for m in moves:
        g.play(m)
    rows = page.eval_on_selector_all("#an-cands [data-candidate]", "rs => rs.map(r => r.dataset.candidate)")
    assert 3 <= len(rows) <= 5 and set(rows) <= set(g.legal_moves())
    marks = page.eval_on_selector_all("#an-board [data-cand-mark]", "ms => ms.map(m => m.dataset.candMark)")
    assert marks == rows                          # each candidate drawn where it plays
    wins = page.eval_on_selector("#an-evalbar", "e => JSON.parse(e.dataset.wins)")
    assert abs(sum(wins.values()) - 1) < 1e-3 and "Win probability" in page.inner_text("#an-eval")
    page.hover(f'#an-cands [data-candidate="{rows[0]}"]')
    page.wait_for_function("() => document.querySelector('#an-board').dataset.preview === 'yes'"
                           " && document.querySelector('#an-board .pv-num')")
    page.mouse.move(5, 5)
    page.wait_for_function("() => document.querySelector('#an-board').dataset.preview === 'no'")


def test_pilo_ownership_map_tints_the_board_and_toggles(page):
    hot_seat(page, "pilo")
    page.click('#board [data-point="c3"]')
    page.wait_for_function("() => window.boardlab.live().ply === 1")
    page.click("#btn-analyse")
    page.wait_for_function("() => { const a = window.boardlab.analysis();"
                           " return a && a.analysis && a.analysis.done; }", timeout=TIMEOUT)
    page.mouse.move(5, 5)  # not over a candidate: a previewed line hides the map
    page.wait_for_function("() => document.querySelector('#an-board').dataset.preview === 'no'")
    own = analysis(page)["analysis"]["ownership"]
    expected = sum(abs(v) >= 0.05 for v in own["values"])
    assert expected > 0 and page.is_visible("#an-owner-box")
    assert page.locator("#an-board rect.tint").count() == expected
    page.uncheck("#an-owner")
    assert page.locator("#an-board rect.tint").count() == 0
    page.check("#an-owner")
    assert page.locator("#an-board rect.tint").count() == expected


def test_whole_game_graph_click_jumps_and_marks(page):
    moves = hot_seat_robble(page, 8)
    page.click("#btn-analyse")
    page.wait_for_selector("#an-cands [data-candidate]")
    page.click("#an-game")
    page.wait_for_selector("#an-progress", state="visible")
    page.wait_for_function("() => window.boardlab.analysis().game !== null", timeout=60_000)
    assert page.is_hidden("#an-progress")
    dots = page.eval_on_selector_all("#an-graph [data-graph-ply]", "ds => ds.length")
    assert dots == len(moves) + 1
    # the graph is drawn anew at each update of the analysis: the click is
    # dispatched to the dot found at that moment (a pointer click can land
    # while the dot it aimed at is being replaced)
    page.dispatch_event('#an-graph [data-graph-ply="3"] circle', "click")
    page.wait_for_function(f"() => document.querySelector('#an-board').dataset.path === {' '.join(moves[:3])!r}")
    game = analysis(page)["game"]
    assert [j["move"] for j in game["judgements"]] == moves
    for color in ("black", "white"):
        row = page.eval_on_selector_all(f'#an-counts tr[data-color="{color}"] td[data-label]',
                                        "tds => tds.map(t => +t.textContent)")
        assert row == [game["counts"][color][k] for k in ("inaccuracy", "mistake", "blunder")]
    shots = ROOT / "test-artifacts" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "analysis-whole-game.png"), full_page=True)
    labelled = page.eval_on_selector_all("#an-graph [data-label]", "ds => ds.map(d => +d.dataset.graphPly)")
    assert labelled == [j["ply"] + 1 for j in game["judgements"] if j["label"]]


def test_variation_is_played_analysed_and_kept_in_the_record(page, tmp_path):
    moves = hot_seat_robble(page, 4)
    page.click("#nav-first")
    page.click("#nav-next")                       # the position after move 1
    page.click("#btn-analyse")
    page.wait_for_function("() => window.boardlab.analysis().path.length === 1")
    g = boardlab.new_game("robble", 5, pie=False)
    g.play(moves[0])
    other = next(m for m in g.legal_moves() if m != moves[1] and m in g.legal_moves())
    page.click(f'#an-board [data-point="{other}"]')
    page.wait_for_function(f"() => window.boardlab.analysis().path.join(' ') === '{moves[0]} {other}'")
    assert not analysis(page)["main"]
    page.wait_for_selector("#an-cands [data-candidate]")    # the branch is analysed too
    page.wait_for_selector(f'#an-moves .mv.var[data-path="{moves[0]} {other}"]')
    page.click("#an-main")                        # back to the main line
    page.wait_for_function("() => window.boardlab.analysis().main")
    page.wait_for_function("() => (window.boardlab.live().meta.variations || []).length === 1")
    page.click("#an-close")
    with page.expect_download() as dl:
        page.click("#dl-text")
    path = tmp_path / "game.txt"
    dl.value.save_as(path)
    text = path.read_text()
    assert f"(2. {other})" in text, text
    # the record read back holds the variation, and so does a new analysis of it
    from boardlab import records
    rec = records.parse(text)
    assert rec.variations[1][0].move == other
    page.click("#nav-load")
    page.fill("#load-text", text)
    page.click("#load-go")
    page.wait_for_function("() => window.boardlab.live() && window.boardlab.live().meta.source === 'record'")
    page.click("#btn-analyse")
    page.wait_for_selector(f'#an-moves .mv.var[data-path="{moves[0]} {other}"]')
