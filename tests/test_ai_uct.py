"""The plain-UCT baseline, search budgets as values (Limit) and the SPRT."""

from __future__ import annotations

import math
import time

import pytest

import boardlab
from boardlab.ai import make_agent
from boardlab.ai.limit import Limit
from boardlab.ai.match import run_match
from boardlab.ai.stats import SPRT, score_from_elo
from boardlab.ai.uct import UCTAgent
from boardlab.cli.match import report
from boardlab.errors import OptionError
from conftest import one_winning_move


# ---------------------------------------------------------------- Limit
@pytest.mark.parametrize("text, sims, secs", [
    ("500", 500, None), ("0.25s", None, 0.25), ("500+2s", 500, 2.0), ("2s+500", 500, 2.0),
    (" 10 ", 10, None),
])
def test_limit_parses_and_prints_back(text, sims, secs):
    limit = Limit.parse(text)
    assert (limit.simulations, limit.seconds) == (sims, secs)
    assert Limit.parse(str(limit)) == limit


@pytest.mark.parametrize("text, says", [
    ("", "empty budget"), ("0", "simulations must be"), ("0s", "positive"),
    ("1e9s", "not a number of seconds"), ("abc", "not a number of simulations"),
    ("5+6", "simulations twice"), ("1s+2s", "seconds twice"), ("nans", "not a number"),
    ("9" * 5000, "not a number of simulations"), ("100000s", "seconds must be in"),
])
def test_bad_limits_say_what_is_wrong(text, says):
    with pytest.raises(OptionError, match=says):
        Limit.parse(text)


def test_a_limit_needs_something():
    with pytest.raises(OptionError):
        Limit()
    with pytest.raises(OptionError):
        Limit(simulations=True)


def test_a_search_keeps_a_reserve_on_a_running_clock_only():
    """On the wall clock an agent's search stops short of the move's time
    (what follows it still runs on that clock); on the search thread's CPU
    clock, the clock of matches at equal work, it gets the whole budget, as
    ``uct`` does."""
    from boardlab.ai.limit import RESERVE
    move = Limit(500, 2.0)
    wall = move.for_search(time.perf_counter)
    assert wall.simulations == 500 and wall.seconds == pytest.approx(2.0 * (1 - RESERVE))
    assert wall.seconds < move.seconds
    assert move.for_search(time.thread_time) == move
    assert Limit(300).for_search(time.perf_counter) == Limit(300)


# ---------------------------------------------------------------- uct
@pytest.mark.parametrize("name", boardlab.GAMES)
def test_uct_plays_legal_moves_to_the_end_in_every_game(name):
    game = boardlab.new_game(name, size=4)
    agent = make_agent("uct:30", seed=3)
    while not game.is_over:
        move = agent.choose(game)
        assert move in game.legal_moves()
        game.play(move)
    assert game.outcome is not None


def test_uct_with_a_simulation_budget_replays_exactly():
    game = boardlab.new_game("robble", size=5)
    first = [make_agent("uct:80", seed=7).choose(game) for _ in range(2)]
    assert first[0] == first[1]
    agent = make_agent("uct:80", seed=7)
    agent.choose(game)
    assert agent.simulations == 80


class StepClock:
    """A clock that moves ``step`` seconds at every reading: a seconds budget
    checked against it is exact, whatever the machine's load."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.readings = 0.0, step, []

    def __call__(self) -> float:
        self.now += self.step
        self.readings.append(self.now)
        return self.now


def test_uct_stops_at_the_first_clock_reading_past_its_budget():
    # (how long a real search overshoots is measured by bench/time_budget.py)
    game = boardlab.new_game("yugo", size=9)
    agent = UCTAgent(Limit(seconds=0.2), seed=1)
    agent.clock = clock = StepClock(0.01)
    assert agent.choose(game) in game.legal_moves()
    deadline = clock.readings[0] + 0.2
    assert clock.readings[-1] >= deadline
    assert all(t < deadline for t in clock.readings[:-1])
    assert agent.simulations >= 1


def test_uct_finds_the_only_winning_move():
    game, win = one_winning_move("vimbre", 5, seed=4)
    assert make_agent("uct:3000", seed=1).choose(game) == win


def test_uct_beats_random():
    match = run_match("robble", "uct:100", "random", 6, size=5, seed=1)
    assert match.elo.wins >= 5


def test_uct_names_and_errors():
    assert make_agent("uct", seed=1).name == "uct"
    assert make_agent("uct:0.5s").limit == Limit(seconds=0.5)
    with pytest.raises(OptionError, match="budget"):
        make_agent("uct:-3")


# ---------------------------------------------------------------- SPRT
def test_sprt_llr_equals_the_binomial_ratio_without_draws():
    test = SPRT(0, 100)
    s0, s1 = score_from_elo(0), score_from_elo(100)
    exact = 60 * math.log(s1 / s0) + 40 * math.log((1 - s1) / (1 - s0))
    assert test.llr(60, 40, 0) == pytest.approx(exact, abs=0.01)


def test_sprt_decides_both_ways_and_waits_when_unclear():
    test = SPRT(0, 100)
    assert test.status(30, 0, 0) == "H1"
    assert test.status(50, 50, 0) == "H0"
    assert test.status(6, 4, 0) == "continue"
    assert test.llr(0, 0, 0) == 0.0


@pytest.mark.parametrize("bad", ["5", "100,0", "a,b", "0,100,0.7,0.05", "0,inf"])
def test_sprt_refuses_nonsense(bad):
    with pytest.raises(ValueError):
        SPRT.parse(bad)


def test_a_match_with_sprt_stops_when_decided():
    match = run_match("robble", "uct:60", "random", 40, size=4, seed=2, sprt=SPRT(0, 300))
    assert match.sprt_status == "H1"
    assert match.elo.games < 40
    assert "H1 accepted" in report(match)
