"""The Bluff bots (registered by name in :mod:`usotsuki.bots.base`).

- :mod:`~usotsuki.bots.bluff.levels`: the levels players pick, each class its whole
  decision or its search's settings: ``cautious``, ``easy``, ``normal``, ``hard``, ``expert``.
- :mod:`~usotsuki.bots.bluff.search`: the search ``hard`` and ``expert`` decide by.
- :mod:`~usotsuki.bots.bluff.playouts`: the round played out to its challenge in many
  worlds at once, used by the searches and by the game review.
- :mod:`~usotsuki.bots.bluff.belief` and :mod:`~usotsuki.bots.bluff.calibration` (with its
  fitted data, ``calibration.json``): deals of the unseen cards weighted by the calls.
- :mod:`~usotsuki.bots.bluff.policy`: decision rules over probabilities (mixed, or fixed).
- :mod:`~usotsuki.bots.bluff.solved`: solved heads-up short-deck rounds, as a policy.
- :mod:`~usotsuki.bots.bluff.expert_v1`: the earlier search, kept for comparisons.
- :mod:`~usotsuki.bots.bluff.exploiters`: bots built to beat the levels (``x-...``).
- :mod:`~usotsuki.bots.bluff.hints`: hints for a person at the table.

The offline fitting of the calibration lives in :mod:`usotsuki.research.bluff_fit`.
"""
