"""Playout policies: play a copied game to the end and return each color's return.

A policy is ``policy(game, rng, deadline, clock, max_plies) -> list[float] | None``.
It plays on ``game`` (a private copy made with ``copy(history=False)``, which
it may ruin), returns ``game.returns()`` at the end (+1 win, -1 loss, 0 draw per
color index), ``[0.0, 0.0]`` when ``max_plies`` is reached first (an unfinished
game counts as a draw), or ``None`` when ``clock()`` passes ``deadline`` (the
search then throws the iteration away, which is how time limits are kept even
when one playout is long).

For speed the policies use the games' search fast path (``step_actions`` /
``step``: :class:`boardlab.core.game.Game`), which is ``apply_action`` minus
its checks and undo bookkeeping; every action they play comes from
``step_actions`` or, for vimbre, from the engine's single-stone legality
(``Vimbre.single_points``, see :func:`vimbre_pairs`).
tests/test_ai_policies.py replays playouts through the checked public API.

Policies (``POLICIES``):

* ``random``: uniform over the legal actions (every game).
* ``yugo``: uniform during play; at the end it proposes no removal (``done``)
  and accepts, so a playout is scored on the board as it stands. Not the
  default: it lost a match to uniform playouts (3-9 at 50 simulations a move,
  docs/ai.md), whose random rejections make play go on until the board is
  more settled.
* ``implo``: uniform, except that a choice among resolutions takes the one
  after which the mover's marker-score lead is largest (ties at random). Not
  the default: its playouts are 4.3x slower and it did not win significantly
  even at equal simulations (15-9 at 100 a move, docs/ai.md).
* ``vimbre``: two random legal single-stone points per turn (a pair), never a
  flip unless nothing else is legal. It never builds vimbre's full move list
  (~3,500 actions mid-game, most of the cost of a uniform playout), so it is
  about ten times faster.
"""

from __future__ import annotations

from collections.abc import Callable

Returns = list


def random_playout(game, rng, deadline, clock, max_plies) -> Returns | None:
    legal_fn = game.step_actions
    apply = game.step
    rand = rng.random
    if deadline is None:
        for _ in range(max_plies):
            legal = legal_fn()
            if not legal:
                return game.returns()
            apply(legal[int(rand() * len(legal))])
    else:
        for _ in range(max_plies):
            legal = legal_fn()
            if not legal:
                return game.returns()
            apply(legal[int(rand() * len(legal))])
            if clock() > deadline:
                return None
    return unfinished_returns(game)


def yugo_playout(game, rng, deadline, clock, max_plies) -> Returns | None:
    n = game.n_points
    done = 3 * n + 2
    accept = 3 * n + 3
    rand = rng.random

    def choose(legal: list[int]) -> int:
        last = legal[-1]
        if last == done:          # marking phase: propose no removal
            return done
        if last == accept + 1:    # [accept, reject]
            return accept
        return legal[int(rand() * len(legal))]

    return play_out(game, choose, deadline, clock, max_plies)


def play_out(game, choose: Callable[[list[int]], int], deadline, clock,
             max_plies) -> Returns | None:
    """The playout loop of the policies that pick one action from the legal
    list each ply (``choose(legal)``). ``random_playout`` keeps its own copy
    of this loop, without the call per ply: it is the default's hot path."""
    legal_fn = game.step_actions
    apply = game.step
    for _ in range(max_plies):
        legal = legal_fn()
        if not legal:
            return game.returns()
        apply(choose(legal))
        if deadline is not None and clock() > deadline:
            return None
    return unfinished_returns(game)


def unfinished_returns(game) -> Returns:
    """The returns when the ply cap is reached: the real ones if the last ply
    happened to end the game, else a draw."""
    if game.current_player is None:
        return game.returns()
    return [0.0, 0.0]


def vimbre_pairs(game, rng) -> int:
    """A random action of the ``vimbre`` policy for the color to move.

    Uses the engine's single-stone legality (``single_points``). Two
    points that are not diagonal neighbours can always be played together when
    each is legal alone (orthogonal neighbours included: a new orthogonal
    neighbour never breaks the diagonal rule); diagonal neighbours are skipped
    (the single stone is played instead). No legal single: the full move list
    (flips, pairs that need each other, pass)."""
    s = game.size
    singles = game.single_points(game.current_player)
    k = len(singles)
    if not k:
        legal = game.step_actions()
        return legal[int(rng.random() * len(legal))]
    rand = rng.random
    ii = int(rand() * k)
    if game.first_turn or k == 1:
        return singles[ii]
    jj = int(rand() * (k - 1))
    if jj >= ii:  # a second point different from the first, uniformly
        jj += 1
    i = singles[ii]
    j = singles[jj]
    if j < i:
        i, j = j, i
    d = j - i
    if (d == s - 1 and i % s) or (d == s + 1 and i % s != s - 1):
        return i  # diagonal neighbours: keep it simple, one stone
    return game.pair_action(i, j)


def vimbre_playout(game, rng, deadline, clock, max_plies) -> Returns | None:
    apply = game.step
    for _ in range(max_plies):
        if game.current_player is None:
            return game.returns()
        apply(vimbre_pairs(game, rng))
        if deadline is not None and clock() > deadline:
            return None
    return unfinished_returns(game)


def implo_playout(game, rng, deadline, clock, max_plies) -> Returns | None:
    n = game.n_points
    rand = rng.random

    def choose(legal: list[int]) -> int:
        if len(legal) > 1 and legal[0] >= n:  # only resolutions: a choice of order
            return greedy_resolution(game, list(legal), rand)
        return legal[int(rand() * len(legal))]

    return play_out(game, choose, deadline, clock, max_plies)


def greedy_resolution(game, resolutions: list[int], rand) -> int:
    """The resolution after which the mover's marker-score lead is largest
    (ties at random): each is tried and taken back."""
    me = game.current_player
    best, best_value = resolutions[0], float("-inf")
    for action in resolutions:
        token = game.step_with_undo(action)
        scores = game.marker_scores()
        game.step_back(token)
        value = scores[me] - scores[1 - me] + 0.5 * rand()
        if value > best_value:
            best, best_value = action, value
    return best


POLICIES: dict[str, Callable] = {
    "random": random_playout,
    "implo": implo_playout,
    "yugo": yugo_playout,
    "vimbre": vimbre_playout,
}

#: The policy each game uses by default ("auto"). A game is listed here only
#: when a match showed its policy beats the uniform one (docs/ai.md).
DEFAULT_POLICY: dict[str, str] = {
    "implo": "random",
    "pilo": "random",
    "robble": "random",
    "vimbre": "vimbre",
    "yugo": "random",  # the "yugo" policy lost a match to it (docs/ai.md)
}


def policy_for(game_name: str, name: str = "auto") -> Callable:
    if name == "auto":
        name = DEFAULT_POLICY.get(game_name, "random")
    if name in ("implo", "vimbre", "yugo") and name != game_name:
        raise ValueError(f"playout policy {name!r} is for {name} only")
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown playout policy {name!r} "
                         f"(known: {', '.join(sorted(POLICIES))}, auto)") from None
