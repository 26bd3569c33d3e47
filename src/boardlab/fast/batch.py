"""N games of one kind stepped together in compiled code (pgx-style arrays).

>>> from boardlab.fast import Batch
>>> env = Batch("robble", 4, size=5, seed=7)
>>> len(env.states), env.legal_mask.shape, env.current_player.tolist()
(4, (4, 26), [0, 0, 0, 0])
>>> env.step(env.random_actions())
>>> env.current_player.tolist(), env.terminated.tolist()
([1, 1, 1, 1], [False, False, False, False])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import BoardlabError, IllegalMoveError, OptionError
from . import _batch_loops, _loops
from ._resolve import Resolved, resolve
from ._rng import seed_rng


class Batch:
    """``n`` games of ``game`` (same size and options), each a row of ``states``.

    After construction, ``reset`` and every ``step`` the arrays describe all
    games at once:

    * ``states`` (n, L) int64: the kernels' flat states (read them; change them
      only through ``reset`` and ``step``);
    * ``legal_mask`` (n, A) bool: the legal actions (all False once a game is over);
    * ``current_player`` (n,) int64: the color index to act, -1 once over;
    * ``terminated`` (n,) bool: the game is over (with ``auto_reset``: it ended
      at this step and has already been restarted);
    * ``rewards`` (n, 2) float64: each color's return (+1 win, -1 loss, 0 draw)
      for a game that ended at this step, else 0.

    ``random_actions()`` samples one uniform legal action per game in compiled
    code, each game from its own generator (seeded ``seed + i``), so a batch's
    random games do not depend on the batch size.
    """

    def __init__(self, game: str, n: int, size: int | None = None, *, seed: int = 0,
                 auto_reset: bool = False, **options: Any) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise OptionError(f"Batch: n must be a positive integer, got {n!r}")
        if type(auto_reset) is not bool:
            raise OptionError(f"Batch: auto_reset must be bool, got {auto_reset!r}")
        self._g: Resolved = resolve(game, size, options)
        self.game = self._g.name
        self.size = self._g.size
        self.options = self._g.options
        self.n = n
        self.num_actions = self._g.num_actions
        self.auto_reset = auto_reset
        self.states = np.zeros((n, self._g.state_len), dtype=np.int64)
        self.legal_mask = np.zeros((n, self.num_actions), dtype=np.bool_)
        self.current_player = np.zeros(n, dtype=np.int64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.rewards = np.zeros((n, 2), dtype=np.float64)
        self._span = np.zeros((n, 2), dtype=np.int64)  # each mask row's bits lie in [lo, hi)
        self._ahead = np.zeros(n, dtype=np.int64)   # each game's next random action, drawn
        self._fresh = False                         # ... and not handed out yet
        self._all = np.arange(n, dtype=np.int64)
        self._rngs = np.zeros((n, 1), dtype=np.uint64)
        self._buf = np.zeros(self.num_actions, dtype=np.int64)
        self._scores = np.zeros(2, dtype=np.float64)
        self._fns = _loops.kernel_table(self._g.kernel)
        self._no_planes = _batch_loops.no_planes()
        kernel = self._g.kernel
        self._hot = kernel.hot_words(self.size) if hasattr(kernel, "hot_words") else 0
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Every game back to the start; with ``seed``, reseed the generators
        of ``random_actions`` (game i from ``seed + i``)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise OptionError(f"Batch.reset: seed must be an integer, got {seed!r}")
            for i in range(self.n):
                seed_rng(self._rngs[i], np.uint64((seed + i) & 0xFFFFFFFFFFFFFFFF))
        self.restart(self._all)
        self._fresh = True

    def restart(self, rows: np.ndarray) -> None:
        """The games in ``rows`` (an int64 array of batch indices) back to the start."""
        _batch_loops.reset(self._fns, self.states, rows, self.size, self._g.opts, self.legal_mask,
                           self.current_player, self._span, self.terminated, self.rewards,
                           self._buf, self._rngs, self._ahead)

    def step(self, actions: Any) -> None:
        """Apply ``actions[i]`` to game i, for all i at once.

        Every action is checked before any is applied: an action out of range
        or illegal raises IllegalMoveError naming the batch index, and leaves
        every game as it was. Games already over ignore their action.
        """
        acts = self._check_actions(actions)
        bad = self.try_step(acts)
        if bad >= 0:
            raise IllegalMoveError(int(acts[bad]), f"batch index {bad}: action {int(acts[bad])} "
                                   f"is not legal in that {self.game} game")

    def try_step(self, actions: np.ndarray, planes: tuple[np.ndarray, np.ndarray] | None = None
                 ) -> int:
        """``step`` without its Python-side checks, for wrappers that check
        (or word errors) themselves: ``actions`` must be a C-contiguous int64
        array of shape (n,) (any values). Applies them all if every live game's
        action is legal and returns -1; else returns the first index whose
        action is illegal or out of range, and changes nothing. ``planes``:
        ``(table, out)``, a planes function's table (``_batch_loops.planes_table``)
        and a float32 (n, C, size²) array that gets every game's planes in the
        same pass (seen by its color to act; the first color once over)."""
        pfns, obs = self._no_planes if planes is None else planes
        bad = _batch_loops.step(self._fns, pfns, self.states, actions, self.size, self._g.opts,
                                self.auto_reset, self.legal_mask, self.current_player,
                                self._span, self.terminated, self.rewards, self._buf,
                                self._scores, self._rngs, self._ahead, obs, planes is not None,
                                self._hot)
        self._fresh = self._fresh or bad < 0
        return bad

    def mask_copy(self) -> np.ndarray:
        """A new array equal to ``legal_mask``. Where the rows' bits lie in
        short spans (implo's and vimbre's rows are kilobytes with a few dozen
        set, all among the placements), only the spans are read and the rest
        is zero-filled: at 1,024 games that is 0.6 of a plain copy's time,
        whose reads of the whole masks come from memory. A row whose span is
        most of it (pilo's captures are spread over its action numbers) is
        copied whole."""
        out = np.empty_like(self.legal_mask)
        _batch_loops.copy_masks(self.legal_mask.view(np.uint8), self._span, out.view(np.uint8))
        return out

    def random_actions(self) -> np.ndarray:
        """One uniform random legal action per game ((n,) int64; -1 where over).
        Each game's is drawn from its generator when its position is reached
        (in the step's pass over the states, where the legal list is at hand);
        asked again before the next step, they are drawn anew from the masks."""
        if self._fresh:
            self._fresh = False
            return self._ahead.copy()
        out = np.empty(self.n, dtype=np.int64)
        _batch_loops.random_actions(self.legal_mask, self._rngs, out)
        return out

    def _check_actions(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != (self.n,) or acts.dtype.kind not in "iu":
            raise BoardlabError(f"Batch.step: actions must be an integer array of shape ({self.n},), "
                                f"got {acts.dtype} array of shape {acts.shape}")
        live = self.current_player >= 0
        out_of_range = live & ((acts < 0) | (acts >= self.num_actions))
        if out_of_range.any():
            i = int(np.flatnonzero(out_of_range)[0])
            raise IllegalMoveError(int(acts[i]), f"batch index {i}: action {int(acts[i])} is outside "
                                   f"0..{self.num_actions - 1}")
        return np.ascontiguousarray(acts, dtype=np.int64)
