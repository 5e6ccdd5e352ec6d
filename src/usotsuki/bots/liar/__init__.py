"""The Liar Game's bots: every one decides from a seat's view and ``LegalSummary`` alone.

- :mod:`~usotsuki.bots.liar.levels`: ``easy``, ``normal``, ``hard`` (a cost model over
  the moves, mixed by a Gibbs choice) and the factories of every level;
- :mod:`~usotsuki.bots.liar.search`: the ``expert`` (and ``expert-v1``, kept for
  comparisons): determinized search over the hidden cards, compiled with mypyc;
- :mod:`~usotsuki.bots.liar.belief`: the structural model of how players declare;
- :mod:`~usotsuki.bots.liar.calibrated`: the belief fitted to how the bots declare
  (``calibration.json``) and the per-opponent reads;
- :mod:`~usotsuki.bots.liar.hints`: the hint shown to a person;
- :mod:`~usotsuki.bots.liar.exploiters`: the ``x-`` players that test the levels;
- :mod:`~usotsuki.bots.liar.random_play`, :mod:`~usotsuki.bots.liar.sensible`: the
  baselines; :mod:`~usotsuki.bots.liar.common`: the moves every bot builds.

The offline fitting of the calibrated belief is :mod:`usotsuki.research.liar_fit`; the
trials behind the settings are in ``docs/experiments.md`` (Liar expert).
"""
