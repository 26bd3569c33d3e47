"""A learned agent: AlphaZero-style self-play on the compiled core (docs/az.md).

* :mod:`~boardlab.az.net`: the policy-value network, one definition run by
  NumPy (play) and JAX (training);
* :mod:`~boardlab.az.evaluator`: the network as the search's external
  batched evaluator;
* :mod:`~boardlab.az.gumbel`: Gumbel AlphaZero's root (sequential halving);
* :mod:`~boardlab.az.selfplay`: many games at once, one network call a round;
* :mod:`~boardlab.az.train`: replay buffer, training, checkpoints (needs the
  ``train`` extra: JAX and optax);
* :mod:`~boardlab.az.weights`: weights files, and the shipped ones.

Playing (the ``az`` engine, :mod:`boardlab.ai.az`) needs NumPy only.
"""
