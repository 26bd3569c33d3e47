"""Real-browser checks of issue 28: a game shared read-only, its analysis kept
and written into its record, clicks that only offer what is legal, the
online endings, moves and counts explained, the analysis made readable, the
computer's levels described, the phone layout, and what lichess and KaTrain
have beside (a hint, a board editor, sounds, accuracy).

Playwright drives Debian's chromium against the real server (browser_support);
games are set up through the API where the clicks are not what is tested.
Screenshots go to test-artifacts/screenshots/ (BOARDLAB_UPDATE_DOCS=1 copies
the ones docs/web.md shows).
"""

from __future__ import annotations

import os
import random
import shutil
import time

import pytest

import boardlab
import browser_support
from browser_support import (
    BROWSER_MARKS,
    ROOT,
    Pages,
    api_game,
    api_play,
    api_random_to_end,
    http,
    learn_owners,
    live,
    share_owners,
)

browser, server = browser_support.browser, browser_support.server  # the fixtures: one each a module

pytestmark = BROWSER_MARKS
TIMEOUT = 30_000  # ms
SHOTS = ROOT / "test-artifacts" / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def pages(browser, server):
    opened = Pages(browser, server.url, TIMEOUT, accept_downloads=True, **DESKTOP)
    yield opened
    opened.close()


def shot(page, name: str, docs: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if docs and os.environ.get("BOARDLAB_UPDATE_DOCS") == "1":
        shutil.copy2(SHOTS / f"{name}.png", ROOT / "docs" / "screenshots" / f"{name}.png")


def shown_game(page, gid: str) -> None:
    page.wait_for_function(f"() => window.boardlab.live() && window.boardlab.live().id === '{gid}'")
    page.wait_for_selector("#board [data-point]")


def hot_seat(server, game="robble", moves=(), size=5) -> dict:
    """A hot-seat game (without the pie rule where there is one) after ``moves``."""
    options = {"pie": False} if "pie" in boardlab.game_class(game).option_defaults else {}
    return api_play(server, api_game(server, game=game, size=size, options=options), list(moves))


# ---------------------------------------------------------------- 1. share a game
def test_a_shared_link_shows_the_game_read_only_at_any_position(pages, server):
    st = hot_seat(server, moves=["c3", "c2", "b3", "d3"])
    owner = pages.open(f"#/game/{st['id']}")
    shown_game(owner, st["id"])
    owner.click("#btn-share")
    owner.wait_for_selector("#share-row:not([hidden])")
    link = owner.input_value("#share-link")
    assert f"/#/watch/{st['id']}/" in link
    shot(owner, "share-link")
    other = pages.open()                           # another browser: no owner token
    other.goto(link + "/2")                        # a position by its ply
    shown_game(other, st["id"])
    other.wait_for_function("() => window.boardlab.state().view_ply === 2")
    assert other.is_visible("#read-only") and live(other)["read_only"]
    for tool in ("#btn-undo", "#btn-resign", "#btn-hint", "#btn-retry"):
        assert other.is_hidden(tool), tool
    other.click('#board [data-point="a1"]')
    other.click("#nav-last")
    other.click('#board [data-point="a1"]')        # not a player: told, nothing sent
    assert "only its players can move" in other.inner_text("#message")
    assert live(other)["moves"] == st["moves"]
    other.click("#nav-prev")
    other.wait_for_function("() => location.hash.endsWith('/3')")   # the address follows
    shot(other, "shared-read-only")
    other.goto(f"{server.url}/#/game/{st['id']}")  # the owner's address, elsewhere
    other.wait_for_selector("#view-error:not([hidden])")
    assert "press Share" in other.inner_text("#error-text")
    assert other.is_hidden("#view-play")


# ---------------------------------------------------------------- 2. analysis kept, in the record
def test_whole_game_analysis_is_kept_shared_and_written_into_the_record(pages, server):
    st = hot_seat(server, moves=["c3", "c2", "b3", "d3", "a5", "e1"])
    page = pages.open(f"#/game/{st['id']}")
    shown_game(page, st["id"])
    page.click("#btn-analyse")
    page.wait_for_selector("#an-cands [data-candidate]")
    page.click("#an-game")
    page.wait_for_function("() => window.boardlab.analysis().game !== null", timeout=90_000)
    page.wait_for_function("() => (window.boardlab.live().meta.analysis || {}).moves === 6")
    page.wait_for_selector("#an-counts [data-accuracy]")
    acc = page.eval_on_selector_all("#an-counts [data-accuracy]", "ts => ts.map(t => t.textContent)")
    assert len(acc) == 2 and all(a.endswith("%") for a in acc)
    graph = page.text_content("#an-graph")
    assert "black's chance of winning" in graph and "100%" in graph and "50%" in graph
    page.click('#an-graph [data-graph-ply="3"] circle', force=True)
    page.wait_for_function("() => location.hash.endsWith('/analysis/3')")   # URL follows
    shot(page, "analysis", docs=True)
    page.click("#an-close")
    page.click("#btn-analyse")                                 # again: nothing recomputed
    page.wait_for_function("() => window.boardlab.analysis() && window.boardlab.analysis().game")
    assert page.is_hidden("#an-progress") and "again" in page.inner_text("#an-game")
    with page.expect_download() as dl:
        page.click("#an-close")
        page.click("#dl-text")
    text = dl.value.path().read_text()
    from boardlab import records
    rec = records.parse(text)
    assert all("[%eval black" in rec.comments[k] for k in range(7))
    # the record loaded back brings its analysis: graph and marks at once
    page.click("#nav-load")
    page.fill("#load-text", text)
    page.click("#load-go")
    page.wait_for_function("() => window.boardlab.live() && window.boardlab.live().meta.source === 'record'")
    page.click("#btn-analyse")
    page.wait_for_function("() => window.boardlab.analysis() && window.boardlab.analysis().game")
    page.wait_for_function("() => document.querySelectorAll('#an-graph [data-graph-ply]').length === 7")
    # a share link shows the analysis too
    link = http("POST", f"{server.url}/api/games/{st['id']}/share").json()["link"]
    viewer = pages.open()
    viewer.goto(server.url + link + "/analysis/2")
    viewer.wait_for_function("() => window.boardlab.analysis() && window.boardlab.analysis().game")
    viewer.wait_for_function("() => document.querySelectorAll('#an-graph [data-graph-ply]').length === 7")
    assert viewer.evaluate("window.boardlab.analysis().path.length") == 2


# ---------------------------------------------------------------- 3. only what is legal
def _prefix(name, want, size=5):
    for seed in range(300):
        rng = random.Random(seed)
        game, moves = boardlab.new_game(name, size, **({"pie": False} if name == "pilo" else {})), []
        while not game.is_over and len(moves) < 80:
            if want(game):
                return moves, game
            move = rng.choice(game.legal_moves())
            game.play(move)
            moves.append(move)
    raise AssertionError("no such position")


def test_pilo_selected_stack_offers_only_its_targets(pages, server):
    moves, game = _prefix("pilo", lambda g: any("-" in m for m in g.legal_moves()))
    st = hot_seat(server, "pilo", moves)
    page = pages.open(f"#/game/{st['id']}")
    shown_game(page, st["id"])
    move = next(m for m in st["legal"] if "-" in m)
    frm = move.split("-")[0]
    empty = next(m for m in st["legal"] if "-" not in m and m != "pass")
    page.click(f'#board [data-point="{frm}"]')
    assert page.evaluate("window.boardlab.selection().from") == frm
    assert page.locator("#board .pt.legal").count() == 0           # no placement hints now
    version = live(page)["version"]
    page.click(f'#board [data-point="{empty}"]')                   # an empty square: explained
    assert "cannot go to" in page.inner_text("#message")
    assert page.get_attribute("#message", "class") == "info"
    assert live(page)["version"] == version and "malformed" not in page.inner_text("#message")
    shot(page, "pilo-stack-selected")


def test_vimbre_confirms_only_a_legal_turn_and_clears_a_refused_one(pages, server):
    def lonely(g):
        legal = set(g.legal_moves())
        return any(q not in legal for m in legal if "," in m for q in m.split(","))
    moves, game = _prefix("vimbre", lonely)
    legal = set(game.legal_moves())
    pair = next(m for m in legal if "," in m and any(q not in legal for q in m.split(",")))
    alone = next(q for q in pair.split(",") if q not in legal)
    st = hot_seat(server, "vimbre", moves)
    page = pages.open(f"#/game/{st['id']}")
    shown_game(page, st["id"])
    page.click(f'#board [data-point="{alone}"]')
    assert page.is_disabled('#actions [data-action="confirm"]')
    assert "second stone" in page.inner_text('#actions [data-action="confirm"]')
    shot(page, "vimbre-second-stone-needed")
    bad = next(p for p in (f"{c}{r}" for c in "abcde" for r in range(1, 6))
               if p != alone and game.cells()[(int(p[1]) - 1) * 5 + "abcde".index(p[0])] is None
               and ",".join(sorted([alone, p], key=lambda q: (int(q[1:]), q[0]))) not in legal)
    asked = page.inner_text("#message")         # "... needs a second stone — click one."
    page.click(f'#board [data-point="{bad}"]')
    # the refusal replaces that prompt (waiting for any text would race it)
    page.wait_for_function("(asked) => document.querySelector('#message').textContent !== asked",
                           arg=asked)
    assert "second stone" not in page.inner_text("#message")
    assert page.evaluate("window.boardlab.selection()") is None      # nothing stays half-chosen


# ---------------------------------------------------------------- 4. online endings
def test_online_undo_answer_rematch_and_a_fallen_flag(pages, server):
    r = http("POST", f"{server.url}/api/games", json={"game": "robble", "size": 4,
                                                       "opponent": "online", "color": "black"})
    g = r.json()
    gid, links = g["id"], g["links"]
    ann = pages.open(links["you"].lstrip("/"))
    bob = pages.open(links["invite"].lstrip("/"))
    eve = pages.open(links["spectate"].lstrip("/"))
    for p in (ann, bob, eve):
        shown_game(p, gid)
    ann.click('#board [data-point="a1"]')
    bob.wait_for_function("() => window.boardlab.live().ply === 1")
    bob.click('#board [data-point="d4"]')
    ann.wait_for_function("() => window.boardlab.live().ply === 2")
    bob.click("#btn-undo")
    ann.wait_for_selector('[data-action="undo-decline"]')
    assert "Asked your friend" not in bob.inner_text("#message")
    ann.click('[data-action="undo-decline"]')
    bob.wait_for_selector('[data-note="undo-declined"]')
    assert bob.is_hidden('[data-note="undo-waiting"]')
    assert eve.is_hidden("#btn-undo") and eve.is_hidden("#btn-resign")
    shot(bob, "online-undo-declined")
    ann.click("#btn-resign")
    ann.click("#btn-resign")
    ann.wait_for_selector("#btn-rematch:not([hidden])")
    ann.click("#btn-rematch")
    ann.wait_for_function(f"() => window.boardlab.live() && window.boardlab.live().id !== '{gid}'")
    new = live(ann)
    assert new["you"]["color"] == "white" and new["moves"] == []
    bob.wait_for_selector('[data-action="join-rematch"]')
    bob.click('[data-action="join-rematch"]')
    bob.wait_for_function(f"() => (window.boardlab.live() || {{}}).id === '{new['id']}'")
    assert live(bob)["you"]["color"] == "black"
    # a clock of 1 s a move: after the flag falls the loser's clock reads 0
    c = http("POST", f"{server.url}/api/games", json={"game": "robble", "size": 4, "opponent": "online",
                                                       "color": "black",
                                                       "time_control": {"kind": "move", "seconds": 1}}).json()
    me = pages.open(c["links"]["you"].lstrip("/"))
    shown_game(me, c["id"])
    me.click('#board [data-point="a1"]')
    me.wait_for_function("() => window.boardlab.live().over", timeout=10_000)
    assert "White 0:00.0" in me.inner_text("#clock")


# ---------------------------------------------------------------- 5. moves and counts explained
def test_a_robble_move_and_the_final_count_are_shown(pages, server):
    st = hot_seat(server, moves=["c3", "c2"])          # c2 pushes c3 to c4
    page = pages.open(f"#/game/{st['id']}")
    shown_game(page, st["id"])
    assert page.locator('#board [data-effect="push"][data-from="c3"][data-to="c4"]').count() == 1
    assert "White placed c2: pushed c3 to c4" in page.inner_text("#last-move")
    shot(page, "robble-move-explained", docs=True)
    end = api_random_to_end(server, hot_seat(server, size=4), seed=5)
    share_owners(page)
    page.goto(f"{server.url}/#/game/{end['id']}")
    shown_game(page, end["id"])
    parts = end["score_parts"]
    note = page.inner_text("#score-note")
    assert note.startswith("The final count.") and "cancel in pairs" in note
    assert page.is_checked("#show-count")
    assert page.locator("#board rect.tint").count() == sum(len(p) for p in parts["points"].values())
    shot(page, "robble-final-count", docs=True)


# ---------------------------------------------------------------- 6. analysis readability
def test_analysis_discs_pv_tags_lead_and_dark_mode(pages, server):
    st = hot_seat(server, "pilo", ["c3", "b2", "d4"])
    page = pages.open(f"#/game/{st['id']}", color_scheme="dark")
    shown_game(page, st["id"])
    page.click("#btn-analyse")
    page.wait_for_function("() => { const a = window.boardlab.analysis(); return a && a.analysis && a.analysis.done; }")
    page.mouse.move(5, 5)
    fills = page.eval_on_selector_all("#an-board .cand-mark circle", "cs => cs.map(c => c.getAttribute('fill'))")
    assert fills and not set(fills) & {"#151515", "#f7f7f2", "#0072b2", "#e69f00"}
    first = page.get_attribute("#an-cands [data-candidate]", "data-candidate")
    page.hover(f'#an-cands [data-candidate="{first}"]')
    page.wait_for_selector("#an-board .pv-tag")
    assert page.locator("#an-board circle + .pv-num").count() == 0      # numbers in tags, not discs
    lead = page.inner_text("#an-lead")
    if lead:  # the count is said for the side the win probability favours
        a = page.evaluate("window.boardlab.analysis().analysis.wins")
        fav = max(a, key=a.get)
        assert f"{fav} ahead" in lead or f"{fav} behind" in lead or "level" in lead
    page.mouse.move(5, 5)
    page.click(f'#an-cands [data-candidate="{first}"] .cand-move')        # a variation
    page.wait_for_selector("#an-moves .mv.var")
    bg = page.eval_on_selector("#an-moves .mv.var", "b => getComputedStyle(b).backgroundColor")
    rgb = [int(x) for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]]
    assert sum(rgb) / 3 < 110, bg                                        # dark, not pale
    assert page.evaluate("location.hash").endswith(f"/analysis/3/{first}")
    shot(page, "analysis-dark")


# ---------------------------------------------------------------- 7. levels, 9. phone, 10. small
def test_levels_described_turn_and_message_above_the_board_on_a_phone(pages, server):
    page = pages.open(**PHONE)
    page.select_option("#ng-engine", "level1")
    assert "simulations" in page.inner_text("#ng-engine-summary")
    page.select_option("#ng-engine", "level5")
    assert "strongest" in page.inner_text("#ng-engine-summary")
    shot(page, "phone-new-game")
    st = hot_seat(server, moves=["c3"])
    share_owners(page)
    page.goto(f"{server.url}/#/game/{st['id']}")
    shown_game(page, st["id"])
    page.click('#board [data-point="c3"]')                              # occupied: a message
    page.wait_for_function("() => document.querySelector('#message').textContent !== ''")
    board = page.locator("#board").bounding_box()
    for above in ("#status", "#message"):
        box = page.locator(above).bounding_box()
        assert box["y"] + box["height"] <= board["y"] + 1, above
    shot(page, "phone-turn-above-board", docs=True)


def test_saved_games_mark_a_loaded_record(pages, server):
    text = http("GET", f"{server.url}/api/games/{hot_seat(server, moves=['c3'])['id']}/record").text
    page = pages.open()
    page.click("#nav-load")
    page.fill("#load-text", text.replace('[Black "Player 1"]', '[Black "Ann"]'))
    page.click("#load-go")
    page.wait_for_function("() => window.boardlab.live() && window.boardlab.live().meta.source === 'record'")
    learn_owners(page)
    page.click("#nav-saved")
    gid = live(page)["id"]
    row = page.locator(f'#saved tr[data-id="{gid}"]')
    row.wait_for()
    assert row.locator('[data-tag="record"]').count() == 1 and "Ann" in row.inner_text()


# ---------------------------------------------------------------- beside: hint, editor, sound
def test_hint_while_playing_the_computer(pages, server):
    st = api_game(server, game="robble", size=5, options={"pie": False}, opponent="computer",
                  engine="random", color="black")
    page = pages.open(f"#/game/{st['id']}")
    shown_game(page, st["id"])
    page.click("#btn-hint")
    page.wait_for_selector("#board [data-suggest]")
    move = page.get_attribute("#board [data-suggest]", "data-suggest")
    assert move in live(page)["legal"] and page.inner_text("#message").startswith(f"Hint: {move}")
    shot(page, "hint")


def test_board_editor_sets_up_a_position_and_analyses_it(pages, server):
    page = pages.open("#/editor")
    page.wait_for_selector("#ed-board [data-point]")
    page.select_option("#ed-game", "robble")
    page.select_option("#ed-size", "5")
    page.click('#ed-palette [data-piece="X"]')
    page.click('#ed-board [data-point="c3"]')
    page.click('#ed-palette [data-piece="O"]')
    page.click('#ed-board [data-point="a1"]')
    page.select_option("#ed-to-move", "white")
    page.click("#ed-analyse")
    page.wait_for_function("() => location.hash.startsWith('#/analysis/')")
    page.wait_for_selector("#an-cands [data-candidate]")
    assert page.evaluate("window.boardlab.analysis().path") == []
    shot(page, "editor-analysis")
    page.click("#an-close")                                      # back to the editor, pieces kept
    page.wait_for_selector("#view-editor:not([hidden]) #ed-board [data-point] circle")
    assert page.locator("#ed-board circle").count() >= 2
    page.click('#ed-palette [data-piece=""]')
    page.click('#ed-board [data-point="c3"]')
    page.click('#ed-board [data-point="a1"]')
    page.click("#ed-analyse")                                    # white to move on an empty board
    page.wait_for_function("() => document.querySelector('#ed-error').textContent !== ''")
    assert "black moves first" in page.inner_text("#ed-error")     # the rules' own reason


def test_sounds_for_moves_and_their_mute_toggle(pages, server):
    st = hot_seat(server)
    page = pages.open(f"#/game/{st['id']}")
    shown_game(page, st["id"])
    page.click('#board [data-point="c3"]')
    page.wait_for_function("() => window.boardlab.sounds().includes('move')")
    page.click("#btn-sound")
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false"
    page.click('#board [data-point="a1"]')
    page.wait_for_function("() => window.boardlab.live().ply === 2")
    time.sleep(0.2)
    assert page.evaluate("window.boardlab.sounds()").count("move") == 1   # muted
    page.reload()
    page.wait_for_function("() => window.boardlab.live() !== null")
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false"   # remembered


def test_the_clock_ticks_for_its_own_player_and_a_flag_fall_chimes(pages, server):
    """Sound for the clock (as lichess has): a tick each of the last ten
    seconds of the clock that runs for you, none for the other's; the end
    of the game (here a flag fall) sounds for both."""
    g = http("POST", f"{server.url}/api/games", json={
        "game": "robble", "size": 4, "opponent": "online", "color": "black",
        "time_control": {"kind": "move", "seconds": 2}}).json()
    ann = pages.open(g["links"]["you"].lstrip("/"))
    bob = pages.open(g["links"]["invite"].lstrip("/"))
    for p in (ann, bob):
        shown_game(p, g["id"])
    assert "tick" not in ann.evaluate("window.boardlab.sounds()")   # no clock runs yet
    ann.click('#board [data-point="a1"]')                            # now Bob's runs
    for p in (ann, bob):
        p.wait_for_function("() => window.boardlab.live().over", timeout=15_000)
        p.wait_for_function("() => window.boardlab.sounds().includes('end')")
    assert "tick" in bob.evaluate("window.boardlab.sounds()")
    assert "tick" not in ann.evaluate("window.boardlab.sounds()")


def test_the_computers_komi_proposal_says_it_is_being_worked_out(pages, server):
    """Yugo's komi that the computer would name is a search: the field showed
    "…" for seconds. Now it says it is being worked out until the answer
    comes (the request is held here by the browser, so the wait is shown)."""
    page = pages.open()
    held = []
    page.route("**/api/yugo/pregame*", lambda route: held.append(route))
    page.select_option("#ng-game", "yugo")
    page.select_option("#ng-size", "5")
    page.check("input[name=opponent][value=computer]")
    page.select_option("#ng-engine", "random")
    page.check("input[name=pregame-namer][value=computer]")
    box = "#ng-pregame-proposal"
    page.wait_for_function("(box) => /size=5&engine=random$/.test("
                           "document.querySelector(box).dataset.ask || '')", arg=box)
    assert page.inner_text(box) == "working it out…"
    assert "thinking" in page.get_attribute(box, "class")
    for route in held:
        route.continue_()
    page.unroute("**/api/yugo/pregame*")
    want = http("GET", f"{server.url}/api/yugo/pregame?size=5&engine=random").json()["value"]
    page.wait_for_function("(box) => !document.querySelector(box).classList.contains('thinking')",
                           arg=box)
    assert float(page.inner_text(box)) == float(want)


def test_an_allowed_online_undo_is_told_to_its_asker(pages, server):
    """Issue 28, item 4, the other answer: "Asked your friend to allow an
    undo" stayed after an accept too. The asker is told the move was taken
    back, and nothing says it still waits."""
    g = http("POST", f"{server.url}/api/games", json={"game": "robble", "size": 4,
                                                       "opponent": "online", "color": "black"}).json()
    ann = pages.open(g["links"]["you"].lstrip("/"))
    bob = pages.open(g["links"]["invite"].lstrip("/"))
    for p in (ann, bob):
        shown_game(p, g["id"])
    ann.click('#board [data-point="a1"]')
    bob.wait_for_function("() => window.boardlab.live().ply === 1")
    bob.click('#board [data-point="d4"]')
    ann.wait_for_function("() => window.boardlab.live().ply === 2")
    bob.click("#btn-undo")
    bob.wait_for_selector('[data-note="undo-waiting"]')
    ann.click('[data-action="undo-accept"]')
    bob.wait_for_selector('[data-note="undo-allowed"]')
    assert live(bob)["ply"] == 1 and live(bob)["moves"] == ["a1"]
    assert bob.is_hidden('[data-note="undo-waiting"]')
    assert "Asked your friend" not in bob.inner_text("#message")
    assert ann.locator('[data-note="undo-allowed"]').count() == 0   # told to the asker only
