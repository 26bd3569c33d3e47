"""boardlab's errors survive a process boundary. Matches, studies and the
web's engine workers run in other processes (a pool, Ray); an error raised
there is pickled back to the caller, and one that cannot be rebuilt from its
pickle broke the whole pool instead (``IllegalMoveError`` did: BrokenProcessPool
with "missing 1 required positional argument: 'reason'")."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

import boardlab
from boardlab.cli.jsonl import QueryError
from boardlab.errors import GameOverError, IllegalMoveError, OptionError
from boardlab.records.errors import RecordError
from boardlab.web.schemas import ApiError

INSTANCES = [
    IllegalMoveError("e5", "e5 is occupied"),
    GameOverError("a1", "the game is over"),
    OptionError("robble: unknown option 'komi'"),
    RecordError("illegal move 'e5'", line=12, column=7),
    RecordError("not a move", where="moves[3]"),
    QueryError("unknown field 'maxVisit'", field="maxVisit"),
    ApiError(404, "not_found", "no game 'x'", game="x"),
]


@pytest.mark.parametrize("error", INSTANCES, ids=lambda e: type(e).__name__)
def test_an_error_pickles_back_to_itself(error: Exception) -> None:
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert str(again) == str(error)
    assert vars(again) == vars(error)  # move, reason, line, field, ...: every attribute


# Run in a process of its own: importing the whole package imports the
# optional extras too (JAX starts threads, and a test that forks later in the
# same worker could deadlock).
_FIND_UNREBUILDABLE = r"""
import importlib, inspect, json, pkgutil
import boardlab
from boardlab.errors import BoardlabError
for info in pkgutil.walk_packages(boardlab.__path__, "boardlab."):
    if info.name.endswith("__main__"):
        continue
    try:
        importlib.import_module(info.name)
    except ImportError:  # an optional extra not installed: its errors go unchecked
        continue
seen, todo = set(), [BoardlabError]
while todo:
    cls = todo.pop()
    seen.add(cls)
    todo.extend(c for c in cls.__subclasses__() if c not in seen)

def needs_more(cls):
    init = next(c.__dict__["__init__"] for c in cls.__mro__ if "__init__" in c.__dict__)
    params = list(inspect.signature(init).parameters.values())[1:]
    required = [p for p in params if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(required) > 1

def rebuilt(cls):
    return any("__reduce__" in c.__dict__ for c in cls.__mro__[:cls.__mro__.index(BoardlabError)])

print(json.dumps({"classes": len(seen),
                  "missing": sorted(c.__qualname__ for c in seen if needs_more(c) and not rebuilt(c))}))
"""


def test_every_error_can_be_rebuilt_from_its_pickle() -> None:
    """Python pickles an exception as its class, its ``args`` (the message)
    and its attributes, and rebuilds it by calling the class with the
    message alone: a class whose __init__ needs more must say how it is
    rebuilt (``__reduce__``). Every ``BoardlabError`` class is found by
    importing the whole package."""
    out = subprocess.run([sys.executable, "-c", _FIND_UNREBUILDABLE], capture_output=True,
                         text=True, timeout=300, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["classes"] >= 10  # the discovery saw the family, not just its root
    assert not found["missing"], found["missing"]


def _illegal_move_in_a_worker() -> None:
    game = boardlab.new_game("robble", 5, pie=False)
    game.play("c3")
    game.play("c3")


def test_an_illegal_move_in_a_worker_process_reaches_the_caller() -> None:
    with ProcessPoolExecutor(1) as pool:
        error = pool.submit(_illegal_move_in_a_worker).exception(timeout=120)
    assert isinstance(error, IllegalMoveError)
    assert error.move == "c3" and "c3" in error.reason
