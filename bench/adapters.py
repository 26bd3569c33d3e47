"""Steps per second of each research adapter's random loop next to the raw
Python API's, one core (CPU time of this process, so other load on the
machine distorts the figures less).

A *step* is one action applied to the game. Every loop picks a uniformly
random legal action each step, the way a user of that interface would:

* ``raw``: ``game.legal_actions()`` and ``game.apply_action()``, then
  ``game.returns()`` at the end (the result, which every adapter gives);
* ``openspiel``: ``state.legal_actions()`` and ``state.apply_action()`` on
  ``pyspiel.load_game("python_boardlab_<game>")`` (no observation asked);
* ``pettingzoo``: ``env.last()`` (observation planes + action mask), an
  action from the mask (:func:`legal_of`), ``env.step()``;
* ``gymnasium``: the agent's action from the returned mask, ``env.step()``
  (which also plays the ``random`` opponent's actions: every action counts).

All three step the compiled kernel (``_adapters.CompiledGame``), with
compiled observations; the Python game is built only when read (OpenSpiel's
``state.game``, Gymnasium's ``env.game`` and its opponents other than
``random``).

The loops take turns (``--rounds``), so a change of load on this shared
machine falls on all of them alike. The ratio columns ``x`` are raw steps/s
divided by the adapter's (the issue's bound: at most 2). ``obs numpy us`` is
one observation (planes + mask) through ``boardlab.research.tensors``, ``obs compiled
us`` the adapters' own (``_adapters.CompiledGame.observe``). The last line is each
protocol's own cost on a do-nothing game (bench/adapter_floors.py).

    python bench/adapters.py [GAME ...] [--seconds S] [--rounds R] [--size N]
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable

import numpy as np
from adapter_floors import floors_us  # bench/adapter_floors.py (same folder)

import boardlab
from boardlab.research import tensors


def legal_of(mask: np.ndarray) -> np.ndarray:
    """The legal actions of an int8 mask. Through a bool view: NumPy's
    nonzero has a fast path for bool only (implo 9x9's 6,724-entry mask:
    about 1 us instead of 18 us with ``np.flatnonzero(mask)``)."""
    return mask.view(np.bool_).nonzero()[0]


def timed(loop: Callable[[float], int], seconds: float) -> float:
    start = time.process_time()
    steps = loop(start + seconds)
    return steps / (time.process_time() - start)


def stepping_loop(env, n: int) -> Callable[[float], int]:
    """``env.step(env.random_actions())`` until the deadline, counting ``n``
    game steps a call: a ``Batch`` or a ``VectorEnv`` of ``n`` games (the
    first call, which loads the compiled code, is made before timing)."""
    env.step(env.random_actions())

    def loop(deadline: float) -> int:
        steps = 0
        while time.process_time() < deadline:
            env.step(env.random_actions())
            steps += n
        return steps
    return loop


def raw_loop(name: str, size: int, rng: random.Random) -> Callable[[float], int]:
    cls = boardlab.game_class(name)

    def loop(deadline: float) -> int:
        steps = 0
        while time.process_time() < deadline:
            game = cls(size)
            while True:
                legal = game.legal_actions()
                if not legal:
                    break
                game.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
            game.returns()  # the result, which every adapter hands out at the end
        return steps
    return loop


def openspiel_loop(name: str, size: int, rng: random.Random) -> Callable[[float], int]:
    import pyspiel

    import boardlab.research.openspiel  # noqa: F401
    return spiel_loop(pyspiel.load_game(f"python_boardlab_{name}", {"size": size}), rng)


def spiel_loop(game, rng: random.Random) -> Callable[[float], int]:
    """The random loop on an OpenSpiel game: new states played to the end by
    uniformly drawn legal actions."""

    def loop(deadline: float) -> int:
        steps = 0
        while time.process_time() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
        return steps
    return loop


def pettingzoo_loop(name: str, size: int, rng: random.Random) -> Callable[[float], int]:
    from boardlab.research import pettingzoo
    return aec_loop(pettingzoo.env(name, size=size), rng)


def aec_loop(env, rng: random.Random) -> Callable[[float], int]:
    """The random loop on a PettingZoo AEC env: ``last()``, a legal action
    from the mask, ``step()`` (``step(None)`` for an agent that is done)."""

    def loop(deadline: float) -> int:
        steps = 0
        while time.process_time() < deadline:
            env.reset()
            for _ in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = legal_of(obs["action_mask"])
                env.step(int(legal[int(rng.random() * len(legal))]))
                steps += 1
        return steps
    return loop


def gymnasium_loop(name: str, size: int, rng: random.Random) -> Callable[[float], int]:
    import gymnasium

    import boardlab.research.gymnasium  # noqa: F401
    env = gymnasium.make(f"boardlab/{name}-v0", size=size, opponent="random").unwrapped

    def loop(deadline: float) -> int:
        steps = 0
        while time.process_time() < deadline:
            obs, _ = env.reset(seed=int(rng.random() * 2**31))
            done = False
            while not done:
                legal = legal_of(obs["action_mask"])
                obs, _, terminated, truncated, _ = env.step(int(legal[int(rng.random() * len(legal))]))
                done = terminated or truncated
            steps += env.plies
        return steps
    return loop


def observe_us(name: str, size: int, rng: random.Random, count: int = 2000) -> tuple[float, float]:
    """µs of one observation (planes + int8 mask) of positions of a random
    game: with ``boardlab.research.tensors`` (NumPy) and with the adapters' compiled
    game (``_adapters.CompiledGame.observe``, as in the loops above)."""
    from boardlab.research import _adapters
    config = _adapters.spec(name, size=size)
    cg = _adapters.CompiledGame(config)
    game = config.new()
    positions = []
    while not game.is_over and len(positions) < 50:
        action = rng.choice(game.legal_actions())
        game.apply_action(action)
        cg.play(action)
        positions.append(game.copy())
    start = time.process_time()
    for i in range(count):
        position = positions[i % len(positions)]
        tensors.observe(position)
        _adapters.legal_mask(position, config.num_distinct_actions)
    numpy_us = (time.process_time() - start) / count * 1e6
    start = time.process_time()
    for _ in range(count):
        cg.observe(0)
    return numpy_us, (time.process_time() - start) / count * 1e6


def interleaved(loops: dict[str, Callable[[float], int]], seconds: float, rounds: int) -> dict[str, float]:
    """Steps per CPU second of each loop, run ``rounds`` times in turn for
    ``seconds / rounds`` each, so a change of load on the machine falls on
    every loop alike and the ratios hold better than the rates."""
    steps = dict.fromkeys(loops, 0)
    spent = dict.fromkeys(loops, 0.0)
    for _ in range(rounds):
        for key, loop in loops.items():
            start = time.process_time()
            steps[key] += loop(start + seconds / rounds)
            spent[key] += time.process_time() - start
    return {key: steps[key] / spent[key] for key in loops}


LOOPS = {"raw": raw_loop, "openspiel": openspiel_loop, "pettingzoo": pettingzoo_loop,
         "gymnasium": gymnasium_loop}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(boardlab.GAMES))
    parser.add_argument("--seconds", type=float, default=1.0, help="per game and loop")
    parser.add_argument("--rounds", type=int, default=5, help="turns the loops take (interleaved)")
    parser.add_argument("--size", type=int, default=None)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    names = [k for k in LOOPS if k != "raw"]
    print(f"{'game':7} {'size':>4} {'raw/s':>8} " + " ".join(f"{k + '/s':>12} {'x':>4}" for k in names)
          + f" {'obs numpy us':>12} {'obs compiled us':>15}")
    for name in args.games:
        size = args.size or boardlab.game_class(name).default_size
        loops = {k: make(name, size, random.Random(1)) for k, make in LOOPS.items()}
        for loop in loops.values():
            loop(time.process_time() + 0.05)  # imports, numba's cache, first games
        rates = interleaved(loops, args.seconds, args.rounds)
        cols = " ".join(f"{rates[k]:>12.0f} {rates['raw'] / rates[k]:>4.1f}" for k in names)
        numpy_us, compiled_us = observe_us(name, size, random.Random(2))
        print(f"{name:7} {size:>4} {rates['raw']:>8.0f} {cols} {numpy_us:>12.1f} {compiled_us:>15.1f}",
              flush=True)
    openspiel_us, pettingzoo_us = floors_us()
    print(f"Floors, a do-nothing game (20 actions, 40 plies) through each protocol: "
          f"OpenSpiel {openspiel_us:.1f} us a step, PettingZoo AEC {pettingzoo_us:.1f} us a step")


if __name__ == "__main__":
    main()
