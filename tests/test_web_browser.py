"""Real-browser tests of the web app: Playwright driving Debian's chromium.

The real server (``python -m boardlab.web``) runs as a subprocess on a free
port with a temporary database; the page is driven by clicks only, choosing
moves from the legal-move data the page exposes (``window.boardlab``) and
turning each into the clicks a player makes (``click_move``). Screenshots go
to test-artifacts/screenshots/ (copies are committed in docs/screenshots/).

Marked ``browser``; skipped outside CI when chromium is missing
(``make test`` installs both). Small boards and the random engine keep the
whole module to about a minute or two on two cores.
"""

from __future__ import annotations

import os
import random
import re
import shutil

import pytest

import boardlab
import browser_support
from browser_support import BROWSER_MARKS, ROOT, Pages, live

browser, server = browser_support.browser, browser_support.server  # the fixtures: one each a module

pytestmark = BROWSER_MARKS

SHOTS = ROOT / "test-artifacts" / "screenshots"
KING = re.compile(r"k[a-s]\d+\Z")
MOVE_TIMEOUT = 20_000  # ms


# ---------------------------------------------------------------- the page
@pytest.fixture
def page(browser, server):
    pages = Pages(browser, server.url, MOVE_TIMEOUT, accept_downloads=True)
    yield pages.open()
    pages.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


# ---------------------------------------------------------------- driving the page
def board(page, key: str) -> str:
    return page.eval_on_selector("#board", f"b => b.dataset.{key}")


def start_game(page, game: str, size: int = 5, opponent: str = "computer", color: str = "black",
               pie: bool | None = None) -> dict:
    page.click("#nav-new")
    page.select_option("#ng-game", game)
    page.select_option("#ng-size", str(size))
    page.check(f"input[name=opponent][value={opponent}]")
    if pie is not None and page.is_visible("#ng-option-pie"):
        page.set_checked("#ng-option-pie", pie)
    if opponent == "computer":
        page.select_option("#ng-engine", "random")
        if game == "yugo":
            page.check("input[name=pregame-namer][value=computer]")
            page.select_option("#ng-pregame-color", color)
        else:
            page.select_option("#ng-color", color)
    page.click("#ng-start")
    page.wait_for_selector("#board [data-point]")
    page.wait_for_function("() => window.boardlab.live() !== null")
    return live(page)


def point(page, name: str) -> None:
    page.click(f'#board [data-point="{name}"]')


def click_move(page, st: dict, move: str) -> None:
    """Make ``move`` the way a player does: clicks on the board and the move buttons."""
    game = st["game"]
    if move in boardlab.game_class(game).move_words:
        page.click(f'#actions [data-move="{move}"]')
    elif game == "implo" and move.startswith("@"):
        anchor, _, group = move[1:].partition("/")
        point(page, anchor)                       # a patch: resolved, or selected if tied
        if group:
            page.wait_for_selector(f'#actions [data-move="{move}"]')
            point(page, group)                    # the tied group to remove
    elif game == "yugo" and move.startswith("mark "):
        point(page, move[5:])
    elif game == "yugo" and KING.match(move):
        point(page, move[1:])                     # Auto places the king where it is legal
    elif game == "pilo" and "-" in move:
        a, b = move.split("-")
        point(page, a)
        point(page, b)
    elif game == "vimbre" and move.startswith("x"):
        point(page, move[1:])
    elif game == "vimbre":
        for p in move.split(","):
            point(page, p)
        page.click('#actions [data-action="confirm"]')
    else:
        point(page, move)


def play(page, move: str, wait_computer: bool = True) -> dict:
    """Play one move by clicking and wait for the server (and the computer's reply)."""
    st = live(page)
    assert move in st["legal"], (move, st["legal"][:20])
    before = st["version"]
    click_move(page, st, move)
    page.wait_for_function(
        "v => { const s = window.boardlab.live(); return s && s.version !== v; }", arg=before)
    if wait_computer:
        page.wait_for_function(
            "() => { const b = document.querySelector('#board').dataset;"
            " return b.yourTurn === 'yes' || b.over === 'yes'; }")
    msg = page.inner_text("#message")
    assert "illegal" not in msg.lower(), msg
    after = live(page)
    assert after["moves"][len(st["moves"])] == move, (move, after["moves"][len(st["moves"]):])
    return after


def play_to_end(page, rng: random.Random, shot_name: str | None = None, shot_at: int = 8,
                cap: int = 400) -> dict:
    st = live(page)
    n = 0
    while not st["over"]:
        assert n < cap, "game did not end"
        legal = st["legal"]
        assert legal, "your turn but no legal move"
        st = play(page, rng.choice(legal))
        n += 1
        if shot_name and n == shot_at:
            shot(page, shot_name)
    return st


def find_prefix(name: str, size: int, want, seed_range=range(300), policy=None) -> list[str]:
    """Moves of a seeded random game (library only) up to the first position where
    ``want(game)`` holds."""
    for seed in seed_range:
        rng = random.Random(seed)
        game = boardlab.new_game(name, size)
        moves: list[str] = []
        while not game.is_over and len(moves) < 300:
            if want(game, moves):
                return moves
            legal = game.legal_moves()
            move = policy(game, rng, legal) if policy else rng.choice(legal)
            game.play(move)
            moves.append(move)
    raise AssertionError(f"no {name} game reached the wanted position")


def replay(page, moves: list[str]) -> dict:
    st = live(page)
    for move in moves:
        st = play(page, move, wait_computer=False)
    return st


# ---------------------------------------------------------------- the tests
@pytest.mark.parametrize("game", boardlab.GAMES)
def test_play_to_the_end_against_the_computer(page, game):
    """Start a game against the computer from the form and play it to the end by clicking."""
    size = 5
    st = start_game(page, game, size=size, color=boardlab.game_class(game).colors[0])
    assert st["seats"][0]["kind"] == "human" and st["seats"][1]["kind"] == "computer"
    end = play_to_end(page, random.Random(f"{game}-end"), shot_name=game, shot_at=6)
    assert end["over"] and end["result"]["winner"] in ("black", "white", "blue", "orange", "draw")
    status = page.inner_text("#status")
    assert ("wins" in status or "Draw" in status), status
    assert board(page, "over") == "yes"
    shot(page, f"{game}-end")


def test_implo_tied_resolution_choice(page):
    moves = find_prefix("implo", 5, lambda g, m: any("/" in x for x in g.legal_moves()))
    start_game(page, "implo", opponent="human")
    st = replay(page, moves)
    tied = [m for m in st["legal"] if "/" in m]
    assert tied and st["hints"]["patches"]
    move = tied[0]
    anchor = move[1:].split("/")[0]
    point(page, anchor)
    page.wait_for_selector(f'#actions [data-move="{move}"]')
    choices = page.eval_on_selector_all("#actions [data-move^='@']", "bs => bs.map(b => b.dataset.move)")
    assert set(choices) == {m for m in tied if m.startswith(f"@{anchor}/")}
    shot(page, "implo-resolution-choice")
    before = live(page)["version"]
    point(page, move.split("/")[1])
    page.wait_for_function("v => window.boardlab.live().version !== v", arg=before)
    assert live(page)["moves"][-1] == move


def test_vimbre_two_stone_turn_and_flip(page):
    moves = find_prefix("vimbre", 5, lambda g, m: any(x.startswith("x") for x in g.legal_moves())
                        and any("," in x for x in m))
    start_game(page, "vimbre", opponent="human")
    k = next(i for i, m in enumerate(moves) if "," in m)
    replay(page, moves[:k])
    # a two-stone turn, step by step: select one point, then a second, then confirm
    pair = moves[k]
    a, b = pair.split(",")
    point(page, a)
    assert page.evaluate("window.boardlab.selection().stones") == [a]
    point(page, b)
    assert page.evaluate("window.boardlab.selection().stones") == [a, b]
    assert page.inner_text('#actions [data-action="confirm"]').startswith("Confirm")
    shot(page, "vimbre-two-stones-selected")
    before = live(page)["version"]
    page.click('#actions [data-action="confirm"]')
    page.wait_for_function("v => window.boardlab.live().version !== v", arg=before)
    assert live(page)["moves"][-1] == pair
    st = replay(page, moves[k + 1:])
    flip = next(m for m in st["legal"] if m.startswith("x"))
    target = flip[1:]
    color_before = st["cells"][_index(target, 5)]["color"]
    st = play(page, flip, wait_computer=False)  # one click on the sandwiched enemy stone
    assert st["cells"][_index(target, 5)]["color"] != color_before
    shot(page, "vimbre-flip")


def _index(name: str, size: int) -> int:
    return (int(name[1:]) - 1) * size + "abcdefghijklmnopqrs".index(name[0])


def test_pilo_stack_move(page):
    moves = find_prefix("pilo", 5, lambda g, m: any("-" in x for x in g.legal_moves()))
    start_game(page, "pilo", opponent="human")
    st = replay(page, moves)
    move = next(m for m in st["legal"] if "-" in m)
    a, b = move.split("-")
    height = st["cells"][_index(a, 5)]["height"]
    point(page, a)
    assert page.evaluate("window.boardlab.selection().from") == a
    shot(page, "pilo-stack-selected")
    before = live(page)["version"]
    point(page, b)
    page.wait_for_function("v => window.boardlab.live().version !== v", arg=before)
    st = live(page)
    assert st["moves"][-1] == move
    assert st["cells"][_index(a, 5)]["type"] == "block"
    assert st["cells"][_index(b, 5)]["height"] == height + 1
    shot(page, "pilo-stack-move")


def _yugo_policy(game, rng, legal):
    kings = [m for m in legal if KING.match(m)]
    if kings:
        return kings[0]
    if "pass" in legal and rng.random() < 0.35:
        return "pass"
    return rng.choice(legal)


def test_yugo_king_and_marking_phase(page):
    def at_marking(game, moves):
        return "phase=mark" in game.position() and any(KING.match(m) for m in moves)
    moves = find_prefix("yugo", 5, at_marking, policy=_yugo_policy)
    start_game(page, "yugo", opponent="human")
    king_at = next(i for i, m in enumerate(moves) if KING.match(m))
    st = replay(page, moves[:king_at])
    assert moves[king_at] in st["legal"]
    st = play(page, moves[king_at], wait_computer=False)  # a click on the point places the king
    cell = st["cells"][_index(moves[king_at][1:], 5)]
    assert cell["type"] == "king"
    shot(page, "yugo-king")
    st = replay(page, moves[king_at + 1:])
    assert st["hints"]["phase"] == "mark"
    marks = [m for m in st["legal"] if m.startswith("mark ")]
    if marks:
        st = play(page, marks[0], wait_computer=False)
        assert st["hints"]["marked"]
    shot(page, "yugo-marking")
    st = play(page, "done", wait_computer=False)
    assert st["hints"]["phase"] == "answer"
    assert page.is_visible('#actions [data-move="accept"]') and page.is_visible('#actions [data-move="reject"]')
    shot(page, "yugo-answer")
    st = play(page, "accept", wait_computer=False)
    assert st["over"]
    assert "wins" in page.inner_text("#status")


def test_yugo_piece_switch_is_kept_and_obeyed(page):
    """Yugo's Pawn/King switch is the plug-in's own setting (ctx.ui): with Pawn
    chosen, a click where only a king may go asks for a pawn (refused, nothing
    played) and the choice survives that redraw; with King chosen the click
    places the king."""
    moves = find_prefix("yugo", 5, lambda game, ms: any(KING.match(m) for m in game.legal_moves()),
                        policy=_yugo_policy)
    start_game(page, "yugo", opponent="human")
    st = replay(page, moves)
    at = next(m[1:] for m in st["legal"] if KING.match(m))
    assert at not in st["legal"]            # only a king may go there
    page.check("#piece-pawn")
    point(page, at)
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('" + at + "')")
    assert live(page)["moves"] == moves and page.is_checked("#piece-pawn")
    page.check("#piece-king")
    before = live(page)["version"]
    point(page, at)
    page.wait_for_function("v => window.boardlab.live().version !== v", arg=before)
    st = live(page)
    assert st["moves"][-1] == f"k{at}" and st["cells"][_index(at, 5)]["type"] == "king"
    assert page.is_checked("#piece-king")   # still chosen after the move's redraw


def test_undo_reload_and_server_restart(page, server):
    st = start_game(page, "robble", size=5, color="black", pie=False)
    gid = st["id"]
    rng = random.Random(7)
    for _ in range(3):
        st = play(page, rng.choice(live(page)["legal"]))
    assert st["ply"] == 6
    # undo against the computer takes back the computer's reply and your move
    before = st["version"]
    page.click("#btn-undo")
    page.wait_for_function("v => window.boardlab.live().version !== v", arg=before)
    assert live(page)["ply"] == 4 and live(page)["your_turn"]
    # reload the page mid-game: same game, same moves, continue
    moves = live(page)["moves"]
    page.reload()
    page.wait_for_function("() => window.boardlab.live() && window.boardlab.live().ply === 4")
    assert live(page)["moves"] == moves
    st = play(page, rng.choice(live(page)["legal"]))
    assert st["ply"] == 6
    # navigate the move list without changing the game
    page.click("#nav-first")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '0'")
    page.click("#nav-next")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '1'")
    assert live(page)["ply"] == 6
    page.click("#nav-last")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '6'")
    # restart the server mid-game: the page reconnects and the game goes on
    moves = live(page)["moves"]
    version = live(page)["version"]
    server.restart()
    page.wait_for_function("v => window.boardlab.live().version !== v", arg=version,
                           timeout=30_000)
    assert live(page)["moves"] == moves and live(page)["id"] == gid
    st = play(page, rng.choice(live(page)["legal"]))
    assert st["ply"] == 8
    # and a fresh page on the saved-games list finds it
    page.goto(server.url + "/#/saved")
    page.wait_for_selector(f'#saved tr[data-id="{gid}"]')
    page.click(f'#saved a[data-open="{gid}"]')
    page.wait_for_function("() => window.boardlab.live() && window.boardlab.live().ply === 8")


def test_resign_download_and_review_a_record(page, server, tmp_path):
    st = start_game(page, "robble", size=5, color="black", pie=False)
    rng = random.Random(3)
    for _ in range(2):
        st = play(page, rng.choice(live(page)["legal"]))
    page.click("#btn-resign")
    page.click("#btn-resign")  # confirm
    page.wait_for_function("() => window.boardlab.live().over")
    assert "resigned" in page.inner_text("#status")
    with page.expect_download() as dl:
        page.click("#dl-text")
    text_path = tmp_path / "game.txt"
    dl.value.save_as(text_path)
    text = text_path.read_text()
    assert "robble" in text and st["moves"][0] in text
    with page.expect_download() as dl:
        page.click("#dl-json")
    json_path = tmp_path / "game.json"
    dl.value.save_as(json_path)
    # load the text record to review it
    page.click("#nav-load")
    page.fill("#load-text", text)
    page.click("#load-go")
    page.wait_for_function("() => window.boardlab.live() && window.boardlab.live().meta.source === 'record'")
    # the page shows ply 0 once its view of it (GET ?ply=0) has come
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '0'")
    review = live(page)
    assert review["moves"] == st["moves"] and review["over"]
    page.click("#nav-last")
    page.wait_for_function(f"() => document.querySelector('#board').dataset.ply === '{len(st['moves'])}'")
    # and the JSON one through the file picker
    page.click("#nav-load")
    page.set_input_files("#load-file", str(json_path))
    page.wait_for_function("() => document.querySelector('#load-text').value.length > 0")
    page.click("#load-go")
    page.wait_for_function("v => window.boardlab.live() && window.boardlab.live().id !== v", arg=review["id"])
    assert live(page)["moves"] == st["moves"]


def test_rules_one_click_away(page):
    page.select_option("#ng-game", "robble")
    page.click("#ng-rules")
    page.wait_for_selector("#rules-dialog[open] #rules-body h1, #rules-dialog[open] #rules-body h2")
    assert "Robble" in page.inner_text("#rules-body")
    page.keyboard.press("Escape")
    start_game(page, "robble", opponent="human")
    page.click("#btn-rules")
    page.wait_for_selector("#rules-dialog[open]")
    page.click("#rules-close")


def test_illegal_click_explains_why(page):
    start_game(page, "robble", opponent="human", pie=False)
    play(page, "c3", wait_computer=False)
    point(page, "c3")
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    assert "occupied" in page.inner_text("#message")


def test_keyboard_only_on_a_phone_sized_screen(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(MOVE_TIMEOUT)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#ng-game option", state="attached")
        # the form, by keyboard: type into the selects, then Enter on Start
        page.focus("#ng-game")
        page.keyboard.type("robble")
        assert page.input_value("#ng-game") == "robble"
        page.focus("#ng-size")
        page.keyboard.type("4")
        assert page.input_value("#ng-size") == "4"
        page.focus("#ng-start")
        page.keyboard.press("Enter")
        page.wait_for_selector("#board [data-point]")
        page.wait_for_function("() => window.boardlab.live() !== null")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 400, f"page scrolls sideways on a phone: {width}px"
        # the board, by keyboard: focus it, move the cursor with arrows, Enter to play
        for _ in range(3):
            page.wait_for_function(
                "() => { const b = document.querySelector('#board').dataset;"
                " return b.yourTurn === 'yes' || b.over === 'yes'; }")
            st = live(page)
            if st["over"]:
                break
            target = next(m for m in st["legal"] if m != "swap")
            page.focus("#board")
            _keyboard_to(page, target, st["size"])
            before = st["version"]
            page.keyboard.press("Enter")
            page.wait_for_function("v => window.boardlab.live().version !== v", arg=before)
            assert live(page)["moves"][st["ply"]] == target
        shot(page, "phone")
    finally:
        context.close()


def _keyboard_to(page, target: str, size: int) -> None:
    """Move the keyboard cursor to ``target`` with the arrow keys."""
    info = page.inner_text("#cursor-info")
    m = re.search(r"Cursor ([a-s])(\d+)", info)
    assert m, info
    col, row = "abcdefghijklmnopqrs".index(m.group(1)), int(m.group(2))
    tcol, trow = "abcdefghijklmnopqrs".index(target[0]), int(target[1:])
    for _ in range(abs(tcol - col)):
        page.keyboard.press("ArrowRight" if tcol > col else "ArrowLeft")
    for _ in range(abs(trow - row)):
        page.keyboard.press("ArrowUp" if trow > row else "ArrowDown")
    assert f"Cursor {target}:" in page.inner_text("#cursor-info")


#: The screenshots docs/web.md shows (committed copies in docs/screenshots/).
DOC_SHOTS = ("implo", "yugo", "pilo", "vimbre", "robble", "implo-resolution-choice",
             "vimbre-two-stones-selected", "vimbre-flip", "pilo-stack-selected", "yugo-king",
             "yugo-marking", "phone")


@pytest.fixture(scope="module", autouse=True)
def _copy_screenshots():
    """After the module: refresh the committed copies when asked (BOARDLAB_UPDATE_DOCS=1)."""
    yield
    if os.environ.get("BOARDLAB_UPDATE_DOCS") == "1" and SHOTS.is_dir():
        docs = ROOT / "docs" / "screenshots"
        docs.mkdir(parents=True, exist_ok=True)
        for name in DOC_SHOTS:
            png = SHOTS / f"{name}.png"
            if png.exists():
                shutil.copy2(png, docs / png.name)
