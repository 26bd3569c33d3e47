"""The research adapters, in one package: the games as others' APIs speak them.

* :mod:`.openspiel`: ``import boardlab.research.openspiel`` registers
  ``python_boardlab_<game>`` with OpenSpiel (extra ``[openspiel]``);
* :mod:`.pettingzoo`: AEC environments (extra ``[pettingzoo]``);
* :mod:`.gymnasium`: ``boardlab/<game>-v0``, one agent against an engine
  (extra ``[gymnasium]``);
* :mod:`.vector`: :class:`~.vector.VectorEnv`, a batch of games stepped in
  compiled code (needs only boardlab's own dependencies);
* :mod:`.tensors`: observation planes and board symmetries (numpy);
* ``_adapters``: what the adapters share (options, length cap, the compiled game).

Nothing is imported here: each module needs its own optional library, so
importing the package costs nothing and needs none of them (docs/research.md).
"""
