"""Real-browser checks of what a new user found (issue 19): the rules pages'
diagrams, the phone layout, the clock, the messages and the board marks.

Playwright drives Debian's chromium against the real server (see
browser_support.py); marked ``browser`` and skipped, with the reason, where
chromium is missing. Small boards keep the module to about a minute.
"""

from __future__ import annotations

import pytest

import boardlab
import browser_support
from browser_support import (
    BROWSER_MARKS,
    api_game,
    api_play,
    api_random_to_end,
    http,
    learn_owners,
    live,
    share_owners,
)

# the fixtures: one app and one chromium a module, pages for a test
browser, server, pages = browser_support.browser, browser_support.server, browser_support.pages

pytestmark = BROWSER_MARKS
TIMEOUT = 20_000  # ms


@pytest.fixture
def page(pages):
    return pages.open()


# ---------------------------------------------------------------- rules pages
@pytest.mark.parametrize("game", boardlab.GAMES)
def test_rules_dialog_draws_the_diagrams_with_the_board_renderer(page, game):
    page.select_option("#ng-game", game)
    page.click("#ng-rules")
    page.wait_for_selector("#rules-dialog[open] figure.board-diagram svg.diagram")
    figures = page.locator("#rules-body figure.board-diagram")
    assert figures.count() >= 2
    assert page.locator("#rules-body figure.board-diagram pre").count() == 0  # all replaced
    # drawn by board.js: one <g data-point> per point of the diagram's board
    size = page.eval_on_selector("#rules-body figure.board-diagram", "f => JSON.parse(f.dataset.view).size")
    assert page.locator("#rules-body figure.board-diagram >> nth=0 >> [data-point]").count() == size * size
    text = page.inner_text("#rules-body")
    for developer in ("shared/", "src/", "num_distinct_actions", "Position fields", "Performance"):
        assert developer not in text, developer


def test_standalone_rules_page_draws_diagrams(browser, server):
    ctx = browser.new_context()
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server.url + "/rules/pilo")
    pg.wait_for_selector("figure.board-diagram svg.diagram", timeout=TIMEOUT)
    # the stack of 2 on c5 shows its height
    assert pg.locator("figure.board-diagram >> nth=1 >> [data-point=c5] text.stack-h").text_content() == "2"
    ctx.close()
    assert not errors, errors


def show(page, server, gid: str, ply: int | None = None) -> None:
    share_owners(page)
    page.goto(f"{server.url}/#/game/{gid}" + ("" if ply is None else f"/{ply}"))
    page.wait_for_selector("#board [data-point]")
    page.wait_for_function("() => window.boardlab.live() !== null")


# ---------------------------------------------------------------- phone
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}


def test_phone_first_tap_on_a_panel_button_after_the_board_works(pages, server):
    """390 px wide, touch: tap d4 in vimbre 7x7, tap "Confirm d4" once: d4 is played.
    Before the fix the board's blur emptied the line under it, the panel jumped
    up between press and release and the first tap did nothing."""
    pg = pages.open(**PHONE)
    st = api_game(server, game="vimbre", size=7)
    show(pg, server, st["id"])
    pg.tap('#board [data-point="d4"]')
    pg.wait_for_selector('#actions [data-action="confirm"]:not([disabled])')
    # the panel must not move when the board loses focus (what a tap elsewhere does)
    focused = pg.locator("#actions").bounding_box()
    pg.evaluate("document.querySelector('#board').blur()")
    assert pg.locator("#actions").bounding_box()["y"] == focused["y"]
    pg.focus("#board")
    pg.tap('#actions [data-action="confirm"]')
    pg.wait_for_function("() => window.boardlab.live().ply >= 1", timeout=5000)
    assert live(pg)["moves"][0] == "d4"


def test_touch_screens_show_the_legal_points_without_hover(pages, server):
    pg = pages.open(**PHONE)
    st = api_game(server, game="robble", size=5, options={"pie": False})
    show(pg, server, st["id"])
    assert pg.evaluate("matchMedia('(hover: none)').matches")
    shown = pg.eval_on_selector('#board [data-point="c3"].legal .hint-dot',
                                "e => getComputedStyle(e).display")
    assert shown != "none"
    pg = pages.open()  # a mouse: the hover hint instead, no dots
    show(pg, server, st["id"])
    assert pg.eval_on_selector('#board [data-point="c3"].legal .hint-dot',
                               "e => getComputedStyle(e).display") == "none"


# ---------------------------------------------------------------- formats and messages
@pytest.mark.parametrize("seconds, shown", [(299.96, "4:59.9"), (300, "5:00.0"), (59.99, "0:59.9"),
                                            (10, "0:10.0"), (9.95, "0:09.9"), (-1, "0:00.0"),
                                            (3600, "60:00.0")])
def test_clock_format_counts_whole_tenths(page, seconds, shown):
    got = page.evaluate("s => import('/static/format.js').then(m => m.formatClock(s))", seconds)
    assert got == shown


def test_illegal_move_message_names_the_move_once(page, server):
    st = api_play(server, api_game(server, game="robble", options={"pie": False}), ["c3"])
    show(page, server, st["id"])
    page.click('#board [data-point="c3"]')
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    assert page.inner_text("#message") == "c3 is occupied"


def test_komi_that_is_not_a_whole_number_is_refused_with_the_reason(page):
    page.select_option("#ng-game", "yugo")
    page.check("input[name=opponent][value=human]")
    page.fill("#ng-pregame-hs", "1e9")
    page.click("#ng-start")
    page.wait_for_function("() => document.querySelector('#ng-error').textContent.length > 0")
    assert 'Komi must be a whole number' in page.inner_text("#ng-error") and '"1e9"' in page.inner_text("#ng-error")
    assert page.evaluate("location.hash") in ("", "#/")  # no game was made


def test_spectator_is_told_they_are_watching(page, server):
    st = api_game(server, game="robble", size=4, opponent="online", options={"pie": False}, color="black")
    page.goto(server.url + st["links"]["spectate"])
    page.wait_for_selector("#board [data-point]")
    page.wait_for_function("() => window.boardlab.live() !== null")
    page.click('#board [data-point="b2"]')
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    assert "watching" in page.inner_text("#message")


def test_yugo_answer_to_an_empty_proposal_says_it_removes_nothing(page, server):
    st = api_play(server, api_game(server, game="yugo"), ["c3", "button", "pass", "pass", "done"])
    assert st["hints"]["phase"] == "answer" and st["hints"]["marked"] == []
    show(page, server, st["id"])
    status = page.inner_text("#status")
    assert "removes nothing" in status and "marked groups" not in status


def test_result_text_has_no_nested_brackets(server):
    st = api_game(server, game="robble", size=4, opponent="computer", engine="random", color="black")
    r = http("POST", f"{server.url}/api/games/{st['id']}/resign", json={})
    text = r.json()["result_text"]
    assert "White (Computer" in text and "((" not in text and "))" not in text


def test_the_default_computer_is_a_level_not_random_moves(page):
    page.check("input[name=opponent][value=computer]")
    assert page.input_value("#ng-engine") == "level1"


def test_saved_games_say_who_won_and_how(page, server):
    st = api_game(server, game="robble", size=4, options={"pie": False})
    http("POST", f"{server.url}/api/games/{st['id']}/resign", json={})
    going = api_game(server, game="robble", size=4)
    share_owners(page)
    page.goto(server.url + "/#/saved")
    done_row = page.locator(f'#saved tr[data-id="{st["id"]}"]')
    done_row.wait_for()
    assert "White won by resignation" in done_row.inner_text()
    assert "In progress" in page.locator(f'#saved tr[data-id="{going["id"]}"]').inner_text()


def test_deleting_a_saved_game_asks_for_a_second_click(page, server):
    st = api_game(server, game="robble")
    share_owners(page)
    page.goto(server.url + "/#/saved")
    row = page.locator(f'#saved tr[data-id="{st["id"]}"]')
    row.wait_for()
    row.locator("button.danger").click()
    assert row.locator("button.danger").inner_text() == "Really delete?"
    assert http("GET", f"{server.url}/api/games/{st['id']}").status_code == 200
    row.locator("button.danger").click()
    row.wait_for(state="detached")
    assert http("GET", f"{server.url}/api/games/{st['id']}").status_code == 404


# ---------------------------------------------------------------- what the board and panel show
def seat_scores(page) -> dict[str, str]:
    return {c: page.inner_text(f'#players [data-color="{c}"] .score') for c in live(page)["colors"]}


def test_review_shows_each_positions_own_scores(page, server):
    end = api_random_to_end(server, api_game(server, game="pilo", size=4, options={"pie": False}), seed=5)
    r = http("GET", f"{server.url}/api/games/{end['id']}", params={"ply": 3}).json()
    at3 = {c: r["scores"][c] for c in r["colors"]}
    final = end["result"]["scores"]
    assert at3 != final  # else the test could not tell them apart
    show(page, server, end["id"], 3)
    page.wait_for_function("() => window.boardlab.state().view_ply === 3")
    assert seat_scores(page) == {c: str(int(v)) if float(v).is_integer() else str(v) for c, v in at3.items()}
    page.click("#nav-last")
    page.wait_for_function("() => window.boardlab.state().view_ply === window.boardlab.live().ply")
    assert seat_scores(page) == {c: str(int(v)) if float(v).is_integer() else str(v) for c, v in final.items()}


def test_live_scores_say_what_they_count(page, server):
    st = api_play(server, api_game(server, game="pilo", options={"pie": False}), ["c3"])
    show(page, server, st["id"])
    note = page.inner_text("#score-note")
    assert note.startswith("The count now.") and "patch" in note and "squares" in note
    assert page.locator("#board rect.tint").count() == 0          # shown on request only
    page.check("#show-count")
    assert page.locator("#board rect.tint").count() == len(st["score_parts"]["points"]["blue"]) > 0


def test_pilo_last_move_mark_leaves_the_stack_height_readable(page, server):
    st = api_game(server, game="pilo", size=5, options={"pie": False})
    st = api_play(server, st, ["c2", "c4", "a1", "c3"])  # blue c2 and a1, orange c4 and c3
    move = next(m for m in st["legal"] if "-" in m)
    st = api_play(server, st, [move])
    show(page, server, st["id"])
    dest = move.split("-")[1]
    cell = page.locator(f'#board [data-point="{dest}"]')
    mark = cell.locator(".last").bounding_box()
    number = cell.locator("text.stack-h").bounding_box()
    assert cell.locator("text.stack-h").text_content() == "2"
    overlap_x = min(mark["x"] + mark["width"], number["x"] + number["width"]) - max(mark["x"], number["x"])
    overlap_y = min(mark["y"] + mark["height"], number["y"] + number["height"]) - max(mark["y"], number["y"])
    assert overlap_x <= 0 or overlap_y <= 0, (mark, number)


def test_last_move_in_words_for_a_swap_and_a_pass(page, server):
    st = api_play(server, api_game(server, game="robble", options={"pie": True}), ["c3", "swap"])
    show(page, server, st["id"])
    assert page.inner_text("#last-move") == "Last move: White swapped (pie rule): the players exchanged colors."
    st = api_play(server, api_game(server, game="yugo"), ["button", "pass"])
    show(page, server, st["id"])
    assert page.inner_text("#last-move") == "Last move: White passed."


def test_finished_game_undo_says_it_reopens(page, server):
    end = api_random_to_end(server, api_game(server, game="robble", size=4, options={"pie": False}), seed=2)
    show(page, server, end["id"])
    if end["can_undo"]:
        assert "reopens the finished game" in page.inner_text("#btn-undo")
    else:
        assert page.is_disabled("#btn-undo")


def test_vimbre_winning_chain_is_highlighted(page, server):
    end = api_random_to_end(server, api_game(server, game="vimbre", size=5), seed=1)
    winner = end["result"]["winner"]
    show(page, server, end["id"])
    chain = page.eval_on_selector_all("#board .pt.chain", "gs => gs.map(g => g.dataset.point)")
    assert len(chain) >= 5
    cells = end["cells"]
    size = end["size"]
    for p in chain:
        i = (int(p[1:]) - 1) * size + "abcde".index(p[0])
        assert cells[i] and cells[i]["color"] == winner


def test_yugo_territory_is_shaded_at_the_end(page, server):
    end = api_play(server, api_game(server, game="yugo"), ["c3", "button", "pass", "pass", "done", "accept"])
    assert end["over"]
    show(page, server, end["id"])
    assert len(end["hints"]["territory"]["black"]) == 24
    assert page.is_checked("#show-count")                  # at the end the count is shown
    page.uncheck("#show-count")                            # the territory stays shaded
    assert page.locator('#board [data-point="a1"] rect.tint').count() == 1
    assert page.locator('#board [data-point="c3"] rect.tint').count() == 0  # the pawn's own point
    assert "territory 24 + pieces 1" in page.inner_text("#score-note")


def test_board_flip_and_the_second_color_sees_it_from_their_side(page, server):
    st = api_game(server, game="robble", size=5, opponent="computer", engine="random", color="white",
                  options={"pie": False})
    show(page, server, st["id"])
    assert page.eval_on_selector("#board", "b => b.dataset.flipped") == "yes"

    def a1_above_e5() -> bool:
        a1 = page.locator('#board [data-point="a1"] rect.hit').bounding_box()
        e5 = page.locator('#board [data-point="e5"] rect.hit').bounding_box()
        return a1["y"] < e5["y"] and a1["x"] > e5["x"]

    assert a1_above_e5()
    page.click("#btn-flip")
    assert page.eval_on_selector("#board", "b => b.dataset.flipped") == "no" and not a1_above_e5()


def test_play_again_with_the_same_settings(page, server):
    page.select_option("#ng-game", "pilo")
    page.select_option("#ng-size", "4")
    page.check("input[name=opponent][value=human]")
    page.set_checked("#ng-option-pie", False)
    page.click("#ng-start")
    page.wait_for_function("() => window.boardlab.live() !== null")
    first = live(page)
    learn_owners(page)
    http("POST", f"{server.url}/api/games/{first['id']}/resign", json={})
    page.wait_for_selector("#btn-again:not([hidden])")
    page.click("#btn-again")
    page.wait_for_function("id => window.boardlab.live() && window.boardlab.live().id !== id", arg=first["id"])
    again = live(page)
    assert (again["game"], again["size"], again["options"]) == ("pilo", 4, first["options"])
    assert again["ply"] == 0 and not again["over"]


def test_review_position_has_its_own_url(page, server):
    st = api_play(server, api_game(server, game="robble", options={"pie": False}), ["c3", "b2", "d4"])
    show(page, server, st["id"])
    page.click("#nav-prev")
    page.wait_for_function("() => location.hash.endsWith('/2')")
    page.reload()
    page.wait_for_function("() => window.boardlab.state() && window.boardlab.state().view_ply === 2")
    page.click("#nav-last")
    page.wait_for_function(f"() => location.hash === '#/game/{st['id']}'")


def test_damaged_play_link_shows_an_error_page(page, server):
    page.goto(server.url + "/#/play/x/%E0%A4%A")
    page.wait_for_selector("#view-error:not([hidden])")
    assert "damaged" in page.inner_text("#error-text")  # and no page error (the fixture checks)


def test_dark_mode_follows_the_system(pages, server):
    pg = pages.open(color_scheme="dark")
    bg = pg.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    r, g, b = (int(x) for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3])
    assert max(r, g, b) < 64, bg


def test_online_copy_buttons_and_the_friends_name(pages, server):
    ann = pages.open()
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    bob = pages.open()
    ann.select_option("#ng-game", "robble")
    ann.check("input[name=opponent][value=online]")
    ann.click("#ng-start")
    ann.wait_for_selector("#invite-link")
    ann.wait_for_function("() => document.querySelector('#invite-link').value.length > 0")
    invite = ann.input_value("#invite-link")
    ann.click('button[data-copy="invite-link"]')
    ann.wait_for_function("() => document.querySelector('button[data-copy=\"invite-link\"]').textContent === 'Copied'")
    assert ann.evaluate("navigator.clipboard.readText()") == invite
    bob.goto(invite)
    bob.wait_for_selector("#name-form:not([hidden])")
    bob.fill("#my-name", "Bob")
    bob.click("#name-form button[type=submit]")
    ann.wait_for_function("() => document.querySelector('#players').textContent.includes('Bob')")


def test_playing_on_a_loaded_record_does_not_name_the_old_computer(page, server):
    st = api_game(server, game="robble", size=4, opponent="computer", engine="random", color="black",
                  options={"pie": False})
    text = http("GET", f"{server.url}/api/games/{st['id']}/record").text
    assert "Computer" in text
    loaded = http("POST", f"{server.url}/api/records", json={"text": text}).json()
    assert [s["label"] for s in loaded["seats"]] == ["Player 1", "Player 2"]
    show(page, server, loaded["id"])
    players = page.inner_text("#players")
    assert "White: Player 2" in players and "in the record: Computer" in players
    again = http("GET", f"{server.url}/api/games/{loaded['id']}/record").text
    assert "Computer" in again  # a download keeps the record's names
