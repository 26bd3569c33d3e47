"""The ``boardlab`` command as a real process: pexpect for play, subprocess for the rest.

Games are driven by reading the ``moves`` output and typing one of the listed
moves, so nothing depends on an engine's choices beyond the seed.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

import boardlab
from boardlab import ai, records

BIN = Path(sys.executable).parent / "boardlab"
COMMAND = [str(BIN)] if BIN.exists() else [sys.executable, "-m", "boardlab"]
ENV = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "PYTHONIOENCODING": "utf-8"}
PROMPT = r"(\d+)\. (black|white|blue|orange) \(human\)> "
OVER = r"game over> "


def spawn(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(COMMAND[0], [*COMMAND[1:], *args], env=ENV, encoding="utf-8",
                          timeout=30, dimensions=(60, 140))
    return child


def run(*args: str, stdin: str | None = None, cwd: Path | None = None
        ) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, env=ENV,
                          input=stdin, timeout=60, check=False, cwd=cwd)


def wait(child: pexpect.spawn) -> int:
    """Wait for a prompt: 0 a move prompt, 1 game over."""
    return child.expect([PROMPT, OVER])


def legal_moves(child: pexpect.spawn) -> list[str]:
    child.sendline("moves")
    assert wait(child) == 0
    text = child.before
    m = re.search(r"legal moves \((\d+)\):\r?\n", text)
    assert m, text
    block = text[m.end():]
    moves = [w for w in re.split(r"\s{2,}|\r?\n", block) if w.strip()]
    moves = [w.strip() for w in moves if not w.strip().startswith("...")]
    assert len(moves) == int(m.group(1)), (moves, text)
    return moves


def finish_game(child: pexpect.spawn, rng: random.Random, choose=None,
                limit: int = 400) -> list[str]:
    """Type moves until the game ends; returns the moves typed."""
    typed: list[str] = []
    state = wait(child)
    while state == 0:
        assert len(typed) < limit, "game did not end"
        moves = legal_moves(child)
        move = choose(moves, typed) if choose else rng.choice(moves)
        child.sendline(move)
        typed.append(move)
        state = wait(child)
    return typed


def quit_(child: pexpect.spawn) -> None:
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# ---------------------------------------------------------------- whole games
def _yugo_policy(moves: list[str], typed: list[str]) -> str:
    """Exercise yugo's whole ending: take the button, pass, mark, done, accept."""
    for wanted in ("accept", "button"):
        if wanted in moves:
            return wanted
    marks = [m for m in moves if m.startswith("mark ")]
    if marks and not any(t.startswith("mark ") for t in typed):
        return marks[0]
    if "done" in moves:
        return "done"
    if len(typed) >= 6 and "pass" in moves:
        return "pass"
    placements = [m for m in moves if m not in ("pass",)]
    return random.Random(len(typed)).choice(placements)


@pytest.mark.parametrize("name", ["robble", "implo", "pilo", "vimbre"])
def test_whole_game_human_against_random(name, tmp_path):
    rng = random.Random(7)
    child = spawn("play", name, "--size", "4", "--white", "random", "--seed", "3",
                  "--no-color")
    typed = finish_game(child, rng)
    assert typed
    assert "game over:" in child.before
    path = tmp_path / f"{name}.rec"
    child.sendline(f"save {path}")
    assert wait(child) == 1
    assert "saved" in child.before
    quit_(child)
    [record] = records.read(path)
    assert record.name == name and record.size == 4
    assert record.game.is_over and record.result == record.game.outcome.winner
    human_color = boardlab.game_class(name).colors[0]
    assert record.players[human_color] in ("human", "random")  # swapped seats if a swap
    assert all(move in record.moves for move in typed)
    done = run("check", str(path))
    assert done.returncode == 0, done.stderr
    assert "1 game OK" in done.stdout


def test_whole_yugo_game_two_humans_with_komi_and_marking(tmp_path):
    child = spawn("play", "yugo", "--size", "4", "--black", "human", "--white", "human",
                  "--no-color")
    child.expect(r"name the komi .*\[0\]: ")
    child.sendline("two")
    child.expect("komi must be a whole number")
    child.expect(r"\[0\]: ")
    child.sendline("3")
    child.expect(r"play black or white\? \[white\]: ")
    child.sendline("white")
    typed = finish_game(child, random.Random(1), choose=_yugo_policy)
    assert "accept" in typed and "done" in typed
    path = tmp_path / "yugo.rec"
    child.sendline(f"save {path}")
    assert wait(child) == 1
    quit_(child)
    [record] = records.read(path)
    assert record.options == {"komi": 3}
    assert record.moves == typed
    text = path.read_text()
    assert "[Komi \"3\"]" in text and " done " in text.replace("\n", " ")
    done = run("check", str(path))
    assert done.returncode == 0


def test_implo_resolutions_are_typed_within_one_turn():
    # a4 is a corner: after enough stones, patches appear and must be resolved
    child = spawn("play", "implo", "--size", "4", "--black", "human", "--white", "human",
                  "--no-pie", "--no-color")
    seen_mid_turn = False
    rng = random.Random(4)
    state = wait(child)
    while state == 0:
        number = child.match.group(1)
        moves = legal_moves(child)
        if all(m.startswith("@") for m in moves):
            seen_mid_turn = True
            child.sendline("c3")  # a placement while resolving is refused with a reason
            assert wait(child) == 0
            assert "illegal move 'c3'" in child.before
            assert child.match.group(1) == number   # still the same turn
        child.sendline(rng.choice(moves))
        state = wait(child)
    assert seen_mid_turn
    quit_(child)


# ---------------------------------------------------------------- input handling
def test_illegal_and_malformed_input_get_a_reason_and_a_new_prompt():
    child = spawn("play", "robble", "--size", "5", "--white", "human", "--no-color")
    assert wait(child) == 0
    child.sendline("c3")
    assert wait(child) == 0
    assert child.match.group(2) == "white"
    for line, reason in [("c3", "illegal move 'c3': c3 is occupied"),
                         ("z9", "illegal move 'z9': malformed"),
                         ("hello world", "type help for the commands"),
                         ("save", "usage: save FILE"),
                         ("", ""),
                         ("swapp", "malformed")]:
        child.sendline(line)
        assert wait(child) == 0, line
        assert reason in child.before, (line, child.before)
        assert child.match.group(2) == "white"
    child.sendline("help")
    assert wait(child) == 0
    assert "resign" in child.before and "robble moves" in child.before
    child.sendline("save /nonexistent-dir/x.rec")
    assert wait(child) == 0
    assert "cannot save" in child.before
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_undo_takes_back_the_engine_reply_too():
    child = spawn("play", "robble", "--size", "4", "--seed", "5", "--no-pie", "--no-color")
    assert wait(child) == 0
    child.sendline("b2")
    assert wait(child) == 0
    assert re.search(r"2\. white \(random\): [a-d][1-4]", child.before)
    assert len(legal_moves(child)) in (14, 15)  # b2 and the reply (one may be pushed off)
    child.sendline("undo")
    assert wait(child) == 0
    assert "took back: b2 " in child.before
    assert child.match.group(1) == "1"
    assert len(legal_moves(child)) == 16
    child.sendline("undo")
    assert wait(child) == 0
    assert "nothing to undo" in child.before
    child.sendline("hint")
    assert wait(child) == 0
    # hints come from the strongest registered engine
    assert re.search(rf"hint from the {ai.strongest()} engine .*: [a-d][1-4]", child.before)
    quit_(child)


def test_pie_swap_exchanges_the_seats(tmp_path):
    child = spawn("play", "robble", "--size", "5", "--black", "random", "--white", "human",
                  "--seed", "2", "--no-color")
    assert wait(child) == 0
    assert "may play swap" in child.before
    child.sendline("swap")
    # the engine now holds white and moves at once; the human plays black
    assert wait(child) == 0
    assert child.match.group(2) == "black"
    assert "black: human  white: random" in child.before
    path = tmp_path / "swap.rec"
    child.sendline(f"save {path}")
    assert wait(child) == 0
    child.sendline("resign")
    assert wait(child) == 1
    assert "black (human) resigns: white (random) wins" in child.before
    child.sendline(f"save {tmp_path / 'resigned.rec'}")
    assert wait(child) == 1
    quit_(child)
    [record] = records.read(path)
    assert record.moves[1] == "swap" and record.result == "*"
    assert record.players == {"black": "human", "white": "random"}
    [resigned] = records.read(tmp_path / "resigned.rec")
    assert resigned.result == "white" and resigned.termination.value == "resignation"


def test_yugo_engine_names_komi_and_human_may_take_black():
    child = spawn("play", "yugo", "--size", "4", "--black", "random", "--white", "human",
                  "--seed", "1", "--no-color")
    child.expect("black \\(random\\) names komi 0")
    child.expect(r"play black or white\? \[white\]: ")
    child.sendline("maybe")
    child.expect("answer black or white")
    child.sendline("black")
    child.expect("black is now human, white random")
    assert wait(child) == 0
    assert child.match.group(1, 2) == ("1", "black")
    quit_(child)


def test_engine_against_engine_plays_to_the_end():
    child = spawn("play", "pilo", "--size", "4", "--black", "random", "--white", "random",
                  "--seed", "9", "--no-color")
    assert wait(child) == 1
    assert "game over: " in child.before and "blue (random)" in child.before
    quit_(child)


def test_bad_options_exit_with_a_message():
    done = run("play", "vimbre", "--no-pie")
    assert done.returncode == 2 and "vimbre has no pie rule" in done.stderr
    done = run("play", "robble", "--komi", "3")
    assert done.returncode == 2 and "robble has no komi" in done.stderr
    done = run("play", "chess")
    assert done.returncode == 2 and "unknown game 'chess'" in done.stderr
    done = run("play", "robble", "--white", "deepblue")
    assert done.returncode == 2 and "unknown player 'deepblue'" in done.stderr
    done = run("play", "robble", "--size", "3")
    assert done.returncode == 2 and "size 3" in done.stderr


# ---------------------------------------------------------------- replay / check / rules
SAMPLE = """[Game "robble"]
[Size "4"]
[Pie "yes"]
[Black "Ann"]
[White "Bo"]
[Date "2025.01.02"]
[Result "*"]

1. b2 {opening} 2. swap 3. c3 4. a1 *
"""


def test_replay_shows_positions(tmp_path):
    path = tmp_path / "game.rec"
    path.write_text(SAMPLE)
    done = run("replay", str(path), "--no-color")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "robble 4x4 · black Ann, white Bo" in out
    assert out.count("-- ply") == 5  # the start, after each of 4 turns
    assert "after 2. swap" in out and "{opening}" in out
    done = run("replay", str(path), "--ply", "3", "--no-color")
    assert done.returncode == 0
    assert "-- ply 3: after 3. c3" in done.stdout and "(○)" in done.stdout
    assert done.stdout.count("-- ply") == 1
    done = run("replay", str(path), "--ply", "9")
    assert done.returncode == 2 and "outside 0..4" in done.stderr
    two = tmp_path / "two.rec"
    two.write_text(SAMPLE + "\n" + SAMPLE.replace("Ann", "Cy"))
    done = run("replay", str(two), "--game", "2", "--ply", "0")
    assert done.returncode == 0 and "black Cy" in done.stdout
    assert run("replay", str(two), "--game", "3").returncode == 2


YUGO_MARKED = """[Game "yugo"]
[Size "4"]
[Result "black"]
[Termination "score"]

1. c3 2. b2 3. button 4. pass 5. pass 6. mark b2 {dead} done 7. accept black
"""


def test_replay_shows_comments_made_inside_a_turn(tmp_path):
    path = tmp_path / "yugo.rec"
    path.write_text(YUGO_MARKED)
    done = run("replay", str(path), "--no-color")
    assert done.returncode == 0, done.stderr
    # the comment follows move 6 of 7 (inside turn 6): it is shown under that turn's board
    block = done.stdout.split("-- ply 7: after 6. mark b2 done")[1].split("-- ply 8")[0]
    assert "{dead}  (ply 6: after mark b2)" in block
    implo = tmp_path / "implo.rec"
    implo.write_text('[Game "implo"]\n[Size "4"]\n\n{start} 1. a4 2. c4 3. a1 4. b2 5. c3 '
                     '{a patch} @a2/c4 {resolved} *\n')
    done = run("replay", str(implo), "--no-color")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("{start}") == out.count("{a patch}") == out.count("{resolved}") == 1
    assert out.index("{a patch}  (ply 5: after c3)") < out.index("{resolved}")


def test_replay_steps_forward_once(tmp_path, monkeypatch, capsys):
    """Every board of a full replay is the game after that many moves, and the
    game is not rebuilt from the end for each turn (that was quadratic)."""
    from boardlab.cli import main
    from boardlab.core.game import Game

    rng = random.Random(5)
    game = boardlab.new_game("yugo", size=5)
    while not game.is_over:
        game.apply_action(rng.choice(game.legal_actions()))
    record = records.Record.from_game(game)
    path = tmp_path / "long.rec"
    records.write(record, path)
    undos = []
    real_undo = Game.undo

    def counting_undo(self):
        undos.append(1)
        return real_undo(self)

    monkeypatch.setattr(Game, "undo", counting_undo)
    assert main(["replay", str(path), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert len(undos) <= len(record.moves), (len(undos), len(record.moves))
    monkeypatch.setattr(Game, "undo", real_undo)
    for ply in sorted({0, *record.turn_starts[1:], len(record.moves)}):
        assert main(["replay", str(path), "--no-color", "--ply", str(ply)]) == 0
        alone = capsys.readouterr().out.split("\n", 1)[1]
        assert alone in out, ply


BAD_FILES = {
    "malformed-tag": ('[Game robble]\n\n1. c3 *\n', "line 1, column 7: malformed tag 'Game'"),
    "unknown-game": ('[Game "chess"]\n[Result "*"]\n\n1. e4 *\n',
                     "line 1, column 8: unknown game 'chess'"),
    "illegal-move": (SAMPLE.replace("4. a1", "4. c3"),
                     "line 9, column 34: illegal move 'c3': c3 is occupied"),
    "no-result": (SAMPLE.replace("4. a1 *", "4. a1"), "line 10, column 1: missing result"),
    "wrong-result": (SAMPLE.replace('[Result "*"]', '[Result "black"]').replace("a1 *", "a1 black"),
                     "line 9, column 37: result 'black' but the game is not over"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_check_rejects_bad_records(tmp_path, case):
    text, expected = BAD_FILES[case]
    path = tmp_path / f"{case}.rec"
    path.write_text(text)
    done = run("check", str(path))
    assert done.returncode == 1
    assert f"boardlab: {path}: {expected}" in done.stderr, done.stderr


def test_check_many_files_and_missing_ones(tmp_path):
    good = tmp_path / "good.rec"
    good.write_text(SAMPLE + "\n" + SAMPLE)
    done = run("check", str(good))
    assert done.returncode == 0 and "2 games OK" in done.stdout
    empty = tmp_path / "empty.rec"
    empty.write_text("\n")
    done = run("check", str(good), str(empty), str(tmp_path / "missing.rec"))
    assert done.returncode == 2
    assert "no games found" in done.stderr and "cannot read" in done.stderr
    assert "good.rec: 2 games OK" in done.stdout
    binary = tmp_path / "binary.rec"
    binary.write_bytes(b"\xff\xfe\x00")
    assert run("check", str(binary)).returncode == 1


def test_check_reports_every_bad_record_and_goes_on(tmp_path):
    bad_move = SAMPLE.replace("4. a1", "4. c3")
    bad_size = SAMPLE.replace('[Size "4"]', '[Size "3"]')
    path = tmp_path / "mixed.rec"
    path.write_text("\n".join([SAMPLE, bad_move, SAMPLE, bad_size, SAMPLE + "junk\n"]))
    other = tmp_path / "good.rec"
    other.write_text(SAMPLE)
    done = run("check", str(path), str(other))
    assert done.returncode == 1
    errors = done.stderr.splitlines()
    assert errors == [
        f"boardlab: {path}: line 19, column 34: illegal move 'c3': c3 is occupied",
        f"boardlab: {path}: line 32, column 8: bad size '3': robble boards are 4..19",
        f"boardlab: {path}: line 50, column 1: text after the result: 'junk' (the result "
        "ends the game; another game starts with its tags)",
        f"boardlab: {path}: 3 errors (3 games OK)",
    ]
    assert done.stdout == f"{other}: 1 game OK\n"


def test_check_and_replay_read_gzip_and_a_byte_order_mark(tmp_path):
    import gzip

    packed = tmp_path / "match.rec.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as fh:  # one member a game, like match
        fh.write(SAMPLE)
    with gzip.open(packed, "at", encoding="utf-8") as fh:
        fh.write("\n" + SAMPLE.replace("Ann", "Cy"))
    done = run("check", str(packed))
    assert done.returncode == 0 and done.stdout == f"{packed}: 2 games OK\n", done.stderr
    done = run("replay", str(packed), "--game", "2", "--no-color")
    assert done.returncode == 0 and "black Cy" in done.stdout
    cut = tmp_path / "cut.rec.gz"
    cut.write_bytes(packed.read_bytes()[:-12])
    done = run("check", str(cut))
    assert done.returncode == 1 and "damaged gzip file" in done.stderr
    bom = tmp_path / "bom.rec"
    bom.write_bytes(b"\xef\xbb\xbf" + SAMPLE.encode("utf-8"))
    done = run("check", str(bom))
    assert done.returncode == 0 and "1 game OK" in done.stdout, done.stderr
    done = run("replay", str(bom), "--no-color")
    assert done.returncode == 0 and "robble 4x4 · black Ann" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["--port", "99999"], "--port 99999: a port is 0..65535"),
    (["--port", "-1"], "--port -1: a port is 0..65535"),
    (["--db", "."], "--db .: is a directory, not a database file"),
    (["--db", "plain/x.db"], "plain is not a directory"),
])
def test_serve_rejects_bad_arguments_before_creating_anything(tmp_path, args, message):
    (tmp_path / "plain").write_text("a file, not a folder")
    done = run("serve", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.endswith(message + "\n") and done.stderr.count("\n") == 1, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]


def test_cli_docs_cover_every_command():
    from boardlab.cli import build_parser

    docs = (Path(__file__).parent.parent / "docs" / "cli.md").read_text()
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in (a.dest for a in sub._choices_actions):  # primary names (analyze is an alias)
        assert f"## {name}" in docs, name
        assert f"boardlab {name}" in docs, name
    assert "python -m boardlab.web" in docs
    assert not any("make run" in line and "demo" in line for line in docs.splitlines())


def test_rules_prints_the_page_or_says_it_is_missing():
    for name in boardlab.GAMES:
        done = run("rules", name)
        if done.returncode == 0:
            assert done.stdout.startswith(name.capitalize() + "\n")
        else:
            assert done.returncode == 1
            assert f"no rules page for {name}" in done.stderr
    done = run("rules", "robble")
    assert done.returncode == 0 and "## The rules" in done.stdout
    # the diagrams are drawn as text boards, not printed as position texts
    assert "```" not in done.stdout and "robble 5 5/5/2X2" not in done.stdout
    assert "(After Black c2: c1 removed, b2 pushed to a2, d2 flipped, c3 pushed to c4.)" in done.stdout
    assert done.stdout.count(" a b c d e") >= 4  # two boards, coordinates above and below
    assert run("rules", "go").returncode == 2


def test_help_and_demo():
    done = run("--help")
    assert done.returncode == 0
    for word in ("play", "replay", "check", "rules", "demo"):
        assert word in done.stdout
    done = run("play", "--help")
    assert done.returncode == 0
    for option in ("--size", "--no-pie", "--komi", "--black", "--white", "--no-color"):
        assert option in done.stdout
    done = run("demo", "robble", "--size", "4", "--seed", "1")
    assert done.returncode == 0 and "== robble 4x4" in done.stdout


def test_a_missing_rules_page_is_reported(monkeypatch, tmp_path, capsys):
    from boardlab import rules
    from boardlab.cli import main

    monkeypatch.setattr(rules.resources, "files", lambda package: tmp_path)
    with pytest.raises(rules.MissingRulesError, match="no rules page for yugo"):
        rules.rules_text("yugo")
    assert main(["rules", "yugo"]) == 1
    assert "no rules page for yugo" in capsys.readouterr().err


# ---------------------------------------------------------------- standard input, match output
def test_check_and_replay_read_standard_input():
    done = run("check", "-", stdin=SAMPLE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "<stdin>: 1 game OK"
    bad = SAMPLE.replace("4. a1", "4. a9")
    done = run("check", "-", stdin=bad)
    assert done.returncode == 1 and done.stderr.startswith("boardlab: <stdin>: line 9"), done.stderr
    done = run("replay", "-", "--no-color", "--ply", "1", stdin=SAMPLE)
    assert done.returncode == 0 and "robble 4x4 · black Ann, white Bo" in done.stdout, done.stderr


def test_check_reads_gzip_from_standard_input():
    import gzip

    done = subprocess.run([*COMMAND, "check", "-"], input=gzip.compress(SAMPLE.encode()),
                          capture_output=True, env=ENV, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.decode().strip() == "<stdin>: 1 game OK"


def test_match_writes_its_records_under_the_results_folder(tmp_path):
    done = run("match", "robble", "--a", "random", "--b", "random", "--games", "1", "--size", "4",
               "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["results"]  # nothing beside it
    rec = tmp_path / "results" / "match-robble-random-vs-random.rec"
    assert rec.is_file() and '[Game "robble"]' in rec.read_text()


@pytest.mark.parametrize("command", [("match", "robble", "--a", "random", "--b", "random"),
                                     ("engine", "robble")])
@pytest.mark.parametrize("bad", ["pie", "=5"])
def test_a_malformed_option_is_refused_saying_what_it_should_be(command, bad):
    """``--option`` takes KEY=VALUE in both parsers (one type, cli/args.py)."""
    done = run(*command, "--option", bad)
    assert done.returncode == 2 and f"option {bad!r} is not KEY=VALUE" in done.stderr, done.stderr
