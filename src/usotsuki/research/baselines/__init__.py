"""Learning baselines, one command each (``docs/research.md``, "Learning baselines").

On the solved heads-up Bluff rounds (ranks 4 and 5), with exact exploitability curves:

- :mod:`~usotsuki.research.baselines.psro` : PSRO with an exact best-response oracle.
- :mod:`~usotsuki.research.baselines.mmd` : magnetic mirror descent, a regularised policy
  gradient with an R-NaD-style moving magnet.
- :mod:`~usotsuki.research.baselines.curve` : the curves they record, as JSON and PNG.

On the full game:

- :mod:`~usotsuki.research.baselines.bluff_ppo` : PPO in self-play for heads-up Bluff on
  the batched engine, evaluated against every level.
- :mod:`~usotsuki.research.baselines.mlp` : its numpy actor-critic network.
"""
