"""A game's compiled search advice, as the one search (:mod:`boardlab.fast._search`) reads it.

Search knowledge sits *below* the search, as OpenSpiel's evaluators do: a
game's plug-in (``boardlab.games.<game>.search``) may define any of these
numba-compiled functions, for the signatures in :mod:`boardlab.fast.kernels`,
and the search calls them through a table of addresses without naming the
game:

``PRIOR(state, actions, k, out)`` (``SIG_PRIOR``)
    a score per legal action (``out[:k]``, higher is better); the search
    turns them into move priors by a softmax and orders a node's children by
    them (selection, progressive widening, ``maxkids``);
``POLICY_PLAYOUT(state, rng, record)`` (``SIG_PLAYOUT``)
    the game's informed playout, the kernel playout's contract;
    ``POLICY_ALTERNATES = True`` says that it hands the turn to the other
    color at every ply but the pie swap, as the kernel's ``ALTERNATES``
    does for any action (GRAVE then reads who played each ply off the
    record instead of replaying it; yugo's playout never marks a group, the
    only ply that keeps the turn);
``EVALUATE(state)`` (``SIG_EVALUATE``)
    a static value of a position in play for color 0, in [-1, 1] (default:
    the live score margin, where the kernel keeps live scores);

``SEARCH_STATE``
    a state of the plug-in's own for the search's tree, where the kernel's
    is slow to copy and to play on (robble's: two bitboards): a module that
    keeps the kernel contract on its own layout (:mod:`boardlab.fast.kernels`;
    the same actions, players and outcomes, checked ply by ply against the
    kernel by the plug-in's tests), plus ``applies(size)`` (the sizes it
    holds) and ``from_kernel(dst, src)`` (its state of a kernel state), and
    its own ``PRIOR``/``POLICY_PLAYOUT``/``EVALUATE`` for that layout. The
    search runs on it wherever it applies, except for an external
    evaluator, whose leaves are kernel states;

and in plain Python: ``SEARCH_SETTINGS``, the search settings the game's
knowledge is measured best with (:class:`boardlab.fast.search.Settings`
field names), ``LEVELS``, the simulation budgets of levels 1..5, and
``special(game, memo) -> action | None``, a move to play without a search
(yugo's marking of dead groups), ``memo`` a dict kept for the game.

Where a function is missing the table points at a default: a zero prior
(uniform), the kernel's uniform playout, a zero evaluation (so the search
falls back on the live score margin).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

import numpy as np
from numba import njit

from . import _loops
from .kernels import SIG_EVALUATE, SIG_PLAYOUT, SIG_PRIOR, kernel


@njit(SIG_PRIOR, cache=True)
def no_prior(state, actions, k, out):
    for j in range(k):
        out[j] = 0.0


@njit(SIG_EVALUATE, cache=True)
def no_evaluate(state):
    return 0.0


@dataclass(frozen=True)
class Advice:
    """A game's compiled advice: the address table and what it holds."""

    table: np.ndarray            # int64[9]: prior, policy, evaluate (2 each), then 3 flags
    playout: Any                 # the playout of evaluator="policy": the game's, else uniform
    has_prior: bool
    has_policy: bool
    has_evaluate: bool
    settings: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    levels: tuple[int, ...] = ()
    special: Callable[[Any, dict], int | None] | None = None
    policy_alternates: bool = False
    #: the plug-in's ``SEARCH_STATE`` module and the advice for its layout
    search_state: ModuleType | None = None
    state_advice: Advice | None = None

    def for_state(self, size: int, evaluator: str) -> tuple[ModuleType | None, Advice]:
        """The search state a search of a board of ``size`` runs on (None:
        the kernel's) and the advice for it."""
        own = self.search_state
        if own is not None and evaluator != "external" and own.applies(size):
            assert self.state_advice is not None
            return own, self.state_advice
        return None, self


_CACHE: dict[str, Advice] = {}


def plugin_module(name: str) -> ModuleType | None:
    """The game's search plug-in module, or None."""
    from ..games import plugin
    return plugin(name, "search", optional=True)


def _compiled(module: ModuleType | None, playout) -> dict[str, Any]:
    """The address table of a module's compiled advice (defaults where it
    has none; ``playout``: the uniform playout of its state) and its flags."""
    prior = getattr(module, "PRIOR", None)
    policy = getattr(module, "POLICY_PLAYOUT", None)
    evaluate = getattr(module, "EVALUATE", None)
    addrs = (_loops.function_addresses(prior or no_prior, SIG_PRIOR)
             + _loops.function_addresses(policy or playout, SIG_PLAYOUT)
             + _loops.function_addresses(evaluate or no_evaluate, SIG_EVALUATE)
             + [prior is not None, policy is not None, evaluate is not None])
    return {"table": np.array(addrs, dtype=np.int64), "playout": policy or playout,
            "has_prior": prior is not None,
            "has_policy": policy is not None, "has_evaluate": evaluate is not None,
            "policy_alternates": policy is not None and getattr(module, "POLICY_ALTERNATES", False)}


def advice(name: str) -> Advice:
    """The compiled advice of game ``name`` (built once per process)."""
    found = _CACHE.get(name)
    if found is not None:
        return found
    module = plugin_module(name)
    common: dict[str, Any] = {
        "settings": MappingProxyType(dict(getattr(module, "SEARCH_SETTINGS", {}))),
        "levels": tuple(getattr(module, "LEVELS", ())),
        "special": getattr(module, "special", None)}
    own = getattr(module, "SEARCH_STATE", None)
    state_advice = None if own is None else Advice(**_compiled(own, own.playout), **common)
    found = _CACHE[name] = Advice(**_compiled(module, kernel(name).playout), **common,
                                  search_state=own, state_advice=state_advice)
    return found
