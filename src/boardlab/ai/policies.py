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

``random`` (uniform over the legal actions) is every game's; a game adds
its own in its search plug-in (``boardlab.games.<game>_search``, see
:mod:`boardlab.ai.advice`), and names there the one ``auto`` means. The
helpers :func:`play_out` and :func:`unfinished_returns` are for those.
"""

from __future__ import annotations

from collections.abc import Callable

from .advice import advice_for

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


#: The policies every game has (a game adds its own: :mod:`boardlab.ai.advice`).
POLICIES: dict[str, Callable] = {"random": random_playout}


def policies_for(game) -> dict[str, Callable]:
    """Every playout policy ``game`` (a game, class or name) can use, by name."""
    return {**POLICIES, **advice_for(game).playouts}


def policy_names() -> set[str]:
    """The names of every game's playout policies (an engine spec may name
    one before it knows its game; :func:`policy_for` then checks the game)."""
    import boardlab
    return {name for g in boardlab.GAMES for name in policies_for(g)}


def policy_for(game, name: str = "auto") -> Callable:
    """The playout policy ``name`` of ``game`` (a game, class or name);
    ``auto`` is the game's default (:mod:`boardlab.ai.advice`)."""
    advice = advice_for(game)
    if name == "auto":
        name = advice.default_playout
    known = policies_for(game)
    try:
        return known[name]
    except KeyError:
        label = game if isinstance(game, str) else game.name
        raise ValueError(f"unknown playout policy {name!r} for {label} "
                         f"(known: {', '.join(sorted(known))}, auto)") from None
