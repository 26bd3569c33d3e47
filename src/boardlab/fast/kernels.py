"""The per-game compiled kernels and the contract each one keeps.

Each game's compiled rules live in ``boardlab.fast._<game>`` (e.g.
``boardlab.fast._robble``), a module of ``numba.njit(cache=True)`` functions
on one flat ``int64`` state array, the pgx way: a state is a plain NumPy row,
so N games are an ``(N, state_len)`` array and copying a state is
``state.copy()``. The pure-Python engine in ``boardlab.games.<game>`` stays
the readable reference; ``boardlab.fast.check`` plays seeded random games in
both and fails on the first difference.

Contract of a kernel module (every function nopython, ``cache=True``; "state"
is a C-contiguous ``int64[::1]``; actions are the integer actions of the
Python API, ``0 .. num_distinct_actions - 1``)::

    state_len(size) -> int                 plain Python: length of a state at this size
    encode_options(options) -> int64[::1]  plain Python: the checked, defaulted options
                                           dict (Game._check_options) as a vector
    init(state, size, opts) -> None        the initial position; state[0] == size always
    legal_actions(state, out) -> int       the legal actions ascending in out[:k]
                                           (len(out) >= num_distinct_actions); k == 0 iff over
    is_legal(state, action) -> bool        any int64 action, in range or not
    apply(state, action) -> None           a legal action (precondition: is_legal)
    current_player(state) -> int           color index to act: 0, 1, or -1 once over
    mid_turn(state) -> bool                the next action continues the mover's turn
    outcome(state, scores) -> (winner, termination)
                                           once over: winner 0/1 or 2 for a draw;
                                           termination an index into TERMINATIONS;
                                           scores[0..1] the final scores (NaN where
                                           the game keeps none)
    live_scores(state, out) -> bool        scores shown during play (Game._live_scores);
                                           False where there are none now
    playout(state, rng, record) -> int     uniform random actions until over, from
                                           this state (mutated); if len(record) > 0 the
                                           actions are written there (it raises if the game
                                           is longer than record); returns the plies played

    copy_state(dst, src) -> None           optional: dst made to play on as src does, copying
                                           only the words the kernel reads (the rest of dst
                                           may hold anything); default a whole copy. A search
                                           restarts from its root state every simulation, and
                                           a row is mostly history capacity (robble: 18 KB,
                                           of which a 7x7 game reads a tenth)

    position_key(state) -> int             optional: a nonzero 64-bit hash of what decides the
                                           game from here on (the position, the mover, the pie
                                           and pass state; not a repetition history): equal
                                           positions reached by different move orders get the
                                           same key, so a search may share one node between
                                           them (``transpose``); default none (0)

    ALTERNATES: bool                       optional, default False: every action hands the
                                           turn to the other color, except the pie swap (after
                                           which the same color index moves on), so a playout's
                                           record alone says who played each ply (GRAVE reads
                                           it; without it, GRAVE replays each playout's record
                                           on a copy of its start to learn the movers)
    TERMINATIONS: tuple[str, ...]          Termination values, by the codes outcome() returns
    HAS_SCORES: bool                       whether Outcome.scores is a dict (else None)
    hot_words(size) -> int                 optional, plain Python: how many leading words
                                           of a state batched stepping should ask to be
                                           fetched ahead (fast/_batch_loops.py); default
                                           none. Worth it only where a step is slow and
                                           reads most of its row (vimbre): for a quick step
                                           the fetch's extra lines cost more than they save

``rng`` is a ``boardlab.fast._rng`` state. A playout must be deterministic for
a given (state, rng) but may pick among the legal actions in any order.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from numba import types

from .. import game_class
from ..errors import OptionError

# The contract's signatures as numba types. A kernel may compile its functions
# eagerly for them (``@njit(SIG_APPLY, cache=True)``); the generic compiled loops
# in ``boardlab.fast`` take kernels as ``types.FunctionType(SIG_...)`` arguments,
# the one form of function argument that numba's on-disk cache can store.
STATE = types.Array(types.int64, 1, "C")
F64 = types.Array(types.float64, 1, "C")
RNG = types.Array(types.uint64, 1, "C")
SIG_INIT = types.none(STATE, types.int64, STATE)
SIG_LEGAL_ACTIONS = types.int64(STATE, STATE)
SIG_IS_LEGAL = types.boolean(STATE, types.int64)
SIG_APPLY = types.none(STATE, types.int64)
SIG_CURRENT_PLAYER = types.int64(STATE)
SIG_MID_TURN = types.boolean(STATE)
SIG_OUTCOME = types.UniTuple(types.int64, 2)(STATE, F64)
SIG_LIVE_SCORES = types.boolean(STATE, F64)
SIG_PLAYOUT = types.int64(STATE, RNG, STATE)
SIG_COPY_STATE = types.none(STATE, STATE)
SIG_POSITION_KEY = types.int64(STATE)
# The search advice a game's plug-in may compile (boardlab.fast.advice):
SIG_PRIOR = types.none(STATE, STATE, types.int64, F64)
SIG_EVALUATE = types.float64(STATE)

_LOADED: dict[str, ModuleType] = {}


def kernel(name: str) -> ModuleType:
    """The compiled kernel module of a game (imported, so compiled or loaded
    from numba's cache, on first use)."""
    cls = game_class(name)  # OptionError for an unknown game
    mod = _LOADED.get(cls.name)
    if mod is None:
        try:
            mod = importlib.import_module(f"boardlab.fast._{cls.name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"boardlab.fast._{cls.name}":
                raise
            raise OptionError(f"{cls.name}: no compiled core yet") from None
        _LOADED[cls.name] = mod
    return mod
