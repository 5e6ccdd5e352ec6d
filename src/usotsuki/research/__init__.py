"""Research tools on top of the rules cores (numpy allowed here, never in the cores).

- :mod:`usotsuki.research.round` : one heads-up Bluff round as a two-player zero-sum game,
  its hands by rank, its chance weights and the truth of its calls, all from the core.
- :mod:`usotsuki.research.cfr` : vectorised CFR+ and exact best responses on that game.
- :mod:`usotsuki.research.evaluate` : the evaluation protocol for any policy: exact
  exploitability on the shipped solved rounds, win shares against each level with 95%
  intervals over a seeded game set.
- :mod:`usotsuki.research.batched` : N Bluff games in lockstep (numpy), checked against the
  scalar core, with the environments' observations, masks and rewards.
- :mod:`usotsuki.research.batched_liar` : the same for the Liar Game (L1-L11 and the house
  rules O1-O6; multi-card plays made of select ids, as the environments make them).
- :mod:`usotsuki.research.vector` : Gymnasium vector environments over both, in self-play.
- :mod:`usotsuki.research.baselines` : learning baselines, one command each: PSRO and
  magnetic mirror descent on the solved rounds (exact exploitability curves), PPO in
  self-play for heads-up Bluff (win shares against the levels).
"""
